import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { CELL, start_server, launch_browser, new_page, open, screenshot } from './helpers.mjs';

describe('the embed view', () => {
  let server;
  let browser;
  before(async () => { [server, browser] = await Promise.all([start_server(), launch_browser()]); });
  after(async () => { await browser?.close(); await server?.stop(); });

  test('the embed URL renders one cell without the site header and fits 700 px', async () => {
    const page = await new_page(browser, { width: 700, height: 900 });
    await open(page, `${server.url}lab.html?lab=queues&cell=littles-law&embed=1&lambda=200&seed=3`);
    await page.waitForSelector(`${CELL}[data-state="done"]`);
    assert.equal(await page.$('.sl-site-header'), null);
    assert.equal(await page.$('.sl-site-footer'), null);
    assert.equal(await page.$$eval('.sl-cell', (cells) => cells.length), 1);
    assert.equal(await page.inputValue(`${CELL} [name="lambda"]`), '200');
    assert.equal(await page.inputValue(`${CELL} [name="seed"]`), '3');
    await page.waitForSelector(`${CELL} .sl-chart-canvas svg`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `horizontal overflow of ${overflow} px`);
    await screenshot(page, 'embed');
    await page.click(`${CELL} .sl-embed-button`);
    const snippet = await page.inputValue(`${CELL} .sl-share-field`);
    assert.match(snippet, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/lab\.html\?lab=queues&amp;cell=littles-law&amp;embed=1&amp;lambda=200&amp;seed=3"/);
    assert.deepEqual(page.problems, []);
  });
});
