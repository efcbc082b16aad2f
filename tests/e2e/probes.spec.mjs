// Browser probes (web/probes/): measurements only the browser can take reach C++ as `measured.*` inputs.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start_server, launch_browser, new_page, open, output_text } from './helpers.mjs';

const CELL = '#cpu-batch-measure';
const QUICK = 'max_depth=20&max_batch=8&conv_max_batch=4&min_sample_ms=0.2&samples=3';

describe('browser probes', () => {
  let server;
  let browser;
  before(async () => { [server, browser] = await Promise.all([start_server(), launch_browser()]); });
  after(async () => { await browser?.close(); await server?.stop(); });

  test('the cost of a call from JavaScript into wasm is measured in the page and reported by C++', async () => {
    const page = await new_page(browser);
    await open(page, `${server.url}lab.html?lab=batching&cell=cpu-batch-measure&embed=1&${QUICK}`);
    await page.waitForSelector(`${CELL}[data-state="done"]`, { timeout: 120_000 });
    for (const key of ['js_layer_call_us', 'js_empty_call_us', 'js_boundary_us']) {
      const text = await output_text(page, key, CELL);
      assert.ok(text !== null && text.trim() !== '', `${key} is shown`);
    }
    // A call that crosses the boundary and does a layer's work costs more than one that does nothing.
    const value = async (key) => Number((await output_text(page, key, CELL)).replace(/[,\s]/g, ''));
    assert.ok(await value('js_layer_call_us') > 0);
    assert.ok(await value('js_empty_call_us') > 0);
    assert.equal(await page.$(`${CELL} .sl-notice[data-code="js_call_not_measured"]`), null);
    assert.deepEqual(page.problems, []);
  });

  test('bad input is reported before any probe runs', async () => {
    const page = await new_page(browser);
    await open(page, `${server.url}lab.html?lab=batching&cell=cpu-batch-measure&embed=1&${QUICK}&width=0`);
    await page.waitForSelector(`${CELL}[data-state="error"]`, { timeout: 60_000 });
    assert.match(await page.textContent(`${CELL} .sl-error`), /width/i);
    assert.equal(await page.getAttribute(`${CELL} [name="width"]`, 'aria-invalid'), 'true');
  });
});
