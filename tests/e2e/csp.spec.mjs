// The site under a strict Content-Security-Policy sent as an HTTP header on every file, worker included
// (docs/hosting.md): no 'unsafe-eval' anywhere, yet every lab computes and draws, and nothing is blocked.
// One server, one browser, each lab page opened once.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { load_labs } from '../../scripts/labs/load.mjs';
import { DIST, ROOT, new_page, with_site, open, agree_to_assets } from './helpers.mjs';

const POLICY = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; style-src 'self'";

// What a script tries and what it got: "ran", or the error's name (EvalError when the policy blocks it).
const TRIES = `
  const tried = {};
  for (const [name, action] of [['eval', () => eval('1 + 1')], ['Function', () => new Function('return 2')()]]) {
    try { action(); tried[name] = 'ran'; } catch (error) { tried[name] = error.name; }
  }`;

/** Every file of dist/ but the compressed twins, as URL paths. */
async function site_files() {
  const files = [];
  for (const entry of await readdir(DIST, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || /\.(br|gz)$/.test(entry.name)) continue;
    files.push(join(entry.parentPath ?? entry.path, entry.name).slice(DIST.length + 1).split('\\').join('/'));
  }
  return files.sort();
}

/** A page that records CSP violations (securitypolicyviolation) from the start, besides console errors. */
async function watched_page(browser, options) {
  const page = await new_page(browser, options);
  await page.addInitScript(() => {
    window.sl_violations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.sl_violations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`);
    });
  });
  return page;
}

describe('strict CSP as a header', () => {
  const site = with_site();

  test('every file is served with the policy, the one dist/_headers and docs/hosting.md give', async () => {
    const headers_file = await readFile(join(DIST, '_headers'), 'utf8');
    assert.ok(headers_file.includes(`Content-Security-Policy: ${POLICY}\n`), 'dist/_headers');
    assert.ok((await readFile(join(ROOT, 'docs', 'hosting.md'), 'utf8')).includes(POLICY), 'docs/hosting.md');
    const files = await site_files();
    assert.ok(files.includes('worker.js') && files.includes('lab.html') && files.includes('serving_lab.wasm'), files.join(' '));
    const missing = [];
    for (const path of files.filter((file) => !file.startsWith('assets/model-'))) {
      const response = await fetch(`${site.server.url}${path}`, { method: 'HEAD' });
      if (response.headers.get('content-security-policy') !== POLICY) missing.push(`${path}: ${response.headers.get('content-security-policy')}`);
    }
    assert.deepEqual(missing, []);
  });

  test('eval and new Function throw in the page and in a worker served as worker.js is', async () => {
    const context = await site.browser.newContext({ serviceWorkers: 'block' });   // so the routes see every request
    // A worker script whose body tries eval, with the headers the server sends for worker.js (route.fetch).
    await context.route('**/worker.js?csp-probe', async (route) => {
      const response = await route.fetch();
      assert.equal(response.headers()['content-security-policy'], POLICY);
      // It also counts the securitypolicyviolation events it sees, as worker.js forwards them to the page.
      await route.fulfill({ response, body: `'use strict';
        let violations = 0;
        self.addEventListener('securitypolicyviolation', () => { violations += 1; });
        ${TRIES}
        setTimeout(() => postMessage({ ...tried, violations }), 100);` });
    });
    await context.route('**/js/csp-probe.js', (route) => route.fulfill({
      contentType: 'text/javascript', body: `${TRIES}\ndocument.body.dataset.cspTried = JSON.stringify(tried);`,
    }));
    const page = await context.newPage();
    await page.goto(`${site.server.url}lab.html?lab=queues&cell=littles-law&embed=1&predict=0`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
    const in_worker = await page.evaluate(() => new Promise((resolve) => {
      const worker = new Worker('worker.js?csp-probe');
      worker.onmessage = (event) => { resolve(event.data); worker.terminate(); };
      worker.onerror = (event) => resolve({ error: event.message });
    }));
    assert.deepEqual(in_worker, { eval: 'EvalError', Function: 'EvalError', violations: 2 }, 'in the worker');
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.src = 'js/csp-probe.js';
      document.head.append(script);
    });
    await page.waitForSelector('body[data-csp-tried]');
    assert.deepEqual(JSON.parse(await page.getAttribute('body', 'data-csp-tried')), { eval: 'EvalError', Function: 'EvalError' }, 'in the page');
    await context.close();
  });

  // scripts/serve.mjs sends the policy on every answer, so every e2e suite (cells, explorable, offline…) already
  // computes every lab under it and fails on a console error, where Chromium reports a violation. This test adds
  // the securitypolicyviolation listeners, in the page and its workers, on the lab that uses the most: probes,
  // a data file, the photo decoder and the measurement download.
  test('the request lab computes every cell and draws its charts, with no violation in the page or its workers', async () => {
    const labs = (await load_labs()).filter((lab) => lab.id === 'request');
    assert.equal(labs.length, 1);
    for (const lab of labs) {
      const page = await watched_page(site.browser, { width: 1100, height: 900 });
      await page.goto(`${site.server.url}lab.html?lab=${lab.id}&predict=0`);
      const settled = () => page.waitForFunction((count) => {
        const cells = [...document.querySelectorAll('section.sl-cell')];
        return cells.length === count && cells.every((cell) => cell.dataset.state && !['running', 'waiting'].includes(cell.dataset.state)
          || cell.dataset.state === 'waiting' && cell.querySelector('.sl-asset-button'));
      }, lab.cells.length, { timeout: 240_000 });
      await settled();
      // Cells that compute on a data file wait for the reader's word: give it, as a reader would.
      await agree_to_assets(page);
      await settled();
      const states = await page.$$eval('section.sl-cell', (cells) => cells.map((cell) => `${cell.id}:${cell.dataset.state}`));
      assert.deepEqual(states.filter((state) => !state.endsWith(':done')), [], `${lab.id}: cells not done`);
      await page.waitForSelector('.sl-chart-canvas svg .mark-line path, .sl-chart-canvas svg .mark-rect path, .sl-chart-canvas svg .mark-symbol path',
        { state: 'attached', timeout: 60_000 });
      assert.deepEqual(await page.evaluate(() => window.sl_violations), [], `${lab.id}: violations in the page`);
      assert.deepEqual(page.problems, [], `${lab.id}: console errors (a worker's violations are forwarded there)`);
      await page.context().close();
    }
  });

  test('a chart downloads as SVG and PNG under the policy', async () => {
    const page = await watched_page(site.browser, { width: 1100, height: 900 });
    await open(page, `${site.server.url}lab.html?lab=queues&cell=littles-law&embed=1&predict=0`);
    await page.waitForSelector('#littles-law[data-state="done"]', { timeout: 60_000 });
    await page.waitForSelector('#littles-law .sl-main-chart [data-format="png"]', { state: 'attached', timeout: 60_000 });
    const saved = async (format) => {
      const selector = `#littles-law .sl-main-chart [data-format="${format}"]`;
      await page.$eval(selector, (button) => { const menu = button.closest('details'); if (menu) menu.open = true; });
      const [download] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
      return readFile(await download.path());
    };
    assert.match((await saved('svg')).toString('utf8', 0, 200), /^<svg/);
    const png = await saved('png');
    assert.ok(png.length > 1000 && png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), `PNG of ${png.length} bytes`);
    assert.deepEqual(await page.evaluate(() => window.sl_violations), []);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
});
