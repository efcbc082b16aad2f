// A lab page fetches only its own lab file (dist/labs/<lab>.json, both languages), once, and after its first result
// the lab's challenges (dist/labs/<lab>.challenges.json) and its charts' specs (dist/labs/<lab>.charts.json), once
// each: switching language fetches no lab file; the outputs table shows the unit C++ declares.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, CELL, new_page, open, screenshot, with_site } from './helpers.mjs';

const specs = JSON.parse(execFileSync(join(ROOT, 'build/native/serving-lab'), ['list', '--json'], { encoding: 'utf8' }));

describe('what a lab page fetches', () => {
  const site = with_site();

  test('a lab page fetches its own lab file once, its challenges and chart specs once after, and nothing more after switching language', async () => {
    const page = await new_page(site.browser);
    const lab_files = [];
    page.on('request', (request) => {
      const match = /\/labs\/([^/?#]+\.json)/.exec(new URL(request.url()).pathname);
      if (match) lab_files.push(match[1]);
    });
    await open(page, `${site.server.url}lab.html?lab=queues`);
    await page.waitForSelector(`${CELL}[data-state="done"]`);
    assert.equal(lab_files[0], 'queues.json');
    // The challenges load a task after the first result (web/js/challenges.js), the chart specs with the first
    // drawing (cell_view.js), in either order.
    const after = ['queues.challenges.json', 'queues.charts.json'];
    for (let waited = 0; !after.every((name) => lab_files.includes(name)) && waited < 30_000; waited += 100) await page.waitForTimeout(100);
    assert.deepEqual([lab_files[0], ...lab_files.slice(1).sort()], ['queues.json', ...after]);
    await page.waitForSelector(`${CELL} .sl-chart-canvas svg`);
    const en_title = await page.textContent('h1');
    await page.focus('.sl-lang-button[data-lang="vi"]');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.documentElement.lang === 'vi');
    await page.waitForSelector(`${CELL}[data-state="done"]`);
    assert.notEqual(await page.textContent('h1'), en_title, 'the lab\'s own text switched language');
    assert.deepEqual([lab_files[0], ...lab_files.slice(1).sort()], ['queues.json', ...after]);
    assert.deepEqual(page.problems, []);
  });

  test('the outputs table shows the unit each output declares in C++', async () => {
    const page = await new_page(site.browser);
    await open(page, `${site.server.url}lab.html?lab=queues&cell=littles-law&embed=1`);
    await page.waitForSelector(`${CELL}[data-state="done"]`);
    const declared = new Map(specs.find((spec) => spec.id === 'queues/littles-law').outputs.map((o) => [o.name, o.unit]));
    const rows = await page.$$eval(`${CELL} .sl-outputs tr[data-key]`,
      (trs) => trs.map((tr) => [tr.dataset.key, tr.querySelector('.sl-unit').textContent]));
    assert.ok(rows.length > 0);
    assert.ok(rows.some(([, unit]) => unit !== ''), 'some output has a unit');
    for (const [key, unit] of rows) assert.equal(unit, declared.get(key), `unit of ${key}`);
    await screenshot(page, 'lab-units');
  });
});
