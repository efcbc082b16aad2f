// llm/validation's "why" section on its five worst held-out figures stays true to the model: the native CLI runs the
// cell at its defaults, the five rows of the `validation` table with the largest |calibrated / measured − 1| (ranked
// per compared figure; one point could hold several) are the points the section names, and each held-out error it
// quotes is the run's within 0.5 percentage points. A model change that moves the worst five fails here until someone
// explains the new ones (labs/llm/validation.json, section "The five worst held-out figures, and why").
//   node --test tests/declarations/   (after the native build)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = path.join(root, 'build/native/serving-lab');
const SECTION = 'The five worst held-out figures, and why';
const TOLERANCE_PP = 0.5;

/// The five worst rows of the run's validation table: {point, error_pct}, worst first.
function worst_five() {
  const run = JSON.parse(execFileSync(cli, ['run', 'llm/validation', '--json'],
                                      { encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] }));
  const t = run.tables.validation;
  const rows = t.point.map((point, i) => ({ point, error_pct: (t.calibrated[i] / t.measured[i] - 1) * 100 }));
  rows.sort((a, b) => Math.abs(b.error_pct) - Math.abs(a.error_pct));
  return rows.slice(0, 5);
}

/// Each stretch of the text from "Point N (" (EN) or "Điểm N (" (VI) to the next such name: {point, error_pct}, the
/// error being the first "held-out error X %" ("sai số khi bỏ ra X %") in the stretch.
function quoted(paragraphs, lang) {
  const name = lang === 'en' ? 'Point' : 'Điểm';
  const phrase = lang === 'en' ? 'held-out error' : 'sai số khi bỏ ra';
  const text = paragraphs.join('\n');
  const starts = [...text.matchAll(new RegExp(`${name} (\\d+) \\(`, 'g'))];
  return starts.map((m, k) => {
    const stretch = text.slice(m.index, k + 1 < starts.length ? starts[k + 1].index : text.length);
    const e = stretch.match(new RegExp(`${phrase} ([−+-]?)(\\d+(?:[.,]\\d+)?) %`));
    const error_pct = e ? (e[1] === '−' || e[1] === '-' ? -1 : 1) * Number(e[2].replace(',', '.')) : NaN;
    return { point: Number(m[1]), error_pct };
  });
}

test('llm/validation: the "why" section names the five worst held-out figures, with the run\'s errors', () => {
  const lab = JSON.parse(readFileSync(path.join(root, 'labs/llm/validation.json'), 'utf8'));
  const section = (lab.why || []).find((s) => s.title.en === SECTION);
  assert.ok(section, `labs/llm/validation.json has a why section "${SECTION}"`);
  const worst = worst_five();
  const expected = worst.map((w) => w.point).sort((a, b) => a - b);
  for (const lang of ['en', 'vi']) {
    const named = quoted(section.text[lang], lang);
    assert.deepEqual(named.map((n) => n.point).sort((a, b) => a - b), expected,
                     `${lang}: the section names points ${named.map((n) => n.point)}; the five worst held-out figures ` +
                     `are those of points ${worst.map((w) => `${w.point} (${w.error_pct.toFixed(1)} %)`).join(', ')}`);
    for (const w of worst) {
      const n = named.find((x) => x.point === w.point);
      assert.ok(Math.abs(n.error_pct - w.error_pct) <= TOLERANCE_PP,
                `${lang}: point ${w.point} quoted at ${n.error_pct} %, the run gives ${w.error_pct.toFixed(2)} %`);
    }
  }
  // No other point is named by number anywhere in the section.
  for (const [lang, word] of [['en', /\b[Pp]oints? (\d+)/g], ['vi', /[Đđ]iểm (\d+)/g]]) {
    for (const m of section.text[lang].join('\n').matchAll(word)) {
      assert.ok(expected.includes(Number(m[1])), `${lang}: the section names point ${m[1]}, not one of the worst five`);
    }
  }
});
