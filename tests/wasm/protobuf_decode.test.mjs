// Our protobuf encoder (src/request/wire/protobuf_wire.cpp) must write what real protobuf readers read. The
// serialization cell outputs the protobuf bytes of the first 8 values of its seeded message and those values;
// here protobufjs decodes the bytes, and the floats must come back exactly. The cell times this machine, so
// the generic native-vs-wasm test skips it: its byte counts and sample values are compared here instead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import protobuf from 'protobufjs';
import { execFileSync } from 'node:child_process';
import { loadModule, plain, cli } from './load_module.mjs';

const CELL = 'request/serialization';
const QUICK = { repeats: '3', sweep_max: '100' };  // few samples: times are not looked at
const Embedding = protobuf.parse('syntax = "proto3"; message Embedding { repeated float values = 1; }').root
  .lookupType('Embedding');

function nativeRun(inputs, seed) {
  const args = ['run', CELL, '--json', '--seed', seed];
  for (const [k, v] of Object.entries(inputs)) args.push(`--${k}`, v);
  // SERVING_LAB_CLI lets an engineer point the test at their own build directory.
  const stdout = execFileSync(process.env.SERVING_LAB_CLI ?? cli, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  return JSON.parse(stdout);
}

function decodeSample(result) {
  const bytes = Uint8Array.from(result.tables.sample_bytes.byte);
  return { bytes, decoded: Embedding.decode(bytes).values, expected: Array.from(result.tables.sample_values.value) };
}

for (const seed of ['1', '2', '12345']) {
  test(`protobufjs decodes the cell's protobuf bytes to exactly its float32 values (seed ${seed})`, () => {
    const { bytes, decoded, expected } = decodeSample(nativeRun(QUICK, seed));
    assert.equal(bytes[0], 0x0a, 'key: field 1, wire type 2 (length-delimited)');
    assert.equal(bytes[1], 4 * expected.length, 'payload length');
    assert.equal(decoded.length, expected.length);
    for (let i = 0; i < expected.length; ++i) {
      assert.equal(Math.fround(expected[i]), expected[i], 'the sample values are float32');
      assert.equal(decoded[i], expected[i], `value ${i}`);
    }
  });
}

test('protobufjs encodes the same values to the same bytes (packed repeated float)', () => {
  const { bytes, expected } = decodeSample(nativeRun(QUICK, '3'));
  const theirs = Embedding.encode(Embedding.create({ values: expected })).finish();
  assert.deepEqual(Array.from(theirs), Array.from(bytes));
});

test('in wasm the cell writes the same bytes, sample values and message sizes as natively', async () => {
  const M = await loadModule();
  const ids = plain(M.list_cells()).map((c) => c.id);
  if (!ids.includes(CELL)) return;  // a wasm build older than this cell
  const native = nativeRun(QUICK, '9');
  const wasm = plain(M.run(CELL, QUICK, '9', null));
  assert.deepEqual(wasm.tables.sample_bytes, native.tables.sample_bytes);
  assert.deepEqual(wasm.tables.sample_values, native.tables.sample_values);
  for (const name of ['json_full_bytes', 'json_compact_bytes', 'base64_bytes', 'protobuf_bytes', 'round_trip_ok'])
    assert.equal(wasm.outputs[name], native.outputs[name], name);
  assert.equal(wasm.outputs.round_trip_ok, 1);
  const { decoded, expected } = decodeSample(wasm);
  assert.deepEqual(Array.from(decoded), expected);
});
