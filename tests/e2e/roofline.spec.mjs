// llm/cpu-decode-roofline in Chromium (wasm SIMD128): one run, read from the result the page saves (the
// same JSON as the CLI's). Whatever this machine's speed, no decode step may lie above the roof drawn, and
// the knee must fall past batch 1; a verdict, when the run was steady enough to give one, must say batch-1
// FP32 decode is memory-bound. No timing is asserted.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { new_page, with_site, open, screenshot } from './helpers.mjs';

const CELL = '#cpu-decode-roofline';
// 512 MiB of FP32 weights, batches 1, 2, 4: a few seconds. Twice this host's 260 MiB last-level cache (shared
// with other machines): at 128 MiB some samples of a step came from the cache and some from DRAM (spread ~1.8).
const QUICK = 'weights_mib=512&max_batch=4';

describe('CPU decode roofline in the browser', () => {
  const site = with_site();

  test('every step at or below the measured roof, the knee past batch 1, batch-1 FP32 memory-bound', async (t) => {
    const page = await new_page(site.browser);
    await open(page, `${site.server.url}lab.html?lab=llm&cell=cpu-decode-roofline&embed=1&${QUICK}`);
    await page.waitForSelector(`${CELL}[data-state="done"]`, { timeout: 180_000 });
    await page.$eval(`${CELL} .sl-download-json`, (button) => { const menu = button.closest('details'); if (menu) menu.open = true; });
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(`${CELL} .sl-download-json`)]);
    const result = JSON.parse(await readFile(await download.path(), 'utf8'));
    const o = result.outputs;
    const codes = result.notices.map((n) => n.code);
    assert.equal(o.vector_bits, 128);   // SIMD128
    for (const table of ['fp32', 'int8']) {
      const t = result.tables[table];
      assert.deepEqual(t.batch, [1, 2, 4]);
      t.roof_frac.forEach((frac, i) => {
        assert.ok(frac > 0 && frac <= 1, `${table} batch ${t.batch[i]}: roof_frac ${frac}`);
        assert.ok(t.gb_per_s[i] <= o.roof_gb_per_s * (1 + 1e-12), `${table} batch ${t.batch[i]} above the memory roof`);
      });
      // INT8's knee sits near batch 1 in wasm: SIMD128's multiply-add peak (48-71 GOP/s here, run to run) over the
      // memory roof (23-26 GB/s) is a ridge of 2-2.7 op/B, and batch 1 does ~2 (one multiply-add a weight byte; knees
      // 1.04 and 1.35 alone). A probe slowed by the machine's other work put it at 0.995 with the sanitizers building
      // beside the suite; the cell then says so (int8_knee_below_one) and gives no INT8 verdict. FP32's knee is 2-3
      // here: below 1 it fails.
      if (table === 'int8' && codes.includes('int8_knee_below_one')) assert.ok(!('int8_b1_memory_bound' in o), 'no verdict');
      else assert.ok(o[`${table}_knee_batch`] >= 1, `${table} knee ${o[`${table}_knee_batch`]}`);
    }
    t.diagnostic(`roof ${o.roof_gb_per_s} GB/s, FP32 peak ${o.peak_fp32_gflop_per_s} GFLOP/s, knee ${o.fp32_knee_batch}, ` +
      `INT8 peak ${o.peak_int8_gop_per_s} GOP/s, knee ${o.int8_knee_batch}, ` +
      `verdict ${o.fp32_b1_memory_bound ?? 'none'}, verdict spread ${o.verdict_spread}, max spread ${o.max_spread}, notices ${codes}`);
    assert.ok(codes.includes('stream_cache_unknown'), 'a browser cannot tell the cache size, and says so');
    assert.ok(!codes.includes('fp32_knee_below_one'));
    // A verdict exactly when the run was steady; when given, batch-1 FP32 is memory-bound.
    assert.equal('fp32_b1_memory_bound' in o, !codes.includes('noisy_run'));
    if ('fp32_b1_memory_bound' in o) assert.equal(o.fp32_b1_memory_bound, 1);
    assert.ok(o.fp32_b1_ai_over_ridge < 1);
    await screenshot(page, 'roofline');
    assert.deepEqual(page.problems, []);
  });
});
