// Models and GPUs as engineers name them, in Chromium: the model and GPU choices list every preset C++ declares,
// each with a label in both languages; a preset set in the URL is the run's model and gives the CLI's numbers; a
// config.json with a shape the reader refuses gets one error naming the key, and an MoE's config runs with its
// total and active parameters shown; axe-core finds nothing, wide and at 390 px, in English and Vietnamese.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, new_page, open, screenshot, runs_of, next_run, reveal, output_text, with_site, axe_violations, saved_run, paste_by_keyboard } from './helpers.mjs';

const CLI = join(ROOT, 'build/native/serving-lab');
const specs = JSON.parse(execFileSync(CLI, ['list', '--json'], { encoding: 'utf8' }));
const CONFIGS = join(ROOT, 'tests/unit/llm/fixtures/hf-config');
const CELL_ID = 'llm/llama3-8b-case';
const CELL = '#llama3-8b-case';
const spec = specs.find((s) => s.id === CELL_ID);
const url = (site, extra = '') => `${site.server.url}lab.html?lab=llm&cell=llama3-8b-case&embed=1&predict=0${extra}`;
const cli_run = (args) => JSON.parse(execFileSync(CLI, ['run', CELL_ID, ...args, '--json'], { encoding: 'utf8' }));

/** The message the CLI prints for a config.json (its exit status must be 2: a refused input). */
function cli_error(path) {
  const r = spawnSync(CLI, ['run', CELL_ID, '--model_config', `@${path}`], { encoding: 'utf8' });
  assert.equal(r.status, 2, `${path}: exit ${r.status}, ${r.stderr}`);
  const line = r.stderr.trim().split('\n').find((l) => l.startsWith('error: '));
  assert.ok(line, r.stderr);
  return line.slice('error: '.length);
}

describe('models and GPUs as engineers name them', () => {
  const site = with_site();

  test('the model and GPU choices are every preset C++ declares, each labelled, in both languages', async () => {
    const declared = Object.fromEntries(['model', 'gpu'].map((name) => [name, spec.params.find((p) => p.name === name).choices]));
    assert.ok(declared.model.length >= 12 && declared.model.includes('config'), `model choices: ${declared.model}`);
    assert.ok(declared.gpu.length >= 7, `gpu choices: ${declared.gpu}`);
    const page = await new_page(site.browser);
    for (const lang of ['en', 'vi']) {
      await open(page, url(site, `&lang=${lang}`));
      await page.waitForSelector(`${CELL}[data-state="done"]`, { timeout: 60_000 });
      for (const name of ['model', 'gpu']) {
        const options = await page.$$eval(`${CELL} select[name="${name}"] option`, (os) => os.map((o) => [o.value, o.textContent.trim()]));
        assert.deepEqual(options.map(([value]) => value), declared[name], `${lang}: the ${name} select lists C++'s choices in order`);
        // A label from the lab file, not the id the page falls back to (GPU "custom" is labelled "custom" in English).
        for (const [value, label] of options) assert.ok(label && (label !== value || value === 'custom'), `${lang}: ${name} = ${value} has a label (${label})`);
      }
    }
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  test('a preset in the URL is the run\'s model: Qwen3-30B-A3B in FP8 on an H200 gives the CLI\'s numbers', async () => {
    const args = ['--model', 'qwen3-30b-a3b', '--weights', 'fp8', '--gpu', 'h200', '--kv_reserve_gib', '40'];
    const native = cli_run(args);
    const page = await new_page(site.browser);
    await open(page, url(site, '&model=qwen3-30b-a3b&weights=fp8&gpu=h200&kv_reserve_gib=40'));
    await page.waitForSelector(`${CELL}[data-state="done"]`, { timeout: 60_000 });
    assert.equal(await page.inputValue(`${CELL} select[name="model"]`), 'qwen3-30b-a3b');
    const run = await saved_run(page, CELL);
    assert.deepEqual(run.outputs, native.outputs, 'the page computes what the CLI does');
    // An MoE: a token uses about a tenth of the weights (3.3B of 30.5B published).
    assert.ok(run.outputs.model_active_params_b < run.outputs.model_params_b / 8, JSON.stringify(run.outputs));
    assert.match(await output_text(page, 'model_active_params_b', CELL), /3[.,]3/);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });

  test('a config.json the reader refuses is one error naming the key; a real one runs, wide and at 390 px, EN and VI, axe clean', async () => {
    const good = await readFile(join(CONFIGS, 'Mixtral-8x7B-v0.1.json'), 'utf8');
    const bad = good.replace(/"num_key_value_heads": 8/, '"num_key_value_heads": 5');
    assert.notEqual(bad, good);
    for (const [lang, width] of [['en', 1280], ['vi', 390]]) {
      const page = await new_page(site.browser, { width, height: 900 });
      await open(page, url(site, `&lang=${lang}&model=config&kv_reserve_gib=20`));
      await page.waitForSelector(`${CELL}[data-state="error"]`, { timeout: 60_000 });   // config without a file
      let runs = await runs_of(page, CELL);
      await paste_by_keyboard(page, CELL, 'model_config', bad);
      await page.waitForFunction(([cell, count]) => Number(document.querySelector(cell)?.dataset.runs || 0) > count ||
        document.querySelector(cell)?.dataset.state === 'error' && document.querySelector(`${cell} .sl-field-error:not([hidden])`)?.textContent.includes('num_key_value_heads'),
      [CELL, runs], { timeout: 30_000 });
      const error = await page.textContent(`${CELL} .sl-field-error:not([hidden]), ${CELL} .sl-error:not([hidden])`);
      assert.match(error, /num_key_value_heads/, `${lang}: the error names the key: ${error}`);
      assert.equal(await page.getAttribute(CELL, 'data-state'), 'error');

      // The real file (the paste box keeps its text: replaced and used again).
      runs = await runs_of(page, CELL);
      await page.fill(`${CELL} textarea[data-paste-for="model_config"]`, good);
      await page.click(`${CELL} .sl-paste-use`);
      assert.equal(await next_run(page, runs, CELL), 'done');
      const run = await saved_run(page, CELL);
      assert.ok(Math.abs(run.outputs.model_params_b - 46.7) < 0.5, `Mixtral's total: ${run.outputs.model_params_b}`);
      assert.ok(Math.abs(run.outputs.model_active_params_b - 12.9) < 0.2, `Mixtral's active: ${run.outputs.model_active_params_b}`);
      assert.ok(!page.url().includes('num_key_value_heads'), 'the file is not in the URL');
      await screenshot(page, `models-config-${lang}-${width}`, { of: CELL });
      assert.deepEqual(await axe_violations(page), [], `${lang} at ${width} px`);
      assert.deepEqual(page.problems, []);
      await page.context().close();
    }
  });

  test('bad config.json files get one message each, the same in the CLI and on the page; 50 MB is refused unread', async () => {
    const llama = JSON.parse(await readFile(join(CONFIGS, 'Llama-3.1-8B.json'), 'utf8'));
    const without = (key) => { const c = { ...llama }; delete c[key]; return JSON.stringify(c); };
    const cases = [
      ['not JSON', JSON.stringify(llama).slice(0, 60), /not JSON/],
      ['a missing key', without('num_hidden_layers'), /num_hidden_layers/],
      ['a negative size', JSON.stringify({ ...llama, hidden_size: -4096 }), /hidden_size/],
      ['an absurd size', JSON.stringify({ ...llama, num_hidden_layers: 1e6 }), /num_hidden_layers/],
      ['an unknown architecture', JSON.stringify({ ...llama, model_type: 'bert' }), /bert/],
    ];
    const dir = await mkdtemp(join(tmpdir(), 'sl-models-'));
    const page = await new_page(site.browser);
    try {
      await open(page, url(site, '&model=config'));
      await page.waitForSelector(`${CELL}[data-state="error"]`, { timeout: 60_000 });
      for (const [what, text, names] of cases) {
        const path = join(dir, 'config.json');
        await writeFile(path, text);
        const message = cli_error(path);
        assert.match(message, names, `${what}: the CLI's message names it: ${message}`);
        assert.match(message, /^model_config/, `${what}: the message starts at the parameter: ${message}`);
        await reveal(page, `${CELL} [data-param="model_config"] .sl-paste`);   // the paste box, open
        await page.fill(`${CELL} textarea[data-paste-for="model_config"]`, text);
        await page.click(`${CELL} [data-param="model_config"] .sl-paste-use`);
        await page.waitForFunction(([cell, expected]) => document.querySelector(cell)?.dataset.state === 'error' &&
          [...document.querySelectorAll(`${cell} .sl-field-error:not([hidden]), ${cell} .sl-error:not([hidden])`)].some((e) => e.textContent.includes(expected)),
        [CELL, message], { timeout: 30_000 }).catch(() => {});
        const shown = await page.$$eval(`${CELL} .sl-field-error:not([hidden]), ${CELL} .sl-error:not([hidden])`, (es) => es.map((e) => e.textContent).join(' | '));
        assert.ok(shown.includes(message), `${what}: the page shows the CLI's message "${message}", got "${shown}"`);
        await page.click(`${CELL} [data-param="model_config"] .sl-paste-clear`);
      }
      // 50 MB, chosen as a file: refused before it is read, with the size.
      const large = join(dir, 'huge-config.json');
      await writeFile(large, '');
      await truncate(large, 50 * 1024 * 1024);
      const message = cli_error(large);
      assert.equal(message, 'model_config must be at most 1048576 B, got 5.24288e+07 B');   // the file's size, not what was read
      await reveal(page, `${CELL} input[name="model_config"]`);
      await page.setInputFiles(`${CELL} input[name="model_config"]`, large);
      // The page words a too_large error with its own template (i18n), naming the field and the file's size.
      await page.waitForFunction((cell) => /5[.,]24288e\+07/.test(document.querySelector(`${cell} .sl-field-error:not([hidden])`)?.textContent ?? ''),
        CELL, { timeout: 30_000 }).catch(() => {});
      const refused = await page.$$eval(`${CELL} .sl-field-error:not([hidden]), ${CELL} .sl-error:not([hidden])`, (es) => es.map((e) => e.textContent).join(' | '));
      assert.match(refused, /config\.json.*5[.,]24288e\+07/, `the page refuses the file with its size: "${refused}"`);
      assert.deepEqual(page.problems, []);
    } finally {
      await page.context().close();
      await rm(dir, { recursive: true });
    }
  });
});

