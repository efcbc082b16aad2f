// Byte budgets of a first visit, counted as served (compressed, headers included) through a counting proxy
// (byte_counter.mjs), so the cell workers' and the service worker's requests count too: the request lab
// moves under 1 MB while nobody presses a button, the measurement model not at all; the queues lab moves
// under 500 KB before its first result. A fresh browser context each time: nothing cached.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { start_server, launch_browser, new_page, DIST } from './helpers.mjs';
import { start_counter, RESULT_CLOCK } from './byte_counter.mjs';

const REQUEST_BUDGET_BYTES = 1_000_000;
const QUEUES_FIRST_RESULT_BUDGET_BYTES = 500_000;

/** Waits until the page's service worker is active (its precache is complete), or ~30 s passed. */
async function service_worker_active(page) {
  for (let i = 0; i < 120; ++i) {
    if (await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state) === 'activated') return true;
    await page.waitForTimeout(250);
  }
  return false;
}

/** The Vega chunk of the bundle: by far its largest file (vega_lib.js, loaded on demand). */
function vega_chunk() {
  const chunks = readdirSync(join(DIST, 'js')).filter((name) => /^chunk-.*\.js$/.test(name))
    .map((name) => ({ name, size: statSync(join(DIST, 'js', name)).size })).sort((a, b) => b.size - a.size);
  assert.ok(chunks[0]?.size > 300_000, `a Vega chunk in dist/js: ${JSON.stringify(chunks)}`);
  return `/js/${chunks[0].name}`;
}

const kib = (bytes) => `${(bytes / 1024).toFixed(0)} KiB`;
const listing = (responses) => responses.map((r) => `${r.path} ${r.status} ${r.bytes}`).join('\n');

describe('byte budgets of a first visit', () => {
  let server;
  let counter;
  let browser;
  before(async () => {
    [server, browser] = await Promise.all([start_server(), launch_browser()]);
    counter = await start_counter(server.url);
  });
  after(async () => { await browser?.close(); await counter?.stop(); await server?.stop(); });

  test('the request lab moves under 1 MB until a button is pressed, and never the measurement model', async () => {
    const page = await new_page(browser, { width: 1280, height: 900, service_workers: 'allow' });
    counter.reset();
    await page.goto(`${counter.url}lab.html?lab=request&predict=0`);
    await page.waitForFunction(() => document.body.dataset.ready === 'true' &&
      [...document.querySelectorAll('.sl-cell')].every((cell) => ['done', 'error', 'waiting'].includes(cell.dataset.state)), null, { timeout: 90_000 });
    assert.ok(await service_worker_active(page), 'the service worker installed');
    await page.waitForTimeout(500);   // anything the page still had in flight
    const total = counter.bytes();
    assert.ok(counter.responses.every((r) => r.done), 'every response finished');
    assert.ok(!counter.responses.some((r) => r.path.includes('/assets/model')), `no model shard was fetched:\n${listing(counter.responses)}`);
    // The digit cells wait for their button too: their data file is 0.8 MB.
    assert.ok(!counter.responses.some((r) => r.path.endsWith('/data/mnist-digits.bin') && r.method === 'GET' && r.status === 200), 'the digits wait for their button');
    assert.equal(await page.$$eval('.sl-cell[data-state="waiting"] .sl-asset-button', (buttons) => buttons.length), 2);
    assert.ok(total < REQUEST_BUDGET_BYTES, `request lab: ${kib(total)} over the wire before any button:\n${listing(counter.responses)}`);
    // The download measurement waits for its button, which states what it moves.
    const button = page.locator('#cold-start .sl-consent-button');
    assert.match(await button.textContent(), /8 MiB.*16 MiB/);
    assert.equal(await button.getAttribute('data-bytes'), String(2 * 8 * 1048576));
    // Pressed, it moves what it said: the 8 MiB model twice (bypassed, then into the cache the warm loads read).
    counter.reset();
    const runs = Number(await page.getAttribute('#cold-start', 'data-runs'));
    await button.click();
    await page.waitForFunction((count) => Number(document.querySelector('#cold-start').dataset.runs) > count &&
      document.querySelector('#cold-start').dataset.state === 'done', runs, { timeout: 60_000 });
    const shards = counter.responses.filter((r) => r.path.includes('/assets/model-'));
    const shard_bytes = shards.reduce((sum, r) => sum + r.bytes, 0);
    assert.equal(shards.length, 4, `2 shards of 4 MiB, twice:\n${listing(shards)}`);
    assert.ok(shard_bytes >= 2 * 8 * 1048576 && shard_bytes < 2 * 8 * 1048576 + 8 * 1024, `${shard_bytes} bytes of model`);
    // The digits' button lets both digit cells run; the service worker keeps the file for later visits.
    await page.click('#skew-parity .sl-asset-button');
    await page.waitForSelector('#skew-parity[data-state="done"]', { timeout: 60_000 });
    await page.waitForSelector('#calibration[data-state="done"]', { timeout: 60_000 });
    const digits = counter.responses.filter((r) => r.path.endsWith('/data/mnist-digits.bin') && r.method === 'GET' && r.status === 200);
    assert.equal(digits.length, 1, `the digits are fetched once, for both cells:\n${listing(counter.responses)}`);
    await page.reload();
    await page.waitForSelector('#calibration[data-state="done"]', { timeout: 60_000 });
    await page.context().close();
  });

  test('the queues lab moves under 500 KB before its first result', async () => {
    const page = await new_page(browser, { width: 1280, height: 900, service_workers: 'allow' });
    await page.addInitScript(RESULT_CLOCK);
    counter.reset();
    await page.goto(`${counter.url}lab.html?lab=queues&predict=0`);
    await page.waitForFunction(() => window.__sl_first_result_ms > 0, null, { timeout: 60_000 });
    const first_ms = await page.evaluate(() => window.__sl_first_result_ms);
    const before_first = counter.responses.filter((r) => r.at_ms < first_ms);
    const bytes = counter.bytes(first_ms);
    const vega = vega_chunk();
    assert.ok(!before_first.some((r) => r.path.startsWith(vega)), 'Vega loads after the first numbers');
    assert.ok(!before_first.some((r) => r.path.includes('/data/')), 'no data asset for a lab that uses none');
    assert.ok(bytes < QUEUES_FIRST_RESULT_BUDGET_BYTES, `queues lab: ${kib(bytes)} before the first result:\n${listing(before_first)}`);
    await page.context().close();
  });
});
