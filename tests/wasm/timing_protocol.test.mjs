// The timing protocol crosses the boundary once (kernels/timing_protocol.h → timing_protocol()), so the
// browser's probes and C++ time with the same constants.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadModule } from './load_module.mjs';

const M = await loadModule();

test('timing_protocol() gives every constant the probes read, each a positive number', () => {
  const protocol = M.timing_protocol();
  const probes = readFileSync(new URL('../../web/probes/timing.js', import.meta.url), 'utf8');
  const read = [...probes.matchAll(/\bp\.([a-z_]+)|the_protocol\(\)\.([a-z_]+)/g)].map((m) => m[1] ?? m[2]);
  assert.ok(read.length > 0);
  for (const name of new Set(read)) {
    assert.equal(typeof protocol[name], 'number', name);
    assert.ok(protocol[name] > 0, name);
  }
});
