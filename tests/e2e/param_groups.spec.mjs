// Parameters a reader can find (issue 34, point 3), on llm/fleet alone (embed mode, one cell): "More parameters"
// opens into one folded section per C++ group with a filter box that narrows them and opens the groups that
// match; a preset (C++ CellSpec::presets) sets its inputs, runs, and goes in the URL with any value changed
// beside it, so a reload gives the same inputs and numbers. axe-core finds nothing with the groups open.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { axe_violations, new_page, next_run, runs_of, screenshot, set_param_and_wait, with_site } from './helpers.mjs';

const CELL = '#fleet';
const MORE = `${CELL} .sl-more-params`;
const FILTER = `${CELL} .sl-param-filter input[type="search"]`;
const PRESET = `${CELL} #sl-fleet-preset`;

/** The fields of "More parameters" a reader sees: [{name, label, group}]. */
function visible_fields(page) {
  return page.$$eval(`${MORE} [data-param]`, (fields) => fields.filter((field) => field.checkVisibility())
    .map((field) => ({ name: field.dataset.param, label: field.querySelector('label').textContent, group: field.closest('[data-group]')?.dataset.group })));
}

describe('llm/fleet: grouped parameters, a filter and presets', () => {
  const site = with_site();

  test('the filter narrows the groups, a preset sets its inputs and the URL, a reload keeps them', async () => {
    const page = await new_page(site.browser, { width: 1100, height: 1000 });
    await page.goto(`${site.server.url}lab.html?lab=llm&cell=fleet&embed=1&predict=0`);
    await page.waitForSelector(`${CELL}[data-state="done"]`, { timeout: 60_000 });

    // In view before the reader asks for more: the preset menu and the key parameters, at most ~10 fields.
    const in_view = await page.$$eval(`${CELL} form .sl-field`, (fields) => fields.filter((f) => f.checkVisibility()).length);
    assert.ok(in_view >= 2 && in_view <= 10, `${in_view} fields in view`);

    // Opened by keyboard, "More parameters" is sorted into folded groups, each with its count, and a filter box.
    await page.focus(`${MORE} > summary`);
    await page.keyboard.press('Enter');
    await page.waitForSelector(FILTER);
    const groups = await page.$$eval(`${MORE} .sl-param-group`, (sections) => sections.map((s) => ({
      group: s.dataset.group, open: s.open, hidden: s.hidden, summary: s.querySelector('summary').textContent,
      fields: s.querySelectorAll('[data-param]:not([hidden])').length })));
    assert.ok(groups.filter((g) => !g.hidden).length >= 8, `${groups.length} groups`);
    // Counted as the filter counts: the parameters these choices use (the step model's fields only at step_model = custom).
    for (const g of groups) assert.equal(g.hidden, g.fields === 0, `${g.group}: hidden exactly when none of its parameters is in use`);
    const in_use = groups.reduce((sum, g) => sum + g.fields, 0);
    assert.match(await page.textContent(`${MORE} > summary`), new RegExp(`\\(${in_use}\\)$`), 'More parameters counts the ones in use');
    assert.match(await page.textContent(`${CELL} .sl-param-filter [role="status"]`), new RegExp(`^${in_use} of ${in_use} parameters shown$`));
    for (const g of groups.filter((g) => !g.hidden)) {
      assert.equal(g.open, false, `${g.group} starts folded`);
      assert.match(g.summary, new RegExp(`\\(${g.fields}\\)$`), `${g.group}: its count`);
      assert.notEqual(g.summary.replace(/ \(\d+\)$/, ''), g.group, `${g.group}: a label, not the id`);
    }
    assert.deepEqual(groups.slice(0, 2).map((g) => g.group), ['model', 'gpu'], 'in declaration order');
    assert.equal(await page.getAttribute(`${CELL} .sl-param-filter label`, 'for'), await page.getAttribute(FILTER, 'id'));

    // Typing narrows: only parameters whose name or label holds the text, in the groups now open; the status counts them.
    await page.fill(FILTER, 'tpot');
    const shown = await visible_fields(page);
    assert.ok(shown.length >= 2, JSON.stringify(shown));
    for (const f of shown) assert.ok(`${f.name} ${f.label}`.toLowerCase().includes('tpot'), JSON.stringify(f));
    assert.ok(shown.some((f) => f.name === 'doc_tpot_slo_ms' && f.group === 'slo_cost'));
    assert.equal(await page.$eval(`${MORE} [data-group="slo_cost"]`, (s) => s.open && !s.hidden), true, 'its group opens');
    assert.equal(await page.$eval(`${MORE} [data-group="model"]`, (s) => s.hidden), true, 'a group without a match is hidden');
    const status = await page.textContent(`${CELL} .sl-param-filter [role="status"]`);
    assert.match(status, new RegExp(`^${shown.length} of \\d+ parameters shown$`));
    assert.deepEqual(await axe_violations(page), []);
    await screenshot(page, 'param-groups-filter', { of: CELL });
    await page.fill(FILTER, '');
    assert.equal(await page.$$eval(`${MORE} .sl-param-group:not([hidden])`, (s) => s.length), groups.filter((g) => !g.hidden).length,
      'cleared: every group in use again');

    // step_model = custom brings the step model's fields into use: "More parameters" and the groups count them.
    const count = async (selector) => Number((await page.textContent(selector)).match(/\((\d+)\)$/)[1]);
    const more_before = await count(`${MORE} > summary`);
    await page.$eval(`${MORE} [data-group="engine"]`, (details) => { details.open = true; });
    let before = await runs_of(page, CELL);
    await page.selectOption(`${CELL} select[name="step_model"]`, 'custom');
    assert.equal(await next_run(page, before, CELL), 'done');
    const more_after = await count(`${MORE} > summary`);
    assert.ok(more_after - more_before >= 10, `More parameters: ${more_before} -> ${more_after}`);
    const group_counts = await page.$$eval(`${MORE} .sl-param-group:not([hidden]) > summary`, (all) => all.map((s) => Number(s.textContent.match(/\((\d+)\)$/)[1])));
    assert.equal(group_counts.reduce((a, b) => a + b, 0), more_after, 'the groups add up to More parameters');

    // A preset sets several inputs at once and runs; the URL names it, without the values it sets.
    before = await runs_of(page, CELL);
    await page.selectOption(PRESET, 'long-docs-a100');
    assert.equal(await next_run(page, before, CELL), 'done');
    const query = () => new URL(page.url()).searchParams;
    assert.equal(query().get('preset'), 'long-docs-a100');
    assert.equal(query().get('model'), null, 'the preset carries the model');
    const value = (name) => page.$eval(`${CELL} [name="${name}"]`, (control) => control.value);
    assert.equal(await value('model'), 'llama3.1-70b');
    assert.equal(await value('gpu'), 'a100');
    assert.equal(await value('tensor_parallel_size'), '4');
    const gpus = async () => (await page.textContent(`${CELL} .sl-outputs tr[data-key="num_gpus"] td`)).trim();
    assert.match(await gpus(), /^8\b/, '2 replicas × 4 GPUs of tensor parallelism');

    // A value changed beside the preset joins it in the URL; a reload gives the same inputs and numbers.
    assert.equal(await set_param_and_wait(page, 'lambda', '3', CELL), 'done');
    assert.equal(query().get('preset'), 'long-docs-a100');
    assert.equal(query().get('lambda'), '3');
    const goodput = await page.textContent(`${CELL} .sl-outputs tr[data-key="goodput_req_per_s"] td`);
    await page.reload();
    await page.waitForSelector(`${CELL}[data-state="done"]`, { timeout: 60_000 });
    assert.equal(await page.$eval(PRESET, (select) => select.value), 'long-docs-a100');
    assert.equal(await value('lambda'), '3');
    assert.equal(await value('model'), 'llama3.1-70b');
    assert.equal(await page.textContent(`${CELL} .sl-outputs tr[data-key="goodput_req_per_s"] td`), goodput);

    // "Your own inputs" keeps the values and drops the preset from the URL, which then carries them itself.
    before = await runs_of(page, CELL);
    await page.selectOption(PRESET, '');
    assert.equal(await next_run(page, before, CELL), 'done');
    assert.equal(query().get('preset'), null);
    assert.equal(query().get('model'), 'llama3.1-70b');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
