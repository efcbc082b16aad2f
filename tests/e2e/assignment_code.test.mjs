// The ?assign= code (web/js/challenges.js): what the teacher's dialog encodes reads back the same, and a link that is
// damaged, too long or names anything the lab lacks is refused whole. Hostile input, read in node against the
// queues lab (its cells from labs/, their specs from the native CLI's `serving-lab list --json`).
//   node --test tests/e2e/assignment_code.test.mjs   (after the native build)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { load_labs } from '../../scripts/labs/load.mjs';
import { ROOT } from './helpers.mjs';
import { short_id } from '../../web/js/url_state.js';
import { connect, decode_assignment, encode_assignment, MAX_ASSIGN_CHARS } from '../../web/js/challenges.js';

connect({ short_id });   // all the code needs of the page's modules
const specs = new Map(JSON.parse(execFileSync(`${ROOT}/build/native/serving-lab`, ['list', '--json'], { encoding: 'utf8', maxBuffer: 64 << 20 }))
  .map((spec) => [spec.id, spec]));
const queues = (await load_labs()).find((lab) => lab.id === 'queues');
const lab = { id: 'queues', cells: queues.cells, cell_specs: Object.fromEntries(queues.cells.map((cell) => [cell.id, specs.get(cell.id)])) };
const challenges_of = (id) => queues.cells.find((cell) => cell.id === id)?.challenges || [];
const code = (json) => Buffer.from(typeof json === 'string' ? json : JSON.stringify(json)).toString('base64url');

test('an assignment reads back as the dialog made it', () => {
  const assignment = { cells: {
    'queues/littles-law': { set: { lambda: '170', mu: '200' }, lock: ['mu'], hide: ['n'], pick: ['mean-50ms'], hidden: false },
    'queues/mm1-md1': { set: {}, lock: [], hide: [], pick: [], hidden: true },
  } };
  const text = encode_assignment(assignment);
  assert.match(text, /^[A-Za-z0-9_-]+$/);
  assert.deepEqual(decode_assignment(text, lab, challenges_of), assignment);
});

test('a damaged, oversized or foreign assignment is refused whole', () => {
  const good = { v: 1, c: { 'littles-law': { s: { lambda: '170' }, l: ['mu'], k: ['mean-50ms'] } } };
  assert.ok(decode_assignment(code(good), lab, challenges_of));
  const refused = {
    'not base64url': '%%%',
    'too long': 'A'.repeat(MAX_ASSIGN_CHARS + 1),
    'not JSON': code('{"v":1,'),
    'not UTF-8': Buffer.from([0x7b, 0xff, 0x7d]).toString('base64url'),
    'another version': code({ ...good, v: 2 }),
    'an extra key': code({ ...good, x: 1 }),
    'a cell of another lab': code({ v: 1, c: { fleet: {} } }),
    'an unknown parameter': code({ v: 1, c: { 'littles-law': { l: ['nope'] } } }),
    'a number for a value': code({ v: 1, c: { 'littles-law': { s: { lambda: 170 } } } }),
    'an empty value': code({ v: 1, c: { 'littles-law': { s: { lambda: '' } } } }),
    'a long value': code({ v: 1, c: { 'littles-law': { s: { lambda: '1'.repeat(65) } } } }),
    'a name twice': code({ v: 1, c: { 'littles-law': { h: ['n', 'n'] } } }),
    'an unknown challenge': code({ v: 1, c: { 'littles-law': { k: ['p99-10x'] } } }),
    'a hidden flag not 1': code({ v: 1, c: { 'littles-law': { x: true } } }),
    'an unknown entry key': code({ v: 1, c: { 'littles-law': { z: [] } } }),
    'an array for the cells': code({ v: 1, c: [] }),
    'a prototype key': code('{"v":1,"c":{"__proto__":{"l":["mu"]}}}'),
  };
  for (const [why, text] of Object.entries(refused)) {
    assert.throws(() => decode_assignment(text, lab, challenges_of), /^Error: assignment: /, why);
  }
});
