// Shows one C++ result: outputs table, book comparison, notices, and translated errors.
// Everything is inserted as text; C++ messages and URL input are never parsed as HTML.
import { el } from './dom.js';
import { t, has, fill, pick } from './i18n.js';
import { format_number, format_signed, format_limit } from './format.js';

/** The outputs table in C++'s order: label from the lab file (key as tooltip), value to ~4 significant digits. */
export function outputs_table(outputs, doc, caption, spec) {
  const unit_of = new Map((spec?.outputs || []).map((output) => [output.name, output.unit]));
  const rows = Object.entries(outputs).map(([key, value]) => el('tr', { 'data-key': key },
    el('th', { scope: 'row', title: key }, pick(doc.outputs?.[key]?.label, key)),
    el('td', { class: 'sl-num', title: key }, format_number(value)),
    el('td', { class: 'sl-unit' }, unit_of.get(key) || '')));
  return table(caption, [t('cell.quantity'), t('cell.value'), t('cell.unit')], rows, 'sl-outputs');
}

/**
 * The book comparison: label, book, ours, unit, difference (absolute and %), ✓/✗ (decided in C++).
 * When the book's scenario differs from the inputs (applies: false), shows "book scenario: …" instead.
 */
export function book_table(book, doc, caption) {
  const rows = book.map((item, index) => {
    const label = pick(book_doc_entry(book, index, doc.book || [])?.label, item.label || item.ref);
    return el('tr', { class: item.applies ? (item.ok ? 'sl-ok' : 'sl-not-ok') : 'sl-not-applicable', 'data-ref': item.ref },
      el('th', { scope: 'row', title: item.ref }, label),
      el('td', { class: 'sl-num' }, format_number(item.book)),
      el('td', { class: 'sl-num' }, format_number(item.ours)),
      el('td', {}, item.unit || ''),
      el('td', { class: 'sl-num' }, item.applies ? difference_text(item) : '—'),
      el('td', { class: 'sl-verdict' }, verdict(item)));
  });
  const headers = [t('cell.quantity'), t('cell.book'), t('cell.ours'), t('cell.unit'), t('cell.difference'), t('cell.check')];
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
  const relative = item.book !== 0 ? ` (${format_signed(item.rel_difference * 100)} %)` : '';
  return `${format_signed(item.difference)}${relative}`;
}

function verdict(item) {
  if (!item.applies) return el('span', { class: 'sl-scenario' }, t('cell.book_scenario', { when: item.when || '' }));
  const text = item.ok ? t('cell.ok') : t('cell.not_ok');
  const tolerance = t(item.relative ? 'cell.tolerance_relative' : 'cell.tolerance_absolute',
    { tolerance: format_number(item.tolerance), unit: item.unit || '' });
  return el('span', { class: item.ok ? 'sl-mark-ok' : 'sl-mark-not-ok', title: `${text}: ${tolerance.trim()}` },
    el('span', { 'aria-hidden': 'true' }, item.ok ? '✓ ' : '✗ '), text);
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
  const from_lab = pick(doc.notices?.[notice.code], '');
  if (from_lab) return from_lab;
  if (has(`notices.${notice.code}`)) return t(`notices.${notice.code}`);
  return notice.message || notice.code;
}

/**
 * Translates {code, param, message, args} with the UI template for its code. Falls back to C++'s
 * English message when there is no template or the template needs an argument C++ did not send.
 * param_label(name) gives the localized label of a parameter.
 */
export function error_text(error, param_label) {
  const args = { ...(error.args || {}) };
  for (const key of ['min', 'max']) if (args[key] !== undefined) args[key] = format_limit(args[key]);
  args.param = error.param ? param_label(error.param) : '';
  args.name = error.param || '';
  args.message = error.message || '';
  const key = `errors.${error.code}`;
  if (has(key)) {
    const template = t(key);
    const needs_missing_arg = [...template.matchAll(/\{(\w+)\}/g)].some(([, name]) => args[name] === undefined);
    if (!needs_missing_arg) return fill(template, args).replace(/\s+([.,;:)])/g, '$1').replace(/\s{2,}/g, ' ');
  }
  return error.message || t('errors.unknown', { code: error.code || '?' });
}
