// The lab files' form: every file valid against labs/schema/ (ajv), in the canonical layout of
// scripts/labs/format.mjs (their size: tests/labs/shape.test.mjs); a broken file is reported with its file and line.
// A cell's book rows are in labs/<lab>/book/<cell>.json (book.schema.json), read into the cell's `book`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load_labs } from '../../scripts/labs/load.mjs';
import { format_lab } from '../../scripts/labs/format.mjs';
import { LABS_DIR, lab_file_paths } from '../../scripts/labs/paths.mjs';

/// Runs `body(dir)` on a scratch copy of labs/, removed afterwards.
async function with_labs_copy(body) {
  const dir = await mkdtemp(join(tmpdir(), 'labs-'));
  try {
    await cp(LABS_DIR, dir, { recursive: true });
    return await body(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/// Edits one lab file of such a copy (`edit` changes the parsed JSON) and writes it back in the canonical layout;
/// returns the text written.
async function edit_lab_file(path, edit) {
  const json = JSON.parse(await readFile(path, 'utf8'));
  edit(json);
  const text = format_lab(json);
  await writeFile(path, text);
  return text;
}

test('every lab file is valid against its JSON Schema', async () => {
  const labs = await load_labs();
  assert.equal(labs.length, 4);
  assert.deepEqual(labs.map((lab) => lab.order), [1, 2, 3, 4]);
});

test('every lab file is in the canonical layout (node scripts/labs/format.mjs --write fixes it)', async () => {
  for (const path of await lab_file_paths()) {
    const text = await readFile(path, 'utf8');
    assert.equal(text, format_lab(JSON.parse(text)), `${path} is not in the canonical layout`);
  }
});

test('a schema error names the file and the line of the bad value', async () => {
  await with_labs_copy(async (dir) => {
    const text = await edit_lab_file(join(dir, 'queues', 'book', 'littles-law.json'), (rows) => { rows.book[0].tol_kind = 'percent'; });
    const line = text.split('\n').findIndex((l) => l.includes('"percent"')) + 1;
    await assert.rejects(load_labs(dir), (error) => {
      assert.match(error.message, new RegExp(`queues/book/littles-law\\.json:${line}: /book/0/tol_kind must be equal to one of the allowed values`));
      return true;
    });
  });
});

test('a cell file the lab does not list, and a listed cell without a file, are errors', async () => {
  await with_labs_copy(async (dir) => {
    await writeFile(join(dir, 'queues', 'stray.json'), '{}\n');
    await writeFile(join(dir, 'queues', 'book', 'stray-rows.json'), '{}\n');
    await edit_lab_file(join(dir, 'llm', 'lab.json'), (lab) => { lab.cells.push('missing-cell'); });
    await assert.rejects(load_labs(dir), (error) => {
      assert.match(error.message, /queues\/stray\.json: not listed in queues\/lab\.json "cells"/);
      assert.match(error.message, /queues\/book\/stray-rows\.json: the book rows of a cell queues\/lab\.json "cells" does not list/);
      assert.match(error.message, /llm\/missing-cell\.json: missing/);
      return true;
    });
  });
});

test('every book row declares its kind; a simulation row has an se tolerance; an expected difference has its reason', async () => {
  const kinds = new Set(['formula', 'simulation', 'measurement', 'arithmetic']);
  let rows = 0;
  for (const lab of await load_labs()) {
    for (const cell of lab.cells) {
      for (const row of cell.book) {
        const where = `${cell.id} ${row.ref} ${row.output}`;
        rows += 1;
        assert.ok(kinds.has(row.kind), `${where}: kind ${row.kind}`);
        if (row.kind === 'simulation') assert.equal(row.tol_kind, 'se', `${where}: a simulation's tolerance comes from standard errors`);
        if (row.tol_kind === 'se') {
          assert.ok(row.se_output && row.se_output !== row.output, `${where}: se_output names another output`);
          assert.ok(row.ref_se >= 0 && row.derivation.length > 0, `${where}: ref_se and its derivation`);
        }
        if (row.expect) assert.ok(row.reason?.en && row.reason?.vi, `${where}: an expected difference says why, in EN and VI`);
        if (row.source === 'notebook') assert.match(row.ref, /^nb0[1-4]-c[0-9]+$/, `${where}: a notebook row's ref is nbNN-cNN`);
      }
    }
  }
  assert.ok(rows > 0);
});

test('book rows live in their own file: a cell file with a "book" array, or an empty book file, is an error', async () => {
  await with_labs_copy(async (dir) => {
    const rows = JSON.parse(await readFile(join(dir, 'queues', 'book', 'littles-law.json'), 'utf8'));
    await edit_lab_file(join(dir, 'queues', 'littles-law.json'), (cell) => { cell.book = rows.book; });
    await writeFile(join(dir, 'queues', 'book', 'fan-out.json'), format_lab({ book: [] }));
    await assert.rejects(load_labs(dir), (error) => {
      assert.match(error.message, /queues\/littles-law\.json:\d+: \/ must NOT have additional properties: "book"/);
      assert.match(error.message, /queues\/book\/fan-out\.json:\d+: \/book must NOT have fewer than 1 items/);
      return true;
    });
  });
});

test('every cell has its book rows, read from its book file', async () => {
  const labs = await load_labs();
  const queues = labs.find((lab) => lab.id === 'queues');
  const littles = queues.cells.find((cell) => cell.id === 'queues/littles-law');
  const file = JSON.parse(await readFile(join(LABS_DIR, 'queues', 'book', 'littles-law.json'), 'utf8'));
  assert.deepEqual(littles.book, file.book);
  for (const lab of labs) for (const cell of lab.cells) assert.ok(Array.isArray(cell.book), `${cell.id}: book rows`);
});

test('the schema rejects a row without a kind, a simulation without an se tolerance, and an expectation without a reason', async () => {
  await with_labs_copy(async (dir) => {
    await edit_lab_file(join(dir, 'queues', 'book', 'littles-law.json'), (cell) => {
      const base = cell.book[0];
      const { kind, ...no_kind } = base;
      cell.book = [
        no_kind,
        { ...base, kind: 'guess' },
        { ...base, kind: 'simulation' },                                         // rel tolerance: not allowed
        { ...base, tol_kind: 'se' },                                             // se without se_output, ref_se, derivation
        { ...base, se_output: 'L', ref_se: 0, derivation: 'x' },                 // se fields with a rel tolerance
        { ...base, expect: 'differs' },                                          // no reason
        { ...base, source: 'notebook' },                                         // ref is not nbNN-cNN
      ];
    });
    await assert.rejects(load_labs(dir), (error) => {
      for (const [index, message] of [[0, " must have required property 'kind'"], [1, '/kind must be equal to one of the allowed values'],
        [2, '/tol_kind must be equal to constant'], [3, " must have required property 'se_output'"], [4, ' must NOT be valid'],
        [5, ' must have property reason when property expect is present'], [6, '/ref must match pattern']]) {
        assert.ok(error.message.includes(`/book/${index}${message}`), `row ${index}: ${message}`);
      }
      return true;
    });
  });
});

test('a column\'s values_as reads another column\'s values; one that names none, or has both, is an error', async () => {
  const validation = (await load_labs()).find((lab) => lab.id === 'llm').cells.find((cell) => cell.id === 'llm/validation');
  const codes = validation.tables.validation.columns.source.values;
  assert.ok(Object.keys(codes).length >= 4);
  assert.deepEqual(validation.tables.knobs.columns.source.values, codes);
  assert.equal(validation.tables.knobs.columns.source.values_as, undefined);
  await with_labs_copy(async (dir) => {
    await edit_lab_file(join(dir, 'llm', 'validation.json'), (cell) => {
      cell.tables.knobs.columns.source.values_as = 'validation.no_such_column';
      cell.tables.sources.columns.source.values = { 0: { en: 'x', vi: 'x' } };
    });
    await assert.rejects(load_labs(dir), (error) => {
      assert.match(error.message, /llm\/validation\.json: tables\.knobs\.columns\.source\.values_as names validation\.no_such_column/);
      assert.match(error.message, /llm\/validation\.json: tables\.sources\.columns\.source has both values and values_as/);
      return true;
    });
  });
});
