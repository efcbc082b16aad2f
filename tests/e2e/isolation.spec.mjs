import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { CELL, start_server, launch_browser, new_page, open, screenshot, output_text } from './helpers.mjs';

describe('the site served without COOP/COEP', () => {
  let server;
  let browser;
  before(async () => { [server, browser] = await Promise.all([start_server({ isolation: false }), launch_browser()]); });
  after(async () => { await browser?.close(); await server?.stop(); });

  test('the lab works without cross-origin isolation headers', async () => {
    const page = await new_page(browser);
    await open(page, `${server.url}lab.html?lab=queues`);
    await page.waitForSelector(`${CELL}[data-state="done"]`);
    assert.equal(await page.evaluate(() => self.crossOriginIsolated), false);
    assert.match(await output_text(page, 'L'), /^\d/);
    await page.waitForSelector(`${CELL} .sl-chart-canvas svg path`);
    assert.match(await page.textContent('.sl-timer'), /not cross-origin isolated/);
    await screenshot(page, 'lab-no-isolation');
    assert.deepEqual(page.problems, []);
  });
});
