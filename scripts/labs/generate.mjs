#!/usr/bin/env node
// node scripts/labs/generate.mjs --cpp OUT.cpp [--measured-cpp OUT2.cpp]: checks the lab files
// (scripts/labs/load.mjs) and writes the C++ table the core compiles in: the cells' page order (lab order, then
// each lab.json's "cells") and the book references, so that "within tolerance" is decided in C++ for the CLI and
// the wasm module alike; with --measured-cpp, also the published serving measurements (scripts/labs/measured.mjs).
// Run by the CMake build whenever a lab file or this script changes.
import { writeFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { load_labs } from './load.mjs';
import { load_measured, measured_points_cpp } from './measured.mjs';

/** A C++ string literal for any text (raw literal; the delimiter is not in our texts). */
function cpp_string(text) {
  if (text.includes(')sl"')) throw new Error(`text contains the raw-literal delimiter: ${text}`);
  return `R"sl(${text})sl"`;
}

function cpp_number(value) {
  if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
  return Number.isInteger(value) && Math.abs(value) < 2 ** 53 ? `${value}.0` : String(value);
}

export function book_refs_cpp(labs) {
  const order = labs.flatMap((lab) => lab.cells.map((cell) => `      ${cpp_string(cell.id)},`));
  const rows = [];
  for (const lab of labs) {
    for (const cell of lab.cells) {
      for (const b of cell.book) {
        const when = Object.entries(b.when ?? {}).map(([name, v]) => `{${cpp_string(name)}, ${cpp_string(String(v))}}`);
        rows.push(`      {${cpp_string(cell.id)}, ${cpp_string(b.ref)}, ${cpp_string(b.output)}, ${cpp_string(b.label.en)}, ` +
          `${cpp_string(b.unit)}, ${cpp_number(b.value)}, ${cpp_number(b.tolerance)}, ${cpp_string(b.tol_kind)}, {${when.join(', ')}}, ` +
          `${cpp_string(b.kind)}, ${cpp_string(b.source ?? 'book')}, ${cpp_string(b.se_output ?? '')}, ${cpp_number(b.ref_se ?? 0)}, ` +
          `${b.expect === 'differs'}},`);
      }
    }
  }
  return `// Generated from labs/ by scripts/labs/generate.mjs. Do not edit.
#include "core/registry.h"

namespace sl {

const std::vector<std::string>& cell_order() {
  static const std::vector<std::string> order = {
${order.join('\n')}
  };
  return order;
}

const std::vector<BookRef>& book_refs() {
  static const std::vector<BookRef> refs = {
${rows.join('\n')}
  };
  return refs;
}

}  // namespace sl
`;
}

async function write(path, text) {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

async function main() {
  const { values } = parseArgs({ options: { cpp: { type: 'string' }, 'measured-cpp': { type: 'string' } } });
  const labs = await load_labs();
  const measured = await load_measured();
  if (values.cpp) await write(values.cpp, book_refs_cpp(labs));
  if (values['measured-cpp']) await write(values['measured-cpp'], measured_points_cpp(measured));
  if (!values.cpp && !values['measured-cpp']) {
    const points = measured.reduce((n, f) => n + f.points.length, 0);
    console.log(`${labs.length} labs, ${labs.reduce((n, lab) => n + lab.cells.length, 0)} cells, ${points} measured points: the lab files are valid`);
  }
}

main().catch((error) => { console.error(`error: ${error.message}`); process.exit(1); });
