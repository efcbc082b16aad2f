// One chart of a cell: the Vega-Lite drawing, its one-sentence summary (its accessible name), a note, the
// downloads (SVG, PNG, CSV) and a "Table view" toggle showing the same rows as a <table> with labelled
// columns (the lab file's `tables`).
import { el, replace_children } from './dom.js';
import { t, pick } from './i18n.js';
import { spec_with_data, data_names, draw_chart, field_titles } from './charts.js';
import { column_header, column_value, csv_value, value_with_unit } from './result_view.js';
import { save, save_url, to_csv } from './download.js';
import { draw_near_view } from './chart_gate.js';

const SECONDARY_HEIGHT_PX = 180;

export class ChartPanel {
  #chart;            // the lab file's chart entry {id, title, note}
  #vl_spec = null;   // its Vega-Lite spec (labs/<lab>.charts.json, set_drawing): none until the first drawing
  #summary_template = null;   // its summary, {en, vi}, with {output} placeholders: from the same file
  #doc = {};         // the cell's lab-file entry (column labels)
  #spec = null;      // the cell's C++ spec (output units)
  #view = null;      // the current Vega view
  #drawing = Promise.resolve();
  #table_open = false;
  #datasets = null;
  #outputs = {};
  #design_a = null;  // a pinned design A (compare.js design_a()): drawn beside this run, in the table view and CSV too
  element; #canvas; #table_box; #toggle; #status; #summary; #downloads;

  #max_height = Infinity;   // a chart below the main one is drawn at most SECONDARY_HEIGHT_PX tall

  constructor(chart, id_prefix) {
    this.#chart = chart;
    this.id = `${id_prefix}-chart-${chart.id}`;
  }

  get chart_id() { return this.#chart.id; }

  /** The same chart's entry in another language (its spec's axis titles and its title); build() then redraws. */
  set_chart(chart) { this.#chart = chart; }

  /** The chart's Vega-Lite spec and summary ({spec, summary}, or null), once its lab's chart file has come. */
  set_drawing(drawing) {
    this.#vl_spec = drawing?.spec ?? null;
    this.#summary_template = drawing?.summary ?? null;
  }
  get has_vl_spec() { return this.#vl_spec !== null; }

  /** Marks this chart as one of the smaller ones under the main chart. */
  set secondary(is_secondary) { this.#max_height = is_secondary ? SECONDARY_HEIGHT_PX : Infinity; }

  /** The cell's lab-file entry and C++ spec, for column labels and the summary's values. */
  set_context(doc, spec) { this.#doc = doc; this.#spec = spec; }

  /** (Re)builds the DOM in the current language; the cell then calls show() with its last data. */
  build() {
    const title = pick(this.#chart.title, this.#chart.id);
    this.#canvas = el('div', { class: 'sl-chart-canvas', role: 'img', 'aria-label': title });
    this.#summary = el('p', { class: 'sl-chart-summary', id: `${this.id}-summary` });
    this.#table_box = el('div', { class: 'sl-chart-table', id: `${this.id}-table`, hidden: !this.#table_open });
    this.#status = el('p', { class: 'sl-chart-status' });
    this.#toggle = el('button', {
      type: 'button', class: 'sl-button sl-button-small', 'aria-expanded': String(this.#table_open),
      'aria-controls': `${this.id}-table`, on: { click: () => this.#toggle_table() },
    }, t('chart.table_view'));
    this.#downloads = el('span', { class: 'sl-download-buttons' });
    const note = pick(this.#chart.note, '');
    this.element = el('figure', { class: 'sl-chart', id: this.id, 'data-chart': this.#chart.id },
      el('figcaption', { class: 'sl-chart-title' }, title),
      this.#canvas, this.#status,
      note ? el('p', { class: 'sl-chart-note' }, note) : null,
      el('div', { class: 'sl-chart-footer' }, this.#summary, el('div', { class: 'sl-chart-actions' }, this.#toggle,
        el('details', { class: 'sl-downloads' }, el('summary', { class: 'sl-button sl-button-small' }, t('chart.download')), this.#downloads))),
      this.#table_box);
    if (this.#view) { this.#view.finalize(); this.#view = null; }
    return this.element;
  }

  /** The summary sentence at these outputs: the lab file's template with {output} replaced by value and unit. */
  summary_text(outputs = this.#outputs) {
    const template = pick(this.#summary_template, '');
    if (!template) return '';
    return template.replace(/\{(\w+)\}/g, (whole, name) => value_with_unit(outputs, name, this.#spec));
  }

  /** Draws the chart from datasets {name: rows} (the cell's tables plus "book") and the run's outputs, and design A's. */
  show(datasets, outputs = {}, design_a = null) {
    this.#datasets = datasets;
    this.#outputs = outputs;
    this.#design_a = design_a;
    // A chart of a table this result lacks (measured only in the browser, say) is hidden, not drawn empty.
    this.element.hidden = !data_names(this.#vl_spec).some((name) => datasets[name]);
    if (this.element.hidden) return this.#drawing;
    const title = pick(this.#chart.title, this.#chart.id);
    const summary_b = this.summary_text();
    const summary = summary_b && design_a ? design_a.summary(summary_b, this.summary_text(design_a.outputs)) : summary_b;
    this.#summary.textContent = summary;
    this.#canvas.setAttribute('aria-label', summary ? `${title}. ${summary}` : title);
    const spec_b = spec_with_data(this.#vl_spec, datasets, summary || title, this.#max_height);
    const spec = design_a ? design_a.spec(spec_b) : spec_b;
    const canvas = this.#canvas;
    this.#drawing = this.#drawing.then(() => draw_near_view(canvas, () => draw_chart(canvas, spec, this.#view))).then((view) => {
      this.#view = view;
      this.#status.textContent = '';
      this.#fill_downloads();
    }, (error) => {
      this.#status.textContent = t('chart.failed', { message: String(error?.message || error) });
    });
    if (this.#table_open) this.#fill_table();
    return this.#drawing;
  }

  /** Marks the chart as showing an older result than the inputs. */
  set stale(is_stale) { this.element.classList.toggle('sl-stale', is_stale); }

  #file_name(extension, name = '') {
    const cell = (this.#spec?.id || 'cell').replace('/', '-');
    return `${cell}-${this.#chart.id}${name ? `-${name}` : ''}.${extension}`;
  }

  #fill_downloads() {
    const title = pick(this.#chart.title, this.#chart.id);
    const button = (format, action, label = format) => el('button', {
      type: 'button', class: 'sl-button sl-button-small', 'data-format': format.toLowerCase(),
      'aria-label': t('chart.download_label', { title, format: label }), on: { click: action },
    }, label);
    const csv = this.#table_names().map((name) => button('CSV', () => this.#save_csv(name), this.#table_names().length > 1 ? `CSV (${name})` : 'CSV'));
    replace_children(this.#downloads,
      button('SVG', async () => save(this.#file_name('svg'), await this.#view.toSVG(), 'image/svg+xml')),
      button('PNG', async () => save_url(this.#file_name('png'), await this.#view.toImageURL('png', 2))),
      csv);
  }

  #table_names() { return data_names(this.#vl_spec).filter((name) => this.#datasets?.[name] && name !== 'book'); }

  /** A table's rows; with a design A, A's and this run's, each marked (compare.js). */
  #rows(name) { return this.#design_a ? this.#design_a.rows(name, this.#datasets[name]) : this.#datasets[name]; }

  #columns(name) {
    const rows = this.#rows(name);
    return rows.length ? Object.keys(rows[0]) : [];
  }

  #save_csv(name) {
    const columns = this.#columns(name);
    const titles = field_titles(this.#vl_spec);
    const headers = columns.map((column) => column_header(this.#doc, name, column, titles));
    const rows = this.#rows(name).map((row) => columns.map((column) => csv_value(this.#doc, name, column, row[column])));
    save(this.#file_name('csv', name), to_csv(headers, rows), 'text/csv');
  }

  #toggle_table() {
    this.#table_open = !this.#table_open;
    this.#toggle.setAttribute('aria-expanded', String(this.#table_open));
    this.#table_box.hidden = !this.#table_open;
    if (this.#table_open) this.#fill_table();
  }

  #fill_table() {
    if (!this.#datasets) return;
    const title = pick(this.#chart.title, this.#chart.id);
    const titles = field_titles(this.#vl_spec);
    const tables = this.#table_names().map((name) => {
      const rows = this.#rows(name);
      const columns = this.#columns(name);
      const label = pick(this.#doc.tables?.[name]?.title, name);
      return el('div', { class: 'sl-table-wrap sl-table-scroll', tabindex: '0', role: 'region', 'aria-label': `${title}: ${label}` },
        el('table', { class: 'sl-table sl-data-table' },
          el('caption', {}, t('chart.caption', { title, name: label, rows: rows.length })),
          el('thead', {}, el('tr', {}, columns.map((column) => el('th', { scope: 'col', title: column }, column_header(this.#doc, name, column, titles))))),
          el('tbody', {}, rows.map((row) => el('tr', {},
            columns.map((column) => el('td', { class: 'sl-num' }, column_value(this.#doc, name, column, row[column]))))))));
    });
    replace_children(this.#table_box, tables);
  }
}
