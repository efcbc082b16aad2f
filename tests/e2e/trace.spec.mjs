// The request trace of llm/continuous-batching (issue 16) as the page draws it: the Gantt chart has one row
// per traced request, its CSV holds the run's trace_spans rows under labelled columns with the span kinds
// named, and the chart is saved wide and on a 390 px phone, in English and Vietnamese, in test-artifacts/.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { new_page, open, screenshot, with_site } from './helpers.mjs';

const CELL = '#continuous-batching';
const CHART = `${CELL} .sl-chart[data-chart="trace"]`;
const KINDS = { en: ['queued', 'prefill chunk', 'decode', 'preempted'], vi: ['chờ', 'khúc prefill', 'decode', 'bị tạm dừng'] };

/** Opens the cell alone, then its "More charts", and waits for the trace chart's drawing (its downloads follow it). */
async function open_cell(page, url) {
  await open(page, url);
  await page.waitForSelector(`${CELL}[data-state="done"]`, { timeout: 60_000 });
  await page.click(`${CELL} .sl-more-charts > summary`);
  await page.waitForSelector(`${CHART} [data-format="svg"]`, { state: 'attached', timeout: 30_000 });
}

/** The text of what a download button saves (its menu opened first, as a reader does). */
async function saved(page, selector) {
  await page.$eval(selector, (button) => { const menu = button.closest('details'); if (menu) menu.open = true; });
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return readFile(await download.path(), 'utf8');
}

/** The rows drawn: the distinct top edges of the chart's bars (one band of the request axis each). */
function bar_rows(page) {
  return page.$$eval(`${CHART} .sl-chart-canvas svg .role-mark.mark-rect path`, (paths) => {
    const tops = new Set();
    for (const path of paths) {
      const match = /^M(-?[\d.]+),(-?[\d.]+)/.exec(path.getAttribute('d') || '');
      const offset = path.getAttribute('transform')?.match(/translate\((-?[\d.]+),(-?[\d.]+)\)/);
      if (match) tops.add(Math.round(Number(match[2]) + (offset ? Number(offset[2]) : 0)));
    }
    return tops.size;
  });
}

/** RFC 4180 rows of a CSV that quotes only cells holding a comma, quote or newline. */
function parse_csv(text) {
  return text.trimEnd().split('\r\n').map((line) => {
    const cells = [];
    for (const match of line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)) {
      cells.push(match[1].startsWith('"') ? match[1].slice(1, -1).replace(/""/g, '"') : match[1]);
      if (!match[2]) break;
    }
    return cells;
  });
}

describe('request trace chart (llm/continuous-batching)', () => {
  const site = with_site();

  // The defaults; a KV pool of 2 GiB at 30 requests/s, where two of the first 20 requests are preempted; 7 traced.
  const cases = [
    { lang: 'en', traced: 20, inputs: '', name: 'defaults' },
    { lang: 'vi', traced: 20, inputs: '&kv_gib=2&lambda=30&static_batch=4', name: 'preempted', preempted: true },
    { lang: 'en', traced: 7, inputs: '&trace_requests=7', name: 'seven' },
  ];
  for (const { lang, traced, inputs, name, preempted = false } of cases) {
    test(`${lang}, ${name}: one row per traced request, and the CSV holds the run's trace_spans rows`, async () => {
      const page = await new_page(site.browser, { width: 1280, height: 900 });
      await open_cell(page, `${site.server.url}lab.html?lab=llm&cell=continuous-batching&embed=1&lang=${lang}${inputs}`);
      const run = JSON.parse(await saved(page, `${CELL} .sl-download-json`));
      const spans = run.tables.trace_spans;
      assert.equal(new Set(spans.request).size, traced, 'the run traced as many requests as asked');
      assert.equal(await bar_rows(page), traced, 'one row of bars per traced request');

      const csv_buttons = await page.$$(`${CHART} [data-format="csv"]`);
      assert.equal(csv_buttons.length, 1, 'the chart draws one table');
      const [header, ...rows] = parse_csv(await saved(page, `${CHART} [data-format="csv"]`));
      const names = lang === 'en' ? ['request', 'span', 'start (ms)', 'end (ms)', 'tokens'] : ['yêu cầu', 'đoạn', 'bắt đầu (ms)', 'kết thúc (ms)', 'số token'];
      assert.deepEqual(header, names, 'columns named, in the lab file\'s words and units');
      assert.equal(rows.length, spans.request.length, 'one CSV row per span of the run');
      rows.forEach((row, i) => {
        assert.equal(Number(row[0]), spans.request[i]);
        assert.equal(row[1], KINDS[lang][spans.kind[i]], `row ${i}: the span's kind by name`);
        assert.equal(Number(row[2]), spans.start_ms[i]);
        assert.equal(Number(row[3]), spans.end_ms[i]);
        assert.equal(Number(row[4]), spans.tokens[i]);
      });
      assert.equal(spans.kind.includes(3), preempted, 'preempted spans where memory is short, none at the defaults');
      const summary = await page.textContent(`${CHART} .sl-chart-summary`);
      assert.ok(!summary.includes('{'), `the summary's placeholders are filled: ${summary}`);
      const legend = await page.$$eval(`${CHART} .role-legend-label text`, (texts) => texts.map((t) => t.textContent));
      assert.deepEqual(legend, KINDS[lang], 'the legend names every kind of span');

      await screenshot(page, `trace-${name}-wide-${lang}`, { of: CHART });
      assert.deepEqual(page.problems, []);
      await page.context().close();

      // On a phone the page is opened at its width (the chart picks its legend layout when it is drawn).
      const phone = await new_page(site.browser, { width: 390, height: 844 });
      await open_cell(phone, `${site.server.url}lab.html?lab=llm&cell=continuous-batching&embed=1&lang=${lang}${inputs}`);
      assert.equal(await bar_rows(phone), traced, 'one row per traced request on a phone too');
      const overflow = await phone.$eval(CHART, (chart) => {
        const right = chart.querySelector('.sl-chart-canvas').getBoundingClientRect().right;
        return Math.max(...[...chart.querySelectorAll('.role-legend-label text')].map((t) => t.getBoundingClientRect().right - right));
      });
      assert.ok(overflow <= 0, `a legend label overflows the chart by ${overflow} px`);
      await screenshot(phone, `trace-${name}-narrow-${lang}`, { of: CHART });
      assert.deepEqual(phone.problems, []);
      await phone.context().close();
    });
  }
});
