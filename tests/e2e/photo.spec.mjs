// The request lab's file parameter in a real browser: request/resnet-request decodes its built-in photo,
// then a JPEG chosen in the file input (made here by Chromium's own encoder), and reports that image's size;
// the browser's createImageBitmap is timed beside our decoder.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { new_page, open, screenshot, runs_of, next_run, with_site, with_scratch } from './helpers.mjs';

const CELL = '#resnet-request';

/** A 320 x 200 JPEG drawn and encoded by the page's canvas. */
async function canvas_jpeg(page) {
  const bytes = await page.evaluate(async () => {
    const canvas = new OffscreenCanvas(320, 200);
    const g = canvas.getContext('2d');
    const sky = g.createLinearGradient(0, 0, 0, 200);
    sky.addColorStop(0, '#3060b0');
    sky.addColorStop(1, '#d0e0f0');
    g.fillStyle = sky;
    g.fillRect(0, 0, 320, 200);
    g.fillStyle = '#c02020';
    g.beginPath();
    g.arc(120, 120, 50, 0, 2 * Math.PI);
    g.fill();
    const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.9 });
    return Array.from(new Uint8Array(await blob.arrayBuffer()));
  });
  return Buffer.from(bytes);
}

const value_of = (page, key) => page.textContent(`${CELL} .sl-outputs tr[data-key="${key}"] td`);

describe('a photo chosen in the file input', () => {
  const site = with_site();
  const scratch = with_scratch('photo');

  test('request/resnet-request decodes the built-in photo, then the chosen JPEG, reports its size, and rejects a non-JPEG', async () => {
    const page = await new_page(site.browser, { width: 900, height: 900 });
    await open(page, `${site.server.url}lab.html?lab=request&cell=resnet-request&embed=1`);
    await page.waitForSelector(`${CELL}[data-state="done"]`, { timeout: 45_000 });
    assert.equal((await value_of(page, 'photo_width')).trim(), '640');
    assert.equal((await value_of(page, 'photo_height')).trim(), '480');
    assert.equal((await value_of(page, 'photo_builtin')).trim(), '1');
    assert.ok(Number.parseFloat(await value_of(page, 'bitmap_decode_ms')) > 0, 'createImageBitmap was timed');

    const path = scratch.file('chosen.jpg');
    await writeFile(path, await canvas_jpeg(page));
    const before_runs = await runs_of(page, CELL);
    await page.setInputFiles(`${CELL} [name="photo"]`, path);
    assert.equal(await next_run(page, before_runs, CELL), 'done');
    assert.equal((await value_of(page, 'photo_width')).trim(), '320');
    assert.equal((await value_of(page, 'photo_height')).trim(), '200');
    assert.equal((await value_of(page, 'photo_builtin')).trim(), '0');
    await screenshot(page, 'photo-chosen');

    const bad = scratch.file('not-a-photo.jpg');
    await writeFile(bad, 'this text is not a JPEG');
    const runs = await runs_of(page, CELL);
    await page.setInputFiles(`${CELL} [name="photo"]`, bad);
    assert.equal(await next_run(page, runs, CELL), 'error');
    assert.deepEqual(page.problems, []);
  });
});
