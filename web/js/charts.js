// Vega-Lite charts fed from C++ tables. Specs come from the lab file with data {"name": "<table>"};
// the rows are injected as top-level "datasets". Vega runs with the AST expression interpreter, so the
// page needs no 'unsafe-eval' in its Content-Security-Policy.

import { LANGS, pick, current_lang } from './i18n.js';

let vega_lib = null;
function load_vega() {
  vega_lib ??= import('./vega_lib.js');
  return vega_lib;
}

/** {t_s: Float64Array, n: Float64Array} → [{t_s, n}, ...]. Non-finite values become null (no mark). */
export function columns_to_rows(table) {
  const names = Object.keys(table);
  const length = names.length ? table[names[0]].length : 0;
  const rows = new Array(length);
  for (let i = 0; i < length; ++i) {
    const row = {};
    for (const name of names) {
      const value = table[name][i];
      row[name] = typeof value === 'number' && !Number.isFinite(value) ? null : value;
    }
    rows[i] = row;
  }
  return rows;
}

/** The book comparison rows as a dataset named "book" (for rule layers in the specs). */
export function book_rows(book = []) {
  return book.map(({ ref, label, book: value, ours, unit, tolerance, ok, applies }) =>
    ({ ref, label, book: value, ours, unit, tolerance, ok, applies }));
}

/** Every data name a spec reads ({"data": {"name": ...}} at any depth), in first-seen order. */
export function data_names(spec) {
  const names = [];
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    if (node.data && typeof node.data.name === 'string' && !names.includes(node.data.name)) names.push(node.data.name);
    for (const [key, value] of Object.entries(node)) if (key !== 'datasets') visit(value);
  };
  visit(spec);
  return names;
}

/**
 * {field: title} from a spec's encodings (axis and legend titles, in the current language), so a chart's
 * table view and CSV can name a column as the chart does when the lab file gives it no label.
 */
export function field_titles(spec) {
  const titles = {};
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    if (node.encoding && typeof node.encoding === 'object') {
      for (const channel of Object.values(node.encoding)) {
        const title = channel && typeof channel === 'object' ? pick(channel.title, '') : '';
        if (typeof channel?.field === 'string' && typeof title === 'string' && title && !(channel.field in titles)) titles[channel.field] = title;
      }
    }
    for (const [key, value] of Object.entries(node)) if (key !== 'datasets' && key !== 'encoding') visit(value);
  };
  visit(spec);
  return titles;
}

/** A deep copy of the lab file's spec with datasets injected; fills the container's width by default. */
export function spec_with_data(spec, datasets, description) {
  const copy = localize(spec);
  if (description && copy.description === undefined) copy.description = description;
  copy.datasets = { ...(copy.datasets || {}), ...datasets };
  const is_composed = ['hconcat', 'vconcat', 'concat', 'facet', 'repeat'].some((key) => key in copy);
  if (copy.width === undefined && !is_composed) copy.width = 'container';
  if (copy.autosize === undefined && !is_composed) copy.autosize = { type: 'fit-x', contains: 'padding' };
  return copy;
}

/**
 * A deep copy of a spec in which every {"en": "...", "vi": "..."} object (for instance an axis title)
 * is replaced by the current language's string, so lab files can translate chart text.
 */
export function localize(node) {
  if (Array.isArray(node)) return node.map(localize);
  if (!node || typeof node !== 'object') return node;
  const entries = Object.entries(node);
  const is_text = entries.length > 0 && entries.every(([key, value]) => LANGS.includes(key) && typeof value === 'string');
  if (is_text) return pick(node);
  return Object.fromEntries(entries.map(([key, value]) => [key, localize(value)]));
}

// d3-format locales for axis labels: 1,234.5 (en) and 1.234,5 (vi).
const FORMAT_LOCALES = {
  en: { decimal: '.', thousands: ',', grouping: [3], currency: ['$', ''] },
  vi: { decimal: ',', thousands: '.', grouping: [3], currency: ['', ' ₫'] },
};

// Legends go under the plot below this container width (a phone, the chart beside the controls).
const NARROW_PX = 720;

// aria: false — the chart's accessible name is its one-sentence summary (ChartPanel), not Vega's run of
// tick labels. Tick labels never overlap (labelOverlap), and legend labels are never cut (labelLimit 0).
const CHART_CONFIG = {
  aria: false,
  font: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif',
  axis: { labelFontSize: 12, titleFontSize: 12, titleFontWeight: 600, labelColor: '#333', titleColor: '#222', labelOverlap: true, labelSeparation: 6 },
  legend: { labelFontSize: 12, titleFontSize: 12, labelLimit: 0 },
  view: { stroke: '#ccc', continuousHeight: 240 },
  range: { category: ['#1f5fa8', '#c0392b', '#2e7d32', '#8e44ad', '#d35400', '#555555'] },
  mark: { color: '#1f5fa8' },
};

const NARROW_CONFIG = { ...CHART_CONFIG, legend: { ...CHART_CONFIG.legend, orient: 'bottom', direction: 'vertical', columns: 1 } };

/** Draws spec into container (SVG), replacing previous_view. Resolves with the new Vega view. */
export async function draw_chart(container, spec, previous_view) {
  const { embed, expressionInterpreter } = await load_vega();
  if (previous_view) previous_view.finalize();
  const { view } = await embed(container, spec, {
    actions: false,
    ast: true,
    expr: expressionInterpreter,
    renderer: 'svg',
    defaultStyle: false,
    tooltip: { disableDefaultStyle: true },
    config: container.clientWidth && container.clientWidth < NARROW_PX ? NARROW_CONFIG : CHART_CONFIG,
    formatLocale: FORMAT_LOCALES[current_lang()] || FORMAT_LOCALES.en,
  });
  // The chart's accessible name is on its container (role img, the summary); Vega's own marks stay out of
  // the accessibility tree.
  container.querySelector('svg')?.setAttribute('aria-hidden', 'true');
  return view;
}
