// A file parameter given by the reader, in Chromium: a trace CSV chosen on an llm cell at Workload = laws sets
// Workload = trace and replays it; a text format (JSON, CSV) may be pasted instead of chosen, by keyboard, and
// becomes the same bytes (the run matches the native CLI's on the file); the text goes neither into the URL nor
// onto the network; text over the parameter's max is refused unread with the message a file that large gets;
// axe-core finds nothing on the cell with the paste box open, wide and at 390 px, in English and Vietnamese.
// The cells come from the native CLI (`serving-lab list --json`), so a new file parameter is covered.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, new_page, open, screenshot, runs_of, next_run, reveal, output_text, with_site, with_scratch, axe_violations, saved_run, paste_by_keyboard } from './helpers.mjs';

const CLI = join(ROOT, 'build/native/serving-lab');
const specs = JSON.parse(execFileSync(CLI, ['list', '--json'], { encoding: 'utf8' }));
const TEXT_TYPES = ['application/json', '.json', '.jsonl', 'text/csv', '.csv', 'text/plain', '.txt'];
const accepts = (param, types) => (param.accept || '').split(',').some((type) => types.includes(type.trim()));
const takes_json = (param) => param.kind === 'bytes' && accepts(param, ['application/json', '.json']);
const FIXTURES = join(ROOT, 'tests/unit/llm/fixtures');
// A file for each JSON parameter the llm cells have (or may have): a Hugging Face config.json, a vllm bench result.
const JSON_FIXTURES = { model_config: join(FIXTURES, 'hf-config/Llama-3.1-8B.json'),
  measurements: join(FIXTURES, 'vllm-4.0qps-Llama-3.1-8B-Instruct-20250612-141503.json') };
const THREE_ROWS = 'arrival_s,prompt_tokens,output_tokens\n0,500,50\n0.5,700,80\n1.25,300,20\n';

// llm cells whose trace is used at workload = trace only, and each file parameter that takes JSON on the first llm
// cell that has it: the page reads a parameter's file the same way in every cell (model_config is in eight; its
// run in each is compared with the CLI natively, by the corpus, and in the browser by models.spec).
const traced = specs.filter((spec) => spec.id.startsWith('llm/') && spec.params.some((p) =>
  p.name === 'trace' && p.used_when?.param === 'workload' && p.used_when.values.length === 1));
const with_json = [];
for (const spec of specs.filter((s) => s.id.startsWith('llm/'))) {
  for (const param of spec.params.filter(takes_json)) {
    if (!with_json.some((seen) => seen.param.name === param.name)) with_json.push({ spec, param });
  }
}

const cell_of = (spec) => `#${spec.id.split('/')[1]}`;
const url_of = (site, spec, extra = '') => `${site.server.url}lab.html?lab=llm&cell=${spec.id.split('/')[1]}&embed=1&predict=0${extra}`;
const field_error = (page, cell) => page.textContent(`${cell} .sl-field-error:not([hidden]), ${cell} .sl-error:not([hidden])`);



describe('a file parameter given by the reader: chosen or pasted', () => {
  const site = with_site();
  const scratch = with_scratch('paste');

  test('there are llm cells whose trace sets Workload, and the paste test has a JSON file parameter to use', () => {
    assert.ok(traced.length > 0, 'no llm cell has a trace used at workload = trace');
    assert.ok(with_json.length > 0, 'no llm cell has a file parameter that takes JSON');
    for (const { spec, param } of with_json) assert.ok(JSON_FIXTURES[param.name], `${spec.id}: no file to paste into ${param.name}`);
  });

  for (const spec of traced) {
    const cell = cell_of(spec);
    test(`${spec.id}: a trace CSV chosen at Workload = laws sets Workload = trace and is replayed`, async () => {
      const page = await new_page(site.browser, { width: 1100, height: 900 });
      await open(page, url_of(site, spec));
      await page.waitForSelector(`${cell}[data-state="done"]`, { timeout: 60_000 });
      assert.equal(await page.inputValue(`${cell} select[name="workload"]`), 'laws');
      await reveal(page, `${cell} input[name="trace"]`);
      assert.ok(await page.isVisible(`${cell} input[name="trace"]`), 'the file field is in view at Workload = laws');
      const file = scratch.file('three.csv');
      await writeFile(file, THREE_ROWS);
      const runs = await runs_of(page, cell);
      await page.setInputFiles(`${cell} input[name="trace"]`, file);
      assert.equal(await next_run(page, runs, cell), 'done');
      assert.equal(await page.inputValue(`${cell} select[name="workload"]`), 'trace', 'the form shows the choice the file set');
      assert.equal((await saved_run(page, cell)).inputs.workload, 'trace');
      assert.equal(new URL(page.url()).searchParams.get('workload'), 'trace', 'the choice is in the URL, the file is not');
      assert.ok(!page.url().includes('prompt_tokens'));
      assert.deepEqual(page.problems, []);
      await page.context().close();
    });
  }

  test('llm/continuous-batching: CSV rows pasted by keyboard set Workload = trace, never leave the page, and clear', async () => {
    const spec = specs.find((s) => s.id === 'llm/continuous-batching');
    const cell = cell_of(spec);
    const page = await new_page(site.browser, { width: 1100, height: 900 });
    const sent = [];
    page.on('request', (request) => { if (`${request.url()} ${request.postData() ?? ''}`.includes('700,80')) sent.push(request.url()); });
    await open(page, `${site.server.url}lab.html?lab=llm&predict=0`);   // the whole page: it has the language switch
    await page.waitForSelector(`${cell}[data-state="done"]`, { timeout: 90_000 });
    let runs = await runs_of(page, cell);
    await paste_by_keyboard(page, cell, 'trace', THREE_ROWS);
    assert.equal(await next_run(page, runs, cell), 'done');
    assert.equal(await page.inputValue(`${cell} select[name="workload"]`), 'trace');
    assert.equal((await output_text(page, 'trace_rows', cell)).trim(), '3', 'the pasted rows were replayed');
    assert.match(await page.textContent(`${cell} [data-param="trace"] .sl-paste-status`), new RegExp(`: ${Buffer.byteLength(THREE_ROWS)} bytes`));
    assert.ok(!decodeURIComponent(page.url()).includes('700,80'), 'the text is not in the URL');
    await screenshot(page, 'paste-trace-wide-en', { of: cell });

    // The pasted text survives a change of language (the form is rebuilt), and Clear drops it: the sample is replayed.
    await page.click('.sl-lang-button[data-lang="vi"]');
    await page.waitForSelector(`${cell} [data-param="trace"] .sl-paste[open]`, { state: 'attached' });
    assert.equal(await page.inputValue(`${cell} textarea[data-paste-for="trace"]`), THREE_ROWS);
    runs = await runs_of(page, cell);
    await reveal(page, `${cell} [data-param="trace"] .sl-paste-clear`);
    await page.click(`${cell} [data-param="trace"] .sl-paste-clear`);
    assert.equal(await next_run(page, runs, cell), 'done');
    assert.equal((await output_text(page, 'trace_rows', cell)).trim(), '1.000', 'the bundled sample again');
    assert.deepEqual(sent, [], 'no request carried the pasted text');
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  for (const { spec, param } of with_json) {
    const cell = cell_of(spec);
    test(`${spec.id}: JSON pasted into ${param.name} gives the run the CLI gives on the file`, async () => {
      const path = JSON_FIXTURES[param.name];
      const choice = param.used_when?.values.length === 1 ? [`--${param.used_when.param}`, param.used_when.values[0]] : [];
      const native = JSON.parse(execFileSync(CLI, ['run', spec.id, `--${param.name}`, `@${path}`, ...choice, '--json'], { encoding: 'utf8' }));
      const page = await new_page(site.browser, { width: 1100, height: 900 });
      await open(page, url_of(site, spec));
      await page.waitForSelector(`${cell}[data-state="done"]`, { timeout: 60_000 });
      const runs = await runs_of(page, cell);
      await paste_by_keyboard(page, cell, param.name, await readFile(path, 'utf8'));
      // The message is read only if the run failed: field_error waits for an error element, and when the run is
      // done there is none, so reading it every time waited out its 30 s timeout.
      const state = await next_run(page, runs, cell);
      assert.equal(state, 'done', state === 'done' ? undefined : await field_error(page, cell).catch(() => ''));
      const run = await saved_run(page, cell);
      assert.deepEqual(run.outputs, native.outputs, 'the same outputs as the CLI on the file');
      if (choice.length) assert.equal(await page.inputValue(`${cell} select[name="${choice[0].slice(2)}"]`), choice[1]);
      assert.deepEqual(page.problems, []);
      await page.context().close();
    });
  }

  test('text over the max is refused unread, with the message a file that large gets, and the cell runs again', async () => {
    const spec = specs.find((s) => s.id === 'llm/continuous-batching');
    const cell = cell_of(spec);
    const max = spec.params.find((p) => p.name === 'trace').max;
    const page = await new_page(site.browser, { width: 1100, height: 900 });
    await open(page, url_of(site, spec, '&workload=trace'));
    await page.waitForSelector(`${cell}[data-state="done"]`, { timeout: 60_000 });
    const runs = await runs_of(page, cell);
    const large = scratch.file('large.csv');
    await writeFile(large, '');
    await truncate(large, max + 1);
    await reveal(page, `${cell} input[name="trace"]`);
    await page.setInputFiles(`${cell} input[name="trace"]`, large);
    await page.waitForSelector(`${cell}[data-state="error"]`);
    const file_message = await field_error(page, cell);
    assert.match(file_message, new RegExp(`= ${max + 1} `), file_message);

    // One byte over, pasted: 'é' is two bytes in UTF-8, so max / 2 of them and one more character. The page's
    // paste handler sees the clipboard's text before the text area takes it (a synthetic event inserts nothing).
    await page.$eval(`${cell} [data-param="trace"] .sl-paste`, (details) => { details.open = true; });
    await page.$eval(`${cell} .sl-field-error`, (error) => { error.textContent = ''; });
    const started = Date.now();
    const kept = await page.$eval(`${cell} textarea[data-paste-for="trace"]`, (area, n) => {
      const data = new DataTransfer();
      data.setData('text/plain', 'é'.repeat(n / 2) + 'x');
      const event = new ClipboardEvent('paste', { clipboardData: data, cancelable: true, bubbles: true });
      area.dispatchEvent(event);
      return !event.defaultPrevented;
    }, max);
    assert.equal(kept, false, 'the paste is stopped before the text area takes it');
    assert.equal(await field_error(page, cell), file_message, 'the same message as the file');
    assert.ok(Date.now() - started < 10_000, 'refused at once');
    assert.equal(await runs_of(page, cell), runs, 'nothing ran');

    await page.fill(`${cell} textarea[data-paste-for="trace"]`, THREE_ROWS);
    await page.click(`${cell} [data-param="trace"] .sl-paste-use`);
    assert.equal(await next_run(page, runs, cell), 'done');
    assert.equal((await output_text(page, 'trace_rows', cell)).trim(), '3');
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  for (const lang of ['en', 'vi']) {
    test(`${lang}: the paste box open passes axe, wide and at 390 px`, async () => {
      const { spec } = with_json[0];
      const cell = cell_of(spec);
      const page = await new_page(site.browser, { width: 1280, height: 900 });
      await open(page, url_of(site, spec, `&lang=${lang}`));
      await page.waitForSelector(`${cell}[data-state="done"]`, { timeout: 60_000 });
      await reveal(page, `${cell} .sl-paste`);   // "More parameters", then the paste box itself
      assert.deepEqual(await axe_violations(page), [], 'axe-core violations, wide');
      await screenshot(page, `paste-open-wide-${lang}`, { of: cell });
      await page.setViewportSize({ width: 390, height: 844 });
      assert.deepEqual(await axe_violations(page), [], 'axe-core violations at 390 px');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the page is ${overflow} px wider than the phone`);
      const area = await page.$eval(`${cell} .sl-paste-text`, (e) => e.getBoundingClientRect().width);
      assert.ok(area > 250, `the text area is ${area} px wide at 390 px`);
      await screenshot(page, `paste-open-narrow-${lang}`, { of: cell });
      assert.deepEqual(page.problems, []);
      await page.context().close();
    });
  }
});
