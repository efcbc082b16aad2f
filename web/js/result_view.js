// Shows one C++ result: outputs table, book comparison, notices, and translated errors.
// Everything is inserted as text; C++ messages and URL input are never parsed as HTML.
import { el } from './dom.js';
import { t, has, fill, pick, unit_text } from './i18n.js';
import { format_number, format_signed, format_limit, clean_difference } from './format.js';
import { save, to_csv } from './download.js';

/** A small "CSV" button that saves headers and rows (both computed when clicked). */
export function csv_button(file_name, label, get_table) {
  return el('button', { type: 'button', class: 'sl-button sl-button-small', 'data-format': 'csv', 'aria-label': label,
    on: { click: () => { const { headers, rows } = get_table(); save(file_name, to_csv(headers, rows), 'text/csv'); } } }, 'CSV');
}

/** The outputs table in C++'s order: label from the lab file (key as tooltip), value to ~4 significant digits. */
export function outputs_table(outputs, doc, caption, spec) {
  const unit_of = new Map((spec?.outputs || []).map((output) => [output.name, output.unit]));
  const rows = Object.entries(outputs).map(([key, value]) => el('tr', { 'data-key': key },
    el('th', { scope: 'row', title: key }, pick(doc.outputs?.[key]?.label, key)),
    el('td', { class: 'sl-num', title: key }, format_number(value)),
    el('td', { class: 'sl-unit' }, unit_text(unit_of.get(key) || ''))));
  return table(caption, [t('cell.quantity'), t('cell.value'), t('cell.unit')], rows, 'sl-outputs');
}

/** Every scalar output, under a closed disclosure: the headline figures and the result table come first. */
export function all_outputs(outputs, doc, spec) {
  const count = Object.keys(outputs).length;
  if (!count) return null;
  return el('details', { class: 'sl-all-outputs' },
    el('summary', {}, t('cell.all_outputs', { count })),
    outputs_table(outputs, doc, t('cell.results'), spec));
}

/** The unit C++ declares for an output, in the reader's language ("" for a pure number). */
export function output_unit(spec, name) {
  return unit_text((spec?.outputs || []).find((output) => output.name === name)?.unit || '');
}

/** An output's value with its unit, as the page prints it: "160.5 ms"; "—" when this run lacks it. */
export function value_with_unit(outputs, name, spec) {
  const unit = output_unit(spec, name);
  if (outputs[name] === undefined) return t('cell.not_in_run');
  return `${format_number(outputs[name])}${unit ? `${unit === '%' ? '' : ' '}${unit}` : ''}`;
}

/** The lab file's headline outputs as large figures: value, unit, label. */
export function headline(outputs, doc, spec) {
  const names = doc.headline || [];
  if (!names.length) return null;
  return el('dl', { class: 'sl-headline', 'aria-label': t('cell.headline') }, names.map((name) => {
    const unit = output_unit(spec, name);
    return el('div', { class: 'sl-figure', 'data-key': name },
      el('dt', { class: 'sl-figure-label', title: name }, pick(doc.outputs?.[name]?.label, name)),
      el('dd', { class: 'sl-figure-value' },
        outputs[name] === undefined ? '—' : format_number(outputs[name]),
        unit ? el('span', { class: 'sl-figure-unit' }, ` ${unit}`) : null));
  }));
}

/** A column's header for tables, table views and CSV: the lab file's label (with its unit), else the key. */
export function column_header(doc, table_name, column, chart_titles = {}) {
  const entry = doc.tables?.[table_name]?.columns?.[column];
  if (!entry) return chart_titles[column] || column;
  const unit = unit_text(entry.unit || '');
  return `${pick(entry.label, column)}${unit ? ` (${unit})` : ''}`;
}

/** A category code's name in the reader's language (the lab file's `values` of that column), or null. */
function category_name(doc, table_name, column, value) {
  const name = value === null || value === undefined ? null : doc.tables?.[table_name]?.columns?.[column]?.values?.[String(value)];
  return name ? pick(name) : null;
}

/** A cell of a C++ table as shown: a category code by its name, else the formatted number. */
export function column_value(doc, table_name, column, value) {
  return category_name(doc, table_name, column, value) ?? format_number(value);
}

/** A cell of a C++ table as a CSV writes it: a category code by its name, else the number in full. */
export function csv_value(doc, table_name, column, value) {
  return category_name(doc, table_name, column, value) ?? value;
}

/** The lab file's result table: one row per swept value, its named columns only. */
export function result_table(tables, doc, cell_id = 'cell') {
  const wanted = doc.result_table;
  const columns_of = wanted && tables?.[wanted.table];
  if (!columns_of) return null;
  const columns = wanted.columns.filter((column) => columns_of[column]);
  const length = columns.length ? columns_of[columns[0]].length : 0;
  const rows = Array.from({ length }, (_, i) => el('tr', {},
    columns.map((column) => el('td', { class: 'sl-num' }, column_value(doc, wanted.table, column, columns_of[column][i])))));
  const caption = pick(doc.tables?.[wanted.table]?.title, t('cell.result_table'));
  const csv = csv_button(`${cell_id.replace('/', '-')}-${wanted.table}.csv`, t('chart.download_label', { title: caption, format: 'CSV' }), () => ({
    headers: columns.map((column) => column_header(doc, wanted.table, column)),
    rows: Array.from({ length }, (_, i) => columns.map((column) => csv_value(doc, wanted.table, column, columns_of[column][i]))),
  }));
  return el('div', { class: 'sl-table-wrap sl-result-table', 'data-table': wanted.table },
    el('table', { class: 'sl-table sl-sweep' },
      el('caption', {}, caption),
      el('thead', {}, el('tr', {}, columns.map((column) => el('th', { scope: 'col' }, column_header(doc, wanted.table, column))))),
      el('tbody', {}, rows)),
    el('div', { class: 'sl-table-actions' }, csv));
}

/**
 * The book comparison as one line ("Book: 12 of 12 within tolerance ✓", or the ✗ count in red) that opens
 * into the table.
 */
export function book_details(book, doc, cell_id = 'cell') {
  if (!book.length) return null;
  const judged = book.filter((item) => item.applies);
  const bad = judged.filter((item) => !item.ok).length;
  const explained = judged.filter((item) => item.ok && item.expect === 'differs').length;
  const other = book.length - judged.length;
  const ok_text = explained
    ? t('cell.book_summary_explained', { ok: judged.length - explained, explained, total: judged.length })
    : t('cell.book_summary_ok', { ok: judged.length, total: judged.length });
  const line = judged.length === 0
    ? [el('span', {}, t('cell.book_none_apply', { count: book.length }))]
    : [bad === 0
      ? el('span', { class: 'sl-mark-ok' }, ok_text, el('span', { 'aria-hidden': 'true' }, ' ✓'))
      : el('span', { class: 'sl-mark-not-ok' }, t('cell.book_summary_bad', { bad, total: judged.length }), el('span', { 'aria-hidden': 'true' }, ' ✗')),
    other ? el('span', { class: 'sl-book-other' }, ` · ${t('cell.book_summary_scenario', { count: other })}`) : null];
  const headers = [t('cell.quantity'), t('cell.kind'), t('cell.book'), t('cell.ours'), t('cell.unit'), t('cell.difference'), t('cell.check')];
  const csv = csv_button(`${cell_id.replace('/', '-')}-book.csv`, t('chart.download_label', { title: t('cell.book_heading'), format: 'CSV' }), () => ({
    headers,
    rows: book.map((item, index) => [pick(book_doc_entry(book, index, doc.book || [])?.label, item.label || item.ref), kind_text(item),
      item.book, item.ours, unit_text(item.unit || ''), item.applies ? clean_difference(item.difference, item.book, item.ours) : '',
      item.applies ? verdict_text(item) : t('cell.book_scenario', { when: item.when || '' })]),
  }));
  return el('details', { class: 'sl-book-details', 'data-bad': String(bad) },
    el('summary', {}, line),
    book_table(book, doc, t('cell.book_heading')),
    el('div', { class: 'sl-table-actions' }, csv));
}

/**
 * The book comparison: label, kind (formula, simulation, measurement, arithmetic; a notebook's result says so),
 * book, ours, unit, difference (absolute and %), ✓/✗ (decided in C++); an explained ✗ shows the lab file's reason.
 * When the book's scenario differs from the inputs (applies: false), shows "book scenario: …" instead.
 */
export function book_table(book, doc, caption) {
  const rows = book.map((item, index) => {
    const entry = book_doc_entry(book, index, doc.book || []);
    const label = pick(entry?.label, item.label || item.ref);
    return el('tr', { class: item.applies ? (item.ok ? 'sl-ok' : 'sl-not-ok') : 'sl-not-applicable', 'data-ref': item.ref, 'data-kind': item.kind },
      el('th', { scope: 'row', title: item.ref }, label),
      el('td', { class: 'sl-book-kind' }, kind_text(item)),
      el('td', { class: 'sl-num' }, format_number(item.book)),
      el('td', { class: 'sl-num' }, format_number(item.ours)),
      el('td', {}, unit_text(item.unit || '')),
      el('td', { class: 'sl-num' }, item.applies ? difference_text(item) : '—'),
      el('td', { class: 'sl-verdict' }, verdict(item, entry)));
  });
  const headers = [t('cell.quantity'), t('cell.kind'), t('cell.book'), t('cell.ours'), t('cell.unit'), t('cell.difference'), t('cell.check')];
  return table(caption, headers, rows, 'sl-book');
}

/**
 * The lab file's entry for result.book[index]. A ref (a book item) can hold several numbers, so match
 * the English label C++ sends; failing that, the k-th entry with that ref.
 */
// A lab-file book entry is identified by (ref, output), as in C++.
function book_doc_entry(book, index, doc_book) {
  const item = book[index];
  return doc_book.find((entry) => entry.ref === item.ref && entry.output === item.output);
}

// How far our number is from the printed one: both differences come from C++; this only formats them.
function difference_text(item) {
  const difference = clean_difference(item.difference, item.book, item.ours);
  const relative = item.book !== 0 ? ` (${format_signed(difference === 0 ? 0 : item.rel_difference * 100)} %)` : '';
  return `${format_signed(difference)}${relative}`;
}

// "formula", "simulation"…, translated; "· notebook" for a companion notebook's result.
function kind_text(item) {
  const kind = item.kind ? t(`cell.kind_${item.kind}`) : '';
  return item.source === 'notebook' ? `${kind} · ${t('cell.source_notebook')}` : kind;
}

// An expected difference passes while outside its tolerance: "explained"; inside it, it fails.
function verdict_text(item) {
  if (item.expect === 'differs') return item.ok ? t('cell.explained') : t('cell.not_explained');
  return item.ok ? t('cell.ok') : t('cell.not_ok');
}

function verdict(item, entry) {
  if (!item.applies) return el('span', { class: 'sl-scenario' }, t('cell.book_scenario', { when: item.when || '' }));
  const text = verdict_text(item);
  const tolerance = item.tol_kind === 'se'
    ? t('cell.tolerance_se', { tolerance: format_number(item.tolerance), allowed: format_number(item.allowed), unit: unit_text(item.unit || '') })
    : t(item.relative ? 'cell.tolerance_relative' : 'cell.tolerance_absolute',
      { tolerance: format_number(item.tolerance), unit: unit_text(item.unit || '') });
  const differs = item.expect === 'differs';
  const mark = differs || !item.ok ? '✗ ' : '✓ ';
  return el('span', { class: item.ok ? 'sl-mark-ok' : 'sl-mark-not-ok', title: `${text}: ${tolerance.trim()}` },
    el('span', { 'aria-hidden': 'true' }, mark), text,
    differs && entry?.reason ? el('span', { class: 'sl-book-reason' }, entry.reason) : null);
}

function table(caption, headers, rows, class_name) {
  return el('div', { class: 'sl-table-wrap' },
    el('table', { class: `sl-table ${class_name}` },
      el('caption', {}, caption),
      el('thead', {}, el('tr', {}, headers.map((header) => el('th', { scope: 'col' }, header)))),
      el('tbody', {}, rows)));
}

/** One notice (a warning, not an error): the lab file's text for its code, else the UI's, else C++'s. */
export function notice_text(notice, doc) {
  // Its numbers (a fit's runs and errors) in the reader's language; names as C++ wrote them.
  const args = Object.fromEntries(Object.entries(notice.args || {}).map(([key, value]) =>
    [key, TEXT_ARGS.has(key) ? value : reader_number(value)]));
  const from_lab = pick(doc.notices?.[notice.code], '');
  if (from_lab) return fill(from_lab, args);
  if (has(`notices.${notice.code}`)) return t(`notices.${notice.code}`, args);
  return notice.message || notice.code;
}

// Arguments shown as C++ wrote them: names, identifiers and places in a file (line 1234 is found as typed).
const TEXT_ARGS = new Set(['problem', 'key', 'cell', 'path', 'where', 'reason', 'choices', 'supported', 'gpu', 'precision',
  'example', 'line', 'column', 'before_line', 'index', 'engine', 'source', 'fit_gpu']);
// `got` is the reader's own text (not_a_number "1e", out_of_range "1e12"), a file's ("-0.000001" in a trace) or a
// size the page compares with a file's, so it is quoted as written, to be recognised; only a check across
// parameters (invalid, unstable) computes its `got` (C++'s format_number of the value), which then reads like the
// other numbers.
const COMPUTED_GOT = new Set(['invalid', 'unstable']);
const PLAIN_NUMBER = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i;

/** "131072" → "131,072" (en) / "131.072" (vi), "1.21e+09" → "1,210,000,000", "1e-30" → "10⁻³⁰"; other text as is. */
function reader_number(text) {
  if (!PLAIN_NUMBER.test(text)) return text;
  const digits = text.replace(/^-/, '').replace(/e.*$/i, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return digits.length <= 15 ? format_limit(text) : text;   // up to 15 significant digits print exactly
}

/**
 * Translates {code, param, message, args} with the UI template for its code: `errors.<code>_<problem>` when C++
 * names the problem, else `errors.<code>_amount` for a budget's amount, else `errors.<code>` — the first whose
 * {placeholders} the arguments fill. Falls back to C++'s English message when none does.
 * param_label(name) gives the localized label of a parameter; it also labels the parameters an error names as
 * `other`, `other2`...; a unit reads in the reader's language, and numbers as format_limit writes them (not `got`,
 * above).
 */
export function error_text(error, param_label) {
  const args = { ...(error.args || {}) };
  for (const key of ['min', 'max']) if (args[key] !== undefined) args[key] = format_limit(args[key]);
  for (const [key, value] of Object.entries(args)) {
    if (typeof value !== 'string' || key === 'min' || key === 'max') continue;
    if (/^other\d*$/.test(key)) args[key] = param_label(value);
    else if (key === 'unit') args[key] = unit_text(value);
    else if (!TEXT_ARGS.has(key) && !key.startsWith('set.') && (key !== 'got' || COMPUTED_GOT.has(error.code))) {
      args[key] = reader_number(value);
    }
  }
  args.param = error.param ? param_label(error.param) : '';
  args.name = error.param || '';
  args.message = error.message || '';
  // A budget's refusal carries the run's work or memory as "amount" (not the parameter's value), and a refusal
  // what is wrong as "problem" (csv_syntax: "unclosed_quote"; invalid: "at_most_other"): each has its own template.
  const keys = [args.problem !== undefined && `errors.${error.code}_${args.problem}`,
    args.amount !== undefined && `errors.${error.code}_amount`, `errors.${error.code}`];
  for (const key of keys) {
    if (!key || !has(key)) continue;
    const template = t(key);
    const needs_missing_arg = [...template.matchAll(/\{(\w+)\}/g)].some(([, name]) => args[name] === undefined);
    if (!needs_missing_arg) return fill(template, args).replace(/\s+([.,;:)])/g, '$1').replace(/\s{2,}/g, ' ');
  }
  return error.message || t('errors.unknown', { code: error.code || '?' });
}
