// llm/capacity-search in the page (issue 33): the frontier, the winner and its explanation beside the controls,
// in EN and VI, with the counts adding up; a narrower grid re-runs it. Timings are in bench/capacity_search.mjs.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, axe_violations, new_page, next_run, open, output_text, paste_by_keyboard, reveal, runs_of, screenshot,
  set_param_and_wait, type_and_submit, with_site } from './helpers.mjs';

const CELL = '#capacity-search';
const number = (text) => Number(text.replace(/[^\d.,-]/g, '').replace(',', '.'));

describe('llm/capacity-search: the frontier and the cheapest fleet', () => {
  const site = with_site();

  for (const lang of ['en', 'vi']) {
    test(`the winner, its explanation and the frontier table are shown (${lang})`, async () => {
      const page = await new_page(site.browser, { width: 390 });
      await open(page, `${site.server.url}lab.html?lab=llm&cell=capacity-search&embed=1&predict=0&lang=${lang}`);
      await page.waitForSelector(`${CELL}[data-state="done"]`, { timeout: 60_000 });
      const count = async (key) => number(await output_text(page, key, CELL));
      // Every point of the grid is run, skipped or refused.
      const total = await count('points_total');
      assert.equal(await count('points_evaluated') + await count('points_pruned') + await count('points_refused'), total);
      assert.ok(await count('points_pruned') > 0, 'the default grid prunes');
      assert.match(await output_text(page, 'winner_usd_per_m_tokens', CELL), /\d/);
      // The explanation: one of the binding notices, in the page's language.
      const notice = await page.textContent(`${CELL} .sl-notices`);
      assert.match(notice, lang === 'en' ? /Why this fleet/ : /Vì sao là cụm này/);
      // The frontier table has one row per frontier point, and the chart's summary states the winner.
      const rows = await page.$$eval(`${CELL} .sl-result-table tbody tr, ${CELL} table.sl-table tbody tr`, (trs) => trs.length);
      assert.ok(rows >= await count('frontier_points'));
      assert.match(await page.textContent(`${CELL} .sl-chart-summary`), lang === 'en' ? /cheapest fleet meeting every SLO/ : /Cụm rẻ nhất đạt mọi SLO/);
      // The "Why?" text arrives when the section is first opened (labs/llm.why.json), in the page's language.
      assert.equal(await page.$eval(`${CELL} .sl-why .sl-why-text`, (body) => body.childElementCount), 0);
      await page.click(`${CELL} .sl-why summary`);
      await page.waitForFunction((s) => document.querySelector(`${s} .sl-why .sl-why-text p`), CELL);
      assert.match(await page.textContent(`${CELL} .sl-why .sl-why-text`), lang === 'en' ? /frontier/ : /đường biên/);
      await screenshot(page, `capacity-search-${lang}-390`, { of: CELL });
      assert.deepEqual(await axe_violations(page), []);
      assert.deepEqual(page.problems, []);
    });
  }

  test('the CSV of a search run elsewhere (serving-lab search, two shards) gives the same winner as the page\'s run', async () => {
    const grid = ['--gpus', 'h100+a100', '--tp_max', '2', '--replicas_max', '4', '--n', '300'];
    const cli = join(ROOT, 'build/native/serving-lab');
    const csv = ['1/2', '2/2'].map((shard) => execFileSync(cli, ['search', ...grid, '--format', 'csv', '--shard', shard],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })).join('');
    const page = await new_page(site.browser);
    await open(page, `${site.server.url}lab.html?lab=llm&cell=capacity-search&embed=1&predict=0&gpus=h100%2Ba100&tp_max=2&replicas_max=4&n=300`);
    await page.waitForSelector(`${CELL}[data-state="done"]`, { timeout: 60_000 });
    const ran = await output_text(page, 'winner_usd_per_m_tokens', CELL);
    const before = await runs_of(page, CELL);
    await paste_by_keyboard(page, CELL, 'points', csv);
    assert.equal(await next_run(page, before, CELL), 'done');
    assert.equal(await output_text(page, 'winner_usd_per_m_tokens', CELL), ran);
    assert.match(await page.textContent(`${CELL} .sl-notices`), /points file/);
    assert.deepEqual(page.problems, []);
  });

  // web/js/spread_run.js: the grid in parts over the workers, merged by C++ after each part and at the end.
  test('spread over two workers: partial frontiers while parts run, then the one-worker result; Cancel stops it', async () => {
    const shown = (page) => page.$$eval(`${CELL} .sl-outputs tr[data-key], ${CELL} .sl-notices [data-code]`, (nodes) =>
      nodes.map((node) => `${node.dataset.key ?? node.dataset.code}: ${node.textContent}`));
    const url = (workers, n) => `${site.server.url}lab.html?lab=llm&cell=capacity-search&embed=1&predict=0&n=${n}&workers=${workers}`;
    const one = await new_page(site.browser);
    await open(one, url(1, 2000));
    await one.waitForSelector(`${CELL}[data-state="done"]`, { timeout: 60_000 });
    assert.equal(await one.$eval(CELL, (cell) => cell.dataset.partials), undefined, 'one worker: no parts');
    const spread = await new_page(site.browser);
    await open(spread, url(2, 2000));
    await spread.waitForSelector(`${CELL}[data-state="done"]`, { timeout: 60_000 });
    assert.ok(Number(await spread.$eval(CELL, (cell) => cell.dataset.partials)) >= 1, 'a partial result was shown');
    assert.deepEqual(await shown(spread), await shown(one));
    assert.doesNotMatch(await spread.textContent(`${CELL} .sl-notices`), /points file/);
    // Cancel while the parts run: the cell says so, and runs again after.
    const before = await runs_of(spread, CELL);
    await reveal(spread, `${CELL} [name="n"]`);
    await type_and_submit(spread, `${CELL} [name="n"]`, '5000');   // inside the budget, and long enough to cancel
    await spread.waitForSelector(`${CELL} .sl-progress:not([hidden])`, { timeout: 30_000 });
    await spread.click(`${CELL} .sl-button-cancel`);
    assert.equal(await next_run(spread, before, CELL), 'cancelled');
    assert.equal(await set_param_and_wait(spread, 'n', '2000', CELL), 'done');
    assert.deepEqual(await shown(spread), await shown(one));
    assert.deepEqual(one.problems, []);
    assert.deepEqual(spread.problems, []);
  });

  test('a narrower grid runs again, and a grid past the budget is refused saying how many points fit', async () => {
    const page = await new_page(site.browser);
    await open(page, `${site.server.url}lab.html?lab=llm&cell=capacity-search&embed=1&predict=0`);
    await page.waitForSelector(`${CELL}[data-state="done"]`, { timeout: 60_000 });
    assert.equal(await set_param_and_wait(page, 'replicas_max', '4', CELL), 'done');
    assert.equal(number(await output_text(page, 'points_total', CELL)), 64);
    assert.equal(await set_param_and_wait(page, 'n', '100000', CELL), 'error');
    assert.match(await page.textContent(`${CELL} .sl-error`), /this search would need [0-9.,e+]+ units if every point ran.*about [\d,]+ of its points fit/);
    // It offers a coarser search C++ says fits (tests/unit/llm/fleet/capacity_search_test.cpp): a smaller n, set
    // and run.
    const offered = await page.getAttribute(`${CELL} [data-offer="n"]`, 'data-value');
    assert.ok(Number(offered) > 0 && Number(offered) < 100000, offered);
    assert.match(await page.textContent(`${CELL} [data-offer="n"]`), /^Run with .+ = [\d,]+$/);
    const runs = await runs_of(page, CELL);
    await page.click(`${CELL} [data-offer="n"]`);
    await page.waitForSelector(`${CELL}[data-state="running"]`);
    assert.equal(await page.inputValue(`${CELL} [name="n"]`), offered);
    await page.click(`${CELL} .sl-button-cancel`);
    assert.equal(await next_run(page, runs, CELL), 'cancelled');
    assert.deepEqual(page.problems, []);
  });
});
