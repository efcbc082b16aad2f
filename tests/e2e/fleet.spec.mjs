// llm/fleet's long runs in the page (issue 16, point 5): a sweep shows its progress as it goes and Cancel stops
// it, after which the cell runs again; a sweep past the cell's budget is refused before it starts. Timings are in
// bench/fleet_browser.mjs, not here.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, new_page, open, output_text, screenshot, set_param_and_wait, with_site } from './helpers.mjs';

const CELL = '#fleet';
const bar_value = (page) => page.$eval(`${CELL} .sl-progress-bar`, (bar) => Number(bar.value));

describe('llm/fleet: progress, Cancel and the budget', () => {
  const site = with_site();

  test('a 10-point sweep shows growing progress, Cancel stops it and the cell runs again', async () => {
    const page = await new_page(site.browser);
    // Issue 16's sweep, 10 points of 20,000 requests: seconds of work, so it is still running when the bar has
    // moved twice. The URL's inputs start it as the page loads (the page is "ready" only
    // once its cells have run: no open() here).
    await page.goto(`${site.server.url}lab.html?lab=llm&cell=fleet&embed=1&predict=0&n=20000&sweep_points=10`);
    await page.waitForSelector(`${CELL} .sl-progress:not([hidden])`, { timeout: 20_000 });
    await page.waitForFunction((s) => Number(document.querySelector(`${s} .sl-progress-bar`).value) > 0, CELL, { polling: 10 });
    const first = await bar_value(page);
    await page.waitForFunction(([s, v]) => Number(document.querySelector(`${s} .sl-progress-bar`).value) > v, [CELL, first], { polling: 10 });
    assert.ok(await bar_value(page) < 1, 'still running');
    const runs = Number(await page.getAttribute(CELL, 'data-runs') || 0);
    // Click at once, in the page: waiting for the button to look "stable" could outlast the run.
    await page.$eval(`${CELL} .sl-button-cancel`, (button) => button.click());
    await page.waitForFunction(([s, n]) => Number(document.querySelector(s).dataset.runs || 0) > n, [CELL, runs]);
    assert.equal(await page.getAttribute(CELL, 'data-state'), 'cancelled');
    assert.match(await page.textContent(`${CELL} .sl-status`), /cancelled/i);
    assert.ok(await page.$eval(`${CELL} .sl-progress`, (box) => box.hidden));
    await screenshot(page, 'fleet-cancelled', { of: CELL });
    assert.equal(await set_param_and_wait(page, 'n', '2000', CELL), 'done');
    assert.match(await output_text(page, 'goodput_req_per_s', CELL), /^\d/);
    assert.deepEqual(page.problems, []);
  });

  test('a sweep past the budget is refused before it runs, naming n', async () => {
    const page = await new_page(site.browser);
    await open(page, `${site.server.url}lab.html?lab=llm&cell=fleet&embed=1&predict=0&n=100000&sweep_points=20`);
    await page.waitForSelector(`${CELL}[data-state="error"]`, { timeout: 20_000 });
    // The page words the too_large error with the label of the parameter it names (n), and the run's work as an
    // amount in its unit, not as n's value.
    const { label } = JSON.parse(await readFile(join(ROOT, 'labs/llm/lab.json'), 'utf8')).params.n;   // shared by the llm cells
    assert.match(await page.textContent(`${CELL} .sl-error`),
      new RegExp(`^${label.en}: this run would need [0-9.,e+]+ units, more than the [0-9.,e+ ]+ units a run may take here\\. Lower ${label.en}\\.`));
    await screenshot(page, 'fleet-too-large', { of: CELL });
    assert.deepEqual(page.problems, []);
  });
});
