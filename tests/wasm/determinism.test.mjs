// The same cell, inputs and seed give bit-identical numbers natively and in wasm. Golden values come from
// the native build during this run; nothing is pasted in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadModule, runCli, plain, assetInputs } from './load_module.mjs';

const M = await loadModule();
const cells = JSON.parse(runCli(['list', '--json']).stdout);

// Extra non-default inputs, per cell, for a few cells whose code paths differ by input.
const variants = {
  'queues/littles-law': [{ service: 'det', n: '30000' }, { lambda: '250', n: '20000' }],
};

function cliArgs(id, inputs, seed) {
  const args = ['run', id, '--json', '--seed', seed];
  for (const [k, v] of Object.entries(inputs)) args.push(`--${k}`, v);
  return args;
}

test('the wasm module lists the same cells, parameters, defaults and ranges as the native CLI', () => {
  assert.deepEqual(plain(M.list_cells()), cells);
});

test('the module and the CLI write the same keys in the same order (one field list, core/result_fields.h)', () => {
  assert.equal(JSON.stringify(plain(M.list_cells())), JSON.stringify(cells));
  const native = runCli(cliArgs('queues/littles-law', { n: '2000' }, '7'));
  assert.equal(JSON.stringify(plain(M.run('queues/littles-law', { n: '2000' }, '7', null))), JSON.stringify(JSON.parse(native.stdout)));
  const bad = runCli(['run', 'queues/littles-law', '--json', '--lambda', '-1']);
  assert.equal(JSON.stringify(M.run('queues/littles-law', { lambda: '-1' }, '1', null)), JSON.stringify(JSON.parse(bad.stdout)));
});

// Cells that time this machine (deterministic: false) but can run without measuring: compared that way.
const unmeasured = {
  'request/cold-start': [{ measure: 'off' }],
};

for (const cell of cells) {
  const runs = cell.deterministic !== false ? [{}, ...(variants[cell.id] ?? [])] : (unmeasured[cell.id] ?? []);
  for (const inputs of runs) {
    test(`${cell.id} ${JSON.stringify(inputs)} gives identical outputs, tables and book values natively and in wasm`, () => {
      const native = runCli(cliArgs(cell.id, inputs, '7'));
      assert.equal(native.status, 0, native.stderr);
      const expected = JSON.parse(native.stdout);
      // A cell's data assets (the MNIST digits) come as bytes, as the worker passes them; the CLI has them built in.
      const got = plain(M.run(cell.id, { ...inputs, ...assetInputs(cell) }, '7', null));
      assert.deepEqual(got.outputs, expected.outputs);
      assert.deepEqual(got.tables, expected.tables);
      assert.deepEqual(got.book, expected.book);
      assert.deepEqual(got.inputs, expected.inputs);
      assert.deepEqual(got.notices, expected.notices);
    });
  }
}

test('the digit cells name their missing data asset in wasm instead of computing without it', () => {
  const uses_digits = cells.filter((cell) => (cell.assets || []).some((asset) => asset.name === 'mnist-digits'));
  assert.deepEqual(uses_digits.map((cell) => cell.id).sort(), ['request/calibration', 'request/skew-parity']);
  for (const cell of uses_digits) {
    const got = M.run(cell.id, {}, '7', null);
    assert.equal(got.error?.code, 'missing_asset', JSON.stringify(got.error));
    assert.equal(M.run(cell.id, { 'asset.mnist-digits': new Uint8Array([1, 2, 3]) }, '7', null).error?.code, 'bad_asset');
  }
});

test('a different seed changes a simulated cell in wasm as it does natively', () => {
  const a = plain(M.run('queues/littles-law', { n: '5000' }, '1', null));
  const b = plain(M.run('queues/littles-law', { n: '5000' }, '2', null));
  assert.notEqual(a.outputs.W_ms, b.outputs.W_ms);
});

test('bad inputs give the same error in wasm as on the CLI, and the module keeps working', () => {
  for (const [inputs, code] of [
    [{ lambda: '-1' }, 'out_of_range'],
    [{ lambda: 'NaN' }, 'not_finite'],
    [{ n: '1e12' }, 'out_of_range'],
    [{ service: 'gamma' }, 'bad_choice'],
    [{ bogus: '1' }, 'unknown_param'],
  ]) {
    const got = M.run('queues/littles-law', inputs, '1', null);
    assert.equal(got.error?.code, code, JSON.stringify(inputs));
    const native = runCli(cliArgs('queues/littles-law', inputs, '1'));
    assert.equal(native.status, 2);
    assert.equal(native.stderr.trim(), `error: ${got.error.message}`);
  }
  assert.equal(M.run('queues/nope', {}, '1', null).error.code, 'unknown_cell');
  assert.equal(M.run('queues/littles-law', {}, '-1', null).error.param, 'seed');
  assert.ok(M.run('queues/littles-law', { n: '1000' }, '1', null).outputs.L > 0);
});

test('progress is reported from inside a long run and ends at 1', () => {
  const fracs = [];
  M.run('queues/littles-law', { n: '2000000' }, '1', (f) => fracs.push(f));
  assert.ok(fracs.length >= 2, `got ${fracs.length} progress calls`);
  assert.equal(fracs.at(-1), 1);
  for (let i = 1; i < fracs.length; i++) assert.ok(fracs[i] >= fracs[i - 1]);
});
