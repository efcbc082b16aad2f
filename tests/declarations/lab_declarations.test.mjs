// What a lab file names — key parameters, headline and predicted outputs, outputs in chart summaries, result
// and chart tables — is declared in the cell's C++ spec, so the page never shows a slider, figure or table that no
// run can fill. The specs are the native CLI's `serving-lab list --json`, the same JSON as the wasm module's
// list_cells() (tests/wasm/determinism.test.mjs): npm test runs this right after the native build, before the
// module is built, so a typo in a lab file fails in the first minutes.
//   node --test tests/declarations/   (after the native build)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { load_labs } from '../../scripts/labs/load.mjs';
import { data_names } from '../../web/js/charts.js';

const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../build/native/serving-lab');
const specs = new Map(JSON.parse(execFileSync(cli, ['list', '--json'], { encoding: 'utf8', maxBuffer: 64 << 20 }))
  .map((spec) => [spec.id, spec]));
const cells = (await load_labs()).flatMap((lab) => lab.cells);

for (const cell of cells) {
  test(`${cell.id}: every name its lab file uses is declared in C++`, () => {
    const spec = specs.get(cell.id);
    assert.ok(spec, 'registered in C++');
    const outputs = new Set(spec.outputs.map((output) => output.name));
    const tables = new Set([...spec.tables.map((table) => table.name), 'book']);
    for (const name of cell.key_params || []) {
      const param = spec.params.find((p) => p.name === name);
      assert.ok(param, `key parameter ${name} is a parameter`);
      assert.ok(['real', 'count'].includes(param.kind), `key parameter ${name} is a number`);
      assert.ok(param.slider.min < param.slider.max, `${name}: slider range`);
    }
    for (const name of cell.headline || []) assert.ok(outputs.has(name), `headline ${name} is a declared output`);
    if (cell.predict) assert.ok(outputs.has(cell.predict.output), `predicted ${cell.predict.output} is a declared output`);
    for (const chart of cell.charts) {
      for (const lang of ['en', 'vi']) {
        for (const [, name] of (chart.summary?.[lang] || '').matchAll(/\{(\w+)\}/g)) {
          assert.ok(outputs.has(name), `chart ${chart.id} summary (${lang}) names {${name}}, not a declared output`);
        }
      }
      for (const name of data_names(chart.spec)) assert.ok(tables.has(name), `chart ${chart.id} reads table ${name}, not declared`);
    }
    if (cell.result_table) assert.ok(tables.has(cell.result_table.table), `result table ${cell.result_table.table} is declared`);
    for (const name of Object.keys(cell.tables || {})) assert.ok(tables.has(name), `tables.${name} is a declared table`);
    // Checked challenges: the outputs they compare, the parameters they search and state, as C++ declares them.
    const number_param = (name) => spec.params.find((p) => p.name === name && ['real', 'count'].includes(p.kind));
    for (const challenge of cell.challenges || []) {
      const where = `challenge ${challenge.id}`;
      assert.ok(outputs.has(challenge.check.output), `${where}: checks ${challenge.check.output}, not a declared output`);
      const value = challenge.check.value;
      if (value.output) assert.ok(outputs.has(value.output), `${where}: compares with ${value.output}, not a declared output`);
      if (value.param) assert.ok(number_param(value.param), `${where}: compares with ${value.param}, not a number parameter`);
      if (challenge.search) assert.ok(number_param(challenge.search.param), `${where}: searches ${challenge.search.param}, not a number parameter`);
      if (challenge.answer) assert.ok(outputs.has(challenge.answer.output), `${where}: asks for ${challenge.answer.output}, not a declared output`);
      for (const [name, text] of Object.entries(challenge.given || {})) {
        const param = number_param(name);
        assert.ok(param, `${where}: states ${name}, not a number parameter`);
        assert.ok(Number(text) >= param.min && Number(text) <= param.max, `${where}: ${name} = ${text} is outside its range`);
      }
    }
  });
}

test('every lab has at least three checked challenges', () => {
  for (const lab of new Set(cells.map((cell) => cell.id.split('/')[0]))) {
    const count = cells.filter((cell) => cell.id.startsWith(`${lab}/`)).reduce((n, cell) => n + (cell.challenges || []).length, 0);
    assert.ok(count >= 3, `${lab}: ${count} challenges`);
  }
});

// Parameter groups and presets (C++ ParamSpec::group, CellSpec::presets): each group a cell uses has a label in
// both languages (web/i18n/<lang>.json param_groups, served apart as i18n/<lang>.groups.json); each preset C++
// declares has a label in both languages in the cell's lab file, and the lab file labels no other.
const i18n = Object.fromEntries(await Promise.all(['en', 'vi'].map(async (lang) =>
  [lang, JSON.parse(await readFile(new URL(`../../web/i18n/${lang}.json`, import.meta.url), 'utf8'))])));

test('every parameter group a cell uses is labelled in English and Vietnamese', () => {
  const used = new Set([...specs.values()].flatMap((spec) => spec.params.map((p) => p.group).filter(Boolean)));
  assert.ok(used.size >= 10, `groups in use: ${[...used]}`);
  for (const group of used) {
    for (const lang of ['en', 'vi']) assert.ok(i18n[lang].param_groups?.groups?.[group]?.trim(), `group ${group}: ${lang} label`);
  }
  assert.notEqual(i18n.en.param_groups.groups.model, i18n.vi.param_groups.groups.model);
});

for (const cell of cells) {
  const spec = specs.get(cell.id);
  if (!spec?.presets && !cell.presets) continue;
  test(`${cell.id}: its presets are declared in C++ and labelled in both languages`, () => {
    const ids = (spec.presets || []).map((preset) => preset.id);
    assert.deepEqual(Object.keys(cell.presets || {}).sort(), [...ids].sort(), 'the lab file labels exactly the C++ presets');
    for (const id of ids) for (const lang of ['en', 'vi']) assert.ok(cell.presets[id][lang]?.trim(), `preset ${id}: ${lang} label`);
    for (const preset of spec.presets) {
      for (const name of Object.keys(preset.values)) assert.ok(spec.params.some((p) => p.name === name), `preset ${preset.id} sets ${name}, a parameter`);
    }
  });
}

test('every llm and queues cell has a preset', () => {
  for (const spec of specs.values()) {
    if (['llm', 'queues'].includes(spec.lab)) assert.ok(spec.presets?.length >= 1, `${spec.id} has a preset`);
  }
});

test('serving-lab run --preset sets the preset\'s inputs; a flag beside it wins', () => {
  const run = (...flags) => JSON.parse(execFileSync(cli, ['run', 'queues/littles-law', '--json', ...flags], { encoding: 'utf8' }));
  const preset = specs.get('queues/littles-law').presets.find((p) => p.id === 'near-saturation');
  const plain = run();
  const with_preset = run('--preset', 'near-saturation');
  assert.equal(with_preset.inputs.lambda, Number(preset.values.lambda));
  assert.notEqual(with_preset.inputs.lambda, plain.inputs.lambda);
  assert.notDeepEqual(with_preset.outputs, plain.outputs, 'the preset changes the numbers');
  const overridden = run('--preset', 'near-saturation', '--lambda', '100');
  assert.equal(overridden.inputs.lambda, 100);
  assert.equal(overridden.inputs.mu, Number(preset.values.mu));
  assert.throws(() => execFileSync(cli, ['run', 'queues/littles-law', '--preset', 'nope'], { stdio: 'pipe' }), /preset must be one of near-saturation/);
});
