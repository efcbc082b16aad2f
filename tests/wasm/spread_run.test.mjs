// A search spread over the page's workers (web/js/spread_run.js) gives the result of the grid run in one piece:
// the module runs each part as a worker would, the page's own points_file() writes the parts' tables back, and the
// merged run's outputs, tables and notices are those of one run. Partial merges (the parts done so far) are the
// frontier of those points.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadModule, plain } from './load_module.mjs';
import { points_file } from '../../web/js/spread_run.js';

const M = await loadModule();
const CELL = 'llm/capacity-search';
// 8 designs (two GPUs, TP 1 and 2, FP16 and FP8: FP8 on the A100 is refused), 1..4 replicas.
const GRID = { gpus: 'h100+a100', tp_max: '2', replicas_max: '4', n: '200', lambda: '20', weights_set: 'fp16+fp8' };
const SEED = '7';

const parts_of = (parts) => Array.from({ length: parts }, (_, i) => {
  const result = M.run(CELL, { ...GRID, part: String(i + 1), parts: String(parts) }, SEED, null);
  assert.equal(result.error, undefined, JSON.stringify(result.error));
  return result.tables.points;
});
const without_file_notice = (notices) => notices.filter((notice) => notice.code !== 'points_from_file');

test('the parts of a search, merged from their points tables, give the one-run result', () => {
  const whole = plain(M.run(CELL, GRID, SEED, null));
  assert.ok(whole.notices.some((notice) => notice.code === 'refused'), 'the grid has refused points');
  for (const parts of [2, 3, 6, 11]) {
    const merged = plain(M.run(CELL, { ...GRID, points: points_file(parts_of(parts)) }, SEED, null));
    assert.deepEqual(merged.outputs, whole.outputs, `${parts} parts`);
    assert.deepEqual(merged.tables, whole.tables, `${parts} parts`);
    assert.deepEqual(without_file_notice(merged.notices), whole.notices, `${parts} parts`);
  }
});

test('a partial merge is the frontier of the parts done so far', () => {
  const tables = parts_of(4);
  const done = [tables[0], null, tables[2], null];
  const partial = plain(M.run(CELL, { ...GRID, points: points_file(done) }, SEED, null));
  const rows = tables[0].index.length + tables[2].index.length;
  assert.equal(partial.outputs.points_total, rows);
  assert.deepEqual(partial.tables.points.index, [...tables[0].index, ...tables[2].index].map(Number));
  assert.ok(partial.outputs.frontier_points >= 1);
  assert.equal(points_file([null, null]), null, 'no part done: nothing to merge');
});
