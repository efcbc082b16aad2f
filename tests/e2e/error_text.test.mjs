// How the page words a C++ error (web/js/result_view.js error_text), without a browser: the template of its problem,
// numbers in the reader's notation (but `got`, the reader's own text, as typed), other parameters by their labels,
// units in the reader's language, and the Vietnamese fallback that never embeds C++'s English message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT } from './helpers.mjs';

globalThis.document ??= { documentElement: {} };
globalThis.fetch = async (url) => {
  const text = await readFile(join(ROOT, 'web', String(url)), 'utf8');
  return { ok: true, status: 200, json: async () => JSON.parse(text) };
};
const { set_lang } = await import('../../web/js/i18n.js');
const { error_text } = await import('../../web/js/result_view.js');

const LABELS = { rho_min: { en: 'Lowest load ρ', vi: 'Tải ρ thấp nhất' }, rho_max: { en: 'Highest load ρ', vi: 'Tải ρ cao nhất' },
  n: { en: 'Requests', vi: 'Số yêu cầu' } };
const label_in = (lang) => (name) => LABELS[name]?.[lang] ?? name;

const routing = { code: 'invalid', param: 'rho_min', message: 'rho_min must not exceed rho_max = 0.5, got 0.9',
  args: { max: '0.5', got: '0.9', unit: '', problem: 'at_most_other', other: 'rho_max' } };
const budget = { code: 'too_large', param: 'n', message: 'the work must be at most 4e+08 units, got 1.21e+09 units; lower n',
  args: { max: '4e+08', amount: '1.21e+09', unit: 'units' } };
const typed = { code: 'out_of_range', param: 'n', message: 'n must be a number in [100, 1e+07], got 1e12',
  args: { min: '100', max: '1e+07', unit: 'requests', got: '1e12' } };

// Each error as the reader sees it, by language: the problem template, other parameters by their labels, numbers
// formatted for the language (separators, decimal commas, translated units), and the reader's text as typed.
const EXPECTED = {
  en: {
    routing: 'Lowest load ρ must not exceed Highest load ρ (0.5); you set 0.9.',
    budget: 'Requests: this run would need 1,210,000,000 units, more than the 400,000,000 units a run may take here. Lower Requests.',
    typed: 'Requests must be between 100 and 10,000,000 requests; you entered 1e12.',
  },
  vi: {
    routing: 'Tải ρ thấp nhất không được vượt quá Tải ρ cao nhất (0,5); bạn đã đặt 0,9.',
    budget: 'Số yêu cầu: lần chạy này cần 1.210.000.000 đơn vị, vượt mức 400.000.000 đơn vị cho phép ở đây. Hãy giảm Số yêu cầu.',
    typed: 'Số yêu cầu phải nằm trong khoảng từ 100 đến 10.000.000 yêu cầu; bạn đã nhập 1e12.',
  },
};

for (const [lang, sentences] of Object.entries(EXPECTED)) {
  test(`${lang}: the problem template, labels, the language's numbers, the reader's text as typed`, async () => {
    await set_lang(lang);
    for (const [name, error] of Object.entries({ routing, budget, typed })) {
      assert.equal(error_text(error, label_in(lang)), sentences[name], name);
    }
  });
}

test('a template whose arguments are missing falls back to the next one; Vietnamese never shows the English message', async () => {
  const bare = { code: 'invalid', param: 'rho_min', message: 'rho_min is wrong', args: { problem: 'at_most_other' } };
  await set_lang('en');
  assert.equal(error_text(bare, label_in('en')), 'rho_min is wrong');
  await set_lang('vi');
  assert.equal(error_text(bare, label_in('vi')), 'Giá trị của Tải ρ thấp nhất không hợp lệ.');
  assert.equal(error_text({ code: 'invalid', param: 'rho_min', message: 'rho_min is wrong', args: {} }, label_in('vi')),
    'Giá trị của Tải ρ thấp nhất không hợp lệ.');
});
