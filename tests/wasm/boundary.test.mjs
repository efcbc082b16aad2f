// The wasm boundary never throws (docs/boundary.md): hostile calls of run / probe_plan / list_cells under node
// each return a result or {error: {code, param, message}}, and a caller's progress callback that throws
// leaks nothing (no heap growth, no live emval handles) over a 1,000-run soak.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadModule } from './load_module.mjs';

const M = await loadModule();
const CELL = 'queues/littles-law';
const SMALL = { n: '200' };

/** Asserts an {error} object with text code, param and message; returns it. */
function assert_error(value, label) {
  assert.ok(value && typeof value === 'object', `${label}: not an object`);
  assert.ok(value.error && typeof value.error === 'object', `${label}: no error in ${JSON.stringify(value).slice(0, 200)}`);
  for (const field of ['code', 'param', 'message']) assert.equal(typeof value.error[field], 'string', `${label}: error.${field}`);
  assert.ok(value.error.code.length > 0 && value.error.message.length > 0, `${label}: empty code or message`);
  return value.error;
}

/** Calls fn; it must return (not throw) an error object. */
function refused(label, fn) {
  let value;
  assert.doesNotThrow(() => { value = fn(); }, `${label} threw`);
  return assert_error(value, label);
}

const BIG = 'x'.repeat(10 << 20);   // 10 MiB of text (about 0.5-2 s per call: it is copied into wasm)
const LONG = 'x'.repeat(1 << 20);

test('run: a non-string cell or seed, or inputs that are not an object, come back as {error}', () => {
  for (const [label, cell] of [['number', 42], ['null', null], ['undefined', undefined], ['object', {}], ['array', [CELL]]]) {
    assert.equal(refused(`cell ${label}`, () => M.run(cell, SMALL, '1', null)).param, 'cell');
  }
  for (const [label, seed] of [['number', 1], ['null', null], ['undefined', undefined], ['NaN', NaN], ['object', { seed: '1' }]]) {
    assert.equal(refused(`seed ${label}`, () => M.run(CELL, SMALL, seed, null)).param, 'seed');
  }
  for (const [label, inputs] of [['null', null], ['array', ['n', '200']], ['number', 5], ['string', 'n=200'],
    ['Uint8Array', new Uint8Array(4)], ['function', () => SMALL]]) {
    assert.equal(refused(`inputs ${label}`, () => M.run(CELL, inputs, '1', null)).param, 'inputs');
  }
  assert.equal(refused('on_progress a string', () => M.run(CELL, SMALL, '1', 'progress')).param, 'on_progress');
  // Wrong argument counts (Embind itself throws on them): missing arguments are undefined, extra are ignored.
  assert.equal(refused('no arguments', () => M.run()).param, 'cell');
  assert.equal(refused('cell only', () => M.run(CELL)).param, 'seed');
  assert.ok(M.run(CELL, SMALL, '1', null, 'extra').outputs.L > 0);
});

test('run: values that are not text, unknown and missing params, 10 MB strings, NaN and Infinity', () => {
  for (const [label, value] of [['number', 200], ['NaN', NaN], ['Infinity', Infinity], ['null', null], ['boolean', true],
    ['object', { v: '200' }], ['array', ['200']], ['symbol', Symbol('n')], ['Float64Array', new Float64Array(2)]]) {
    assert.equal(refused(`value ${label}`, () => M.run(CELL, { n: value }, '1', null)).param, 'n', label);
  }
  assert.equal(refused('unknown param', () => M.run(CELL, { nope: '1' }, '1', null)).code, 'unknown_param');
  assert.ok(M.run(CELL, {}, '1', null).outputs.L > 0, 'missing params take their defaults');
  assert.ok(M.run(CELL, undefined, '1', null).outputs.L > 0, 'no inputs: the defaults');
  assert.equal(refused('10 MB value', () => M.run(CELL, { lambda: BIG }, '1', null)).param, 'lambda');
  refused('1 MB key', () => M.run(CELL, { [LONG]: '1' }, '1', null));
  assert.equal(refused('10 MB seed', () => M.run(CELL, SMALL, BIG, null)).param, 'seed');
  refused('1 MB cell', () => M.run(LONG, SMALL, '1', null));
  for (const text of ['NaN', 'Infinity', '-Infinity', 'nan', 'inf', '1e999']) {
    assert.equal(refused(`"${text}"`, () => M.run(CELL, { lambda: text }, '1', null)).param, 'lambda', text);
  }
});

test('run: inputs whose reading throws (getter, Proxy) come back as {error} before any wasm runs', () => {
  const getter = Object.defineProperty({}, 'n', { enumerable: true, get() { throw new Error('no'); } });
  assert.equal(refused('throwing getter', () => M.run(CELL, getter, '1', null)).param, 'inputs');
  const trap = new Proxy({}, { ownKeys() { throw new Error('no'); } });
  assert.equal(refused('throwing ownKeys', () => M.run(CELL, trap, '1', null)).param, 'inputs');
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  assert.equal(refused('revoked Proxy', () => M.run(CELL, proxy, '1', null)).param, 'inputs');
  const proto = new Proxy({}, { getPrototypeOf() { throw new Error('no'); } });
  assert.equal(refused('Proxy value', () => M.run(CELL, { n: proto }, '1', null)).param, 'n');
});

test('run: huge, empty and junk measured.* samples, and a photo that is not a JPEG', () => {
  const plan = M.probe_plan('request/serialization', {});
  assert.ok(Array.isArray(plan) && plan.length > 0, 'request/serialization plans json_parse probes');
  const key = `measured.${plan[0].probe}.${plan[0].key}`;
  const huge = Array.from({ length: 100_001 }, () => '0.001').join(' ');
  assert.equal(refused('100,001 samples', () => M.run('request/serialization', { [key]: huge }, '1', null)).param, key);
  assert.equal(refused('samples as an array', () => M.run('request/serialization', { [key]: [0.001] }, '1', null)).param, key);
  for (const samples of ['NaN 1', '-1', '1e999', LONG]) {
    assert.equal(refused(`samples ${samples.slice(0, 8)}`, () => M.run('request/serialization', { [key]: samples }, '1', null)).param, key);
  }
  const empty = M.run('request/serialization', { [key]: '' }, '1', null);
  assert.ok(empty.error ? assert_error(empty, 'empty samples') : empty.outputs, 'empty samples: a result or an error');
  assert.equal(refused('unknown probe', () => M.run(CELL, { 'measured.nope.x': '1' }, '1', null)).code, 'unknown_param');
  const noise = new Uint8Array(4096).map((_, i) => (i * 2654435761) >>> 24);
  for (const [label, photo] of [['noise', noise], ['JPEG magic then noise', Uint8Array.of(0xff, 0xd8, 0xff, ...noise.slice(0, 64))],
    ['text', 'not a photo']]) {
    assert.equal(refused(`photo ${label}`, () => M.run('request/resnet-request', { photo }, '1', null)).param, 'photo', label);
  }
});

test('probe_plan and list_cells answer any arguments without throwing', () => {
  assert.equal(refused('probe_plan cell number', () => M.probe_plan(7, {})).param, 'cell');
  assert.equal(refused('probe_plan inputs null', () => M.probe_plan('request/serialization', null)).param, 'inputs');
  assert.equal(refused('probe_plan value number', () => M.probe_plan('request/serialization', { n: 5 })).param, 'n');
  assert.equal(refused('probe_plan unknown cell', () => M.probe_plan('nope/nope', {})).code, 'unknown_cell');
  assert.equal(refused('probe_plan no arguments', () => M.probe_plan()).param, 'cell');
  assert.ok(Array.isArray(M.probe_plan(CELL, {})), 'a cell without probes plans nothing');
  const cells = M.list_cells('extra', 1);
  assert.ok(Array.isArray(cells) && cells.some((cell) => cell.id === CELL));
  assert.equal(typeof M.timing_protocol(1).min_sample_s, 'number');
});

// A simulation that holds its event queue and tables when it first reports progress: when that report threw
// through wasm (before the guard), 1,000 runs left +8.5 MiB of heap and 2,000 emval handles behind.
const SOAK_CELL = 'queues/burst-admission';
const SOAK = { base_per_s: '100', spike_per_s: '1000', spike_at_s: '0', spike_s: '0.1', after_s: '0' };

test('a progress callback that throws: the run returns {error}, and 1,000 such runs leak nothing', () => {
  let calls = 0;
  const throwing = () => { ++calls; throw new Error('caller bug'); };
  const first = refused('throwing on_progress', () => M.run(SOAK_CELL, SOAK, '1', throwing));
  assert.equal(first.param, 'on_progress');
  assert.match(first.message, /caller bug/);
  // The same inputs run cleanly afterwards.
  const clean = M.run(SOAK_CELL, SOAK, '1', null);
  assert.ok(!clean.error && Object.keys(clean.outputs).length > 0, JSON.stringify(clean.error));
  for (let i = 0; i < 20; ++i) M.run(SOAK_CELL, SOAK, '1', throwing);   // warm-up: allocator pools, JIT
  const heap_before = M.HEAP8.length;
  const handles_before = M.count_emval_handles();
  calls = 0;
  for (let i = 0; i < 1000; ++i) {
    const result = M.run(SOAK_CELL, SOAK, '1', throwing);
    assert.equal(result.error?.param, 'on_progress');
  }
  assert.ok(calls >= 1000, `the callback ran (${calls} calls)`);
  assert.equal(M.HEAP8.length, heap_before, 'wasm heap size unchanged');
  assert.equal(M.count_emval_handles(), handles_before, 'no emval handle left alive');
  assert.deepEqual(M.run(SOAK_CELL, SOAK, '1', null).outputs, clean.outputs, 'numbers unchanged after the soak');
});
