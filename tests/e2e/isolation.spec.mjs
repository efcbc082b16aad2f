import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CELL, new_page, open, screenshot, output_text, with_site } from './helpers.mjs';

describe('the site served without COOP/COEP', () => {
  const site = with_site({ isolation: false });

  test('the lab works without cross-origin isolation headers', async () => {
    const page = await new_page(site.browser);
    await open(page, `${site.server.url}lab.html?lab=queues`);
    await page.waitForSelector(`${CELL}[data-state="done"]`);
    assert.equal(await page.evaluate(() => self.crossOriginIsolated), false);
    assert.match(await output_text(page, 'L'), /^\d/);
    await page.waitForSelector(`${CELL} .sl-chart-canvas svg path`);
    assert.match(await page.textContent('.sl-timer'), /not cross-origin isolated/);
    await screenshot(page, 'lab-no-isolation');
    assert.deepEqual(page.problems, []);
  });
});
