// Native vs wasm time of the same cell runs, measured side by side in one run:
//   node bench/native_vs_wasm.mjs        (after building build/native and build/wasm)
// Native: bench/cell_timing (in-process wall clock). Wasm: the module under node (V8, like Chromium).
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { loadModule, root } from '../tests/wasm/load_module.mjs';

const cases = [
  ['queues/littles-law', { n: '1000000' }],
  ['queues/littles-law', { n: '1000000', service: 'det' }],
];
const repeats = 5;
const M = await loadModule();
console.log('cell                     inputs                          native ms   wasm ms   wasm/native');
for (const [cell, inputs] of cases) {
  const args = [cell, '--repeats', String(repeats)];
  for (const [k, v] of Object.entries(inputs)) args.push(`--${k}`, v);
  const native = JSON.parse(execFileSync(path.join(root, 'build/native/cell_timing'), args, { encoding: 'utf8' }));
  const times = [];
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    const r = M.run(cell, inputs, '1', null);
    times.push(performance.now() - t0);
    if (r.error) throw new Error(r.error.message);
  }
  times.sort((a, b) => a - b);
  const wasm_ms = times[Math.floor(times.length / 2)];
  const native_ms = native.median_s * 1e3;
  console.log(`${cell.padEnd(24)} ${JSON.stringify(inputs).padEnd(31)} ${native_ms.toFixed(1).padStart(9)} ${wasm_ms.toFixed(1).padStart(9)} ${(wasm_ms / native_ms).toFixed(2).padStart(12)}`);
}
