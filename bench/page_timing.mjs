// Time from navigation to first result, per lab page, in headless Chromium (node bench/page_timing.mjs,
// after `npm run build`; name labs to time only those). Also prints the gzip transfer size of what the queueing page loads.
import { gzipSync } from 'node:zlib';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { start_server, launch_browser, new_page, DIST } from '../tests/e2e/helpers.mjs';

const server = await start_server();
const browser = await launch_browser();
try {
  const { labs } = JSON.parse(readFileSync(join(DIST, 'labs', 'index.json'), 'utf8'));
  console.log('lab        cells  first result (ms)  all cells done (ms)');
  const only = process.argv.slice(2);
  for (const lab of labs.filter((l) => l.status === 'ready' && (only.length === 0 || only.includes(l.id)))) {
    const page = await new_page(browser);
    const t0 = Date.now();
    await page.goto(`${server.url}lab.html?lab=${lab.id}`);
    await page.waitForSelector('.sl-cell[data-state="done"]', { timeout: 120_000 });
    const first = Date.now() - t0;
    await page.waitForFunction(() => [...document.querySelectorAll('.sl-cell')].every((c) => ['done', 'error'].includes(c.dataset.state)), null, { timeout: 300_000 });
    const all = Date.now() - t0;
    const cells = await page.$$eval('.sl-cell', (c) => c.length);
    console.log(`${lab.id.padEnd(10)} ${String(cells).padStart(5)} ${String(first).padStart(18)} ${String(all).padStart(20)}`);
    await page.context().close();
  }
  const files = [];
  const walk = (dir) => readdirSync(dir).forEach((f) => { const p = join(dir, f); statSync(p).isDirectory() ? walk(p) : files.push(p); });
  walk(DIST);
  let raw = 0, gz = 0;
  for (const f of files.filter((f) => /\.(js|wasm|html|css)$/.test(f) && !f.includes('/labs/'))) {
    const bytes = readFileSync(f);
    raw += bytes.length; gz += gzipSync(bytes, { level: 9 }).length;
    if (/serving_lab\.(js|wasm)$|vega/.test(f)) console.log(`${f.slice(DIST.length + 1).padEnd(40)} ${String(bytes.length).padStart(9)} B  gzip ${gzipSync(bytes, { level: 9 }).length} B`);
  }
  console.log(`code (html, css, js, wasm) total ${raw} B, gzip ${gz} B`);
} finally {
  await browser.close();
  await server.stop();
}
