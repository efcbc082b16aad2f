// One cell on the page, an explorable: a short framing, then the controls (key parameters with sliders, the
// rest under "More parameters") beside the headline figures and the main chart, then the result table and
// the book line, and closed disclosures: the other charts, "All outputs", the "Why?" sections. Inputs go to
// C++ as typed (in C's number notation); the page only formats what comes back.
import { el, replace_children } from './dom.js';
import { format_number } from './format.js';
import { consent_to, may_fetch, served_bytes, asset_inputs, needed_assets } from './data_assets.js';
import { t, pick, current_lang, load_errors } from './i18n.js';
import { build_param_fields, needs_consent } from './param_form.js';
import { headline, result_table, book_details, all_outputs, notice_text, error_text, value_with_unit, output_unit } from './result_view.js';
import { ChartPanel } from './chart_panel.js';
import { fetch_why, fetch_chart_specs } from './labs.js';
import { RunStatus } from './run_status.js';
import { share_actions } from './share_actions.js';
import { columns_to_rows, book_rows } from './charts.js';
import { save, result_json } from './download.js';
import { Prediction } from './prediction.js';
import * as compare_host from './compare_host.js';
import { param_key, alias_keys, read_param, short_id, update_url, set_or_delete, embed_url, lab_url, cell_link, SEED_KEY, PRESET_KEY, A_KEY } from './url_state.js';

const DEBOUNCE_MS = 300;
const DEFAULT_SEED = '1';
const CONSENTED = 'sl-assets-consented';
const FILLED = 'sl-page-fill';   // a document event: a run's whole-page fill (C++ InputFill) was applied   // a document event: the reader let the page fetch a data asset

export class CellView {
  element;
  #lab_id; #doc; #spec; #worker; #embed;
  #values; #seed_text;            // what the user typed (strings), restored from the URL
  #preset = '';                   // the chosen preset's id (C++ CellSpec::presets), '' for none: the URL's "preset" key
  #files = {};                    // file parameters: name → Uint8Array (never in the URL)
  #pasted = {};                   // file parameters given as pasted text: name → the text, kept across rebuilds
  #form = null; #status; #error_box; #offers; #notices; #fills; #results; #stale_note; #charts;
  #last_result = null; #last_error = null; #datasets = null; #debounce = 0;
  #open_full = null;
  #more_charts = null; #folded = []; #specs_coming = null;
  #number; #prediction = null; #headline_box; #table_box; #book_box; #outputs_box; #main_box;
  #asset_gate = null;             // the "download the data and run" box, while the cell waits for it
  #ran = null;                    // the inputs of #last_result: {values, files, seed}
  #runs_started = 0;              // a run that waited (for error texts) shows nothing once a newer one started
  #compare = null; #compare_import = null; #compare_ready = null; #compare_box;   // design A (compare.js)
  #edits = 0;                     // the reader's edits since the page loaded
  /** Where challenges.js puts the cell's challenges; kept across rebuilds. */
  challenge_slot = el('div', { class: 'sl-challenge-slot' });

  /**
   * doc: the cell's entry in the lab file; spec: its entry in list_cells(); query: URLSearchParams;
   * number: its place on the page (1, 2, …); predict: whether to ask for a prediction first.
   */
  constructor({ lab_id, doc, spec, worker, embed, query, number = 0, predict = true }) {
    this.#lab_id = lab_id;
    this.#number = number;
    this.#doc = doc;
    this.#spec = spec;
    this.#worker = worker;
    this.#embed = embed;
    // A preset in the URL sets the parameters it names; the URL's own values win over it, as on the CLI.
    const preset = query.get(this.#key(PRESET_KEY));
    if ((spec.presets || []).some((p) => p.id === preset)) this.#preset = preset;
    const base = this.#base_values();
    // A download (needs_consent) starts at its default, whatever the URL says: it runs only from its button.
    this.#values = Object.fromEntries(spec.params.filter((param) => param.kind !== 'bytes').map((param) =>
      [param.name, (needs_consent(param) ? null : read_param(query, spec.id, param, embed)) ?? base[param.name]]));
    this.#seed_text = spec.uses_seed ? (query.get(this.#key(SEED_KEY)) ?? DEFAULT_SEED) : null;
    this.#status = new RunStatus(() => this.cancel());
    this.#charts = (doc.charts || []).map((chart) => new ChartPanel(chart, this.#id_prefix));
    if (predict && doc.predict) this.#prediction = new Prediction({ id_prefix: this.#id_prefix, on_reveal: () => this.#revealed() });
    // data-measures: a cell that times this machine (its first run waits until the simulations are done).
    this.element = el('section', { class: 'sl-cell', id: short_id(spec.id), 'aria-labelledby': `${this.#id_prefix}-title`,
      'data-measures': this.measures_machine ? 'true' : null });
    this.build();
    this.#write_url();
    // A design A in the URL: compare.js is loaded and A runs beside the cell's first run.
    if (query.has(this.#key(A_KEY))) this.#compare_ready = this.#with_compare((compare) => compare.from_url(query));
    // Another cell's whole-page fill (the laws fitted to a trace, knobs fitted to measurements): a cell that has every
    // parameter it sets takes the values and runs.
    document.addEventListener(FILLED, (event) => {
      if (event.detail.from !== this && this.#takes(event.detail.values)) event.detail.taken.push(this.#apply(event.detail.values));
    });
    // The reader let the page download a data asset (this cell's button or another's): a waiting cell runs.
    document.addEventListener(CONSENTED, () => {
      if (this.element.dataset.state !== 'waiting') return;
      this.#asset_gate.hidden = true;
      this.element.dataset.state = '';
      this.run_now();
    });
  }

  /** The same cell's lab-file entry in another language; build() then shows it. */
  set_doc(doc) {
    this.#doc = doc;
    (doc.charts || []).forEach((chart, i) => this.#charts[i]?.set_chart(chart));
  }

  /** The title as the page's contents list shows it: "3. Capacity planning". */
  get title() { return `${this.#number ? `${this.#number}. ` : ''}${this.plain_title}`; }

  get plain_title() { return pick(this.#doc.title, this.#spec.id); }

  get element_id() { return short_id(this.#spec.id); }

  /** True for a cell that times this machine (its numbers change run to run). */
  get measures_machine() { return this.#spec.deterministic === false; }

  get cell_id() { return this.#spec.id; }

  /** What its run at the default inputs costs, in seconds, as C++'s cost model estimates it (0: none). */
  get default_cost_s() { return this.#spec.default_cost_s ?? 0; }

  get #id_prefix() { return `sl-${short_id(this.#spec.id)}`; }

  #key(name) { return param_key(this.#spec.id, name, this.#embed); }

  /** Each parameter's text before the reader edits it: the chosen preset's, else the default. */
  #base_values() {
    const preset = (this.#spec.presets || []).find((p) => p.id === this.#preset)?.values || {};
    return Object.fromEntries(this.#spec.params.filter((param) => param.kind !== 'bytes')
      .map((param) => [param.name, preset[param.name] ?? String(param.default)]));
  }

  /** The preset menu (none when C++ declares no preset): choosing one sets its inputs, the others to their defaults, and runs. */
  #preset_menu() {
    const presets = this.#spec.presets || [];
    if (!presets.length) return null;
    const id = `${this.#id_prefix}-preset`;
    const choose = (event) => {
      this.#preset = event.target.value;
      if (this.#preset) this.#values = { ...this.#values, ...this.#base_values() };
      this.#apply({});
      document.getElementById(id)?.focus();
    };
    return el('div', { class: 'sl-field sl-preset' },
      el('label', { for: id, class: 'sl-label' }, t('cell.preset')),
      el('select', { id, class: 'sl-input sl-select', on: { change: choose } },
        el('option', { value: '' }, t('cell.preset_own')),
        presets.map((p) => el('option', { value: p.id, selected: p.id === this.#preset }, pick(this.#doc.presets?.[p.id], p.id)))));
  }

  /** (Re)builds the DOM in the current language, keeping the inputs and the last result. */
  build() {
    const doc = this.#doc;
    const title = this.title;
    this.#form = build_param_fields({
      spec: this.#spec, doc, id_prefix: this.#id_prefix, values: this.#values, seed_text: this.#seed_text,
      key_params: doc.key_params || [], pasted: this.#pasted, on_edit: () => this.#edited(),
      on_refused: (error) => this.#refused(error),
      on_consent: (name, choice) => this.run_now({ [name]: choice }),   // this run only: later edits download nothing
    });
    this.#status.relabel();
    this.#asset_gate = el('div', { class: 'sl-asset-gate', hidden: true });
    this.#error_box = el('div', { class: 'sl-error', role: 'alert', hidden: true });
    this.#offers = el('div', { class: 'sl-offers' });
    this.#notices = el('div', { class: 'sl-notices' });
    this.#fills = el('div', { class: 'sl-fills' });
    this.#stale_note = el('p', { class: 'sl-stale-note', hidden: true }, t('cell.stale'));
    this.#headline_box = el('div', { class: 'sl-headline-box' });
    this.#compare_box = el('div', { class: 'sl-compare-box' });
    this.#table_box = el('div', { class: 'sl-result-table-box' });
    this.#book_box = el('div', { class: 'sl-book-box' });
    this.#outputs_box = el('div', { class: 'sl-outputs-box' });
    this.#results = el('div', { class: 'sl-results' }, this.#table_box, this.#book_box);
    for (const chart of this.#charts) chart.set_context(doc, this.#spec);
    const main_id = doc.main_chart ?? doc.charts?.[0]?.id;
    const main_chart = this.#charts.find((chart) => chart.chart_id === main_id);
    const other_charts = this.#charts.filter((chart) => chart !== main_chart);
    for (const chart of this.#charts) chart.secondary = chart !== main_chart;
    // The charts besides the main one wait under "More charts", drawn when it opens (they have no width before).
    this.#folded = other_charts;
    this.#more_charts = other_charts.length
      ? el('details', { class: 'sl-more-charts', on: { toggle: (event) => { if (event.target.open && this.#datasets) this.#draw(other_charts); } } },
        el('summary', {}, t('cell.more_charts', { count: other_charts.length })),
        el('div', { class: 'sl-charts' }, other_charts.map((chart) => chart.build())))
      : null;
    // The headline figures sit above the main chart, beside the controls: all three in view while a slider moves.
    this.#main_box = el('div', { class: 'sl-main-chart' },
      this.#prediction?.build(pick(doc.predict?.question, ''), this.#predicted_unit()),
      this.#headline_box, this.#compare_box,
      main_chart ? main_chart.build() : null);
    if (main_chart) main_chart.element.hidden = !this.#last_result;
    const form = el('form', { class: 'sl-form', 'aria-label': t('cell.parameters_of', { title }), novalidate: true,
      on: { submit: (event) => { event.preventDefault(); this.run_now(); } } },
      this.#preset_menu(), this.#form.element,
      el('div', { class: 'sl-form-actions' },
        el('button', { type: 'submit', class: 'sl-button sl-button-primary' }, t('cell.run')),
        el('button', { type: 'button', class: 'sl-button sl-pin-a', title: t('compare.pin_title'), on: { click: () => this.#pin() } }, t('compare.pin')),
        this.#status.element));
    // A section's text arrives when it is first opened (labs/<lab>.why.json, fetch_why): it is closed until then.
    const why = (doc.why || []).map((section, index) => {
      const body = el('div', { class: 'sl-why-text' });
      const fill = (text) => replace_children(body, (pick(text, []) || []).map((paragraph) => el('p', {}, paragraph)));
      const details = el('details', { class: 'sl-why', on: { toggle: () => {
        if (!details.open || body.querySelector('p:not(.sl-why-offline)')) return;
        fetch_why(this.#lab_id).then((texts) => fill(texts[this.#spec.id]?.[index]),
          () => replace_children(body, el('p', { class: 'sl-why-offline' }, t('cell.why_offline'))));
      } } }, el('summary', {}, t('cell.why', { title: pick(section.title, '') })), body);
      if (section.text) fill(section.text);   // a lab file that still holds it
      return details;
    });
    replace_children(this.element,
      el(this.#embed ? 'h1' : 'h2', { class: 'sl-cell-title', id: `${this.#id_prefix}-title` },
        this.#number ? el('span', { class: 'sl-cell-number' }, `${this.#number}. `) : null, pick(doc.title, this.#spec.id)),
      el('div', { class: 'sl-cell-text' }, (pick(doc.text, []) || []).map((paragraph) => el('p', {}, paragraph))),
      el('div', { class: 'sl-explore' },
        el('div', { class: 'sl-controls' }, form, this.#asset_gate, this.#error_box, this.#offers),
        this.#main_box),
      this.#notices, this.#fills, this.#stale_note,
      this.#results,
      // Closed disclosures side by side; an open one takes the whole width.
      el('div', { class: 'sl-disclosures' }, this.challenge_slot, this.#more_charts, this.#outputs_box, why, this.#share_row()));
    this.element.dispatchEvent(new CustomEvent('sl-built'));   // challenges.js locks and hides an assignment's fields again
    if (this.element.dataset.state === 'waiting') this.#show_asset_gate();   // in the new language
    if (this.#last_result) this.#show_result(this.#last_result, false);
    else this.#show_compare();
    if (this.#last_error) {
      this.#show_error(this.#last_error);
      this.#set_stale(true);
    }
  }

  /** The cell's lab-file entry and C++ spec, its inputs as typed, its last result and the reader's edits so far. */
  get doc() { return this.#doc; }
  get spec() { return this.#spec; }
  get values() { return { ...this.#values }; }
  get last_result() { return this.#last_result; }
  get edits() { return this.#edits; }

  /**
   * The result of a run at the reader's inputs with `values` changed, computed by this cell's worker and shown
   * nowhere (a challenge's neighbour point); null when the cell is busy or the run was cancelled or superseded.
   */
  async probe(values) {
    if (this.#worker.busy || this.element.dataset.state === 'running') return null;
    const inputs = { ...this.#values, ...this.#files, ...values };
    const result = await this.#worker.run(this.#spec.id, inputs, this.#seed_text ?? DEFAULT_SEED);
    return result.cancelled ? null : result;
  }

  /** compare.js, imported when first needed (a pin, or an A in the URL); then use(the cell's Compare). */
  async #with_compare(use) {
    try {
      this.#compare_import ??= import('./compare.js').then((module) => { module.connect(compare_host); return module; });
      const { Compare } = await this.#compare_import;
      this.#compare ??= new Compare({ spec: this.#spec, embed: this.#embed, doc: () => this.#doc, changed: () => this.#compared() });
      use(this.#compare);
    } catch (error) {
      this.#compare_import = null;   // tried again at the next pin
      console.error(`compare.js: ${error.message}`);
    }
  }

  /** "Pin as A": the inputs as typed, and the last result with the inputs it had (A runs unless they are the same). */
  #pin() {
    const inputs = { values: { ...this.#values }, files: { ...this.#files }, seed: this.#seed_text };
    this.#with_compare((compare) => compare.pin(inputs, this.#ran, this.#last_result));
  }

  /** Design A was pinned, ran or was cleared: the comparison and the charts again (the rest, and its open disclosures, stay). */
  #compared() {
    const concealed = Boolean(this.#prediction?.pending);
    this.#show_compare(concealed);
    if (this.#last_result && !concealed) this.#draw(this.#shown_charts());
  }

  #show_compare(concealed = false) {
    replace_children(this.#compare_box, this.#compare && !concealed
      ? this.#compare.view(this.#last_result, { values: this.#values, seed: this.#seed_text }) : null);
  }

  #predicted_unit() { return output_unit(this.#spec, this.#doc.predict?.output); }

  /** The reader committed a guess (or skipped): show the results, the guess beside the answer. */
  #revealed() {
    if (this.#last_result) this.#show_result(this.#last_result, false);
  }

  #share_row() {
    const row = share_actions(() => this.#links(), () => pick(this.#doc.title, this.#spec.id));
    row.prepend(el('button', { type: 'button', class: 'sl-button sl-button-small sl-download-json', on: { click: () => {
      if (this.#last_result) save(`${this.#spec.id.replace('/', '-')}.json`, result_json(this.#last_result), 'application/json');
    } } }, t('cell.download_json')));
    if (this.#embed) {
      // The full lab page with this cell's inputs (its keys prefixed with the cell's id), kept current.
      const open_full = el('a', { class: 'sl-open-full', href: this.full_url(), target: '_blank', rel: 'noopener',
        on: { focus: () => { open_full.href = this.full_url(); }, pointerenter: () => { open_full.href = this.full_url(); } } },
      t('share.open_full'));
      this.#open_full = open_full;
      row.append(open_full);
    }
    return row;
  }

  /** The full lab page showing this cell with its current inputs and seed. */
  full_url() {
    return lab_url({ lab: this.#lab_id, cell_id: this.#spec.id, values: this.#link_values(), seed: this.#seed_text, lang: current_lang() });
  }

  /** {name: text} of the parameters that differ from their defaults. */
  #changed_values() {
    return Object.fromEntries(this.#spec.params
      .filter((param) => param.kind !== 'bytes' && this.#values[param.name] !== String(param.default))
      .map((param) => [param.name, this.#values[param.name]]));
  }

  /** The changed parameters and, when one is pinned, design A's URL entries ("A", "A.<param>", "A.seed"). */
  #link_values() { return { ...this.#changed_values(), ...this.#compare?.url_entries() }; }

  /** What an embedding page may learn after a run: the cell, its inputs as typed and its shareable URL. */
  get state() {
    return { cell: this.#spec.id, inputs: this.#changed_values(), seed: this.#seed_text, url: this.full_url() };
  }

  #links() {
    const embed = embed_url({ lab: this.#lab_id, cell_id: this.#spec.id, values: this.#link_values(), seed: this.#seed_text, lang: current_lang() });
    return { link: this.#embed ? window.location.href : cell_link(this.#spec.id), embed };
  }

  async #edited() {
    this.#edits += 1;
    const values = this.#form.read();
    if (this.#seed_text !== null) this.#seed_text = values.seed;
    for (const param of this.#spec.params) {
      if (needs_consent(param)) continue;
      if (param.kind !== 'bytes') this.#values[param.name] = values[param.name];
      else if (values[param.name]) this.#files[param.name] = new Uint8Array(await values[param.name].arrayBuffer());
      else if (values[param.name] === null) delete this.#files[param.name];   // undefined: untouched since a rebuild
    }
    this.#write_url();
    clearTimeout(this.#debounce);
    this.#debounce = setTimeout(() => this.run_now(), DEBOUNCE_MS);
  }

  /**
   * A file (or pasted text) over its parameter's max, refused unread with the error C++ would give it: the
   * parameter drops its bytes and the cell does not run until the reader gives it others.
   */
  async #refused(error) {
    clearTimeout(this.#debounce);
    delete this.#files[error.param];
    await load_errors();
    this.element.dataset.state = 'error';
    this.#show_error(error);
    this.#set_stale(true);
  }

  /**
   * Changed parameters and a changed seed go to the URL; back at their default they leave it, so a page at
   * its defaults builds its cells without rewriting its URL (writing every seed cost one replaceState per
   * cell, ~50 ms of the queues page's main thread before its first result, in a profile).
   */
  #write_url() {
    const base = this.#base_values();
    update_url((query) => {
      set_or_delete(query, this.#key(PRESET_KEY), this.#preset || null);
      for (const param of this.#spec.params) {
        if (param.kind === 'bytes') continue;
        const text = this.#values[param.name];
        for (const old_key of alias_keys(this.#spec.id, param, this.#embed)) query.delete(old_key);   // rewritten as the new name
        set_or_delete(query, this.#key(param.name), text === base[param.name] ? null : text);
      }
      if (this.#seed_text !== null) set_or_delete(query, this.#key(SEED_KEY), this.#seed_text === DEFAULT_SEED ? null : this.#seed_text);
    });
  }

  /**
   * Runs the cell now with the inputs as typed (and `consented`: a download the reader asked for, this run
   * only). data-state and data-runs on the cell tell how it went. `on_computed()` is called as soon as the
   * worker has answered, before the result is shown (or when the run ends without an answer). A cell without
   * data assets posts its run to its worker before run_now() returns.
   */
  async run_now(consented = {}, on_computed = () => {}) {
    let answered = false;
    const computed = () => {
      if (!answered) { answered = true; on_computed(); }
    };
    try {
      return await this.#run(consented, computed);
    } finally {
      computed();
      await this.#compare_ready;   // a design A from the URL has run too
      await this.#compare?.settled;
    }
  }

  async #run(consented, computed) {
    clearTimeout(this.#debounce);
    let assets = {};
    const needed = needed_assets(this.#spec.assets, this.#values);
    if (needed.length) {
      if (await this.#waits_for_assets(needed)) return;
      try {
        assets = await asset_inputs(needed);
      } catch (error) {
        await load_errors();
        this.element.dataset.state = 'error';
        return this.#failed({ code: 'missing_asset', param: '', message: String(error.message || error), args: {} });
      }
    }
    const inputs = { ...this.#values, ...this.#files, ...assets, ...consented };
    const seed = this.#seed_text ?? DEFAULT_SEED;   // a string, validated in C++ like the inputs
    const ran = Object.keys(consented).length ? null : { values: { ...this.#values }, files: { ...this.#files }, seed: this.#seed_text };
    this.#status.started();
    this.element.dataset.state = 'running';
    const this_run = ++this.#runs_started;
    const result = await this.#worker.run(this.#spec.id, inputs, seed, (frac) => this.#status.progress(frac),
      (partial, done, parts) => this.#show_partial(partial, done, parts));
    computed();   // its worker is free: the page's next first run is posted before this one is shown
    if (result.superseded) return;   // a newer run owns the status line
    if (result.error) {
      await load_errors();   // before data-runs and data-state say so: the error is shown in the reader's language at once
      if (this_run !== this.#runs_started) return;
    }
    this.element.dataset.runs = String(Number(this.element.dataset.runs || 0) + 1);
    if (result.cancelled) {
      const { had_focus } = this.#status.finished('cancelled');
      if (had_focus) this.element.querySelector('.sl-button-primary').focus();
      this.element.dataset.state = 'cancelled';
      return this.#set_stale(true);
    }
    if (result.error) {
      this.element.dataset.state = 'error';
      return this.#failed(result.error);
    }
    this.#status.finished('done');
    this.#ran = ran;
    this.#show_result(result, true);
    this.element.dataset.state = 'done';
    if (this.#open_full) this.#open_full.href = this.full_url();
    this.element.dispatchEvent(new CustomEvent('sl-run', { bubbles: true }));
  }

  /** A spread run's merged result of the parts done so far (spread_run.js), shown while the rest runs. */
  #show_partial(result, done, parts) {
    if (this.#prediction?.pending) return;   // the prediction is answered by the whole run
    this.#status.parts(done, parts);
    this.#show_result(result, true);
    this.element.dataset.partials = String(Number(this.element.dataset.partials || 0) + 1);
  }

  /**
   * A cell that computes on data assets (C++ spec.assets: the request lab's digits) does not download them
   * unasked: unless they are at hand (kept by the service worker) or the reader has agreed before, it
   * shows their size and a button, sets data-state="waiting" and returns true. The button lets every cell of
   * the page that uses them run.
   */
  async #waits_for_assets(assets) {
    if (!assets.length || await may_fetch(assets)) return false;
    if (this.element.dataset.state !== 'waiting') {
      this.element.dataset.state = 'waiting';
      await this.#show_asset_gate();
    }
    return true;
  }

  /** The waiting cell's note (the assets' size as served) and its button. */
  async #show_asset_gate() {
    const assets = needed_assets(this.#spec.assets, this.#values);
    const bytes = await served_bytes(assets);
    const size = bytes === null ? t('cell.asset_size_unknown') : `${format_number(bytes / 1e6)} MB`;
    const button = el('button', { type: 'button', class: 'sl-button sl-button-primary sl-asset-button', 'data-bytes': String(bytes ?? '') },
      t('cell.asset_run'));
    button.addEventListener('click', () => {
      consent_to(assets);
      document.dispatchEvent(new CustomEvent(CONSENTED));
    });
    replace_children(this.#asset_gate, el('p', { class: 'sl-asset-note' }, t('cell.asset_note', { bytes: size })), button);
    this.#asset_gate.hidden = false;
  }

  /** Stops a run in progress; the cell shows "cancelled" and stays usable. */
  cancel() {
    clearTimeout(this.#debounce);
    this.#worker.cancel();
  }

  #failed(error) {
    this.#status.finished('error');
    this.#show_error(error);
    this.#set_stale(true);
  }

  #show_error(error) {
    this.#last_error = error;
    const label = (name) => (name === 'seed' ? t('cell.seed') : pick(this.#doc.params?.[name]?.label, name));
    const message = error_text(error, label);
    const by_field = Boolean(error.param && this.element.querySelector(`[data-param="${CSS.escape(error.param)}"]`));
    this.#error_box.textContent = message;
    this.#error_box.hidden = by_field;   // shown beside its field (referenced by aria-describedby) when it has one
    this.#form.mark_invalid(error.param, message);
    // Inputs C++ proposes with the error (args "set.<param>": a coarser search that fits), each a button that sets it
    // and runs.
    const offers = Object.entries(error.args || {}).filter(([key]) => key.startsWith('set.'))
      .map(([key, value]) => [key.slice(4), value]).filter(([name]) => this.#takes({ [name]: '' }) && this.#values[name] !== undefined);
    replace_children(this.#offers, offers.map(([name, value]) => el('button', {
      type: 'button', class: 'sl-button sl-offer', 'data-offer': name, 'data-value': value, on: { click: () => this.#apply({ [name]: value }) } },
    t('cell.offer', { label: label(name), value: format_number(Number(value)) }))));
  }

  #show_result(result, is_new) {
    this.#last_result = result;
    if (is_new) this.#last_error = null;
    this.#error_box.hidden = true;
    this.#error_box.textContent = '';
    replace_children(this.#offers);
    this.#form.mark_invalid(null);
    const doc = this.#doc;
    const outputs = result.outputs || {};
    // A notice of where the numbers come from (the lab file's "kind": "source") is a quiet line; the others caution.
    replace_children(this.#notices, (result.notices || []).map((notice) =>
      el('p', { class: doc.notices?.[notice.code]?.kind === 'source' ? 'sl-notice sl-notice-source' : 'sl-notice',
                role: 'note', 'data-code': notice.code }, notice_text(notice, doc))));
    replace_children(this.#fills, (result.fills || []).map((fill) => this.#fill_box(fill)));
    const concealed = Boolean(this.#prediction?.pending);
    if (this.#prediction) {
      const name = doc.predict.output;
      this.#prediction.answer(outputs[name], value_with_unit(outputs, name, this.#spec));
    }
    replace_children(this.#headline_box, headline(outputs, doc, this.#spec));
    this.#show_compare(concealed);
    replace_children(this.#table_box, result_table(result.tables, doc, this.#spec.id));
    replace_children(this.#book_box, book_details(result.book || [], doc, this.#spec.id));
    replace_children(this.#outputs_box, all_outputs(outputs, doc, this.#spec));
    for (const box of [this.#headline_box, this.#outputs_box]) box.hidden = concealed;
    this.#results.hidden = concealed || (!this.#table_box.firstChild && !this.#book_box.firstChild);
    this.#set_stale(false);
    if (is_new || !this.#datasets) this.#datasets = datasets_of(result);
    if (this.#more_charts) this.#more_charts.hidden = concealed;
    for (const chart of this.#charts) chart.element.hidden = concealed;
    if (!concealed) this.#draw(this.#shown_charts());
  }

  /** The charts on view: the main one, and the others once "More charts" is open (they have no width before). */
  #shown_charts() { return this.#charts.filter((chart) => !this.#folded.includes(chart) || this.#more_charts?.open); }

  /**
   * A run's proposed inputs (C++ InputFill): what they set, and a button that sets them here (or, whole_page, in
   * every other cell of the page that has all of them) and runs.
   */
  #fill_box(fill) {
    const text = this.#doc.fills?.[fill.name];
    const status = el('p', { class: 'sl-fill-status', role: 'status' });
    const apply = () => {
      if (!fill.whole_page) return this.#apply(fill.values);
      const detail = { values: fill.values, from: this, taken: [] };
      document.dispatchEvent(new CustomEvent(FILLED, { detail }));
      status.textContent = t('cell.fill_applied', { count: detail.taken.length, cells: detail.taken.join(', ') || '—' });
    };
    const flags = Object.entries(fill.values).map(([name, value]) => `--${name} ${value}`).join(' ');
    return el('div', { class: 'sl-fill', 'data-fill': fill.name },
      el('p', { class: 'sl-fill-note' }, pick(text?.note, fill.name)),
      el('p', { class: 'sl-fill-values' }, el('code', {}, flags)),
      el('button', { type: 'button', class: 'sl-button sl-fill-button', on: { click: apply } }, pick(text?.label, fill.name)),
      status);
  }

  /** True when this cell has every parameter `values` sets. */
  #takes(values) {
    return Object.keys(values).every((name) => this.#spec.params.some((param) => param.name === name && param.kind !== 'bytes'));
  }

  /**
   * Sets these inputs (C++ text, as the URL holds them), drops a chosen file its new choices no longer use, and runs;
   * returns this cell's title.
   */
  #apply(values) {
    for (const param of this.#spec.params) {
      if (param.kind !== 'bytes' && values[param.name] !== undefined) this.#values[param.name] = String(values[param.name]);
      if (param.kind === 'bytes' && param.used_when && !param.used_when.values.includes(this.#values[param.used_when.param])) {
        delete this.#files[param.name];
        delete this.#pasted[param.name];
      }
    }
    this.build();
    this.#write_url();
    this.run_now();
    return this.title;
  }

  /** Draws charts from the last result (a folded chart only once "More charts" is open: it has no width before). */
  #draw(charts) {
    // The specs and summaries come with the first drawing (labs/<lab>.charts.json), then every chart on view is drawn.
    // Draws asked for meanwhile are one drawing, of the charts on view once the file is here.
    if (this.#charts.some((chart) => !chart.has_vl_spec)) {
      this.#specs_coming ??= fetch_chart_specs(this.#lab_id).then((specs) => {
        for (const chart of this.#charts) chart.set_drawing(specs[this.#spec.id]?.[chart.chart_id] ?? null);
        const concealed = Boolean(this.#prediction?.pending);
        if (this.#charts.every((chart) => chart.has_vl_spec) && this.#last_result && !concealed) this.#draw(this.#shown_charts());
      }, () => {})   // offline with no copy: the numbers stay, the charts are tried again at the next drawing
        .finally(() => { this.#specs_coming = null; });
      return;
    }
    for (const chart of charts) chart.show(this.#datasets, this.#last_result?.outputs || {}, this.#compare?.design_a());
  }

  #set_stale(is_stale) {
    if (!this.#last_result) return;
    this.#stale_note.hidden = !is_stale;
    this.#results.classList.toggle('sl-stale', is_stale);
    this.#headline_box.classList.toggle('sl-stale', is_stale);
    this.#outputs_box.classList.toggle('sl-stale', is_stale);
    this.#notices.classList.toggle('sl-stale', is_stale);
    for (const chart of this.#charts) chart.stale = is_stale;
  }
}

/** Chart data: every C++ table as rows, plus the book comparison as "book". */
function datasets_of(result) {
  const datasets = { book: book_rows(result.book) };
  for (const [name, table] of Object.entries(result.tables || {})) datasets[name] = columns_to_rows(table);
  return datasets;
}
