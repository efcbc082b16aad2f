// Trace replay, timed (a benchmark, not a test: npm test does not run it). Issue 32: "replay of 10^5 trace rows
// through one engine and through a 4-replica fleet, native and in Chromium".
//
//   node bench/trace_replay.mjs [--runs 3] [--dist dist] [--no-browser] [--no-wasm]
//
// The trace: 100,000 rows written here to a temporary CSV (2.1 MB): the bundled Azure sample's 1,000 requests
// (assets/traces/azure-conv-2023-sample.csv) tiled 100 times, each copy 216 s after the one before, times as
// seconds (the plain layout), so the file is parsed whole, not looped by the cell. Two inputs of llm/fleet:
//   engine  replicas 1, rate_scale 2 (9.2 requests/s: one H100 serving Llama-3-8B keeps up), n 100000;
//   fleet   replicas 4, rate_scale 8 (37 requests/s), least-tokens router, n 100000;
// both with max_model_len 8192 (no request cut), sweep none. Each is timed --runs times (median), the targets
// taking turns run by run:
//   native  build/native/serving-lab run llm/fleet --trace @file --json: wall and CPU time of the process;
//   node    build/wasm under node: M.run() with the file's bytes as the trace input (wall);
//   page    dist/ in headless Chromium, the cell alone (embed=1): the CSV chosen in its file field, then from
//           pressing Run (data-state "running") to the result shown ("done"); the first run is not timed.
// Beside each, the same cell on the length laws fitted to the trace at the same n (workload = laws), natively,
// so the cost of reading and replaying a file is set against drawing the requests.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync, rmSync, existsSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { DIST, ROOT, launch_browser, start_server } from '../tests/e2e/helpers.mjs';

const { values: options } = parseArgs({ options: {
  runs: { type: 'string', default: '3' }, dist: { type: 'string', default: DIST },
  'no-browser': { type: 'boolean', default: false }, 'no-wasm': { type: 'boolean', default: false } } });
const RUNS = Math.max(1, Number(options.runs) || 3);
const CLI = path.join(ROOT, 'build/native/serving-lab');
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };

// ---- the trace ----
const sample = readFileSync(path.join(ROOT, 'assets/traces/azure-conv-2023-sample.csv'), 'utf8').split('\n')
  .filter((line) => line && !line.startsWith('#') && !line.startsWith('TIMESTAMP'))
  .map((line) => line.split(','));
const t0 = Date.parse(`${sample[0][0].replace(' ', 'T').slice(0, 23)}Z`);
const PERIOD_S = 216.027393 + 216.027393 / 999;   // the sample's span plus its mean gap
const lines = ['arrival_s,prompt_tokens,output_tokens'];
for (let copy = 0; copy < 100; ++copy) {
  for (const [stamp, prompt, output] of sample) {
    const s = (Date.parse(`${stamp.replace(' ', 'T').slice(0, 23)}Z`) - t0) / 1e3 + Number(`0.0000${stamp.slice(23)}`) + copy * PERIOD_S;
    lines.push(`${s.toFixed(6)},${prompt},${output}`);
  }
}
const dir = mkdtempSync(path.join(tmpdir(), 'sl-bench-trace-'));
const FILE = path.join(dir, 'trace-100k.csv');
writeFileSync(FILE, `${lines.join('\n')}\n`);
const BYTES = readFileSync(FILE);
console.log(`trace: ${lines.length - 1} rows, ${(BYTES.length / 1e6).toFixed(1)} MB (${FILE})`);

const base = { workload: 'trace', n: 100000, max_model_len: 8192, sweep: 'none' };
const CASES = [['engine', { ...base, replicas: 1, rate_scale: 2 }], ['fleet', { ...base, replicas: 4, rate_scale: 8 }]];
const flags = (inputs) => Object.entries(inputs).flatMap(([k, v]) => [`--${k}`, String(v)]);

function native(inputs, with_file = true) {
  const args = ['run', 'llm/fleet', '--json', ...flags(inputs), ...(with_file ? ['--trace', `@${FILE}`] : [])];
  const line = execFileSync('/bin/sh', ['-c', `/usr/bin/time -f '%e %U %S' ${CLI} ${args.join(' ')} 2>&1 >/dev/null`],
    { encoding: 'utf8' }).trim().split('\n').pop();
  const [wall, user, sys] = line.split(' ').map(Number);
  if (!Number.isFinite(wall)) throw new Error(line);
  return { wall_ms: wall * 1e3, cpu_ms: (user + sys) * 1e3 };
}
const json_of = (inputs) => JSON.parse(execFileSync(CLI, ['run', 'llm/fleet', '--json', ...flags(inputs), '--trace', `@${FILE}`],
  { encoding: 'utf8', maxBuffer: 256 << 20 }));

let M = null;
if (!options['no-wasm'] && existsSync(path.join(ROOT, 'build/wasm/serving_lab.js'))) {
  const { loadModule } = await import('../tests/wasm/load_module.mjs');
  M = await loadModule();
}
function node_run(inputs) {
  const strings = Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, String(v)]));
  const t = performance.now();
  const r = M.run('llm/fleet', { ...strings, trace: new Uint8Array(BYTES) }, '1', () => {});
  if (r.error) throw new Error(r.error.message);
  return { wall_ms: performance.now() - t, outputs: r.outputs };
}

const load_before = loadavg()[0];
const rows = {};
const server = options['no-browser'] ? null : await start_server({ dir: path.resolve(options.dist) });
const browser = options['no-browser'] ? null : await launch_browser();
try {
  const page = browser ? await (await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' })).newPage() : null;
  const sel = '#fleet';
  for (const [name, inputs] of CASES) {
    const r = json_of(inputs);
    const laws = { ...Object.fromEntries(Object.entries(inputs).filter(([k]) => !['workload', 'rate_scale'].includes(k))),
      lambda: r.outputs.trace_rate_per_s, doc_frac: 0 };
    const t = { native_wall: [], native_cpu: [], laws_cpu: [], node: [], page: [] };
    rows[name] = { t, tok_per_s: r.outputs.tok_per_s, ttft_p99_ms: r.outputs.ttft_p99_ms, rows: r.outputs.trace_rows };
    if (page) {
      const query = new URLSearchParams(Object.entries(inputs).map(([k, v]) => [k, String(v)]));
      await page.goto(`${server.url}lab.html?lab=llm&cell=fleet&embed=1&${query}`);
      await page.waitForSelector(`${sel}[data-state="done"]`, { timeout: 120_000 });   // the sample, at these inputs
      const before = await page.$eval(sel, (c) => Number(c.dataset.runs));
      await page.$eval(`${sel} input[name="trace"]`, (input) => { for (let d = input.closest('details'); d; d = d.parentElement?.closest('details')) d.open = true; });
      await page.setInputFiles(`${sel} input[name="trace"]`, FILE);   // the file's first run: not timed
      await page.waitForFunction(([s, b]) => Number(document.querySelector(s).dataset.runs) > b && document.querySelector(s).dataset.state === 'done',
        [sel, before], { timeout: 120_000 });
      rows[name].page_rows = (await page.textContent(`${sel} .sl-outputs tr[data-key="trace_rows"] td`)).trim();
    }
    for (let i = 0; i < RUNS; ++i) {
      const n = native(inputs);
      t.native_wall.push(n.wall_ms); t.native_cpu.push(n.cpu_ms);
      t.laws_cpu.push(native(laws, false).cpu_ms);
      if (M) t.node.push(node_run(inputs).wall_ms);
      if (page) {
        const times = await page.evaluate(async (s) => {
          const cell = document.querySelector(s);
          const before = Number(cell.dataset.runs);
          const seen = {};
          const observer = new MutationObserver(() => { seen[cell.dataset.state] ??= performance.now(); });
          observer.observe(cell, { attributes: true, attributeFilter: ['data-state'] });
          cell.querySelector('button[type="submit"]').click();
          while (!(Number(cell.dataset.runs) > before && cell.dataset.state === 'done')) await new Promise((r) => setTimeout(r, 10));
          observer.disconnect();
          return seen;
        }, sel);
        t.page.push(times.done - times.running);
      }
    }
  }
} finally {
  await browser?.close();
  server?.close?.();
  rmSync(dir, { recursive: true, force: true });
}
const f = (x) => (x === undefined ? '—' : x >= 100 ? x.toFixed(0) : x.toFixed(1));
console.log(`\nmedian of ${RUNS}, ms (load average ${load_before.toFixed(2)} -> ${loadavg()[0].toFixed(2)}, 2 cores)`);
console.log('| case | rows replayed | native wall | native CPU | laws, native CPU | node (wasm) | Chromium page | page/native CPU | tok/s | TTFT p99 ms |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const [name, row] of Object.entries(rows)) {
  const m = Object.fromEntries(Object.entries(row.t).map(([k, v]) => [k, v.length ? median(v) : undefined]));
  console.log(`| ${name} | ${row.rows}${row.page_rows ? ` (page ${row.page_rows})` : ''} | ${f(m.native_wall)} | ${f(m.native_cpu)} | ${f(m.laws_cpu)} | ${f(m.node)} | ${f(m.page)} | ${m.page ? (m.page / m.native_cpu).toFixed(2) : '—'} | ${row.tok_per_s.toFixed(0)} | ${row.ttft_p99_ms.toFixed(1)} |`);
}
