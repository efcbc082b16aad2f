// Reads and checks the lab files: each against its JSON Schema (labs/schema/, validated with ajv), and
// across files (every cell named in a lab's "cells" has its file, every cell file and book file is named
// there). A cell's book rows (labs/<lab>/book/<cell>.json) are read into its `book` array, so every reader
// sees one object per cell. Every error names the file and the line, e.g.
// "labs/queues/book/mm1-md1.json:41: /book/3/tol_kind must be ...".
import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import Ajv from 'ajv';
import { parseTree, findNodeAtLocation } from 'jsonc-parser';
import { BOOK_DIR_NAME, LABS_DIR, ROOT, SCHEMA_DIR_NAME, book_file_path, json_names, lab_ids } from './paths.mjs';

import { LANGS, localize } from '../../web/js/localize.js';

export { LANGS, localize };

async function schemas() {
  const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
  for (const name of ['localized', 'lab', 'cell', 'book']) {
    ajv.addSchema(JSON.parse(await readFile(join(LABS_DIR, SCHEMA_DIR_NAME, `${name}.schema.json`), 'utf8')));
  }
  return { lab: ajv.getSchema('lab.schema.json'), cell: ajv.getSchema('cell.schema.json'), book: ajv.getSchema('book.schema.json') };
}

/** Line (1-based) of the JSON value at an ajv instancePath ("/book/3/tol_kind") in text. */
export function line_of(text, instance_path) {
  const tree = parseTree(text);
  const path = instance_path.split('/').slice(1).map((part) => {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    return /^\d+$/.test(key) ? Number(key) : key;
  });
  let node = findNodeAtLocation(tree, path);
  while (!node && path.length) {   // a missing member: point at the nearest parent that exists
    path.pop();
    node = findNodeAtLocation(tree, path);
  }
  const offset = node ? node.offset : 0;
  return text.slice(0, offset).split('\n').length;
}

/** A column's "values_as": "<table>.<column>" replaced by that column's own values, so every reader sees one map. */
function resolve_values_as(cell, path, errors) {
  for (const [table_name, table] of Object.entries(cell.tables || {})) {
    for (const [column_name, column] of Object.entries(table.columns)) {
      if (column.values_as === undefined) continue;
      const [other_table, other_column] = column.values_as.split('.');
      const values = cell.tables[other_table]?.columns?.[other_column]?.values;
      if (column.values) {
        errors.push(`${relative(ROOT, path)}: tables.${table_name}.columns.${column_name} has both values and values_as`);
      } else if (values) {
        table.columns[column_name] = { ...column, values };
        delete table.columns[column_name].values_as;
      } else {
        errors.push(`${relative(ROOT, path)}: tables.${table_name}.columns.${column_name}.values_as names ${column.values_as}, ` +
                    'which is not a column with values in this file');
      }
    }
  }
}

async function read_checked(path, validate, errors, { optional = false } = {}) {
  const where = relative(ROOT, path);
  let text;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (!(optional && error.code === 'ENOENT')) errors.push(`${where}: ${error.code === 'ENOENT' ? 'missing' : error.message}`);
    return null;
  }
  let value;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const at = /position (\d+)/.exec(error.message);
    errors.push(`${where}:${at ? text.slice(0, Number(at[1])).split('\n').length : 1}: ${error.message}`);
    return null;
  }
  if (!validate(value)) {
    for (const e of validate.errors) {
      const detail = e.keyword === 'additionalProperties' ? `${e.message}: "${e.params.additionalProperty}"` : e.message;
      errors.push(`${where}:${line_of(text, e.instancePath)}: ${e.instancePath || '/'} ${detail}`);
    }
    return null;
  }
  return value;
}

/**
 * All labs, checked: [{id, order, status, title, summary, cells: [{id: "<lab>/<cell>", ...cell file}]}]
 * sorted by order. Throws an Error listing every problem found.
 */
export async function load_labs(labs_dir = LABS_DIR) {
  const validate = await schemas();
  const errors = [];
  const labs = [];
  for (const lab_id of await lab_ids(labs_dir)) {
    const lab = await read_checked(join(labs_dir, lab_id, 'lab.json'), validate.lab, errors);
    if (!lab) continue;
    const cells = [];
    for (const cell_name of lab.cells) {
      const cell = await read_checked(join(labs_dir, lab_id, `${cell_name}.json`), validate.cell, errors);
      const book = await read_checked(book_file_path(lab_id, cell_name, labs_dir), validate.book, errors, { optional: true });
      // The lab's shared parameter and output labels and notice texts (lab.json "params", "outputs", "notices"), under the cell's own: a cell
      // keeps what it labels itself.
      if (cell) {
        resolve_values_as(cell, join(labs_dir, lab_id, `${cell_name}.json`), errors);
        cells.push({ id: `${lab_id}/${cell_name}`, ...cell, params: { ...lab.params, ...cell.params },
                     outputs: { ...lab.outputs, ...cell.outputs }, book: book?.book ?? [],
                     ...(lab.notices || cell.notices ? { notices: { ...lab.notices, ...cell.notices } } : {}) });
      }
    }
    const files = (await readdir(join(labs_dir, lab_id))).filter((name) => name.endsWith('.json') && name !== 'lab.json');
    for (const name of files) {
      if (!lab.cells.includes(name.slice(0, -'.json'.length))) {
        errors.push(`${relative(ROOT, join(labs_dir, lab_id, name))}: not listed in ${lab_id}/lab.json "cells"`);
      }
    }
    for (const name of await json_names(join(labs_dir, lab_id, BOOK_DIR_NAME))) {
      if (!lab.cells.includes(name.slice(0, -'.json'.length))) {
        errors.push(`${relative(ROOT, join(labs_dir, lab_id, BOOK_DIR_NAME, name))}: the book rows of a cell ${lab_id}/lab.json "cells" does not list`);
      }
    }
    labs.push({ id: lab_id, ...lab, cells });
  }
  const orders = labs.map((lab) => lab.order);
  if (new Set(orders).size !== orders.length) errors.push(`labs/*/lab.json: two labs share an "order" (${orders.join(', ')})`);
  if (errors.length) throw new Error(`the lab files have ${errors.length} problem(s):\n  ${errors.join('\n  ')}`);
  return labs.sort((a, b) => a.order - b.order);
}
