// The one canonical form of a lab file: JSON, two-space indent; an object or array is written on one line
// when that line fits in WIDTH columns (its indent and key included); otherwise its members follow on lines
// of their own, short one-line members packed side by side up to WIDTH (a book row's ref, output, value,
// unit and tolerance share a line), a member that needs several lines on lines of its own.
// Deterministic, so `node scripts/labs/format.mjs --check` (run by npm test) can insist on it, and
// `node scripts/labs/format.mjs --write` rewrites the files in place.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { lab_file_paths } from './paths.mjs';

export const WIDTH = 140;

/** The canonical text of a parsed lab file, with a final newline. */
export function format_lab(value) {
  return `${format_value(value, '', 0)}\n`;
}

function format_value(value, indent, prefix_columns) {
  const inline = JSON.stringify(value);
  if (value === null || typeof value !== 'object') return inline;
  const is_array = Array.isArray(value);
  const entries = is_array ? value.map((item) => [null, item]) : Object.entries(value);
  if (!entries.length) return is_array ? '[]' : '{}';
  const one_line = one_line_text(value);
  if (indent.length + prefix_columns + one_line.length <= WIDTH) return one_line;
  const inner = `${indent}  `;
  const members = entries.map(([key, item]) => {
    const head = key === null ? '' : `${JSON.stringify(key)}: `;
    return `${head}${format_value(item, inner, head.length)}`;
  });
  const lines = [];
  let line = null;    // the line being packed with one-line members
  members.forEach((member, i) => {
    const text = i < members.length - 1 ? `${member},` : member;
    const fits = line !== null && !text.includes('\n') && line.length + 1 + text.length <= WIDTH;
    if (fits) { line += ` ${text}`; return; }
    if (line !== null) lines.push(line);
    line = text.includes('\n') ? null : `${inner}${text}`;
    if (line === null) lines.push(`${inner}${text}`);
  });
  if (line !== null) lines.push(line);
  return `${is_array ? '[' : '{'}\n${lines.join('\n')}\n${indent}${is_array ? ']' : '}'}`;
}

/** JSON on one line with a space after ':' and ',' (readable, and still one line). */
function one_line_text(value) {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(one_line_text).join(', ')}]`;
  return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${one_line_text(v)}`).join(', ')}}`;
}

async function main(mode) {
  const unformatted = [];
  for (const path of await lab_file_paths()) {
    const text = await readFile(path, 'utf8');
    let value;
    try { value = JSON.parse(text); } catch (error) { throw new Error(`${path}: ${error.message}`); }
    const canonical = format_lab(value);
    if (canonical === text) continue;
    if (mode === '--write') await writeFile(path, canonical);
    else unformatted.push(path);
  }
  if (unformatted.length) {
    console.error(`error: not in the canonical lab-file form (run: node scripts/labs/format.mjs --write):\n  ${unformatted.join('\n  ')}`);
    process.exit(1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const mode = process.argv[2] ?? '--check';
  if (mode !== '--check' && mode !== '--write') {
    console.error('usage: node scripts/labs/format.mjs [--check | --write]');
    process.exit(2);
  }
  main(mode).catch((error) => { console.error(`error: ${error.message}`); process.exit(1); });
}
