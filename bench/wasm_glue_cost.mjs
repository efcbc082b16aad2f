// What the glue costs per run, for two builds of the module side by side (e.g. before/after a link option):
//   node bench/wasm_glue_cost.mjs [DIR_A [DIR_B]]     (each DIR holds serving_lab.{js,wasm}; default build/wasm)
// Times, under node, every deterministic cell at its defaults (median of 3 runs), the cells where the glue
// is most of the work (list_cells, a tiny run with and without a progress callback), and reports each
// build's total and the ratio B/A. Runs alternate between the builds so that machine load hits both alike.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { root } from '../tests/wasm/load_module.mjs';

const dirs = process.argv.slice(2).map((dir) => path.resolve(dir));
if (!dirs.length) dirs.push(path.join(root, 'build/wasm'));
const require = createRequire(import.meta.url);
const modules = [];
for (const dir of dirs) {
  const create = require(path.join(dir, 'serving_lab.js'));
  modules.push(await create({ wasmBinary: readFileSync(path.join(dir, 'serving_lab.wasm')) }));
}

function median_ms(fn, repeats) {
  const times = [];
  for (let i = 0; i < repeats; ++i) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

// The slowest cells at their defaults (5-15 s each here) add nothing about the glue.
const SKIP = new Set(['request/skew-parity', 'llm/cpu-decode-roofline']);
const cases = [
  ['list_cells() ×100', (M) => { for (let i = 0; i < 100; ++i) M.list_cells(); }],
  ['littles-law n=100 ×200', (M) => { for (let i = 0; i < 200; ++i) M.run('queues/littles-law', { n: '100' }, '1', null); }],
  ['littles-law n=2e6 +progress', (M) => M.run('queues/littles-law', { n: '2000000' }, '1', () => {})],
];
for (const cell of modules[0].list_cells()) {
  if (!cell.deterministic && cell.deterministic !== undefined) continue;
  if ((cell.probes || []).length) continue;   // their samples come from the browser
  if (SKIP.has(cell.id)) continue;
  cases.push([cell.id, (M) => {
    const result = M.run(cell.id, {}, '1', null);
    if (result.error) throw new Error(`${cell.id}: ${result.error.message}`);
  }]);
}

const totals = modules.map(() => 0);
console.log(`${'case'.padEnd(40)}${dirs.map((_, i) => `   ${'AB'[i]} ms`.padStart(11)).join('')}${modules.length > 1 ? '     B/A' : ''}`);
for (const [name, fn] of cases) {
  const ms = modules.map(() => []);
  for (let round = 0; round < 3; ++round) modules.forEach((M, i) => ms[i].push(median_ms(() => fn(M), 1)));
  const med = ms.map((list) => list.sort((a, b) => a - b)[1]);
  med.forEach((value, i) => { totals[i] += value; });
  const ratio = med.length > 1 ? `${(med[1] / med[0]).toFixed(3).padStart(8)}` : '';
  console.log(`${name.slice(0, 39).padEnd(40)}${med.map((value) => value.toFixed(1).padStart(11)).join('')}${ratio}`);
}
console.log(`${'total'.padEnd(40)}${totals.map((value) => value.toFixed(0).padStart(11)).join('')}` +
  `${totals.length > 1 ? (totals[1] / totals[0]).toFixed(3).padStart(8) : ''}`);
dirs.forEach((dir, i) => console.log(`${'AB'[i]} = ${dir}`));
