// Two designs side by side (web/js/compare.js): "Pin as A" keeps a cell's inputs and result, the next run is B, and
// the cell shows A, B, B − A and (B − A)/A for each headline output, draws A beside B on its main chart (summary and
// table view name both), and keeps A in the URL: the copied link, opened in a fresh browser, runs both again and
// shows the same numbers; the embed snippet carries A too. "Clear A" removes it all. In English (queues) and
// Vietnamese (llm), axe-clean; an A that computes on a data file (request) waits for its button as B does.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { new_page, open, with_site, set_param_and_wait, axe_violations, screenshot } from './helpers.mjs';

/** A number as the page prints it: "1,280" and "−4.5e-6" (en), "38,12" and "5.713" (vi); null for "—". */
function parse_number(text, lang) {
  const plain = text.replace(/[%\s]/g, '').replace(/−/g, '-').replace(/^\+/, '');
  if (plain === '—' || plain === '…') return null;
  const [mantissa, exponent] = plain.split('e');
  const digits = lang === 'vi' ? mantissa.replace(/\./g, '').replace(',', '.') : mantissa.replace(/,/g, '');
  return Number(digits) * 10 ** Number(exponent ?? 0);
}

/** Half a unit in the last of the 4 significant digits the page prints: how far a printed number is from its value. */
const rounding = (x) => (x === 0 ? 0 : 0.5 * 10 ** (Math.floor(Math.log10(Math.abs(x))) - 3));

/** The comparison table of a cell: per headline output, each column's text and full value (data-value). */
function comparison(page, cell) {
  return page.$$eval(`${cell} .sl-compare-table tbody tr`, (rows) => rows.map((row) => ({
    key: row.dataset.key,
    ...Object.fromEntries([...row.querySelectorAll('td')].map((td) => [td.dataset.design,
      { text: td.textContent, value: td.dataset.value === undefined ? null : Number(td.dataset.value) }])),
  })));
}

/** The headline figures of a cell as printed: {output: text}. */
function headline(page, cell) {
  return page.$$eval(`${cell} .sl-headline .sl-figure`, (figures) => Object.fromEntries(figures.map((figure) =>
    [figure.dataset.key, figure.querySelector('.sl-figure-value').firstChild?.textContent ?? ''])));
}

/** Pins the cell's current design as A and waits until the comparison shows it. */
async function pin(page, cell) {
  await page.focus(`${cell} .sl-pin-a`);
  await page.keyboard.press('Enter');   // a button a keyboard reaches
  await page.waitForSelector(`${cell} .sl-compare[data-state="done"]`);
}

/**
 * Checks a comparison against the figures A and B showed: A's column is what the headline showed when it was
 * pinned, B's what it shows now, and B − A is their difference (exactly in full values, to the printed digits in text).
 */
function check_comparison(rows, a_figures, b_figures, lang) {
  assert.ok(rows.length >= 3, `${rows.length} headline rows`);
  let differing = 0;
  for (const { key, A, B, difference, relative } of rows) {
    assert.equal(A.text, a_figures[key], `${key}: A as the headline showed it when pinned`);
    assert.equal(B.text, b_figures[key], `${key}: B as the headline shows it`);
    if (A.value === null || B.value === null) continue;
    assert.equal(difference.value, B.value - A.value, `${key}: B − A of the full values`);
    const printed = parse_number(difference.text, lang);
    const of_printed = parse_number(B.text, lang) - parse_number(A.text, lang);
    assert.ok(Math.abs(printed - of_printed) <= rounding(A.value) + rounding(B.value) + rounding(difference.value) + 1e-12,
      `${key}: printed B − A ${difference.text} is ${B.text} − ${A.text}`);
    if (A.value !== 0) assert.equal(relative.value, ((B.value - A.value) / A.value) * 100, `${key}: (B − A)/A`);
    if (difference.value !== 0) differing += 1;
  }
  assert.ok(differing > 0, 'some headline output differs between A and B');
}

/** The link "Copy link" shows (its read-only field). */
async function copied_link(page, cell) {
  await page.click(`${cell} .sl-copy-link`);
  return page.inputValue(`${cell} .sl-share-output input`);
}

/** The copied link, opened in a fresh browser context of `viewport`, runs A and B again: the same rows. */
async function check_link_reproduces(browser, link, cell, rows, viewport) {
  const fresh = await new_page(browser, viewport);
  await open(fresh, link);
  assert.deepEqual(await comparison(fresh, cell), rows, 'the link reproduces A, B and the differences');
  assert.deepEqual(fresh.problems, []);
  await fresh.context().close();
}

describe('two designs side by side', () => {
  const site = with_site();

  test('queues: pin A, change λ, compare; the copied link and the embed reproduce it; Clear removes it', async () => {
    const cell = '#littles-law';
    const page = await new_page(site.browser, { width: 1280, height: 900 });
    await open(page, `${site.server.url}lab.html?lab=queues&predict=0`);
    assert.equal(await page.textContent(`${cell} .sl-pin-a`), 'Pin as A');
    assert.equal(await page.$(`${cell} .sl-compare`), null, 'no comparison before a pin');
    const a_figures = await headline(page, cell);
    await pin(page, cell);
    assert.match(await page.textContent(`${cell} .sl-compare-inputs`), /B has A's inputs/);
    assert.match(page.url(), /littles-law\.A=1/);
    assert.equal(await set_param_and_wait(page, 'lambda', '180', cell), 'done');
    const b_figures = await headline(page, cell);
    const rows = await comparison(page, cell);
    check_comparison(rows, a_figures, b_figures, 'en');
    assert.match(await page.textContent(`${cell} .sl-compare-inputs`), /Arrival rate λ: A 160, B 180/);

    // The main chart draws both: its summary states B's and A's numbers, its table view has A's rows and B's.
    const chart = `${cell} .sl-main-chart .sl-chart`;
    await page.waitForSelector(`${chart} [data-format="svg"]`, { state: 'attached' });
    const summary = await page.textContent(`${chart} .sl-chart-summary`);
    assert.match(summary, /^B: .+ A: .+/);
    assert.ok(summary.includes(b_figures.L) && summary.includes(a_figures.L), summary);
    await page.click(`${chart} .sl-chart-actions > button`);
    const designs = await page.$$eval(`${chart} .sl-chart-table tbody tr td:first-child`, (tds) => [...new Set(tds.map((td) => td.textContent))]);
    assert.deepEqual(designs, ['A', 'B']);
    assert.equal(await page.$eval(`${chart} .sl-chart-table thead th`, (th) => th.textContent), 'A/B');
    assert.deepEqual(await axe_violations(page), [], 'axe-core with a comparison');
    await screenshot(page, 'compare-queues-wide-en', { of: cell });

    // The copied link, opened in a fresh browser context, runs A and B again: the same numbers.
    const link = await copied_link(page, cell);
    assert.match(link, /littles-law\.A=1/);
    assert.match(link, /littles-law\.lambda=180/);
    await check_link_reproduces(site.browser, link, cell, rows, { width: 1280, height: 900 });

    // The embed snippet carries A as well (plain keys), and the embedded cell shows the same comparison.
    await page.click(`${cell} .sl-embed-button`);
    const snippet = await page.inputValue(`${cell} .sl-share-output textarea`);
    const src = snippet.match(/src="([^"]+)"/)[1].replace(/&amp;/g, '&');
    assert.match(src, /[?&]A=1(&|$)/);
    const embedded = await new_page(site.browser, { width: 700, height: 900 });
    await open(embedded, src);
    assert.deepEqual(await comparison(embedded, cell), rows, 'the embed reproduces A, B and the differences');
    await embedded.context().close();

    // Clear A: no comparison, no A in the URL, A's rows leave the chart's table view.
    await page.click(`${cell} .sl-clear-a`);
    await page.waitForFunction((selector) => !document.querySelector(`${selector} .sl-compare`), cell);
    await page.waitForFunction((selector) => document.querySelector(`${selector} .sl-compare-note`)?.textContent === 'A cleared.', cell);
    assert.equal(await page.evaluate(() => document.activeElement.className), 'sl-button sl-pin-a', 'the focus goes back to Pin as A');
    assert.doesNotMatch(page.url(), /littles-law\.A/);
    assert.doesNotMatch(await page.textContent(`${chart} .sl-chart-summary`), /^B: /);
    assert.equal(await page.$eval(`${chart} .sl-chart-table thead th`, (th) => th.textContent) === 'A/B', false);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  test('an A key under a parameter’s earlier name is read, and written back under its current name', async () => {
    const cell = '#littles-law';
    const page = await new_page(site.browser, { width: 1280, height: 900 });
    await open(page, `${site.server.url}lab.html?lab=queues&predict=0&littles-law.A=1&littles-law.A.qps=2000`);
    await page.waitForSelector(`${cell} .sl-compare[data-state="done"]`);
    assert.match(await page.textContent(`${cell} .sl-compare-inputs`), /Sizing: arrival rate: A 2000, B 1000/);
    const query = new URL(page.url()).searchParams;
    assert.equal(query.get('littles-law.A.sizing_per_s'), '2000');
    assert.equal(query.has('littles-law.A.qps'), false);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  test('request: an A in the URL that computes on a data file waits for its button with B, then runs', async () => {
    const cell = '#skew-parity';
    const page = await new_page(site.browser, { width: 1280, height: 900 });
    await open(page, `${site.server.url}lab.html?lab=request&predict=0&skew-parity.A=1`);
    assert.equal(await page.getAttribute(cell, 'data-state'), 'waiting');
    assert.equal(await page.getAttribute(`${cell} .sl-compare`, 'data-state'), 'waiting');
    assert.match(await page.textContent(`${cell} .sl-compare-status`), /A waits for the data file/);
    await page.click(`${cell} .sl-asset-button`);
    await page.waitForSelector(`${cell}[data-state="done"] .sl-compare[data-state="done"]`, { timeout: 60_000 });
    // A at the defaults and B at the defaults: the same C++ run twice, the same numbers.
    const rows = await comparison(page, cell);
    assert.ok(rows.length >= 3);
    for (const { key, A, B, difference } of rows) {
      assert.equal(A.value, B.value, key);
      assert.equal(difference.value, 0, key);
    }
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  test('llm in Vietnamese: Ghim làm A, change the context, compare; the link reproduces it; Bỏ A removes it', async () => {
    const cell = '#batched-decode';
    const page = await new_page(site.browser, { width: 390, height: 844 });
    await open(page, `${site.server.url}lab.html?lab=llm&predict=0&lang=vi`);
    assert.equal(await page.textContent(`${cell} .sl-pin-a`), 'Ghim làm A');
    const a_figures = await headline(page, cell);
    await pin(page, cell);
    assert.equal(await set_param_and_wait(page, 'context', '8192', cell), 'done');
    const b_figures = await headline(page, cell);
    const rows = await comparison(page, cell);
    check_comparison(rows, a_figures, b_figures, 'vi');
    assert.match(await page.textContent(`${cell} .sl-compare-title`), /Thiết kế A/);
    assert.match(await page.textContent(`${cell} .sl-compare-inputs`), /Các đầu vào khác nhau/);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `horizontal overflow of ${overflow} px at 390 px`);
    assert.deepEqual(await axe_violations(page), [], 'axe-core with a comparison, in Vietnamese');
    await screenshot(page, 'compare-llm-narrow-vi', { of: cell });

    const link = await copied_link(page, cell);
    assert.match(link, /batched-decode\.A=1/);
    await check_link_reproduces(site.browser, link, cell, rows, { width: 390, height: 844 });

    // The language switch keeps the comparison and words it again.
    await page.click('.sl-lang-button[data-lang="en"]');
    await page.waitForFunction((selector) => document.querySelector(`${selector} .sl-compare-title`)?.textContent.startsWith('Design A'), cell);
    assert.deepEqual((await comparison(page, cell)).map((row) => row.difference.value), rows.map((row) => row.difference.value));
    await page.click('.sl-lang-button[data-lang="vi"]');
    await page.waitForFunction((selector) => document.querySelector(`${selector} .sl-clear-a`)?.textContent === 'Bỏ A', cell);
    await page.click(`${cell} .sl-clear-a`);
    await page.waitForFunction((selector) => !document.querySelector(`${selector} .sl-compare`), cell);
    await page.waitForFunction((selector) => document.querySelector(`${selector} .sl-compare-note`)?.textContent === 'Đã bỏ A.', cell);
    assert.doesNotMatch(page.url(), /batched-decode\.A/);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
});
