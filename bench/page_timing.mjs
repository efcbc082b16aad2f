// Page timing and bytes, per lab, cold and warm, in headless Chromium (a benchmark, not a test: npm test does
// not run it). node bench/page_timing.mjs [--dist DIR] [--baseline DIR] [--runs N] [lab ...]
// For each site (dist/, and --baseline, e.g. an older build, side by side in the same run) and each lab:
//   cold  a fresh browser context (no HTTP cache, no service worker): bytes over the wire before the first
//         result and before every cell is done (through a counting proxy: the page, the cell workers and the
//         service worker, compressed as served), the time from navigation to both;
//   warm  the same context once its service worker is active, with the network down (the proxy refuses
//         every connection): the time to the first result and to every cell done.
// "sims": every simulation cell done (the cells that time this machine, data-measures, run after them);
// "1st chart": the first chart drawn (cold).
// Times are medians of --runs runs (default 1); with --baseline the two sites take turns, visit by visit, so
// the machine's load (shared) weighs on both alike, and a last table gives baseline / this build.
// --baseline-serve: the baseline's own scripts/serve.mjs (of its checkout), to time an older build as it was served
// then; a build from before the strict CSP header (Embind's eval) shows no cell under today's server.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { launch_browser, start_server, DIST } from '../tests/e2e/helpers.mjs';
import { start_counter, RESULT_CLOCK } from '../tests/e2e/byte_counter.mjs';

const { values: options, positionals: only } = parseArgs({
  allowPositionals: true,
  options: {
    dist: { type: 'string', default: DIST }, baseline: { type: 'string' }, 'baseline-serve': { type: 'string' },
    runs: { type: 'string', default: '1' },
  },
});
const RUNS = Math.max(1, Number(options.runs) || 1);
// window.__sl_sims_done_ms: every simulation cell settled (its numbers shown; a cell that times this machine
// has data-measures, and an older build without the attribute counts every cell), once all `count` cells of
// the lab are on the page (a page may add its cells while the first ones already compute). Unlike the all-done
// time, it does not wait for the page to be ready: the charts held back while the simulations compute.
const sims_clock = (count) => `(() => {
  const settled = (cell) => ['done', 'error', 'waiting'].includes(cell.dataset.state);
  const watch = () => {
    if (!window.__sl_first_chart_ms && document.querySelector('.sl-chart-canvas svg')) window.__sl_first_chart_ms = Date.now();
    const cells = [...document.querySelectorAll('.sl-cell')];
    const sims = cells.filter((cell) => cell.dataset.measures !== 'true');
    if (!window.__sl_sims_done_ms && cells.length >= ${count} && sims.every(settled)) window.__sl_sims_done_ms = Date.now();
  };
  new MutationObserver(watch).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-state', 'data-ready'], childList: true });
})();`;
// window.__sl_first_chart_ms (set by sims_clock): the first chart drawn, as the reader sees the page fill in.
const TIMEOUT_MS = 120_000;

/** Whether the page's service worker becomes active (false for a build that has registered none after 5 s). */
async function service_worker_active(page) {
  for (let i = 0; i < 240; ++i) {
    const state = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      return registration ? registration.active?.state ?? 'installing' : null;
    });
    if (state === 'activated') return true;
    if (state === null && i >= 20) return false;
    await page.waitForTimeout(250);
  }
  return false;
}

/** Opens the lab; resolves with {first_ms, all_ms (from navigation), first_at, all_at (Date.now())}. */
async function visit(page, url) {
  const t0 = Date.now();
  await page.goto(url);
  try {
    await page.waitForFunction(() => window.__sl_first_result_ms > 0, null, { timeout: TIMEOUT_MS, polling: 50 });
    await page.waitForFunction(() => window.__sl_all_done_ms > 0, null, { timeout: TIMEOUT_MS, polling: 50 });
  } catch (error) {
    const states = await page.$$eval('.sl-cell', (cells) => cells.map((cell) => `${cell.id}:${cell.dataset.state}`)).catch(() => []);
    throw new Error(`${url}: ${error.message}; cells ${states.join(' ') || 'none'}`);
  }
  const [first_at, all_at, sims_at, chart_at] = await page.evaluate(() =>
    [window.__sl_first_result_ms, window.__sl_all_done_ms, window.__sl_sims_done_ms, window.__sl_first_chart_ms]);
  return { first_ms: first_at - t0, all_ms: all_at - t0, sims_ms: (sims_at || all_at) - t0, chart_ms: chart_at ? chart_at - t0 : NaN, first_at, all_at };
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };

/** One site ({dir, script}: its serve.mjs, or ours) served through its own counting proxy: {dir, labs, counter, stop()}. */
async function open_site({ dir, script }) {
  const { labs } = JSON.parse(readFileSync(join(dir, 'labs', 'index.json'), 'utf8'));
  const cell_counts = Object.fromEntries(labs.filter((lab) => lab.status === 'ready').map((lab) =>
    [lab.id, JSON.parse(readFileSync(join(dir, 'labs', `${lab.id}.json`), 'utf8')).cells.length]));
  const server = await start_server({ dir, script });
  const counter = await start_counter(server.url);
  return { dir, labs, cell_counts, counter, stop: async () => { await counter.stop(); await server.stop(); } };
}

/** One cold visit and, once the service worker is active, one warm (offline) visit of a lab of a site. */
async function sample(browser, site, lab) {
  const { counter } = site;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    await context.addInitScript(RESULT_CLOCK);
    await context.addInitScript(sims_clock(site.cell_counts[lab]));
    const page = await context.newPage();
    const url = `${counter.url}lab.html?lab=${lab}&predict=0`;
    counter.set_offline(false);
    counter.reset();
    const cold = await visit(page, url).catch((error) => { throw new Error(`${site.dir} cold: ${error.message}`); });
    const bytes_first = counter.bytes(cold.first_at);
    const bytes_all = counter.bytes(cold.all_at);
    const cells = await page.$$eval('.sl-cell', (c) => c.length);
    const has_sw = await service_worker_active(page);
    counter.set_offline(true);
    const warm = has_sw ? await visit(page, url).catch((error) => { throw new Error(`${site.dir} warm: ${error.message}`); }) : null;
    return { cells, bytes_first, bytes_all, cold, warm };
  } finally {
    counter.set_offline(false);
    await context.close();
  }
}

/**
 * Every lab of the first site (and of the others, when they have it), RUNS times; the sites take turns
 * within each run of each lab, so a change in the machine's load (shared with other work) falls on all of
 * them alike. Returns one table of rows per site.
 */
async function time_sites(browser, to_time) {
  const sites = [];
  for (const site of to_time) sites.push(await open_site(site));
  const tables = sites.map(() => []);
  try {
    for (const lab of sites[0].labs.filter((l) => l.status === 'ready' && (only.length === 0 || only.includes(l.id)))) {
      const samples = sites.map(() => []);
      for (let run = 0; run < RUNS; ++run) {
        for (const [i, site] of sites.entries()) {
          if (site.labs.some((l) => l.id === lab.id && l.status === 'ready')) samples[i].push(await sample(browser, site, lab.id));
        }
      }
      samples.forEach((list, i) => { if (list.length) tables[i].push(row_of(lab.id, list)); });
    }
  } finally {
    for (const site of sites) await site.stop();
  }
  return tables;
}

function row_of(lab, samples) {
  const pick = (f) => median(samples.map(f));
  const warm = samples.every((s) => s.warm);
  return {
    lab, cells: String(samples[0].cells),
    kb_first: pick((s) => s.bytes_first) / 1000, kb_all: pick((s) => s.bytes_all) / 1000,
    cold_first_s: pick((s) => s.cold.first_ms) / 1000, cold_sims_s: pick((s) => s.cold.sims_ms) / 1000,
    cold_all_s: pick((s) => s.cold.all_ms) / 1000, cold_chart_s: pick((s) => s.cold.chart_ms) / 1000,
    warm_first_s: warm ? pick((s) => s.warm.first_ms) / 1000 : NaN,
    warm_sims_s: warm ? pick((s) => s.warm.sims_ms) / 1000 : NaN,
    warm_all_s: warm ? pick((s) => s.warm.all_ms) / 1000 : NaN,
  };
}

const COLUMNS = [
  ['lab', 'lab', 10], ['cells', 'cells', 5], ['kb_first', 'kB→first', 9], ['kb_all', 'kB→all', 9],
  ['cold_first_s', 'cold first s', 12], ['cold_chart_s', '1st chart s', 11], ['cold_sims_s', 'cold sims s', 11], ['cold_all_s', 'cold all s', 10],
  ['warm_first_s', 'warm first s', 12], ['warm_sims_s', 'warm sims s', 11], ['warm_all_s', 'warm all s', 10],
];
const cell_text = (value) => (typeof value === 'number' ? (Number.isFinite(value) ? (value >= 100 ? value.toFixed(0) : value.toFixed(2)) : '—') : String(value));

function print(title, rows) {
  console.log(`\n${title}`);
  console.log(COLUMNS.map(([, head, width]) => head.padStart(width)).join(' '));
  for (const row of rows) console.log(COLUMNS.map(([key, , width]) => cell_text(row[key]).padStart(width)).join(' '));
}

const browser = await launch_browser();
try {
  const baseline_script = options['baseline-serve'] ? resolve(options['baseline-serve']) : undefined;
  const to_time = [{ dir: resolve(options.dist) }, ...(options.baseline ? [{ dir: resolve(options.baseline), script: baseline_script }] : [])];
  const load_before = loadavg()[0];
  const [current, base] = await time_sites(browser, to_time);
  console.log(`\nload average (1 min) ${load_before.toFixed(1)} before, ${loadavg()[0].toFixed(1)} after`);
  print(`this build (${options.dist}); bytes as served through a counting proxy (kB = 1000 B), times from navigation, median of ${RUNS}`, current);
  if (base) {
    print(`baseline (${options.baseline}), in turn with this build`, base);
    const ratios = current.map((row) => {
      const old = base.find((b) => b.lab === row.lab);
      return Object.fromEntries(COLUMNS.map(([key]) => [key, key === 'lab' || key === 'cells' ? row[key] : old ? old[key] / row[key] : NaN]));
    });
    print('baseline / this build (> 1: this build is lighter or faster)', ratios);
  }
} finally {
  await browser.close();
}
