// One chart of a cell: the Vega-Lite drawing plus a "Table view" toggle showing the same rows as a <table>.
import { el, replace_children } from './dom.js';
import { t, pick } from './i18n.js';
import { format_number } from './format.js';
import { spec_with_data, data_names, draw_chart } from './charts.js';

export class ChartPanel {
  #chart;            // the lab file's chart entry {id, title, spec}
  #view = null;      // the current Vega view
  #drawing = Promise.resolve();
  #table_open = false;
  #datasets = null;
  element; #canvas; #table_box; #toggle; #status;

  constructor(chart, id_prefix) {
    this.#chart = chart;
    this.id = `${id_prefix}-chart-${chart.id}`;
  }

  /** The same chart's entry in another language (its spec's axis titles and its title); build() then redraws. */
  set_chart(chart) { this.#chart = chart; }

  /** (Re)builds the DOM in the current language; the cell then calls show() with its last data. */
  build() {
    const title = pick(this.#chart.title, this.#chart.id);
    this.#canvas = el('div', { class: 'sl-chart-canvas', role: 'img', 'aria-label': title });
    this.#table_box = el('div', { class: 'sl-chart-table', id: `${this.id}-table`, hidden: !this.#table_open });
    this.#status = el('p', { class: 'sl-chart-status' });
    this.#toggle = el('button', {
      type: 'button', class: 'sl-button sl-button-small', 'aria-expanded': String(this.#table_open),
      'aria-controls': `${this.id}-table`, on: { click: () => this.#toggle_table() },
    }, t('chart.table_view'));
    this.element = el('figure', { class: 'sl-chart', id: this.id },
      el('figcaption', { class: 'sl-chart-title' }, title),
      this.#canvas, this.#status,
      el('div', { class: 'sl-chart-actions' }, this.#toggle),
      this.#table_box);
    if (this.#view) { this.#view.finalize(); this.#view = null; }
    return this.element;
  }

  /** Draws the chart from datasets {name: rows} (the cell's tables plus "book"). */
  show(datasets) {
    this.#datasets = datasets;
    // A chart of a table this result lacks (measured only in the browser, say) is hidden, not drawn empty.
    this.element.hidden = !data_names(this.#chart.spec).some((name) => datasets[name]);
    if (this.element.hidden) return this.#drawing;
    const title = pick(this.#chart.title, this.#chart.id);
    const spec = spec_with_data(this.#chart.spec, datasets, title);
    const canvas = this.#canvas;
    this.#drawing = this.#drawing.then(() => draw_chart(canvas, spec, this.#view)).then((view) => {
      this.#view = view;
      this.#status.textContent = '';
    }, (error) => {
      this.#status.textContent = t('chart.failed', { message: String(error?.message || error) });
    });
    if (this.#table_open) this.#fill_table();
    return this.#drawing;
  }

  /** Marks the chart as showing an older result than the inputs. */
  set stale(is_stale) { this.element.classList.toggle('sl-stale', is_stale); }

  #toggle_table() {
    this.#table_open = !this.#table_open;
    this.#toggle.setAttribute('aria-expanded', String(this.#table_open));
    this.#table_box.hidden = !this.#table_open;
    if (this.#table_open) this.#fill_table();
  }

  #fill_table() {
    if (!this.#datasets) return;
    const title = pick(this.#chart.title, this.#chart.id);
    const tables = data_names(this.#chart.spec).filter((name) => this.#datasets[name]).map((name) => {
      const rows = this.#datasets[name];
      const columns = rows.length ? Object.keys(rows[0]) : [];
      return el('div', { class: 'sl-table-wrap sl-table-scroll', tabindex: '0', role: 'region', 'aria-label': `${title}: ${name}` },
        el('table', { class: 'sl-table sl-data-table' },
          el('caption', {}, t('chart.caption', { title, name, rows: rows.length })),
          el('thead', {}, el('tr', {}, columns.map((column) => el('th', { scope: 'col' }, column)))),
          el('tbody', {}, rows.map((row) => el('tr', {},
            columns.map((column) => el('td', { class: 'sl-num' }, format_number(row[column]))))))));
    });
    replace_children(this.#table_box, tables);
  }
}
