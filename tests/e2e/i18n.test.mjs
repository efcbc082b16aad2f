// The UI strings exist in both languages (web/i18n/{en,vi}.json), with the same {placeholders}. Units are
// translated only where a language writes them differently (units.<unit>), so that map may differ. An English
// error that is "{message}" alone is C++'s own sentence (a config.json's errors read as the CLI prints them):
// its Vietnamese says the same from the error's arguments, and never embeds {message}, which is English.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT } from './helpers.mjs';

const load = async (lang) => JSON.parse(await readFile(join(ROOT, 'web', 'i18n', `${lang}.json`), 'utf8'));
const flat = (node, prefix = '') => Object.entries(node).flatMap(([key, value]) =>
  (typeof value === 'object' ? flat(value, `${prefix}${key}.`) : [[`${prefix}${key}`, value]]));

test('every UI string is in English and Vietnamese, with the same placeholders', async () => {
  const [en, vi] = await Promise.all([load('en'), load('vi')]);
  const strip = (entries) => new Map(entries.filter(([key]) => !key.startsWith('units.')));
  const en_strings = strip(flat(en));
  const vi_strings = strip(flat(vi));
  assert.deepEqual([...en_strings.keys()].sort(), [...vi_strings.keys()].sort());
  const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  for (const [key, text] of en_strings) {
    if (key.startsWith('errors.') && text === '{message}') assert.ok(!placeholders(vi_strings.get(key)).includes('message'), key);
    else assert.deepEqual(placeholders(vi_strings.get(key)), placeholders(text), key);
  }
});
