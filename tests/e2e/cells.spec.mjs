// Every cell of every lab, in a real browser: it renders its numbers (and its charts, with marks), it
// reacts to a parameter change, and a bad value shows an error while the cell keeps working. The cells
// and their parameters come from the native CLI (`serving-lab list --json`), the texts from labs/<lab>/,
// so a new cell is covered without writing a test for it. A lab-file cell may name the parameter to
// change: "e2e": {"param": "lambda", "value": "120"}.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { load_labs } from '../../scripts/labs/load.mjs';
import { ROOT, new_context, tab_of, open, screenshot, runs_of, next_run, reveal, with_site, agree_to_assets, type_and_submit } from './helpers.mjs';

const specs = JSON.parse(execFileSync(join(ROOT, 'build/native/serving-lab'), ['list', '--json'], { encoding: 'utf8' }));
const docs = new Map((await load_labs()).flatMap((lab) => lab.cells.map((cell) => [cell.id, cell])));

/** A value inside the range that differs from the default: +10 % (or the midpoint towards min), +1 for counts. */
function changed_value(param) {
  if (param.kind === 'choice') return param.choices.find((c) => c !== param.default);
  if (param.kind === 'count') return String(param.default + 1 <= param.max ? param.default + 1 : param.default - 1);
  const up = param.default === 0 ? Math.min(param.max, 1) : param.default * 1.1;
  return String(up <= param.max && up >= param.min ? up : (param.min + param.default) / 2);
}

/** Numeric parameters shown at the defaults (a custom model's fields are hidden while a preset is chosen). */
function typed_params(spec) {
  const shown = (p) => !p.used_when || p.used_when.values.includes(spec.params.find((q) => q.name === p.used_when.param).default);
  return spec.params.filter((p) => (p.kind === 'real' || p.kind === 'count') && shown(p));
}

/** Parameter changes to try, in order: the lab file's hint, then numeric parameters, then choices. */
function candidate_changes(spec) {
  const hint = docs.get(spec.id)?.e2e;
  if (hint) return [{ name: hint.param, value: String(hint.value) }];
  const ordered = [...typed_params(spec), ...spec.params.filter((p) => p.kind === 'choice')];
  return ordered.map((p) => ({ name: p.name, value: changed_value(p) })).filter((c) => c.value !== undefined).slice(0, 6);
}

describe('every cell in the browser', () => {
  const site = with_site();
  // One browser context a lab, and its one tab (tab_of): each cell is a new document there, sharing the HTTP cache
  // (the module, the scripts, the chart library revalidate with a 304) and the reader's data-file consent.
  const contexts = new Map();
  const page_of = async (lab) => {
    if (!contexts.has(lab)) contexts.set(lab, await new_context(site.browser, { width: 900, height: 900 }));
    return tab_of(site.browser, contexts.get(lab));
  };

  for (const spec of specs) {
    const [lab, short] = spec.id.split('/');
    const cell = `#${short}`;
    test(`${spec.id} renders, reacts to a parameter change and reports a bad value`, async () => {
      assert.ok(docs.has(spec.id), `${spec.id} is registered in C++ but missing from labs/${lab}/lab.json`);
      const page = await page_of(lab);
      // A measurement whose defaults take many seconds here opens with the lab file's smaller inputs.
      const opened = docs.get(spec.id)?.e2e?.open ?? {};
      const query = new URLSearchParams({ lab, cell: short, embed: '1', predict: '0', ...opened });
      await open(page, `${site.server.url}lab.html?${query}`);
      // Its data file, on the reader's word (asked once a context: a later cell of the lab finds it agreed to).
      if ((spec.assets || []).length) await agree_to_assets(page);
      await page.waitForSelector(`${cell}[data-state="done"]`, { timeout: 45_000 });
      const outputs = () => page.textContent(`${cell} .sl-outputs`);
      assert.ok((await page.$$(`${cell} .sl-outputs tr[data-key]`)).length > 0, 'no outputs shown');
      const charts = docs.get(spec.id)?.charts ?? [];
      if (charts.length > 0) {
        await page.waitForSelector(`${cell} .sl-chart-canvas svg`, { timeout: 30_000 });
        // Charts below the main one are drawn once "More charts" is opened: open it, as a reader would.
        await page.$$eval(`${cell} details.sl-more-charts`, (all) => all.forEach((details) => { details.open = true; }));
        await page.waitForFunction(([selector, count]) => document.querySelectorAll(`${selector} .sl-chart:not([hidden]) .sl-chart-canvas svg`).length
          + document.querySelectorAll(`${selector} .sl-chart[hidden]`).length >= count, [cell, charts.length], { timeout: 30_000 });
        const marks = await page.$$eval(`${cell} .sl-chart-canvas svg`, (svgs) =>
          svgs.map((svg) => svg.querySelectorAll('.mark-line path, .mark-rect path, .mark-area path, .mark-symbol path, .mark-rule line, .mark-text text').length));
        assert.equal(marks.length, charts.length, 'one chart per chart spec');
        assert.ok(marks.every((n) => n > 0), `marks per chart: ${marks}`);
      }
      await screenshot(page, `cell-${lab}-${short}`);

      // Some parameters matter only in some modes (a custom preset): try a few until one changes the numbers.
      let changed = false;
      const tried = [];
      for (const change of candidate_changes(spec)) {
        const field = `${cell} [name="${change.name}"]`;
        const before = await runs_of(page, cell);
        const shown = await outputs();
        await reveal(page, field);
        // A choice runs on its change; a typed value on Enter (the form's submit), as a keyboard reader does.
        if ((await page.$eval(field, (e) => e.tagName)) === 'SELECT') await page.selectOption(field, change.value);
        else await type_and_submit(page, field, change.value);
        assert.equal(await next_run(page, before, cell), 'done', `after ${change.name}=${change.value}`);
        tried.push(`${change.name}=${change.value}`);
        if (await outputs() !== shown) { changed = true; break; }
      }
      if (spec.deterministic !== false) assert.ok(changed, `no output changed after ${tried.join(', ')}`);
      let before;

      const text_param = typed_params(spec)[0];
      if (text_param) {
        before = await runs_of(page, cell);
        await reveal(page, `${cell} [name="${text_param.name}"]`);
        await type_and_submit(page, `${cell} [name="${text_param.name}"]`, 'abc');
        assert.equal(await next_run(page, before, cell), 'error');
        // The message is shown beside the field, and the field's aria-describedby names it.
        const field_error = `${cell} [data-param="${text_param.name}"] .sl-field-error`;
        assert.ok(await page.isVisible(field_error), 'the error is shown beside its field');
        assert.ok((await page.textContent(field_error)).length > 0);
        const described = await page.getAttribute(`${cell} [name="${text_param.name}"]`, 'aria-describedby');
        assert.ok(described.split(' ').includes(await page.getAttribute(field_error, 'id')), `aria-describedby: ${described}`);
        before = await runs_of(page, cell);
        await type_and_submit(page, `${cell} [name="${text_param.name}"]`, opened[text_param.name] ?? String(text_param.default));
        assert.equal(await next_run(page, before, cell), 'done', 'the cell works again after an error');
      }
      assert.deepEqual(page.problems, []);
    });
  }
});
