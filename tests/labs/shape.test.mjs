// The source shape issue 11 asks for, checked on the tree: parameters read by name only inside validate_*
// functions; every cell declared with checked_cell (issue 38); every cell at src/<lab>/[<sub-domain>/]<cell_id>_cell.cpp;
// every output name the pages show is a string literal in src/ (one grep away); no lab file restates "conditional";
// no lab file over 400 lines. A failing check lists every offending place.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { ROOT, LABS_DIR, lab_file_paths, lab_ids } from '../../scripts/labs/paths.mjs';
import { MARK } from '../../scripts/new_cell.mjs';

const MAX_LINES = 400;
const SRC = join(ROOT, 'src');

/** The files below `dir` whose name (and path) `wanted` accepts, sorted. */
async function files_under(dir, wanted) {
  const paths = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) paths.push(...(await files_under(path, wanted)));
    else if (wanted(entry.name, path)) paths.push(path);
  }
  return paths.sort();
}

const source_paths = (dir = SRC) => files_under(dir, (name) => /\.(cpp|h)$/.test(name));

/**
 * C++ text with comments and the contents of string and character literals blanked (newlines kept, so
 * offsets and lines stay), and the literals' contents collected.
 */
export function strip_cpp(text) {
  let code = '';
  const literals = [];
  let i = 0;
  const blank = (s) => s.replace(/[^\n]/g, ' ');
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      code += blank(text.slice(i, stop));
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      code += blank(text.slice(i, stop));
      i = stop;
    } else if (c === 'R' && next === '"' && !/[A-Za-z0-9_]/.test(text[i - 1] ?? '')) {
      const open = text.indexOf('(', i);
      const delimiter = text.slice(i + 2, open);
      const close = text.indexOf(`)${delimiter}"`, open);
      const stop = close < 0 ? text.length : close + delimiter.length + 2;
      literals.push(text.slice(open + 1, close));
      code += 'R"' + blank(text.slice(i + 2, stop - 1)) + '"';
      i = stop;
    } else if (c === '"' || (c === "'" && !/[0-9A-Fa-f]/.test(text[i - 1] ?? ''))) {  // 1'000'000 is a number
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      if (c === '"') literals.push(text.slice(i + 1, j));
      code += c + blank(text.slice(i + 1, j)) + c;
      i = j + 1;
    } else {
      code += c;
      ++i;
    }
  }
  return { code, literals };
}

const NOT_FUNCTIONS = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'sizeof', 'decltype', 'alignof']);

/**
 * The function bodies of stripped C++ code, by brace matching: [{name, start, end}] where name is the
 * identifier before the parameter list (the last part of a qualified name), "" for lambdas and for braces
 * that are not function bodies (namespaces, classes, blocks, initialisers).
 */
export function function_bodies(code) {
  const bodies = [];
  const stack = [];
  for (let i = 0; i < code.length; ++i) {
    if (code[i] === '{') stack.push({ name: function_name(code, i), start: i });
    else if (code[i] === '}' && stack.length) {
      const open = stack.pop();
      bodies.push({ ...open, end: i });
    }
  }
  return bodies;
}

function function_name(code, brace) {
  let j = brace - 1;
  const skip_space = () => { while (j >= 0 && /\s/.test(code[j])) --j; };
  skip_space();
  // Trailing qualifiers between ")" and "{": const, noexcept, override, final, mutable, -> Type.
  for (let again = true; again;) {
    again = false;
    const before = code.slice(0, j + 1);
    const m = /(?:\bconst|\bnoexcept|\boverride|\bfinal|\bmutable|->\s*[\w:<>,\s*&]+?)$/.exec(before);
    if (m && code[j] !== ')') { j -= m[0].length; skip_space(); again = true; }
  }
  if (code[j] !== ')') return '';
  let depth = 0;
  for (; j >= 0; --j) {
    if (code[j] === ')') ++depth;
    else if (code[j] === '(' && --depth === 0) break;
  }
  --j;
  skip_space();
  const m = /([A-Za-z_]\w*)$/.exec(code.slice(0, j + 1));
  if (!m || NOT_FUNCTIONS.has(m[1])) return '';
  return m[1];
}

function line_at(text, offset) { return text.slice(0, offset).split('\n').length; }

const READ = /\bin\.(real|count|choice|bytes|measured)\(/g;

/** Every `in.real(`… outside a validate_* function: ["src/x.cpp:12 in run_x: in.real("lambda")"]. */
async function reads_outside_validate() {
  const found = [];
  for (const path of await source_paths()) {
    const text = await readFile(path, 'utf8');
    const { code } = strip_cpp(text);
    const bodies = function_bodies(code);
    for (const m of code.matchAll(READ)) {
      const around = bodies.filter((b) => b.start < m.index && m.index < b.end);
      if (around.some((b) => b.name.startsWith('validate_'))) continue;
      const inner = around.filter((b) => b.name).sort((a, b) => b.start - a.start)[0];
      const line = line_at(text, m.index);
      const source_line = text.split('\n')[line - 1].trim();
      found.push(`${relative(ROOT, path)}:${line} in ${inner ? inner.name : '(no function)'}: ${source_line}`);
    }
  }
  return found;
}

/**
 * Names a chart's spec reads with "field" from C++'s tables: not those its own transforms create ("as",
 * fold's key/value), nor those of a layer with inline data ({"data": {"values": [...]}}: a label's place).
 */
function chart_fields(spec) {
  const fields = new Set();
  const made = new Set();
  const walk = (value, inline) => {
    if (Array.isArray(value)) return value.forEach((item) => walk(item, inline));
    if (!value || typeof value !== 'object') return;
    const own_inline = inline || Array.isArray(value.data?.values);
    for (const [key, child] of Object.entries(value)) {
      if (key === 'field' && typeof child === 'string' && !own_inline) fields.add(child);
      if (key === 'as') for (const name of [child].flat()) if (typeof name === 'string') made.add(name);
      if (key === 'fold') { made.add('key'); made.add('value'); }
      walk(child, own_inline);
    }
  };
  walk(spec, false);
  return [...fields].filter((name) => !made.has(name));
}

/** Output names the lab files show (labels, book references, chart fields) without a "<name>" literal in src/. */
async function names_not_in_src() {
  const literals = new Set();
  for (const path of await source_paths()) {
    for (const literal of strip_cpp(await readFile(path, 'utf8')).literals) literals.add(literal);
  }
  const missing = [];
  for (const path of await lab_file_paths()) {
    if (path.endsWith('lab.json') || path.includes(`${join('labs', 'schema')}`)) continue;
    const text = await readFile(path, 'utf8');
    const cell = JSON.parse(text);
    const line_of = (name) => text.split('\n').findIndex((l) => l.includes(`"${name}"`)) + 1;
    const uses = [
      ...Object.keys(cell.outputs ?? {}).map((name) => [name, 'outputs']),
      ...(cell.book ?? []).map((b) => [b.output, `book ${b.ref}`]),
      ...(cell.charts ?? []).flatMap((chart) => chart_fields(chart.spec).map((name) => [name, `chart ${chart.id}`])),
    ];
    const seen = new Set();
    for (const [name, where] of uses) {
      if (literals.has(name) || seen.has(name)) continue;
      seen.add(name);
      missing.push(`${relative(ROOT, path)}:${line_of(name)}: "${name}" (${where})`);
    }
  }
  return missing;
}

/**
 * Every function that makes a cell (`CellSpec <name>_cell()`) declares it with checked_cell<&validate_…, &run_…>
 * (core/checked_run.h): its run starts on checked params, and the fuzzer's hook comes from the same line.
 */
async function cells_outside_checked_cell() {
  const found = [];
  for (const path of await source_paths()) {
    const text = await readFile(path, 'utf8');
    const { code } = strip_cpp(text);
    for (const body of function_bodies(code).filter((b) => /_cell$/.test(b.name) && b.name !== 'checked_cell')) {
      if (!/\bCellSpec\s+\w+\s*[({=]/.test(code.slice(body.start, body.end))) continue;   // not a cell's declaration
      if (/\bchecked_cell<&validate_\w+,\s*&run_\w+>\(/.test(code.slice(body.start, body.end))) continue;
      found.push(`${relative(ROOT, path)}:${line_at(text, body.start)} ${body.name}`);
    }
  }
  return found;
}

/**
 * Cells out of place (docs/adding-a-cell.md, "Where a cell's files live"): each cell of a lab file's "cells" must be
 * the one file src/<lab>/<cell_id>_cell.cpp or src/<lab>/<sub-domain>/<cell_id>_cell.cpp, and every *_cell.cpp
 * under src/ one of those.
 */
async function cells_out_of_place() {
  const found = [];
  const placed = new Set();
  const cell_files = (await source_paths()).filter((path) => path.endsWith('_cell.cpp'))
    .map((path) => relative(ROOT, path));
  for (const lab of await lab_ids()) {
    const { cells } = JSON.parse(await readFile(join(LABS_DIR, lab, 'lab.json'), 'utf8'));
    for (const cell of cells) {
      const name = `${cell.replace(/-/g, '_')}_cell.cpp`;
      const files = cell_files.filter((path) => {
        const parts = path.split(/[\\/]/);
        return parts[0] === 'src' && parts[1] === lab && parts.length <= 4 && parts[parts.length - 1] === name;
      });
      files.forEach((path) => placed.add(path));
      const where = files.length ? files.join(', ') : `no src/${lab}/[<sub-domain>/]${name}`;
      if (files.length !== 1) found.push(`${lab}/${cell}: ${where}`);
    }
  }
  for (const path of cell_files) if (!placed.has(path)) found.push(`${path}: no cell of a lab file`);
  return found;
}

/** Every file under src/, tests/ and labs/ still holding a placeholder of `npm run new-cell` (scripts/new_cell.mjs). */
async function placeholders_left() {
  const found = [];
  const wanted = (name, path) => /\.(cpp|h|json|mjs)$/.test(name) && !path.endsWith(join('tests', 'labs', 'shape.test.mjs'));
  for (const dir of ['src', 'tests', 'labs']) {
    for (const path of await files_under(join(ROOT, dir), wanted)) {
      const lines = (await readFile(path, 'utf8')).split('\n').flatMap((l, i) => (l.includes(MARK) ? [i + 1] : []));
      if (lines.length) found.push(`${relative(ROOT, path)}: line ${lines.join(', ')}`);
    }
  }
  return found;
}

/**
 * Every test file under tests/unit/ whose code after its includes is not all inside `namespace SL_UNITY_ID { }`:
 * the tests build eight files of a folder to a translation unit (CMakeLists.txt), where one file's helpers or `using namespace`
 * outside it would meet the next file's.
 */
async function tests_outside_unity_namespace() {
  const found = [];
  for (const path of await files_under(join(ROOT, 'tests', 'unit'), (name) => name.endsWith('_test.cpp'))) {
    const lines = strip_cpp(await readFile(path, 'utf8')).code.split('\n');
    let after = lines.length;
    for (let i = lines.length - 1; i >= 0; --i) if (/^\s*#\s*include\b/.test(lines[i])) { after = i + 1; break; }
    const code = lines.slice(after).map((l) => l.trim()).filter(Boolean);
    if (code[0] !== 'namespace SL_UNITY_ID {' || code.at(-1) !== '}') found.push(relative(ROOT, path));
  }
  return found;
}

async function lab_files_with(predicate) {
  const found = [];
  for (const path of await lab_file_paths()) {
    const problem = predicate(await readFile(path, 'utf8'));
    if (problem) found.push(`${relative(ROOT, path)}: ${problem}`);
  }
  return found;
}

const checks = [
  ['parameters are read by name (in.real( in.count( in.choice( in.bytes( in.measured() only inside validate_* functions',
    await reads_outside_validate()],
  ['every cell is declared with checked_cell<&validate_<cell>, &run_<cell>> (typed params, one validation hook)',
    await cells_outside_checked_cell()],
  ['every cell is src/<lab>/[<sub-domain>/]<cell_id>_cell.cpp, the one file of its name there', await cells_out_of_place()],
  [`no placeholder of npm run new-cell is left (replace every ${MARK}: the page would show it)`, await placeholders_left()],
  ['every C++ test file holds its code, after its includes, in namespace SL_UNITY_ID { } (a unity build)',
    await tests_outside_unity_namespace()],
  ['every output name a lab file labels, compares with the book or charts is a string literal in src/',
    await names_not_in_src()],
  ['no lab file says "conditional" (C++ declares which outputs only some runs have)',
    await lab_files_with((text) => {
      const lines = text.split('\n').flatMap((l, i) => (l.includes('"conditional"') ? [i + 1] : []));
      return lines.length ? `"conditional" on line ${lines.join(', ')}` : '';
    })],
  [`no lab file has more than ${MAX_LINES} lines (a cell's book rows are a file of their own, labs/<lab>/book/<cell>.json)`,
    await lab_files_with((text) => {
      const lines = text.split('\n').length - 1;
      return lines > MAX_LINES ? `${lines} lines` : '';
    })],
];

for (const [name, offending] of checks) {
  test(name, () => {
    assert.deepEqual(offending, [], `${offending.length} left:\n  ${offending.join('\n  ')}`);
  });
}

test('the scanner finds function bodies past comments and strings, and names them', () => {
  const text = [
    'Result<P> validate_x(const Inputs& in) { // in.real("no") {',
    '  const char* s = "}"; return {in.real("a")};',
    '}',
    'double run_x(const Inputs& in) const { return [&] { return in.count("n"); }(); }',
  ].join('\n');
  const { code, literals } = strip_cpp(text);
  assert.ok(literals.includes('a') && literals.includes('}') && !literals.includes('no'));
  const names = function_bodies(code).map((b) => b.name).filter(Boolean);
  assert.deepEqual(names.sort(), ['run_x', 'validate_x']);
  const reads = [...code.matchAll(READ)].map((m) => function_bodies(code).filter((b) => b.name && b.start < m.index && m.index < b.end).map((b) => b.name));
  assert.deepEqual(reads, [['validate_x'], ['run_x']]);
});
