// Benchmark (not a test: npm test does not run it): llm/capacity-search, issue 33's search of 4 GPUs x replicas
// 1..10 x TP {1, 2, 4, 8} (160 points, pruned) at 5,000 requests a point, side by side in one run:
//   native `serving-lab search` on 1, 2 and every thread (points per second, the best of N), its two shards of
//   1/2 and 2/2 one after the other, and the cell in headless Chromium on one worker and spread over one per core
//   (the page's own "Computed in", the best of N).
//   node bench/capacity_search.mjs [--repeats N] [--n 5000]   (after building build/native and dist/)
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { root } from '../tests/wasm/load_module.mjs';
import { launch_browser, new_page, open, start_server } from '../tests/e2e/helpers.mjs';

const { values } = parseArgs({ options: { repeats: { type: 'string', default: '3' }, n: { type: 'string', default: '5000' } } });
const repeats = Number(values.repeats);
const cli = path.join(root, 'build/native/serving-lab');
const grid = ['--n', values.n];

function best_of(args) {
  let best = Infinity, lines = 0;
  for (let i = 0; i < repeats; ++i) {
    const start = performance.now();
    const out = execFileSync(cli, ['search', ...grid, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    best = Math.min(best, (performance.now() - start) / 1000);
    lines = out.trim().split('\n').length;
  }
  return { seconds: best, points: lines };
}

const rows = [];
for (const threads of [...new Set([1, 2, cpus().length])]) {
  const r = best_of(['--threads', String(threads)]);
  rows.push({ run: `native, ${threads} thread${threads > 1 ? 's' : ''}`, seconds: r.seconds, points_per_s: r.points / r.seconds });
}
const s1 = best_of(['--threads', '1', '--shard', '1/2']), s2 = best_of(['--threads', '1', '--shard', '2/2']);
rows.push({ run: 'native, shard 1/2 (1 thread)', seconds: s1.seconds, points_per_s: s1.points / s1.seconds });
rows.push({ run: 'native, shard 2/2 (1 thread)', seconds: s2.seconds, points_per_s: s2.points / s2.seconds });

const server = await start_server();
const browser = await launch_browser();
// The page on one worker (?workers=1), then spread over one worker per core (web/js/spread_run.js).
for (const workers of [1, cpus().length]) {
  const page = await new_page(browser, { width: 1280, height: 900 });
  await open(page, `${server.url}lab.html?lab=llm&cell=capacity-search&embed=1&predict=0&n=${values.n}&workers=${workers}`);
  let page_s = Infinity;
  for (let i = 0; i < repeats; ++i) {
    const cell = '#capacity-search';
    await page.waitForFunction((s) => document.querySelector(s).dataset.state === 'done', cell, { timeout: 120_000 });
    const before = await page.$eval(cell, (c) => Number(c.dataset.runs || 0));
    await page.click(`${cell} button[type="submit"]`);
    await page.waitForFunction(([s, n]) => Number(document.querySelector(s).dataset.runs || 0) > n &&
      document.querySelector(s).dataset.state === 'done', [cell, before], { timeout: 120_000 });
    const text = await page.$eval(cell, (c) => c.textContent);
    const [, value, unit] = /Computed in ([0-9.]+) (m?s)/.exec(text) ?? [];
    page_s = Math.min(page_s, Number(value) / (unit === 'ms' ? 1000 : 1));
  }
  const total = Number(await page.$eval('#capacity-search .sl-outputs tr[data-key="points_total"] td', (td) => td.textContent.replace(/[^\d]/g, '')));
  rows.push({ run: `Chromium, ${workers} worker${workers > 1 ? 's' : ''}`, seconds: page_s, points_per_s: total / page_s });
  await page.close();
}
await browser.close();
await server.stop();
console.log(`llm/capacity-search, n = ${values.n} a point, best of ${repeats}, ${cpus().length} cores`);
for (const r of rows) console.log(`  ${r.run.padEnd(32)} ${r.seconds.toFixed(2).padStart(6)} s  ${r.points_per_s.toFixed(1).padStart(6)} points/s`);
