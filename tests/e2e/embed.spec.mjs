import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CELL, course_page_with, new_page, open, screenshot, with_site } from './helpers.mjs';

/** A course page on another origin (another port) embedding one cell with the README's snippet. */
function course_page(site_url, embed_query) {
  return course_page_with(`<iframe id="lab" src="${site_url}lab.html?${embed_query}" title="Little's law" width="100%" height="300" style="border:0"></iframe>
<script src="${site_url}embed.js" defer></script>`);
}

describe('the embed view', () => {
  const site = with_site();

  test('the embed URL renders one cell without the site header and fits 700 px', async () => {
    const page = await new_page(site.browser, { width: 700, height: 900 });
    await open(page, `${site.server.url}lab.html?lab=queues&cell=littles-law&embed=1&lambda=200&seed=3`);
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

  test('in a course page of another origin the iframe takes its content height; messages; Open in Serving Lab keeps the inputs', async () => {
    const course = await course_page(site.server.url, 'lab=queues&cell=littles-law&embed=1&lambda=180&seed=4');
    try {
      const page = await new_page(site.browser, { width: 900, height: 900 });
      await page.goto(course.url);
      const frame = page.frameLocator('#lab');
      await frame.locator(`${CELL}[data-state="done"]`).waitFor({ timeout: 30_000 });
      await page.waitForFunction(() => window.messages.some((m) => m?.type === 'serving-lab:ready'), null, { timeout: 10_000 });
      const inner = page.frames().find((f) => f.url().includes('embed=1'));
      // The content still grows after "ready" (the chart library loads after the first numbers): read the
      // content and the frame together until the frame has followed, for up to 10 s.
      let content = 0;
      let frame_height = 0;
      for (const end = Date.now() + 10_000; Date.now() < end; await page.waitForTimeout(200)) {
        content = await inner.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
        frame_height = await page.$eval('#lab', (f) => f.getBoundingClientRect().height);
        if (Math.abs(frame_height - content) <= 20) break;
      }
      assert.ok(Math.abs(frame_height - content) <= 20, `iframe ${frame_height} px for ${content} px of content`);
      assert.ok(frame_height > 300, 'the frame grew past its height attribute');
      const state = await page.evaluate(() => window.messages.filter((m) => m?.type === 'serving-lab:state').at(-1));
      assert.equal(state.cell, 'queues/littles-law');
      assert.equal(state.inputs.lambda, '180');
      const href = await inner.getAttribute('.sl-open-full', 'href');
      assert.match(href, /littles-law\.lambda=180/);
      assert.match(href, /littles-law\.seed=4/);
      const full = await new_page(site.browser);
      await open(full, href);
      await full.waitForSelector(`${CELL}[data-state="done"]`);
      assert.equal(await full.inputValue(`${CELL} [name="lambda"]`), '180');
      assert.equal(await full.inputValue(`${CELL} [name="seed"]`), '4');
      await full.context().close();
      await page.context().close();
    } finally {
      await course.stop();
    }
  });
});
