// llm/fleet in the page, in node (wasm) and native, side by side (a benchmark, not a test: npm test does not run
// it). Issue 16, point 5: "10^5 requests through one engine in <= 1 s in Chromium on this machine; a 10-point fleet
// sweep at 20,000 requests per point done in <= 3 s, with progress and Cancel".
//
//   node bench/fleet_browser.mjs [--runs 3] [--dist dist] [--no-browser] [--no-wasm] [--no-native]
//
// Two inputs of the cell:
//   engine  one engine, 10^5 requests: n 100000, sweep none, replicas 1, lambda 18, doc_frac 0, max_model_len 2048
//           (the workload of llm/continuous-batching's bench, without the long-document class);
//   sweep   the default fleet (llama3-8b on H100s, 40 req/s, 10 % long documents) swept over replicas with
//           sweep_points 10, at the largest n per point the cell's budget accepts, up to 20,000: the script asks
//           the CLI (bisection on its too_large error) and prints the n it found.
// Each is timed --runs times (median printed) on three targets, which take turns run by run; on a shared machine
// wall times grow with the load (printed), CPU times less, so the page (wall) is set beside the native CPU time:
//   native  build/native/serving-lab run llm/fleet --json: wall and CPU time of the process (/usr/bin/time), so
//           it includes starting the process and printing the JSON (a few ms);
//   node    build/wasm under node (tests/wasm/load_module.mjs): M.run() alone, the module already instantiated
//           (wall, and this process's CPU time);
//   page    dist/ served by scripts/serve.mjs, the cell alone (embed=1) in headless Chromium: from the cell's
//           data-state turning "running" (the Run button pressed) to "done" (result shown, charts drawn), and the
//           cell's own status line ("Done in ..."), which stops before the result is drawn. The first run of
//           each page (the URL's inputs, which also starts the worker and instantiates the module) is not timed.
// Progress and Cancel (sweep only, in the page): the progress fractions the bar showed during a timed run, and
// --runs times: start the sweep, wait for the bar to show a first fraction > 0, press Cancel, and time from the
// click to the cell's data-state "cancelled" (the page terminates the worker: nothing waits for the C++ loop),
// then check the cell runs again.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { DIST, ROOT, launch_browser, start_server } from '../tests/e2e/helpers.mjs';

const { values: options } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' }, dist: { type: 'string', default: DIST },
    'no-browser': { type: 'boolean', default: false }, 'no-wasm': { type: 'boolean', default: false },
    'no-native': { type: 'boolean', default: false },
  },
});
const RUNS = Math.max(1, Number(options.runs) || 3);
const CLI = path.join(ROOT, 'build/native/serving-lab');
const CELL = 'llm/fleet';
const SEED = '1';

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const ms = (x) => (Number.isFinite(x) ? (x >= 100 ? x.toFixed(0) : x.toFixed(1)) : '—');

/** The CLI's JSON for these inputs ({error} when it refuses them). */
function native_run(inputs) {
  const args = ['run', CELL, '--json', '--seed', SEED];
  for (const [k, v] of Object.entries(inputs)) args.push(`--${k}`, String(v));
  try {
    return JSON.parse(execFileSync(CLI, args, { encoding: 'utf8', maxBuffer: 256 << 20, stdio: ['ignore', 'pipe', 'pipe'] }));
  } catch (e) {
    return JSON.parse(e.stdout || '{"error": {}}');
  }
}
/** Wall and CPU time of one CLI run, from /usr/bin/time (the JSON goes to /dev/null). */
function native_timed(inputs) {
  const flags = Object.entries(inputs).map(([k, v]) => `--${k} ${v}`).join(' ');
  const line = execFileSync('/bin/sh', ['-c', `/usr/bin/time -f '%e %U %S' ${CLI} run ${CELL} --json --seed ${SEED} ${flags} 2>&1 >/dev/null`],
    { encoding: 'utf8' }).trim().split('\n').pop();
  const [wall, user, sys] = line.split(' ').map(Number);
  return { wall_ms: wall * 1e3, cpu_ms: (user + sys) * 1e3 };
}
function accepted(inputs) {
  return !native_run(inputs).error;
}

// ---- the inputs ----
const engine_inputs = (n) => ({ n, sweep: 'none', replicas: 1, lambda: 18, doc_frac: 0, max_model_len: 2048 });
const sweep_inputs = (n) => ({ n, sweep_points: 10 });
/** The largest n (a multiple of 100, at most cap) the cell's budget accepts, and the refusal at cap (or null): the
 * budget is linear in n, so the refusal at cap ("got G units", max M) gives n ~ cap M / G; steps of 100 find the edge. */
function largest_n(make, cap) {
  const first = native_run(make(cap));
  if (!first.error) return { n: cap, refusal: null };
  if (first.error.code !== 'too_large') throw new Error(`refused: ${first.error.message}`);
  let n = Math.floor((cap * Number(first.error.args.max)) / Number(first.error.args.got) / 100) * 100;
  while (n > 100 && !accepted(make(n))) n -= 100;
  while (n + 100 < cap && accepted(make(n + 100))) n += 100;
  return { n, refusal: first.error.message };
}
if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build the native CLI first`);
const engine_n = largest_n(engine_inputs, 100000);
const sweep_n = largest_n(sweep_inputs, 20000);
const ENGINE = engine_inputs(engine_n.n);
const SWEEP = sweep_inputs(sweep_n.n);
const SWEEP_N = sweep_n.n;
const CASES = [['engine', ENGINE], ['sweep', SWEEP]];
const say = ({ n, refusal }, cap) => (refusal ? `the largest n the budget accepts, to the nearest 100; at ${cap.toLocaleString('en')}: "${refusal}"` : 'within the cell\'s budget');
console.log(`engine: ${JSON.stringify(ENGINE)} (${say(engine_n, 100000)})`);
console.log(`sweep:  ${JSON.stringify(SWEEP)}, replicas 1..8 at the defaults (${say(sweep_n, 20000)})`);
const load_before = loadavg()[0];
const rows = {};   // case -> {native_wall, native_cpu, node, node_cpu, node_reports, page, page_status, page_error}
const cancel_rows = [];
let progress_seen = [];

// ---- the three targets; each run of a case goes native, node, page in turn, so the machine's load (shared
// with other work) weighs on all three alike ----
let M = null;
if (!options['no-wasm'] && existsSync(path.join(ROOT, 'build/wasm/serving_lab.js'))) {
  const { loadModule } = await import('../tests/wasm/load_module.mjs');
  M = await loadModule();
}
const strings = (inputs) => Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, String(v)]));
/** One run in node against build/wasm: {wall_ms, cpu_ms, reports} (reports: the C++ run's progress calls). */
function node_timed(name, inputs) {
  let reports = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = M.run(CELL, strings(inputs), SEED, () => { ++reports; });
  const wall_ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  if (r.error) throw new Error(`${name}: ${r.error.message}`);
  return { wall_ms, cpu_ms: (c.user + c.system) / 1e3, reports };
}

const server = options['no-browser'] ? null : await start_server({ dir: path.resolve(options.dist) });
const browser = options['no-browser'] ? null : await launch_browser();
try {
  const page = browser ? await (await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' })).newPage() : null;
  const problems = [];
  page?.on('pageerror', (error) => problems.push(error.message));
  const sel = '#fleet';
  const url_of = (inputs) => `${server.url}lab.html?lab=llm&cell=fleet&embed=1&predict=0&${new URLSearchParams(Object.entries(strings(inputs)))}`;
  const runs_of = () => page.$eval(sel, (cell) => Number(cell.dataset.runs || 0));
  const state_of = () => page.$eval(sel, (cell) => cell.dataset.state);
  const settled = (before) => page.waitForFunction(([s, b]) => Number(document.querySelector(s)?.dataset.runs || 0) > b &&
    ['done', 'error', 'cancelled'].includes(document.querySelector(s).dataset.state), [sel, before], { timeout: 120_000, polling: 20 });
  // In the page: performance.now() at each data-state change of the cell, and the progress bar's values while shown.
  const watch = () => page.evaluate((s) => {
    const cell = document.querySelector(s);
    const w = { states: [], fracs: [] };
    window.__sl_watch = w;
    new MutationObserver(() => w.states.push([cell.dataset.state, performance.now()]))
      .observe(cell, { attributes: true, attributeFilter: ['data-state'] });
    const box = cell.querySelector('.sl-progress'), bar = cell.querySelector('.sl-progress-bar');
    new MutationObserver(() => { if (!box.hidden) w.fracs.push([Number(bar.value), performance.now()]); })
      .observe(cell, { attributes: true, subtree: true, attributeFilter: ['value', 'hidden'] });
  }, sel);
  const read_watch = () => page.evaluate(() => window.__sl_watch);
  const state_at = (w, state) => w.states.find(([s]) => s === state)?.[1];
  const press_run = () => page.$eval(`${sel} button[type="submit"]`, (b) => b.click());

  for (const [name, inputs] of CASES) {
    const t = { native_wall: [], native_cpu: [], node: [], node_cpu: [], page: [] };
    const row = (rows[name] = { page_status: [] });
    if (page) {   // the URL's inputs: the first run also starts the worker and instantiates the module (not timed)
      await page.goto(url_of(inputs));
      await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
      await page.waitForFunction((s) => ['done', 'error'].includes(document.querySelector(s)?.dataset.state), sel, { timeout: 120_000 });
      if (await state_of() === 'error') row.page_error = (await page.textContent(`${sel} .sl-error`)).trim();
    }
    for (let i = 0; i < RUNS; ++i) {
      if (!options['no-native']) {
        const n = native_timed(inputs);
        t.native_wall.push(n.wall_ms); t.native_cpu.push(n.cpu_ms);
      }
      if (M) {
        const n = node_timed(name, inputs);
        t.node.push(n.wall_ms); t.node_cpu.push(n.cpu_ms); row.node_reports = n.reports;
      }
      if (page && !row.page_error) {
        await watch();
        const before = await runs_of();
        await press_run();
        await settled(before);
        const w = await read_watch();
        if (await state_of() !== 'done') throw new Error(`${name}: the run ended ${await state_of()}`);
        t.page.push(state_at(w, 'done') - state_at(w, 'running'));
        row.page_status.push((await page.textContent(`${sel} .sl-status`)).trim());
        if (name === 'sweep') progress_seen = w.fracs.map(([f, at]) => [f, at - state_at(w, 'running')]);
      }
    }
    for (const [key, list] of Object.entries(t)) if (list.length) row[key] = median(list);
  }

  // Cancel, on the sweep (the page is still at the sweep's inputs).
  if (page && !rows.sweep.page_error) {
    for (let i = 0; i < RUNS; ++i) {
      await watch();
      const before = await runs_of();
      await press_run();
      await page.waitForFunction((s) => {
        const c = document.querySelector(s);
        return !c.querySelector('.sl-progress').hidden && Number(c.querySelector('.sl-progress-bar').value) > 0;
      }, sel, { timeout: 60_000, polling: 10 });
      // Click in the page at once (waiting for the button to look "stable" could outlast the run).
      const [clicked_at, frac] = await page.$eval(sel, (c) => {
        const at = performance.now();
        c.querySelector('.sl-button-cancel').click();
        return [at, Number(c.querySelector('.sl-progress-bar').value)];
      });
      await settled(before);
      const w = await read_watch();
      const state = await state_of();
      const progress_hidden = await page.$eval(sel, (c) => c.querySelector('.sl-progress').hidden);
      // The cell stays usable: the same sweep runs again to its result.
      const again = await runs_of();
      await press_run();
      await settled(again);
      cancel_rows.push({ state, at_frac: frac, after_start_ms: clicked_at - state_at(w, 'running'), to_cancelled_ms: state_at(w, 'cancelled') - clicked_at,
                         progress_hidden, rerun: await state_of() });
    }
  }
  if (problems.length) console.log(`page errors: ${problems.join(' | ')}`);
} finally {
  await browser?.close();
  await server?.stop();
}

// ---- tables ----
console.log(`\nllm/fleet, seed ${SEED}, median of ${RUNS} runs (ms); load average (1 min) ${load_before.toFixed(1)} before, ${loadavg()[0].toFixed(1)} after`);
console.log('case'.padEnd(40), 'native wall'.padStart(12), 'native CPU'.padStart(11), 'node wall'.padStart(10), 'node CPU'.padStart(9),
            'page'.padStart(8), 'page/native CPU'.padStart(16), '  target');
const label = { engine: `engine: 1 replica, ${ENGINE.n.toLocaleString('en')} requests`, sweep: `sweep: 10 points x ${SWEEP_N.toLocaleString('en')} requests` };
const target = { engine: '<= 1000 ms in the page', sweep: '<= 3000 ms in the page (issue: 20,000 per point)' };
for (const [name] of CASES) {
  const r = rows[name] || {};
  const page = r.page_error ? `error: ${r.page_error}` : ms(r.page);
  console.log(label[name].padEnd(40), ms(r.native_wall).padStart(12), ms(r.native_cpu).padStart(11), ms(r.node).padStart(10), ms(r.node_cpu).padStart(9),
              page.padStart(8), (r.page && r.native_cpu ? (r.page / r.native_cpu).toFixed(2) : '—').padStart(16), `  ${target[name]}`);
}
for (const [name] of CASES) {
  const r = rows[name] || {};
  if (r.page_status?.length) console.log(`  ${name}: the cell's status line after each run: ${r.page_status.join(' | ')}`);
  if (r.node_reports !== undefined) console.log(`  ${name}: progress reports from the C++ run (RunControl) in node: ${r.node_reports}`);
}
if (progress_seen.length) {
  const [[f0, t0], [f1, t1]] = [progress_seen[0], progress_seen.at(-1)];
  const gap = Math.max(...progress_seen.slice(1).map(([, at], i) => at - progress_seen[i][1]));
  console.log(`  sweep: the progress bar showed ${progress_seen.length} values during the last timed run, from ${Math.round(f0 * 100)} % at ` +
              `${t0.toFixed(0)} ms (it appears 200 ms into a run) to ${Math.round(f1 * 100)} % at ${t1.toFixed(0)} ms, at most ${gap.toFixed(0)} ms apart`);
} else if (!options['no-browser']) console.log('  sweep: the progress bar showed no value during the timed runs');
if (cancel_rows.length) {
  console.log('\nCancel during the sweep (page): click once the bar shows progress; time to the cell\'s "cancelled"');
  console.log('run'.padEnd(5), 'clicked at'.padStart(12), 'bar'.padStart(6), 'click -> cancelled'.padStart(19), 'state'.padStart(10), 'bar hidden'.padStart(11), 'runs again'.padStart(11));
  cancel_rows.forEach((c, i) => console.log(String(i + 1).padEnd(5), `${ms(c.after_start_ms)} ms`.padStart(12), `${Math.round(c.at_frac * 100)} %`.padStart(6),
    `${ms(c.to_cancelled_ms)} ms`.padStart(19), c.state.padStart(10), String(c.progress_hidden).padStart(11), c.rerun.padStart(11)));
  console.log(`median click -> cancelled: ${ms(median(cancel_rows.map((c) => c.to_cancelled_ms)))} ms`);
}
