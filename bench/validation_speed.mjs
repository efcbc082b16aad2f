// Benchmark (not a test: npm test does not run it): llm/validation replays every published run it can model and
// fits each source's knobs. Issue 37's goal is all of it in under 5 s in the page. This script times it natively,
// in wasm under node (V8, as in Chromium) and in headless Chromium, side by side in one run.
//   node bench/validation_speed.mjs [--repeats N]   (after building build/native, build/wasm and dist/)
// Native: bench/cell_timing (the median of N runs, in process). Wasm: the module under node (the best of N).
// Chromium: the llm page's validation cell, Run pressed once the page is ready (the page's own "Computed in" time,
// the best of N), so the other cells are not competing for the workers.
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadModule, root } from '../tests/wasm/load_module.mjs';
import { launch_browser, new_page, open, start_server } from '../tests/e2e/helpers.mjs';

const { values } = parseArgs({ options: { repeats: { type: 'string', default: '3' } } });
const repeats = Number(values.repeats);

const native_s = JSON.parse(execFileSync(path.join(root, 'build/native/cell_timing'),
  ['llm/validation', '--repeats', String(repeats)], { encoding: 'utf8' })).median_s;

const M = await loadModule();
let wasm_s = Infinity;
for (let i = 0; i < repeats; ++i) {
  const start = performance.now();
  M.run('llm/validation', {}, '1', null);
  wasm_s = Math.min(wasm_s, (performance.now() - start) / 1000);
}

const server = await start_server();
const browser = await launch_browser();
let page_s = Infinity;
const page = await new_page(browser, { width: 1280, height: 900 });
await open(page, `${server.url}lab.html?lab=llm&predict=0`);
for (let i = 0; i < repeats; ++i) {
  const before = await page.$eval('#validation', (cell) => Number(cell.dataset.runs || 0));
  await page.click('#validation button[type="submit"]');
  await page.waitForFunction((n) => Number(document.querySelector('#validation').dataset.runs || 0) > n &&
    document.querySelector('#validation').dataset.state === 'done', before, { timeout: 120_000 });
  const text = await page.$eval('#validation', (cell) => cell.textContent);
  const seconds = Number(/Computed in ([0-9.]+) s/.exec(text)?.[1]);
  if (Number.isFinite(seconds)) page_s = Math.min(page_s, seconds);
}
await browser.close();
await server.stop();

console.log('llm/validation (70 published runs, 8-step fits per source)');
console.log(`  native ${native_s.toFixed(2)} s   wasm (node) ${wasm_s.toFixed(2)} s   Chromium ${page_s.toFixed(2)} s` +
            `   wasm/native ${(wasm_s / native_s).toFixed(2)}   goal: under 5 s in the page`);
process.exit(0);
