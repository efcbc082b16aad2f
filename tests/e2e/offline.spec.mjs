// Offline after one visit: the service worker (web/sw.js) precaches the site once a page has computed; with
// the server stopped, a reload still opens and computes every lab, the language switch still works and so does
// "Pin as A" (its lazily loaded chunk). The measurement model under assets/ is not precached.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { load_labs } from '../../scripts/labs/load.mjs';
import { start_server, new_page, with_site } from './helpers.mjs';

const labs = (await load_labs()).filter((lab) => lab.status === 'ready');

describe('offline after one visit', () => {
  const site = with_site();

  test('with the server stopped, every lab opens and computes from the service worker, in both languages', async () => {
    const page = await new_page(site.browser, { width: 1280, height: 900, service_workers: 'allow' });
    await page.goto(`${site.server.url}lab.html?lab=queues&predict=0`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
    // (waitForFunction takes a promise for true, so poll by hand)
    for (let i = 0; i < 240 && await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state) !== 'activated'; ++i) {
      await page.waitForTimeout(250);
    }
    const cached = await page.evaluate(async () => {
      const names = await caches.keys();
      const cache = await caches.open(names.find((name) => name.startsWith('serving-lab-')));
      return (await cache.keys()).map((request) => new URL(request.url).pathname);
    });
    assert.ok(cached.some((path) => path.endsWith('/serving_lab.wasm')), `the wasm module is precached: ${cached.join(' ')}`);
    assert.ok(!cached.some((path) => path.includes('/assets/')), 'the measurement model is not precached');
    const url = site.server.url;
    await site.server.stop();
    for (const lab of labs) {
      await page.goto(`${url}lab.html?lab=${lab.id}&predict=0`);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 90_000 });
      const states = await page.$$eval('.sl-cell', (cells) => cells.map((cell) => `${cell.id}:${cell.dataset.state}`));
      const simulated = states.filter((s) => s.endsWith(':done'));
      assert.ok(simulated.length >= lab.cells.length - 2, `${lab.id} offline: ${states.join(' ')}`);
    }
    await page.goto(`${url}lab.html?lab=queues&predict=0`);
    await page.waitForSelector('#littles-law[data-state="done"]', { timeout: 60_000 });
    await page.click('.sl-lang-button[data-lang="vi"]');
    await page.waitForFunction(() => document.documentElement.lang === 'vi');
    assert.match(await page.textContent('#littles-law .sl-cell-title'), /Little/);
    assert.equal(await page.getAttribute('html', 'lang'), 'vi');
    // "Pin as A" loads its script (a chunk of its own) and style sheet lazily: from the precache too.
    await page.click('#littles-law .sl-pin-a');
    await page.waitForSelector('#littles-law .sl-compare[data-state="done"]');
    await page.waitForFunction(() => document.querySelector('link[href="css/compare.css"]')?.sheet?.cssRules.length > 0);
    await page.context().close();
    site.server = await start_server();   // after() stops it again
  });
});
