// Design A on every chart of every lab file (web/js/compare.js chart_spec), without a browser: each mark but text that
// draws one of C++'s tables gets a twin reading A's rows, and the chart with its twins compiles with Vega-Lite.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compile } from 'vega-lite';
import { load_labs } from '../../scripts/labs/load.mjs';
import { chart_spec, A_SUFFIX } from '../../web/js/compare.js';
import { spec_with_data, data_names } from '../../web/js/charts.js';

const labs = (await load_labs()).filter((lab) => lab.status === 'ready');

/** The marks of a spec with the data each reads (its own, or the nearest enclosing layer's). */
function marks(node, data = null) {
  const own = node.data ?? data;
  if (node.layer) return node.layer.flatMap((child) => marks(child, own));
  if (!node.mark) return [];
  return [{ type: typeof node.mark === 'string' ? node.mark : node.mark.type, data: own?.name }];
}

for (const lab of labs) {
  test(`${lab.id}: every chart draws design A beside B and compiles`, () => {
    for (const cell of lab.cells) {
      for (const chart of cell.charts) {
        // chart_spec draws A on a single view or a layer; a composed chart (concat, facet, repeat) would show B alone.
        assert.ok(chart.spec.layer || chart.spec.mark, `${cell.id} ${chart.id}: a single view or a layer`);
        const names = data_names(chart.spec);
        const b = spec_with_data(chart.spec, Object.fromEntries(names.map((name) => [name, []])), chart.id);
        const a_datasets = Object.fromEntries(names.filter((name) => name !== 'book').map((name) => [`${name}${A_SUFFIX}`, []]));
        const both = chart_spec(b, a_datasets, "A: dashed, hollow or faded · B: solid");
        const drawn = marks(b).filter((mark) => mark.data && mark.data !== 'book' && mark.type !== 'text');
        const twins = marks(both).filter((mark) => mark.data?.endsWith(A_SUFFIX));
        assert.deepEqual(twins.map((mark) => `${mark.type} ${mark.data}`).sort(),
          drawn.map((mark) => `${mark.type} ${mark.data}${A_SUFFIX}`).sort(), `${cell.id} ${chart.id}: one twin per mark`);
        assert.doesNotThrow(() => compile(both), `${cell.id} ${chart.id} compiles with its twins`);
      }
    }
  });
}
