// Assignment links (issue 34): a teacher builds, from the lab page, a link that sets a parameter, locks one, hides
// another, hides a cell and picks a challenge; the student's page (and an embed of it on another origin) shows
// exactly that, the host page receives the cell's serving-lab:challenge messages, progress survives a reload,
// downloads as JSON and CSV and clears. A damaged link is refused whole with one message.
//   node --test tests/e2e/assignment.spec.mjs   (after the wasm and site builds)
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { axe_violations, course_page_with, new_context, new_page, next_run, open, reveal, runs_of, screenshot, with_site } from './helpers.mjs';

const CELL = '#littles-law';
const ITEM = `${CELL} [data-challenge="mean-50ms"]`;
const SETTLED = ['solved', 'unsolved', 'not-extreme', 'given', 'interrupted'];

async function move(page_or_frame, name, text) {
  const before = await runs_of(page_or_frame, CELL);
  await reveal(page_or_frame, `${CELL} [name="${name}"]`);
  await page_or_frame.fill(`${CELL} [name="${name}"]`, text);
  await page_or_frame.press(`${CELL} [name="${name}"]`, 'Enter');
  await next_run(page_or_frame, before, CELL);
  await page_or_frame.waitForFunction(([selector, states]) => states.includes(document.querySelector(selector)?.dataset.check),
    [ITEM, SETTLED], { timeout: 30_000 });
  return page_or_frame.getAttribute(ITEM, 'data-check');
}

/** A course page on another origin embedding the snippet, recording every message it receives. */
function course_page(snippet) {
  return course_page_with(snippet.replace('<iframe ', '<iframe id="lab" '));
}

describe('assignment links', () => {
  const site = with_site();
  const made = { link: '', snippet: '' };

  test('the teacher makes a link from the page: current values, a locked and a hidden parameter, a hidden cell, one challenge', async () => {
    const page = await new_page(site.browser, { width: 1100, height: 900 });
    await open(page, `${site.server.url}lab.html?lab=queues&littles-law.lambda=170`);
    await page.waitForSelector('.sl-assign-open');
    assert.equal(await page.$$eval('.sl-challenges', (panels) => panels.length), 3, 'every challenge of the lab, without an assignment');
    assert.deepEqual(await axe_violations(page), [], 'a lab page with its challenge panels and progress');
    await page.click('.sl-assign-open');
    const dialog = '.sl-assign-dialog';
    await page.waitForSelector(`${dialog}[open]`);
    const cell = `${dialog} fieldset[data-cell="queues/littles-law"]`;
    await page.click(`${cell} details.sl-assign-params > summary`);
    await page.check(`${cell} input[data-what="lock"][data-name="mu"]`);
    await page.check(`${cell} input[data-what="hide"][data-name="n"]`);
    await page.check(`${cell} input[data-what="pick"][data-name="mean-50ms"]`);
    await page.check(`${dialog} fieldset[data-cell="queues/mm1-md1"] input[data-what="cell"]`);
    assert.deepEqual(await axe_violations(page), []);
    await screenshot(page, 'assign-dialog');
    await page.click(`${dialog} .sl-assign-make`);
    made.link = await page.inputValue(`${dialog} .sl-assign-link`);
    made.snippet = await page.inputValue(`${dialog} .sl-assign-embed`);
    assert.match(made.link, /lab\.html\?lab=queues&assign=[A-Za-z0-9_-]+$/);
    assert.match(made.snippet, /^<iframe src="[^"]+cell=littles-law&amp;embed=1&amp;assign=[A-Za-z0-9_-]+"/);
    assert.equal((made.snippet.match(/<iframe /g) || []).length, 1, 'one iframe: one cell has a picked challenge');
    await page.click(`${dialog} .sl-assign-close`);
    assert.equal(await page.$(`${dialog}`), null);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  test('the student\'s page: set, locked, hidden and picked as assigned; progress survives a reload, downloads and clears', async () => {
    const page = await new_page(site.browser, { width: 1100, height: 900 });
    await open(page, made.link);
    assert.equal(await page.$('#mm1-md1'), null, 'the hidden cell is not on the page');
    assert.equal(await page.inputValue(`${CELL} [name="lambda"]`), '170', 'the teacher\'s value');
    assert.ok(await page.isDisabled(`${CELL} [name="mu"]`), 'the locked parameter is disabled');
    assert.match(await page.textContent(`${CELL} [data-param="mu"] .sl-locked-note`), /Set by your teacher/);
    assert.ok(await page.$eval(`${CELL} [data-param="n"]`, (field) => field.hidden), 'the hidden parameter is not shown');
    assert.equal(await page.$$eval('[data-challenge]', (items) => items.length), 1, 'only the picked challenge');
    assert.match(await page.textContent('.sl-assign-note'), /assignment/);
    assert.equal(await move(page, 'lambda', '150'), 'unsolved');
    assert.equal(await move(page, 'lambda', '182'), 'solved');
    assert.deepEqual(await axe_violations(page), []);
    await page.reload();
    await page.waitForSelector(`${ITEM}[data-progress="solved"]`, { timeout: 45_000 });
    assert.ok(await page.isDisabled(`${CELL} [name="mu"]`), 'still locked after the reload');
    assert.match(await page.textContent('.sl-mine-summary'), /^1 of \d+ challenges on this lab solved/);
    const [json] = await Promise.all([page.waitForEvent('download'), page.click('.sl-mine-json')]);
    const saved = JSON.parse(await readFile(await json.path(), 'utf8'));
    assert.equal(saved.lab, 'queues');
    assert.deepEqual(saved.progress.map((row) => [row.cell, row.challenge, row.state]), [['queues/littles-law', 'mean-50ms', 'solved']]);
    assert.equal(saved.progress[0].values.lambda, 182);
    const [csv] = await Promise.all([page.waitForEvent('download'), page.click('.sl-mine-csv')]);
    const lines = (await readFile(await csv.path(), 'utf8')).trim().split('\r\n');
    assert.equal(lines[0], 'lab,cell,challenge,state,at,values');
    assert.match(lines[1], /^queues,queues\/littles-law,mean-50ms,solved,/);
    await page.click('.sl-mine-clear');
    assert.equal(await page.getAttribute(ITEM, 'data-progress'), '');
    assert.match(await page.textContent('.sl-mine-summary'), /^0 of/);
    await page.reload();
    await page.waitForSelector(ITEM, { timeout: 45_000 });
    assert.equal(await page.getAttribute(ITEM, 'data-progress'), '', 'still cleared after a reload');
    assert.equal(await page.evaluate(() => localStorage.getItem('serving-lab:challenges:v1')), null);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  for (const [width, lang] of [[1100, 'en'], [390, 'vi']]) {
    test(`the student's page at ${width} px in ${lang}: no overflow, axe clean`, async () => {
      const page = await new_page(site.browser, { width, height: 900 });
      await page.goto(`${made.link}${lang === 'vi' ? '&lang=vi' : ''}`);
      await page.waitForSelector(`${ITEM}[data-check]`, { timeout: 45_000 });
      await page.waitForSelector('.sl-mine-summary');
      if (lang === 'vi') assert.match(await page.textContent(`${CELL} [data-param="mu"] .sl-locked-note`), /giáo viên/);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `horizontal overflow of ${overflow} px`);
      await screenshot(page, `assignment-${width}-${lang}`, { of: CELL });
      assert.deepEqual(await axe_violations(page), []);
      await page.context().close();
    });
  }

  test('embedded on another origin: locked and hidden as assigned, and the host page receives serving-lab:challenge', async () => {
    const course = await course_page(made.snippet);
    try {
      const context = await new_context(site.browser, { width: 900, height: 900 });
      const page = await context.newPage();
      await page.goto(course.url);
      const frame = page.frames().find((f) => f.url().includes('embed=1')) ?? (await (await page.waitForSelector('#lab')).contentFrame());
      await frame.waitForSelector(`${ITEM}[data-check]`, { timeout: 45_000 });
      assert.ok(await frame.isDisabled(`${CELL} [name="mu"]`), 'locked in the embed');
      assert.ok(await frame.$eval(`${CELL} [data-param="n"]`, (field) => field.hidden), 'hidden in the embed');
      assert.equal(await move(frame, 'lambda', '150'), 'unsolved');
      assert.equal(await move(frame, 'lambda', '182'), 'solved');
      await page.waitForFunction(() => window.messages.some((m) => m?.type === 'serving-lab:challenge' && m.state === 'solved'));
      const messages = await page.evaluate(() => window.messages.filter((m) => m?.type === 'serving-lab:challenge'));
      const attempted = messages.find((m) => m.state === 'attempted');
      const solved = messages.find((m) => m.state === 'solved');
      assert.deepEqual([attempted.cell, attempted.challenge, attempted.values.lambda, attempted.values.mu], ['queues/littles-law', 'mean-50ms', 150, 200]);
      assert.ok(attempted.values.W_closed_form_ms < 50, 'attempted: the output it checked, below the target');
      assert.deepEqual([solved.cell, solved.challenge, solved.values.lambda], ['queues/littles-law', 'mean-50ms', 182]);
      assert.ok(solved.values.W_closed_form_ms >= 50);
      await context.close();
    } finally {
      await course.stop();
    }
  });

  test('a damaged or foreign assignment is refused whole, with one message, and the lab opens as usual', async () => {
    const page = await new_page(site.browser, { width: 1100, height: 900 });
    const foreign = Buffer.from(JSON.stringify({ v: 1, c: { 'not-a-cell': { l: ['mu'] } } })).toString('base64url');
    for (const code of ['%%%', 'x'.repeat(5000), foreign]) {
      await page.goto(`${site.server.url}lab.html?lab=queues&cell=littles-law&embed=1&assign=${code}`);
      await page.waitForSelector(`${CELL}[data-state="done"]`, { timeout: 45_000 });
      assert.equal(await page.$$eval('.sl-assign-refused', (notes) => notes.length), 1);
      assert.ok(!(await page.isDisabled(`${CELL} [name="mu"]`)), 'nothing locked');
    }
    await page.context().close();
  });
});
