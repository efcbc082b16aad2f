// Two designs side by side in one cell: the reader pins the cell's inputs (and their result) as design A, changes
// an input, and the run that follows is B. The cell then shows A, B, B − A and (B − A)/A for each of its headline
// outputs, draws A's rows on its charts beside B's (dashed, hollow or faded: chart_spec below), and keeps A's
// inputs in the URL, so a copied link runs both again: "<cell>.A=1", "<cell>.A.<param>=<text>" for each of A's
// parameters away from its default and "<cell>.A.seed=<seed>" (an embed's keys are plain: "A=1", "A.lambda=…").
// Loaded when the reader first pins a design, or when the URL names one (cell_view.js imports it then), so none
// of it moves before a page's first result. A's numbers are a real run of the cell's C++ (a CellWorker of its
// own); the page computes only the differences it shows.
// The page's modules, handed over by cell_view.js (compare_host.js says why they are not imported here).
let el, t, pick, load_errors, format_number, format_signed, output_unit, error_text, columns_to_rows, CellWorker;
let may_fetch, asset_inputs, needed_assets, param_key, read_param, update_url, set_or_delete, A_KEY;

/** Takes the page's modules (compare_host.js); called once, before the first Compare is made. */
export function connect(host) {
  ({ el, t, pick, load_errors, format_number, format_signed, output_unit, error_text, columns_to_rows, CellWorker } = host);
  ({ may_fetch, asset_inputs, needed_assets, param_key, read_param, update_url, set_or_delete, A_KEY } = host);
}

const DEFAULT_SEED = '1';
const CONSENTED = 'sl-assets-consented';   // cell_view.js: the reader let the page fetch a data asset
export const A_SUFFIX = '__design_a';      // A's rows as chart datasets: "<table>__design_a"
const DESIGN_COLUMN = 'A/B';               // the table view's and CSV's column naming each row's design
const FILLED_MARKS = ['bar', 'area', 'rect', 'arc'];   // drawn as a dashed outline
const POINT_MARKS = ['point', 'circle', 'square'];
const STYLESHEET = 'css/compare.css';

/** Loads the comparison's stylesheet once (a <link>: the page's CSP allows only its own style sheets). */
function load_stylesheet() {
  if (document.querySelector(`link[href="${STYLESHEET}"]`)) return;
  document.head.append(el('link', { rel: 'stylesheet', href: STYLESHEET }));
}

export class Compare {
  #spec; #embed; #doc; #changed;
  #a = null;          // design A: {values: {name: text}, files: {name: Uint8Array}, seed: text}
  #result = null;     // C++'s result for A, or null while it runs
  #datasets = null;   // A's tables as rows, for the charts
  #state = '';        // '' | 'running' | 'done' | 'error' | 'waiting'
  #live;              // a polite live region, the same node in every view: it says what the reader just did
  #worker;
  settled = Promise.resolve();   // resolves when A's run has ended (or waits for a data file)

  /**
   * spec: the cell's C++ spec; embed: whether keys are plain; doc(): its lab-file entry in the current language;
   * changed(): the cell shows the comparison again (A's run ended, or A was cleared).
   */
  constructor({ spec, embed, doc, changed }) {
    this.#spec = spec;
    this.#embed = embed;
    this.#doc = doc;
    this.#changed = changed;
    this.#worker = new CellWorker();
    this.#live = el('span', { class: 'sl-compare-note', role: 'status' });
    load_stylesheet();
  }

  /** True while a design A is pinned (its run may still be going). */
  get pinned() { return this.#a !== null; }

  #key(name) { return param_key(this.#spec.id, name, this.#embed); }

  #url_params() { return this.#spec.params.filter((param) => param.kind !== 'bytes'); }

  /** A's inputs from the URL (true if it names one), then its run. */
  from_url(query) {
    if (!query.has(this.#key(A_KEY))) return false;
    const values = Object.fromEntries(this.#url_params().map((param) => {
      const key = { name: `${A_KEY}.${param.name}`, aliases: (param.aliases || []).map((old) => `${A_KEY}.${old}`) };
      // A download the reader must agree to runs only from its button: A takes its default, as B does.
      const text = param.network_bytes ? null : read_param(query, this.#spec.id, key, this.#embed);
      return [param.name, text ?? String(param.default)];
    }));
    const seed = this.#spec.uses_seed ? (query.get(this.#key(`${A_KEY}.seed`)) ?? DEFAULT_SEED) : null;
    this.#set({ values, files: {}, seed }, null);
    this.#write_url();   // a parameter's earlier name (an alias) is written back as its current one, as B's are
    return true;
  }

  /**
   * Pins these inputs ({values, files, seed}) as A, with the cell's last result when `ran`, the inputs that result
   * had, are the same; otherwise (an edit not run yet, a failed run) A runs.
   */
  pin(inputs, ran, result) {
    const same = ran && ran.seed === inputs.seed && JSON.stringify(ran.values) === JSON.stringify(inputs.values) &&
      Object.keys({ ...ran.files, ...inputs.files }).every((name) => ran.files[name] === inputs.files[name]);
    this.#announce('pinned');
    this.#set({ values: { ...inputs.values }, files: { ...inputs.files }, seed: inputs.seed }, same ? result : null);
    this.#write_url();
  }

  /** Removes A (and its URL keys); the cell shows no comparison. */
  clear() {
    this.#a = null;
    this.#result = null;
    this.#datasets = null;
    this.#state = '';
    this.#announce('cleared');
    this.#worker.cancel();
    update_url((query) => { for (const key of this.#keys_in(query)) query.delete(key); });
    this.#changed();
  }

  #keys_in(query) {
    const marker = this.#key(A_KEY);
    return [...new Set(query.keys())].filter((key) => key === marker || key.startsWith(`${marker}.`));
  }

  /** {key: text} of A's URL entries, as names a link builder prefixes with the cell's id ("A", "A.lambda", "A.seed"). */
  url_entries() {
    if (!this.#a) return {};
    const entries = { [A_KEY]: '1' };
    for (const param of this.#url_params()) {
      const text = this.#a.values[param.name];
      if (text !== undefined && text !== String(param.default)) entries[`${A_KEY}.${param.name}`] = text;
    }
    if (this.#a.seed !== null && this.#a.seed !== DEFAULT_SEED) entries[`${A_KEY}.seed`] = this.#a.seed;
    return entries;
  }

  #write_url() {
    update_url((query) => {
      for (const key of this.#keys_in(query)) query.delete(key);
      for (const [name, text] of Object.entries(this.url_entries())) set_or_delete(query, this.#key(name), text);
    });
  }

  #set(design, result) {
    this.#a = design;
    this.#worker.cancel();
    if (result) {
      this.#took(result);
      this.settled = Promise.resolve();
    } else {
      this.settled = this.#run();
    }
    this.#changed();
  }

  #took(result) {
    this.#result = result;
    this.#datasets = result.error ? null : Object.fromEntries(Object.entries(result.tables || {})
      .map(([name, table]) => [`${name}${A_SUFFIX}`, columns_to_rows(table)]));
    this.#state = result.error ? 'error' : 'done';
  }

  /** Runs A's inputs in the cell's C++ (a worker of its own); a data file the reader has not agreed to waits. */
  async #run() {
    const design = this.#a;
    this.#result = null;
    this.#datasets = null;
    this.#state = 'running';
    const needed = needed_assets(this.#spec.assets, design.values);
    if (needed.length && !(await may_fetch(needed))) {
      if (this.#a !== design) return;
      this.#state = 'waiting';
      document.addEventListener(CONSENTED, () => { if (this.#a === design) this.#set(design, null); }, { once: true });
      return this.#changed();
    }
    let assets = {};
    try {
      assets = await asset_inputs(needed);
    } catch (error) {
      return this.#finish(design, { error: { code: 'missing_asset', param: '', message: String(error.message || error), args: {} } });
    }
    const result = await this.#worker.run(this.#spec.id, { ...design.values, ...design.files, ...assets }, design.seed ?? DEFAULT_SEED);
    if (!result.cancelled) await this.#finish(design, result);
  }

  async #finish(design, result) {
    if (result.error) await load_errors();   // A's refusal in the reader's language
    if (this.#a !== design) return;
    this.#took(result);
    this.#changed();
  }

  /** What the charts need: A's rows and outputs, and how to add them to a chart (ChartPanel.show), or null. */
  design_a() {
    if (!this.#datasets) return null;
    return {
      outputs: this.#result.outputs || {},
      spec: (spec) => chart_spec(spec, this.#datasets, t('compare.chart_key')),
      rows: (name, rows) => this.#table_rows(name, rows),
      summary: (b, a) => t('compare.summary', { b, a }),
    };
  }

  /** A chart's table view and CSV: A's rows then B's, each under the column "A/B". */
  #table_rows(name, rows = []) {
    const a_rows = this.#datasets?.[`${name}${A_SUFFIX}`];
    if (!a_rows) return rows;
    return [...a_rows.map((row) => ({ [DESIGN_COLUMN]: 'A', ...row })), ...rows.map((row) => ({ [DESIGN_COLUMN]: 'B', ...row }))];
  }

  /**
   * The comparison: a table of the headline outputs (A, B, B − A, (B − A)/A, each number's full value in
   * data-value), the inputs where A and B differ, and "Clear A". b: the cell's last
   * result (or null) and the inputs it shows now ({values, seed}).
   */
  view(b_result, b_inputs) {
    if (!this.#a) return this.#live;
    const doc = this.#doc();
    const a_outputs = this.#result?.outputs || {};
    const b_outputs = b_result?.outputs || {};
    const rows = (doc.headline || []).map((name) => this.#row(name, a_outputs, b_outputs, doc));
    const status = this.#status_text();
    const title_id = `sl-${this.#spec.id.replace('/', '-')}-compare-title`;
    // The title outside the table: on a phone the table may scroll sideways, the title wraps.
    return el('div', { class: 'sl-compare', 'data-state': this.#state },
      el('p', { class: 'sl-compare-title', id: title_id }, t('compare.caption')),
      el('div', { class: 'sl-table-wrap sl-compare-wrap' },
        el('table', { class: 'sl-table sl-compare-table', 'aria-labelledby': title_id },
          el('thead', {}, el('tr', {},
            [t('cell.quantity'), t('compare.a'), t('compare.b'), t('compare.difference'), t('compare.relative')]
              .map((header, i) => el('th', { scope: 'col', class: i ? 'sl-num' : null }, header)))),
          el('tbody', {}, rows))),
      el('p', { class: 'sl-compare-inputs' }, this.#inputs_text(b_inputs)),
      status ? el('p', { class: this.#state === 'error' ? 'sl-error' : 'sl-compare-status' }, status) : null,
      el('div', { class: 'sl-compare-actions' },
        el('button', { type: 'button', class: 'sl-button sl-button-small sl-clear-a', on: { click: (event) => {
          const pin = event.target.closest('.sl-cell')?.querySelector('.sl-pin-a');
          this.clear();
          pin?.focus();   // the button pressed is gone: the focus goes back to "Pin as A"
        } } }, t('compare.clear')),
        this.#live));
  }

  /** Says what the reader just did, once the view holding the live region is on the page. */
  #announce(what) {
    this.#live.textContent = '';
    setTimeout(() => { this.#live.textContent = t(`compare.${what}`); });
  }

  #status_text() {
    if (this.#state === 'running') return t('compare.running');
    if (this.#state === 'waiting') return t('compare.waiting');
    if (this.#state === 'error') {
      const label = (name) => (name === 'seed' ? t('cell.seed') : pick(this.#doc().params?.[name]?.label, name));
      return t('compare.failed', { message: error_text(this.#result.error, label) });
    }
    return '';
  }

  /** One headline output: its label and unit, A's and B's values, B − A and (B − A)/A where both are numbers. */
  #row(name, a_outputs, b_outputs, doc) {
    const unit = output_unit(this.#spec, name);
    const a = a_outputs[name];
    const b = b_outputs[name];
    const numbers = Number.isFinite(a) && Number.isFinite(b);
    const difference = numbers ? b - a : null;
    const relative = numbers && a !== 0 ? (difference / a) * 100 : null;
    const cell = (design, value, text) => el('td', { class: 'sl-num', 'data-design': design,
      'data-value': typeof value === 'number' ? String(value) : null }, text);
    return el('tr', { 'data-key': name },
      el('th', { scope: 'row', title: name }, pick(doc.outputs?.[name]?.label, name),
        unit ? el('span', { class: 'sl-compare-unit' }, ` (${unit})`) : null),
      cell('A', a, this.#result ? format_number(a) : '…'),
      cell('B', b, format_number(b)),
      cell('difference', difference, difference === null ? '—' : format_signed(difference)),
      cell('relative', relative, relative === null ? '—' : `${format_signed(relative)} %`));
  }

  /** "Arrival rate: A 160, B 180 · Seed: A 1, B 2", or that B still has A's inputs. */
  #inputs_text(b_inputs) {
    const doc = this.#doc();
    const pairs = this.#url_params().filter((param) => this.#a.values[param.name] !== b_inputs.values[param.name])
      .map((param) => t('compare.input_pair', { param: pick(doc.params?.[param.name]?.label, param.name),
        a: this.#a.values[param.name], b: b_inputs.values[param.name] }));
    if (this.#a.seed !== null && this.#a.seed !== b_inputs.seed) {
      pairs.push(t('compare.input_pair', { param: t('cell.seed'), a: this.#a.seed, b: b_inputs.seed }));
    }
    return pairs.length ? t('compare.inputs_differ', { list: pairs.join(' · ') }) : t('compare.same_inputs');
  }
}

/**
 * A chart with design A drawn beside B (spec: the lab file's spec, localized, with B's datasets; a_datasets: A's
 * tables as "<table>__design_a"; key: the line above the plot that says how A is drawn). Every mark that draws a
 * table A has gets a twin reading A's rows — the same encoding and transforms, dashed and faded (lines, rules),
 * hollow (points) or a dashed outline (bars, areas) — and each top-level layer becomes a layer of itself and its
 * twins, so a chart whose layers have independent scales (two y axes) keeps them. Text marks and the book's rows
 * (not a table of A's) are not doubled.
 */
export function chart_spec(spec, a_datasets, key = '') {
  const { datasets = {}, ...top } = spec;
  const has_a = (name) => Boolean(a_datasets[`${name}${A_SUFFIX}`]);
  const context = { data: top.data, transform: [], encoding: {} };
  let layered;
  if (top.layer) {
    const inherited = { ...context, transform: top.transform || [], encoding: top.encoding || {} };
    layered = { ...top, layer: top.layer.map((child) => pair(child, twins(child, inherited, has_a))) };
  } else if (top.mark) {
    const { mark, encoding, params, ...rest } = top;
    const unit = { mark, ...(encoding ? { encoding } : {}), ...(params ? { params } : {}) };
    const inherited = { ...context, transform: top.transform || [] };
    layered = { ...rest, layer: [pair(unit, twins(unit, inherited, has_a))] };
  } else {
    return spec;   // a composed chart (concat, facet, repeat): none in the lab files today
  }
  const title = key && !top.title ? { title: { text: key, anchor: 'start', fontSize: 11, fontWeight: 400, color: '#4a4f57', offset: 4 } } : {};
  return { ...layered, ...title, datasets: { ...datasets, ...a_datasets } };
}

/**
 * A layer of the original and its twins, drawn over it: a bar's outline shows on top, and a legend takes its symbols
 * from the first layer (the original's solid style, not the twins' dashes).
 */
function pair(node, node_twins) {
  return node_twins.length ? { layer: [node, ...node_twins] } : node;
}

/** The twins of every mark in node (a unit or a layer), with what each inherits (data, transforms, encoding) made explicit. */
function twins(node, inherited, has_a) {
  const own_data = node.data !== undefined;
  const data = own_data ? node.data : inherited.data;
  const transform = [...(own_data ? [] : inherited.transform), ...(node.transform || [])];
  const encoding = { ...inherited.encoding, ...(node.encoding || {}) };
  if (node.layer) return node.layer.flatMap((child) => twins(child, { data, transform, encoding }, has_a));
  if (!node.mark) return [];
  const mark = typeof node.mark === 'string' ? { type: node.mark } : node.mark;
  const name = data?.name;
  if (!name || !has_a(name) || mark.type === 'text') return [];   // the book's rows: not one of A's tables
  const { opacity: _o, fillOpacity: _f, strokeOpacity: _s, tooltip: _t, ...kept } = encoding;
  return [{ data: { name: `${name}${A_SUFFIX}` }, ...(transform.length ? { transform } : {}), mark: twin_mark(mark, encoding), encoding: kept }];
}

function twin_mark(mark, encoding) {
  const dashed = encoding.strokeDash ? {} : { strokeDash: [5, 4] };
  if (FILLED_MARKS.includes(mark.type)) return { ...mark, filled: false, strokeWidth: 1.5, ...dashed, opacity: 1, tooltip: false };
  if (POINT_MARKS.includes(mark.type)) return { ...mark, filled: false, opacity: 0.8, tooltip: false };
  return { ...mark, ...dashed, opacity: 0.5 * (mark.opacity ?? 1), tooltip: false };
}
