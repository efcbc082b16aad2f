import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CELL, new_page, open, screenshot, runs_of, next_run, set_param, set_param_and_wait, output_text, reveal, with_site,
  axe_violations,
} from './helpers.mjs';

describe('the queueing lab page', () => {
  const site = with_site();

  // "1,234.5" (en) ↔ "1.234,5" (vi)
  const swap_separators = (text) => text.replace(/[.,]/g, (c) => (c === '.' ? ',' : '.'));

  async function open_queues(query = '') {
    const page = await new_page(site.browser);
    await open(page, `${site.server.url}lab.html?lab=queues${query}`);
    await page.waitForSelector(`${CELL}[data-state="done"]`);
    return page;
  }
  // The tests share one page, in order (each leaves it computed and valid; the language switch comes last);
  // the copied link opens in a page of its own.
  let shared = null;
  const queues_page = async () => (shared ??= await open_queues());

  test('the queueing lab shows the numbers and draws charts with marks', async () => {
    const page = await queues_page();
    assert.match(await output_text(page, 'L'), /^\d/);
    assert.match(await output_text(page, 'W_ms'), /^\d/);
    await page.waitForSelector(`${CELL} .sl-chart-canvas svg path, ${CELL} .sl-chart-canvas svg rect`);
    const marks = await page.$$eval(`${CELL} .sl-chart-canvas svg`, (svgs) =>
      svgs.map((svg) => svg.querySelectorAll('.mark-line path, .mark-rect path, .mark-area path, .mark-symbol path').length));
    assert.ok(marks.length >= 1 && marks.every((count) => count > 0), `marks per chart: ${marks}`);
    assert.match(await page.textContent(`${CELL} .sl-book`), /✓/);
    await page.click(`${CELL} .sl-chart button[aria-expanded="false"]`);
    assert.ok(await page.$eval(`${CELL} .sl-data-table caption`, (caption) => caption.textContent.length > 0));
    assert.ok(await page.$$eval(`${CELL} .sl-data-table tbody tr`, (rows) => rows.length) > 1);
    await screenshot(page, 'lab-en');
    assert.deepEqual(page.problems, []);
  });

  test('changing the arrival rate changes the outputs', async () => {
    const page = await queues_page();
    const before = await output_text(page, 'L');
    // Typing alone reruns the cell (after the auto-run's debounce); the other tests press Enter.
    assert.equal(await set_param_and_wait(page, 'lambda', '100', CELL, { enter: false }), 'done');
    assert.notEqual(await output_text(page, 'L'), before);
    assert.match(page.url(), /littles-law\.lambda=100/);
    await screenshot(page, 'lab-lambda-100', { of: CELL });
  });

  test('bad values show a translated error and a good value then gives results again', async () => {
    const page = await queues_page();
    const cases = [
      { name: 'lambda', text: '-1', expect: /between .* and .*; you entered -1/ },
      { name: 'lambda', text: 'NaN', expect: /finite/ },
      { name: 'n', text: '1e12', expect: /between .* and .*; you entered 1e\+?12/ },
    ];
    for (const { name, text, expect } of cases) {
      assert.equal(await set_param_and_wait(page, name, text), 'error', `${name}=${text}`);
      const error = await page.textContent(`${CELL} .sl-error[role="alert"]`);
      assert.match(error, expect);
      assert.equal(await page.getAttribute(`${CELL} [name="${name}"]`, 'aria-invalid'), 'true');
      // The earlier results stay, marked stale, and as readable as before.
      if (name === 'lambda' && text === '-1') assert.deepEqual(await axe_violations(page), [], 'axe-core with stale results');
      await screenshot(page, `lab-error-${name}-${text}`, { of: CELL });
      const good = name === 'n' ? '20000' : '150';
      assert.equal(await set_param_and_wait(page, name, good), 'done', `${name}=${good} after ${text}`);
      assert.ok(await page.$eval(`${CELL} .sl-error`, (box) => box.hidden));
      assert.match(await output_text(page, 'L'), /^\d/);
    }
    assert.deepEqual(page.problems, []);
  });

  test('a copied URL restores the same inputs and the same numbers', async () => {
    const page = await queues_page();
    assert.doesNotMatch(page.url(), /seed/);   // at its default, the seed stays out of the URL
    await set_param(page, 'seed', '7');
    await reveal(page, `${CELL} [name="service"]`);
    await page.selectOption(`${CELL} [name="service"]`, 'det');
    await set_param_and_wait(page, 'lambda', '123.5');
    const url = page.url();
    assert.match(url, /littles-law\.seed=7/);
    assert.match(url, /littles-law\.service=det/);
    const expected = await output_text(page, 'L');
    const copy = await new_page(site.browser);
    await open(copy, url);
    await copy.waitForSelector(`${CELL}[data-state="done"]`);
    assert.equal(await copy.inputValue(`${CELL} [name="lambda"]`), '123.5');
    assert.equal(await copy.inputValue(`${CELL} [name="seed"]`), '7');
    assert.equal(await copy.inputValue(`${CELL} [name="service"]`), 'det');
    assert.equal(await output_text(copy, 'L'), expected);
    await screenshot(copy, 'lab-restored', { of: CELL });
  });

  test('the footer reports the timer resolution and cross-origin isolation', async () => {
    const page = await queues_page();
    assert.equal(await page.evaluate(() => self.crossOriginIsolated), true);
    const text = await page.textContent('.sl-timer');
    assert.match(text, /Timer resolution [\d.,]+ µs, cross-origin isolated/);
    await page.locator('.sl-site-footer').scrollIntoViewIfNeeded();
    await screenshot(page, 'lab-timer');
  });

  test('cancel stops a long run and the cell stays usable', async () => {
    const page = await queues_page();
    const before = await runs_of(page);
    // An unstable queue of 10^7 requests: the longest run this cell allows (seconds, even on a quiet machine).
    await set_param(page, 'lambda', '250');
    await set_param(page, 'n', '10000000');
    await page.waitForSelector(`${CELL} .sl-progress:not([hidden])`, { timeout: 10_000 });
    // Click at once, in the page: waiting for the button to look "stable" could outlast the run.
    await page.$eval(`${CELL} .sl-button-cancel`, (button) => button.click());
    await screenshot(page, 'lab-progress', { of: CELL });
    assert.equal(await next_run(page, before), 'cancelled');
    assert.match(await page.textContent(`${CELL} .sl-status`), /cancelled/i);
    assert.ok(await page.$eval(`${CELL} .sl-progress`, (box) => box.hidden));
    await screenshot(page, 'lab-cancelled', { of: CELL });
    assert.equal(await set_param_and_wait(page, 'n', '50000'), 'done');
    assert.match(await output_text(page, 'L'), /^\d/);
    assert.deepEqual(page.problems, []);
  });
  test('the costliest simulation starts second; charts wait until every simulation has a core, and are all drawn before a cell times the machine', async () => {
    const page = await new_page(site.browser);
    // Each time a cell settles: how many cells the page has, whether every simulation is done, how many
    // charts are drawn; and when a simulation's chart was last drawn and the first cell that times the machine started;
    // the order in which the cells started, and at the first chart, how many cells the page had and how many
    // simulations had not started.
    await page.addInitScript(() => {
      window.__charts = { settled: [], last_drawn_ms: 0, measure_started_ms: null, started: [], at_first_chart: null };
      new MutationObserver((mutations) => {
        for (const { target } of mutations) {
          const of_simulation = target.closest?.('.sl-cell')?.dataset.measures !== 'true';
          if (of_simulation && (target.nodeName === 'svg' || target.querySelector?.('.sl-chart-canvas svg'))) {
            window.__charts.last_drawn_ms = performance.now();
            const cells = [...document.querySelectorAll('.sl-cell')];
            window.__charts.at_first_chart ??= [cells.length, cells.filter((cell) => cell.dataset.measures !== 'true' && !window.__charts.started.includes(cell.id)).length];
          }
          if (!target.classList?.contains('sl-cell')) continue;
          if (target.dataset.state === 'running' && !window.__charts.started.includes(target.id)) window.__charts.started.push(target.id);
          if (target.dataset.measures === 'true' && target.dataset.state === 'running') window.__charts.measure_started_ms ??= performance.now();
          const cells = [...document.querySelectorAll('.sl-cell')];
          window.__charts.settled.push([cells.length, cells.every((cell) => cell.dataset.measures === 'true' || cell.dataset.state === 'done'),
            document.querySelectorAll('.sl-chart:not([hidden]) .sl-chart-canvas svg').length]);
        }
      }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state'] });
    });
    await open(page, `${site.server.url}lab.html?lab=batching&predict=0`);
    const charts = await page.evaluate(() => ({ ...window.__charts,
      cells: document.querySelectorAll('.sl-cell').length,
      at_ready: document.querySelectorAll('.sl-chart:not([hidden]) .sl-chart-canvas svg').length,
      measures: document.querySelectorAll('.sl-cell[data-measures="true"]').length }));
    const at_sims_done = charts.settled.find(([cells, done]) => cells === charts.cells && done)?.[2];
    const seen = JSON.stringify({ ...charts, settled: undefined, at_sims_done });
    assert.ok(charts.measures >= 1, `the batching page has a cell that times the machine: ${seen}`);
    assert.ok(at_sims_done !== undefined && at_sims_done < charts.at_ready, `some charts wait for the simulations: ${seen}`);
    assert.ok(charts.at_ready >= 5, `the batching page's charts (at least 5) are drawn once the simulations are done: ${seen}`);
    assert.ok(charts.measure_started_ms !== null && charts.last_drawn_ms <= charts.measure_started_ms, `no chart is drawn while a cell times the machine: ${seen}`);
    // C++'s cost model puts pareto (fifth on the page) above every other simulation of the page: a second core takes it first.
    const specs = (await (await fetch(`${site.server.url}labs/batching.json`)).json()).cell_specs;
    const costliest = Object.values(specs).filter((spec) => spec.deterministic).sort((a, b) => b.default_cost_s - a.default_cost_s)[0].id;
    assert.equal(costliest, 'batching/pareto', seen);
    if (await page.evaluate(() => navigator.hardwareConcurrency) >= 2) assert.equal(charts.started[1], 'pareto', `the costliest simulation starts second: ${seen}`);
    assert.deepEqual(charts.at_first_chart, [charts.cells, 0], `the first chart waits until the page has every cell and every simulation has started: ${seen}`);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
  test('the Vietnamese switch translates the labels and keeps the numbers', async () => {
    const page = await queues_page();   // last: the page stays in Vietnamese
    const value = await output_text(page, 'rho');
    await page.focus('.sl-lang-button[data-lang="vi"]');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.documentElement.lang === 'vi');
    assert.match(await page.textContent(`${CELL} label[for="sl-littles-law-lambda"]`), /Tốc độ đến λ/);
    assert.equal(await page.textContent(`${CELL} button[type="submit"]`), 'Chạy');
    assert.equal(await output_text(page, 'rho'), swap_separators(value), 'same number, Vietnamese separators');
    assert.match(page.url(), /lang=vi/);
    assert.equal(await set_param_and_wait(page, 'lambda', '-1'), 'error');
    assert.match(await page.textContent(`${CELL} .sl-error`), /phải nằm trong khoảng/);
    await set_param_and_wait(page, 'lambda', '160');
    await screenshot(page, 'lab-vi');
  });
});
