// Checked challenges (issue 34): every challenge of every lab file is solved once through the real page, by moving
// the cell's controls to an answer, then left by moving them away (not solved); one challenge per lab again in
// Vietnamese. The page checks C++'s outputs (a search's neighbour too, run in the cell's worker): the answers below
// are inputs, not outputs. Each cell opens alone (its embed view) to keep the suite short. Also: the predict-then-run
// prompt compares the guess with the result when a run ends.
//   node --test tests/e2e/challenges.spec.mjs   (after the wasm and site builds)
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { load_labs } from '../../scripts/labs/load.mjs';
import { axe_violations, new_context, new_page, next_run, reveal, runs_of, screenshot, tab_of, with_site } from './helpers.mjs';

// For each challenge: the inputs that answer it (what the question states first), and a value of the searched
// parameter away from the answer, with the state the page should then show.
const ANSWERS = {
  'queues/littles-law/mean-50ms': { solve: { lambda: '182' }, away: { lambda: '150' }, away_state: 'unsolved' },
  'queues/utilization-fallacies/p99-10x': { solve: { rho_low: '0.55' }, away: { rho_low: '0.4' }, away_state: 'unsolved' },
  'queues/capacity-plan/ten-gpus': { solve: { peak_per_s: '740' }, away: { peak_per_s: '600' }, away_state: 'not-extreme' },
  'batching/fixed-window/window-20ms': { solve: { lambda: '160', window_ms: '24' }, away: { window_ms: '10' }, away_state: 'not-extreme' },
  'batching/batching-tax/batch-30ms': { solve: { batch: '16' }, away: { batch: '20' }, away_state: 'unsolved' },
  'batching/phone-pipeline/decode-24fps': { solve: { decode_ms: '23' }, away: { decode_ms: '15' }, away_state: 'not-extreme' },
  'llm/fleet/replicas-60': { solve: { lambda: '60', replicas: '4' }, away: { replicas: '3' }, away_state: 'unsolved', typed: true },
  'llm/energy/joule-per-token': { solve: { concurrent: '157' }, away: { concurrent: '114' }, away_state: 'unsolved' },
  'llm/llama3-8b-case/prompt-100ms': { solve: { prompt: '2250' }, away: { prompt: '1500' }, away_state: 'not-extreme' },
  'request/latency-budget/amdahl-6ms': { solve: { speedup_k: '5.7' }, away: { speedup_k: '3' }, away_state: 'unsolved' },
  'request/pipelining/workers-190': { solve: { pre_ms: '20', workers: '4' }, away: { workers: '3' }, away_state: 'unsolved' },
  'request/cost/batch-cost': { solve: { b_latency_ms: '13.8' }, away: { b_latency_ms: '12' }, away_state: 'not-extreme' },
};
// The challenge of each lab also checked in Vietnamese.
const IN_VIETNAMESE = ['queues/littles-law/mean-50ms', 'batching/fixed-window/window-20ms', 'llm/energy/joule-per-token',
  'request/latency-budget/amdahl-6ms'];
const SETTLED = ['solved', 'unsolved', 'not-extreme', 'given', 'answer-needed', 'answer-off', 'interrupted'];

const cells = (await load_labs()).flatMap((lab) => lab.cells);
const challenges = cells.flatMap((cell) => (cell.challenges || []).map((challenge) => ({ cell, challenge, key: `${cell.id}/${challenge.id}` })));

/** The number as a reader of `lang` types it (Vietnamese: a decimal comma). */
const typed = (text, lang) => (lang === 'vi' ? text.replace('.', ',') : text);

/** Types a value into a parameter's field and submits it; waits for that run and for the challenge's check. */
async function move(page, cell, item, name, text, lang) {
  const before = await runs_of(page, cell);
  const field = `${cell} [name="${name}"]`;
  await reveal(page, field);
  await page.fill(field, typed(text, lang));
  await page.press(field, 'Enter');
  assert.equal(await next_run(page, before, cell), 'done', `${name} = ${text} ran`);
  return settled(page, item);
}

async function settled(page, item) {
  await page.waitForFunction(([selector, states]) => states.includes(document.querySelector(selector)?.dataset.check),
    [item, SETTLED], { timeout: 30_000 });
  return page.getAttribute(item, 'data-check');
}

/** The number an output shows in "All outputs" (the reader reads it there to answer a typed question). */
async function shown_number(page, cell, output, lang) {
  await reveal(page, `${cell} .sl-outputs tr[data-key="${output}"]`);
  const text = await page.textContent(`${cell} .sl-outputs tr[data-key="${output}"] td`);
  const digits = text.replace(/[^0-9.,-]/g, '');
  return lang === 'vi' ? digits.replace(/\./g, '').replace(',', '.') : digits.replace(/,/g, '');
}

describe('checked challenges', () => {
  const site = with_site();
  // One context for the cells' pages: they share its HTTP cache (the module compiles from it faster) and its
  // storage (a challenge solved in English is already in the progress when its Vietnamese page opens).
  // Each challenge loads as a new document in the context's one tab (tab_of).
  let context = null;
  before(async () => { context = await new_context(site.browser, { width: 1000, height: 900 }); });
  after(async () => { await context?.close(); });

  test('every lab has at least three challenges, and each has an answer here', () => {
    for (const lab of ['queues', 'batching', 'llm', 'request']) {
      assert.ok(challenges.filter(({ cell }) => cell.id.startsWith(`${lab}/`)).length >= 3, lab);
    }
    assert.deepEqual(challenges.map(({ key }) => key).sort(), Object.keys(ANSWERS).sort());
  });

  const runs = [...challenges.map((entry) => ({ ...entry, lang: 'en' })),
    ...challenges.filter(({ key }) => IN_VIETNAMESE.includes(key)).map((entry) => ({ ...entry, lang: 'vi' }))];
  for (const { cell, challenge, key, lang } of runs) {
    test(`${key} (${lang}): solved at the answer, not solved away from it`, async () => {
      const answer = ANSWERS[key];
      const [lab, short] = cell.id.split('/');
      const page = await tab_of(site.browser, context);
      await page.goto(`${site.server.url}lab.html?lab=${lab}&cell=${short}&embed=1${lang === 'vi' ? '&lang=vi' : ''}`);
      const section = `#${short}`;
      const item = `${section} [data-challenge="${challenge.id}"]`;
      await page.waitForSelector(item, { timeout: 45_000 });
      const question = await page.textContent(`${item} .sl-challenge-question`);   // after "Solved · " once solved
      assert.ok(question.endsWith(challenge.question[lang]), question);
      assert.notEqual(await settled(page, item), 'solved', 'not solved at the defaults');
      let state = null;
      for (const [name, text] of Object.entries(answer.solve)) state = await move(page, section, item, name, text, lang);
      if (answer.typed) {
        assert.equal(state, 'answer-needed', await page.textContent(`${item} .sl-challenge-status`));
        const value = Number(await shown_number(page, section, challenge.answer.output, lang));
        await page.fill(`${item} .sl-challenge-answer`, typed(String(value * 1.5), lang));
        await page.click(`${item} .sl-challenge-check`);
        assert.equal(await settled(page, item), 'answer-off');
        assert.match(await page.textContent(`${item} .sl-challenge-status`), /50 %/, 'says how far the answer is');
        await page.fill(`${item} .sl-challenge-answer`, typed(String(value * 1.01), lang));
        await page.click(`${item} .sl-challenge-check`);
        state = await settled(page, item);
      }
      assert.equal(state, 'solved', await page.textContent(`${item} .sl-challenge-status`));
      assert.equal(await page.getAttribute(item, 'data-progress'), 'solved');
      assert.match(await page.textContent(`${item} .sl-challenge-explanation`), new RegExp(challenge.explanation[lang].slice(0, 20).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      const [name, text] = Object.entries(answer.away)[0];
      assert.equal(await move(page, section, item, name, text, lang), answer.away_state, await page.textContent(`${item} .sl-challenge-status`));
      assert.equal(await page.getAttribute(item, 'data-progress'), 'solved', 'a solved challenge stays solved in the progress');
      if (key === 'queues/littles-law/mean-50ms') {
        await page.click(`${item} .sl-challenge-hint summary`);
        await screenshot(page, `challenges-${lang}`, { of: `${section} .sl-challenges` });
        assert.deepEqual(await axe_violations(page), []);
      }
      assert.deepEqual(page.problems, []);
    });
  }

  test('the predict-then-run prompt compares the guess with the result when each run ends', async () => {
    const page = await new_page(site.browser, { width: 1000, height: 900 });
    await page.goto(`${site.server.url}lab.html?lab=request&cell=latency-budget&embed=1`);
    const section = '#latency-budget';
    await page.waitForSelector(`${section}[data-state="done"]`, { timeout: 45_000 });
    await page.fill(`${section} .sl-predict-input`, '1');
    await page.click(`${section} .sl-predict-form .sl-button-primary`);
    const outcome = `${section} .sl-predict-outcome`;
    const pattern = /^You guessed 1; the result is ([\d.,]+)(?: ×)?\. Your guess is ([\d.,]+) % below it\.$/;
    const first = await page.textContent(outcome);
    assert.match(first, pattern);
    // A later run (a faster model): the comparison follows the new result when that run ends.
    const before = await runs_of(page, section);
    await page.fill(`${section} [name="speedup_k"]`, '100');
    await page.press(`${section} [name="speedup_k"]`, 'Enter');
    await next_run(page, before, section);
    await page.waitForFunction(([selector, old]) => document.querySelector(selector)?.textContent !== old, [outcome, first]);
    const [, result, off] = (await page.textContent(outcome)).match(pattern);
    const [, first_result, first_off] = first.match(pattern);
    assert.ok(Number(result) > Number(first_result), `a faster model, a larger speed-up: ${first_result} then ${result}`);
    assert.ok(Number(off) > Number(first_off), `the guess of 1 is further below: ${first_off} % then ${off} %`);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
});
