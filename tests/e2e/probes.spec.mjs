// Browser probes (web/probes/): measurements only the browser can take reach C++ as `measured.*` inputs.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { new_page, open, output_text, with_site } from './helpers.mjs';

const CELL = '#cpu-batch-measure';
const QUICK = 'max_depth=20&max_batch=8&conv_max_batch=4&min_sample_ms=0.2&samples=3';

describe('browser probes', () => {
  const site = with_site();

  test('the cost of a call from JavaScript into wasm is measured in the page and reported by C++', async () => {
    const page = await new_page(site.browser);
    await open(page, `${site.server.url}lab.html?lab=batching&cell=cpu-batch-measure&embed=1&${QUICK}`);
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

  test('the cold-start phases are measured in the page: model fetch bypassed and warm, wasm compile and instantiate', async () => {
    const cell = '#cold-start';
    const page = await new_page(site.browser);
    // download=32 in the URL downloads nothing: only the button does, with the size chosen beside it.
    await open(page, `${site.server.url}lab.html?lab=request&cell=cold-start&embed=1&repeats=2&download=32`);
    await page.waitForSelector(`${cell}[data-state="done"]`, { timeout: 120_000 });
    assert.equal(await page.$(`${cell} .sl-outputs tr[data-key="fetch_bypass_ms"]`), null, 'no fetch before the button');
    await page.selectOption(`${cell} .sl-consent-control select`, '16');
    assert.match(await page.textContent(`${cell} .sl-consent-button`), /16 MiB.*32 MiB/);
    const runs = Number(await page.getAttribute(cell, 'data-runs'));
    await page.click(`${cell} .sl-consent-button`);
    await page.waitForFunction(([selector, count]) => Number(document.querySelector(selector).dataset.runs) > count &&
      document.querySelector(selector).dataset.state === 'done', [cell, runs], { timeout: 120_000 });
    const value = async (key) => Number((await output_text(page, key, cell)).replace(/[,\s]/g, ''));
    assert.equal(await value('model_mib'), 16);   // the model chosen, as received

    for (const key of ['fetch_bypass_ms', 'fetch_warm_ms', 'wasm_compile_ms', 'wasm_instantiate_ms', 'infer_first_ms']) {
      assert.ok(await value(key) > 0, `${key} is shown and positive`);
    }
    // serve.mjs lets assets/ be cached, and the shards fit the cache: every warm load came from it.
    assert.equal(await value('warm_from_cache_frac'), 1);
    assert.notEqual(await page.$(`${cell} .sl-notice[data-code="native_only"]`), null);
    assert.equal(await page.$(`${cell} .sl-notice[data-code="browser_only"]`), null);
    assert.deepEqual(page.problems, []);
  });

  test('bad input is reported before any probe runs', async () => {
    const page = await new_page(site.browser);
    await open(page, `${site.server.url}lab.html?lab=batching&cell=cpu-batch-measure&embed=1&${QUICK}&width=0`);
    await page.waitForSelector(`${CELL}[data-state="error"]`, { timeout: 60_000 });
    assert.match(await page.textContent(`${CELL} .sl-error`), /width/i);
    assert.equal(await page.getAttribute(`${CELL} [name="width"]`, 'aria-invalid'), 'true');
  });
});
