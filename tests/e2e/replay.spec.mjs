// Trace replay in a real browser (llm/workload/workload_trace.h, llm/engine/trace_inputs.h): the LLM page's
// continuous-batching cell replays the bundled Azure sample once Workload = trace is chosen (the sample is fetched
// only then), then a CSV chosen in the file input; a malformed file gets one message naming its line, in Vietnamese
// too; and llm/workload-trace's fill sets the fitted laws in the other cells of the page.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { new_page, open, screenshot, runs_of, next_run, reveal, output_text, with_site, with_scratch } from './helpers.mjs';

const CB = '#continuous-batching';
const WT = '#workload-trace';
const SAMPLE = 'data/azure-conv-2023-sample.csv';

const value_of = (page, cell, key) => output_text(page, key, cell);

describe('a trace replayed in the page', () => {
  const site = with_site();
  const scratch = with_scratch('trace');

  test('continuous-batching replays the sample when asked, then a chosen CSV, and names a bad line', async () => {
    const page = await new_page(site.browser, { width: 1000, height: 1000 });
    const fetched = [];
    page.on('request', (request) => { if (request.url().endsWith(SAMPLE)) fetched.push(request.url()); });
    await open(page, `${site.server.url}lab.html?lab=llm&cell=continuous-batching&embed=1`);
    await page.waitForSelector(`${CB}[data-state="done"]`, { timeout: 60_000 });
    assert.equal(fetched.length, 0, 'the sample trace is not fetched while the cell draws from the laws');
    let runs = await runs_of(page, CB);
    await reveal(page, `${CB} select[name="workload"]`);
    await page.selectOption(`${CB} select[name="workload"]`, 'trace');
    assert.equal(await next_run(page, runs, CB), 'done');
    assert.equal(fetched.length, 1, 'the sample trace is fetched once the cell replays it');
    assert.equal((await value_of(page, CB, 'trace_rows')).trim(), '1,000');
    assert.ok(await page.isVisible(`${CB} input[name="trace"]`), 'the file field shows while a trace is replayed');
    assert.ok(!(await page.isVisible(`${CB} [data-param="prompt_mean"]`)), 'the length laws hide while a trace is replayed');
    await screenshot(page, 'replay-sample');

    const good = scratch.file('mine.csv');
    await writeFile(good, 'arrival_s,prompt_tokens,output_tokens\r\n0,500,50\r\n0.5,700,80\r\n1.25,300,20\r\n');
    runs = await runs_of(page, CB);
    await page.setInputFiles(`${CB} input[name="trace"]`, good);
    assert.equal(await next_run(page, runs, CB), 'done');
    assert.equal((await value_of(page, CB, 'trace_rows')).trim(), '3');

    const bad = scratch.file('bad.csv');
    await writeFile(bad, 'arrival_s,prompt_tokens,output_tokens\n0,500,50\n1,-3,5\n');
    runs = await runs_of(page, CB);
    await page.setInputFiles(`${CB} input[name="trace"]`, bad);
    assert.equal(await next_run(page, runs, CB), 'error');
    const message = await page.textContent(`${CB} .sl-field-error:not([hidden]), ${CB} .sl-error:not([hidden])`);
    assert.match(message, /line 3, column prompt_tokens/);
    await screenshot(page, 'replay-bad-file');
    assert.deepEqual(page.problems, []);
  });

  test('a bad trace line reads in Vietnamese, at 390 px', async () => {
    const page = await new_page(site.browser, { width: 390, height: 900 });
    await open(page, `${site.server.url}lab.html?lab=llm&cell=continuous-batching&embed=1&lang=vi&workload=trace`);
    await page.waitForSelector(`${CB}[data-state="done"]`, { timeout: 60_000 });
    const bad = scratch.file('unsorted.csv');
    await writeFile(bad, 'arrival_s,prompt_tokens,output_tokens\n2,500,50\n1,500,50\n');
    const runs = await runs_of(page, CB);
    await reveal(page, `${CB} input[name="trace"]`);
    await page.setInputFiles(`${CB} input[name="trace"]`, bad);
    assert.equal(await next_run(page, runs, CB), 'error');
    const message = await page.textContent(`${CB} .sl-field-error:not([hidden]), ${CB} .sl-error:not([hidden])`);
    assert.match(message, /dòng 3: yêu cầu này đến trước yêu cầu ở dòng 2/);
    await screenshot(page, 'replay-bad-file-vi-390');
    assert.deepEqual(page.problems, []);
  });

  test('llm/workload-trace fills the laws fitted to its trace into continuous-batching', async () => {
    const page = await new_page(site.browser, { width: 1280, height: 1000 });
    await open(page, `${site.server.url}lab.html?lab=llm`);
    await page.waitForSelector(`${WT}[data-state="done"]`, { timeout: 90_000 });
    await page.waitForSelector(`${CB}[data-state="done"]`, { timeout: 90_000 });
    await page.locator(`${WT} .sl-fill-button`).scrollIntoViewIfNeeded();
    await screenshot(page, 'workload-trace');
    const runs = await runs_of(page, CB);
    await page.click(`${WT} .sl-fill-button`);
    assert.match(await page.textContent(`${WT} .sl-fill-status`), /\b1\b/);
    assert.equal(await next_run(page, runs, CB), 'done');
    const url = new URL(page.url());
    assert.equal(url.searchParams.get('continuous-batching.n'), '1000');
    assert.ok(Number(url.searchParams.get('continuous-batching.lambda')) > 4, 'the trace rate, 4.6 requests/s');
    assert.equal(url.searchParams.get('fleet.lambda'), null, 'the fleet lacks batch_frac: it takes none of the fill');
    assert.deepEqual(page.problems, []);
  });
});
