// The lab files' form: every file valid against labs/schema/ (ajv), in the canonical layout of
// scripts/labs/format.mjs (their size: tests/labs/shape.test.mjs); a broken file is reported with its file and line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load_labs } from '../../scripts/labs/load.mjs';
import { format_lab } from '../../scripts/labs/format.mjs';
import { LABS_DIR, lab_file_paths } from '../../scripts/labs/paths.mjs';

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
  const dir = await mkdtemp(join(tmpdir(), 'labs-'));
  try {
    await cp(LABS_DIR, dir, { recursive: true });
    const path = join(dir, 'queues', 'littles-law.json');
    const cell = JSON.parse(await readFile(path, 'utf8'));
    cell.book[0].tol_kind = 'percent';
    const text = format_lab(cell);
    await writeFile(path, text);
    const line = text.split('\n').findIndex((l) => l.includes('"percent"')) + 1;
    await assert.rejects(load_labs(dir), (error) => {
      assert.match(error.message, new RegExp(`queues/littles-law\\.json:${line}: /book/0/tol_kind must be equal to one of the allowed values`));
      return true;
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a cell file the lab does not list, and a listed cell without a file, are errors', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'labs-'));
  try {
    await cp(LABS_DIR, dir, { recursive: true });
    await writeFile(join(dir, 'queues', 'stray.json'), '{}\n');
    const lab = JSON.parse(await readFile(join(dir, 'llm', 'lab.json'), 'utf8'));
    lab.cells.push('missing-cell');
    await writeFile(join(dir, 'llm', 'lab.json'), format_lab(lab));
    await assert.rejects(load_labs(dir), (error) => {
      assert.match(error.message, /queues\/stray\.json: not listed in queues\/lab\.json "cells"/);
      assert.match(error.message, /llm\/missing-cell\.json: missing/);
      return true;
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
