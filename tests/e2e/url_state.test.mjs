// What a link sets that the page does not read (web/js/url_state.js' unread_url_entries), without a browser, over the
// cells' real declarations (`serving-lab list --json`): the keys the CLI would refuse are named, the page's own keys,
// the cells' parameters under their current and earlier names, seeds, presets and design A's keys are not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './helpers.mjs';
import { unread_url_entries } from '../../web/js/url_state.js';

const specs = JSON.parse(execFileSync(join(ROOT, 'build/native/serving-lab'), ['list', '--json'], { encoding: 'utf8' }));
const queues = specs.filter((spec) => spec.id.startsWith('queues/'));
const spec_of = (id) => specs.find((spec) => spec.id === id);
const unread = (search, addressed, embed) => unread_url_entries(new URLSearchParams(search), addressed, embed);

test('embedded: a mistyped parameter and a preset the cell lacks are named; what the cell reads is not', () => {
  const cell = spec_of('queues/littles-law');
  const preset = cell.presets[0].id;
  const aliased = cell.params.find((param) => param.aliases?.length);
  assert.ok(preset && aliased, 'littles-law declares a preset and an earlier parameter name');
  const read = `lab=queues&cell=littles-law&embed=1&lang=vi&predict=0&lambda=3&seed=2&preset=${preset}` +
    `&${aliased.aliases[0]}=5&A=1&A.seed=4&A.mu=2&A.${aliased.aliases[0]}=6`;
  assert.deepEqual(unread(read, [cell], true), []);
  assert.deepEqual(unread('lab=queues&cell=littles-law&embed=1&lamda=3&preset=nope&A.lamda=1', [cell], true),
    ['lamda=3', 'A.lamda=1', 'preset=nope']);
  // In an embed, keys are plain: the full page's prefixed form is not this cell's.
  assert.deepEqual(unread('embed=1&littles-law.lambda=3', [cell], true), ['littles-law.lambda=3']);
});

test('full page: each cell reads its prefixed keys; a key for no cell of the lab, or a wrong preset, is named', () => {
  const [first, second] = queues;
  const name = (spec) => spec.id.slice(spec.id.indexOf('/') + 1);
  const read = `lab=queues&assign=abc&${name(first)}.${first.params[0].name}=1&${name(second)}.seed=9` +
    `&${name(second)}.preset=${second.presets[0].id}`;
  assert.deepEqual(unread(read, queues, false), []);
  assert.deepEqual(unread(`lab=queues&${first.params[0].name}=1&no-cell.x=2&${name(second)}.preset=nope`, queues, false),
    [`${first.params[0].name}=1`, 'no-cell.x=2', `${name(second)}.preset=nope`]);
});

test('a hostile link is named in a bounded text: entries cut to 60 characters, at most 8 of them', () => {
  const cell = spec_of('queues/littles-law');
  const long = unread(`embed=1&x=${'a'.repeat(10_000)}`, [cell], true);
  assert.equal(long.length, 1);
  assert.equal(long[0].length, 60);
  assert.ok(long[0].startsWith('x=aaa') && long[0].endsWith('…'));
  const many = unread(Array.from({ length: 20 }, (_, i) => `k${i}=1`).join('&'), [cell], true);
  assert.deepEqual(many, ['k0=1', 'k1=1', 'k2=1', 'k3=1', 'k4=1', 'k5=1', 'k6=1', 'k7=1', '…']);
});
