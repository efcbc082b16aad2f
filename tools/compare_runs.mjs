#!/usr/bin/env node
// Behaviour check for refactors: node tools/compare_runs.mjs BASE_DIR SERVING_LAB_BIN [cell-id ...]
// BASE_DIR holds `serving-lab run <cell> --json` outputs of an earlier build (one <lab>_<cell>.json per
// deterministic cell, at the defaults, seed 1; written by tools/snapshot_runs.sh). For each, the new binary
// runs the same cell at the defaults and every number of the old result (outputs and table cells, as a
// multiset) must appear, bit for bit, in the new one: names may change (a renamed output, scalars turned
// into a table), values may not. Prints what is missing; exits 1 if anything is.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const [base_dir, bin, ...only] = process.argv.slice(2);
if (!base_dir || !bin) { console.error('usage: compare_runs.mjs BASE_DIR SERVING_LAB_BIN [cell ...]'); process.exit(2); }

function numbers(result) {
  const all = new Map();   // value -> [names]
  const add = (value, name) => { const key = Object.is(value, -0) ? '-0' : String(value); (all.get(key) ?? all.set(key, []).get(key)).push(name); };
  for (const [name, value] of Object.entries(result.outputs ?? {})) add(value, name);
  for (const [table, columns] of Object.entries(result.tables ?? {}))
    for (const [column, values] of Object.entries(columns)) values.forEach((v, i) => add(v, `${table}.${column}[${i}]`));
  return all;
}

let missing_total = 0;
const files = readdirSync(base_dir).filter((f) => /^[a-z]+_[a-z0-9-]+\.json$/.test(f) && f !== 'list.json');
for (const file of files) {
  const old = JSON.parse(readFileSync(join(base_dir, file), 'utf8'));
  if (!old.cell || (only.length && !only.includes(old.cell))) continue;
  let fresh;
  try { fresh = JSON.parse(execFileSync(bin, ['run', old.cell, '--json'], { encoding: 'utf8', maxBuffer: 1 << 28 })); }
  catch (error) { console.log(`${old.cell}: the new build fails: ${error.message.split('\n')[0]}`); missing_total++; continue; }
  const have = numbers(fresh);
  const missing = [];
  for (const [value, names] of numbers(old)) {
    const n = have.get(value)?.length ?? 0;
    if (n < names.length) missing.push(`${names.slice(n).join(', ')} = ${value}`);
  }
  if (missing.length) { console.log(`${old.cell}: ${missing.length} number(s) missing:\n  ${missing.slice(0, 20).join('\n  ')}`); missing_total += missing.length; }
  else console.log(`${old.cell}: same numbers`);
}
process.exit(missing_total ? 1 : 0);
