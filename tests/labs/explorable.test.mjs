// Each cell's lab file makes it an explorable (issue 12): a short framing, the longer text in "Why?"
// sections, the main chart named, 1-3 key parameters, 3-6 headline outputs, a summary sentence on every
// chart, and in every lab at least one predict-then-run prompt. Names are checked against C++'s declarations
// in tests/declarations/lab_declarations.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load_labs, LANGS } from '../../scripts/labs/load.mjs';

const labs = await load_labs();
const cells = labs.flatMap((lab) => lab.cells.map((cell) => ({ lab: lab.id, ...cell })));
const MAX_FRAMING_SENTENCES = 3;
const MAX_FRAMING_CHARS = 500;

/** Sentences of a paragraph: ends of ., ! or ? followed by a space and a capital (numbers like 0.5 do not end one). */
export function sentences(paragraph) {
  return paragraph.split(/(?<=[.!?])\s+(?=[\p{Lu}])/u).filter((s) => s.trim());
}

test('the sentence counter counts sentences, not decimal points', () => {
  assert.equal(sentences('At ρ = 0.5 the queue is short. Drag λ up. Watch p99.').length, 3);
  assert.equal(sentences('Một máy chủ, 0,5 giây. Hãy kéo λ.').length, 2);
});

for (const cell of cells) {
  test(`${cell.id}: framing, Why?, main chart, key parameters, headline, chart summaries`, () => {
    for (const lang of LANGS) {
      assert.equal(cell.text[lang].length, 1, `${lang}: the framing is one paragraph (longer text goes under "why")`);
      const framing = cell.text[lang][0];
      assert.ok(sentences(framing).length <= MAX_FRAMING_SENTENCES, `${lang}: ${sentences(framing).length} sentences: ${framing}`);
      assert.ok(framing.length <= MAX_FRAMING_CHARS, `${lang}: framing of ${framing.length} characters`);
    }
    assert.ok(cell.main_chart, 'main_chart is named');
    assert.ok(cell.charts.some((chart) => chart.id === cell.main_chart), `main_chart ${cell.main_chart} is one of the charts`);
    assert.ok(cell.key_params?.length >= 1 && cell.key_params.length <= 3, 'one to three key parameters');
    assert.ok(cell.headline?.length >= 3 && cell.headline.length <= 6, 'three to six headline outputs');
    for (const chart of cell.charts) assert.ok(chart.summary, `chart ${chart.id} has a summary sentence`);
    for (const section of cell.why || []) {
      for (const lang of LANGS) assert.ok(section.text[lang].length > 0, `why "${section.title.en}" (${lang}) has text`);
    }
    if (cell.result_table) {
      const labels = cell.tables?.[cell.result_table.table]?.columns || {};
      for (const column of cell.result_table.columns) assert.ok(labels[column], `result table column ${column} has a label`);
    }
  });
}

test('every lab has a predict-then-run prompt', () => {
  for (const lab of labs.filter((l) => l.status === 'ready')) {
    assert.ok(lab.cells.some((cell) => cell.predict), `${lab.id} has no cell with "predict"`);
  }
});
