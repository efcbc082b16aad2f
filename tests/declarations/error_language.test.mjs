// Every error in the reader's language (issue 38): each refusal a cell can give reads in Vietnamese, with its numbers
// written for the reader. Two sets of bad inputs go through the native CLI's `validate --batch` (the refusal `run`
// would give, without running) and then through the page's own error_text (web/js/result_view.js) under vi.json:
//   - every error case of the fuzz corpus (tests/fuzz/corpus/*.txt, parsed as tests/unit/core/fuzz_corpus_test.cpp
//     does; "@model_config" cases go to a cell that reads a config.json, with model = config);
//   - the corner sweep: every cell of `serving-lab list --json`, each number parameter at its min and at its max and
//     each choice at each value, one at a time, the others at their defaults.
// A Vietnamese text must not contain C++'s English message nor, once the texts it quotes (what the reader typed, a
// file's words, parameter names) are taken out, any English marker word; an `invalid` error must name its problem
// with a template of its own (errors.invalid_<problem>), not the generic one.
//   node --test tests/declarations/   (after the native build)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { load_labs } from '../../scripts/labs/load.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = path.join(ROOT, 'build/native/serving-lab');

// The page's i18n in node: set_lang fetches i18n/<lang>.json (relative to web/) and sets <html lang>.
globalThis.document ??= { documentElement: {} };
globalThis.fetch = async (url) => {
  const text = await readFile(path.join(ROOT, 'web', String(url)), 'utf8');
  return { ok: true, status: 200, json: async () => JSON.parse(text) };
};
const { set_lang, t, has, pick } = await import('../../web/js/i18n.js');
const { error_text } = await import('../../web/js/result_view.js');
await set_lang('vi');

const specs = JSON.parse(execFileSync(cli, ['list', '--json'], { encoding: 'utf8', maxBuffer: 64 << 20 }));
const docs = new Map((await load_labs()).flatMap((lab) => lab.cells).map((cell) => [cell.id, cell]));

// English words no Vietnamese sentence of ours uses (matched whole, case-insensitive; \b would split "của").
const ENGLISH = ['must', 'should', 'need', 'needs', 'got', 'the', 'is', 'are', 'was', 'than', 'least', 'most', 'between',
  'cannot', 'not', 'and', 'or', 'of', 'at', 'be', 'for', 'with', 'this', 'that', 'has', 'have', 'holds', 'give', 'choose',
  'lower', 'raise', 'file', 'line', 'column', 'requests', 'tokens', 'windows', 'parameters', 'units', 'points', 'steps',
  'replicas', 'samples', 'pixels', 'bytes', 'simulated', 'values'];
const ENGLISH_WORD = new RegExp(`(?<![\\p{L}\\p{N}_])(${ENGLISH.join('|')})(?![\\p{L}\\p{N}_])`, 'giu');
// Arguments quoted as written (the reader's text, a file's, names): taken out before looking for English.
const QUOTED_ARGS = ['got', 'key', 'column', 'choices', 'path', 'supported', 'cell', 'gpu', 'example', 'precision', 'reason'];

/** `error` as a Vietnamese reader of cell `cell_id` sees it, and what is wrong with that text (empty when none). */
function vietnamese(error, cell_id) {
  const params = docs.get(cell_id)?.params || {};
  const label = (name) => (name === 'seed' ? t('cell.seed') : pick(params[name]?.label, name));
  const text = error_text(error, label);
  const problems = [];
  if (error.message && text.includes(error.message)) problems.push('shows C++\'s English message');
  let rest = text;
  const quoted = [error.param, ...QUOTED_ARGS.map((key) => error.args?.[key])].filter((v) => typeof v === 'string' && v);
  for (const value of quoted.sort((a, b) => b.length - a.length)) rest = rest.split(value).join(' ');
  const english = [...new Set([...rest.matchAll(ENGLISH_WORD)].map((m) => m[1]))];
  if (english.length) problems.push(`English words: ${english.join(', ')}`);
  const problem = error.args?.problem;
  if (error.code === 'invalid' && !(problem !== undefined && has(`errors.invalid_${problem}`))) {
    problems.push(`an invalid error without a template of its own (problem: ${problem ?? 'none'})`);
  }
  return { text, problems };
}

/** The error key a case reached: code and problem ("invalid/at_most_other"). */
const error_key = (error) => (error.args?.problem !== undefined ? `${error.code}/${error.args.problem}` : error.code);

/** Runs `validate --batch` on the cases; one result per case: {ok: true} or {error: {...}}. */
function validate(cases) {
  const input = cases.map((c) => JSON.stringify(c)).join('\n') + '\n';
  const out = execFileSync(cli, ['validate', '--batch'], { input, encoding: 'utf8', maxBuffer: 256 << 20, timeout: 300_000 });
  const lines = out.split('\n').filter(Boolean).map((line) => JSON.parse(line));
  assert.equal(lines.length, cases.length, 'one line out for each case');
  return lines;
}

/** Checks every refusal of `cases` (labelled by `names`) in Vietnamese; returns the counts. */
function check_refusals(cases, names, results) {
  const failures = [];
  const keys = new Set();
  let refused = 0;
  results.forEach((result, i) => {
    if (!result.error) return;
    refused += 1;
    keys.add(error_key(result.error));
    const { text, problems } = vietnamese(result.error, cases[i].cell_id);
    if (problems.length) failures.push(`${names[i]}: ${problems.join('; ')}\n    ${error_key(result.error)}: ${text}`);
  });
  return { failures, keys, refused };
}

// ---- The fuzz corpus, parsed as tests/unit/core/fuzz_corpus_test.cpp parses it (bytes: a latin1 string).

/** C escapes (\xHH, \n, \t, \0, \\, \|) of one field, as bytes. */
function unescape(text) {
  let out = '';
  for (let i = 0; i < text.length; ++i) {
    if (text[i] !== '\\' || i + 1 === text.length) {
      out += text[i];
      continue;
    }
    const c = text[++i];
    if (c === 'n') out += '\n';
    else if (c === 't') out += '\t';
    else if (c === '0') out += '\0';
    else if (c === 'x' && i + 2 < text.length + 1) {
      out += String.fromCharCode(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else out += c;
  }
  return out;
}

/** Fields separated by " | " (not after a backslash). */
function fields(line) {
  const out = [''];
  for (let i = 0; i < line.length; ++i) {
    if (line.startsWith(' | ', i) && (i === 0 || line[i - 1] !== '\\')) {
      out.push('');
      i += 2;
    } else out[out.length - 1] += line[i];
  }
  return out;
}

const hex = (bytes) => Buffer.from(bytes, 'latin1').toString('hex');
// A config.json alone ("@model_config") is read by a cell that takes one, at model = config.
const config_cell = specs.find((spec) => spec.params.some((p) => p.name === 'model_config' && p.kind === 'bytes')).id;

async function corpus_cases() {
  const dir = path.join(ROOT, 'tests/fuzz/corpus');
  const cases = [];
  for (const file of (await readdir(dir)).filter((name) => name.endsWith('.txt')).sort()) {
    const lines = (await readFile(path.join(dir, file), 'latin1')).split('\n');
    lines.forEach((line, index) => {
      if (!line || line.startsWith('#')) return;
      const f = fields(line.replace(/\r$/, ''));
      if (!f[0].startsWith('error:')) return;
      const raw = {};
      for (const field of f.slice(2)) {
        const eq = field.indexOf('=');
        raw[unescape(field.slice(0, eq))] = unescape(field.slice(eq + 1));
      }
      const seed = raw.seed ?? '1';
      delete raw.seed;
      let cell = unescape(f[1]);
      if (cell === '@model_config') {
        cell = config_cell;
        raw.model = 'config';
      }
      const want = f[0].slice('error:'.length);
      cases.push({
        name: `${file}:${index + 1}`, cell_id: cell, code: f[1] === '@model_config' ? null : want.split(':')[1] ?? null,
        line: { cell: hex(cell), inputs: Object.fromEntries(Object.entries(raw).map(([k, v]) => [hex(k), hex(v)])),
                seed: hex(seed), hex: true, run: true },
      });
    });
  }
  return cases;
}

test('every error case of the fuzz corpus reads in Vietnamese', async (t) => {
  const cases = await corpus_cases();
  assert.ok(cases.length >= 100, `${cases.length} error cases in the corpus`);
  const results = validate(cases.map((c) => c.line));
  results.forEach((result, i) => {
    assert.ok(result.error, `${cases[i].name}: refused`);
    if (cases[i].code) assert.equal(result.error.code, cases[i].code, `${cases[i].name}: the code the corpus expects`);
  });
  const { failures, keys, refused } = check_refusals(cases, cases.map((c) => c.name), results);
  t.diagnostic(`fuzz corpus: ${refused} refusals checked, ${keys.size} distinct error keys`);
  assert.deepEqual(failures, [], `${failures.length} of ${refused} errors are not (only) Vietnamese:\n  ${failures.join('\n  ')}`);
});

test('every refusal of the corner sweep (each parameter at its min, max or each choice) reads in Vietnamese', (t) => {
  const cases = [];
  for (const spec of specs) {
    for (const p of spec.params) {
      const values = p.kind === 'real' || p.kind === 'count' ? [p.min, p.max]
        : p.kind === 'choice' ? p.choices.filter((choice) => choice !== p.default) : [];
      for (const value of values) {
        cases.push({ name: `${spec.id} ${p.name}=${value}`, cell_id: spec.id,
                     line: { cell: spec.id, inputs: { [p.name]: String(value) } } });
      }
    }
  }
  assert.ok(cases.length >= 1000, `${cases.length} sweep cases`);
  const started = Date.now();
  const results = validate(cases.map((c) => c.line));
  const { failures, keys, refused } = check_refusals(cases, cases.map((c) => c.name), results);
  t.diagnostic(`corner sweep: ${cases.length} cases in ${((Date.now() - started) / 1000).toFixed(1)} s, ${refused} refusals ` +
               `checked, ${keys.size} distinct error keys: ${[...keys].sort().join(' ')}`);
  assert.ok(refused > 0, 'the sweep reaches refusals');
  assert.deepEqual(failures, [], `${failures.length} of ${refused} errors are not (only) Vietnamese:\n  ${failures.join('\n  ')}`);
});
