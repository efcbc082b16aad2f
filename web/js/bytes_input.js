// A file parameter's input (C++ kind 'bytes'): a file the reader chooses, or, when the parameter takes a text
// format (JSON, CSV, plain text: its `accept`), text pasted under a "Paste text instead" disclosure. Either
// becomes the parameter's bytes; pasted text as UTF-8, the bytes a saved file of it would hold. Neither
// leaves the browser nor goes into the URL; with neither, the cell uses its built-in default. Bytes over the
// parameter's max are refused before they are read or encoded, with the error C++ gives a file that large (C++
// checks again), so a huge paste never hangs the page.
import { el } from './dom.js';
import { t } from './i18n.js';
import { format_number, format_limit } from './format.js';

const TEXT_TYPES = ['application/json', '.json', '.jsonl', 'text/csv', '.csv', 'text/plain', '.txt'];
const PASTE_ROWS = 6;
const BYTE_DIGITS = 15;   // a byte count is shown whole: 1,048,577, not 1,049,000

/** True for a file parameter whose accepted types include a text format: it offers pasting. */
export function takes_text(param) {
  return param.kind === 'bytes' && (param.accept || '').split(',').some((type) => TEXT_TYPES.includes(type.trim().toLowerCase()));
}

/** Bytes of `text` in UTF-8, counted without encoding it (an unpaired surrogate counts 3: it encodes as U+FFFD). */
export function utf8_length(text) {
  let bytes = 0;
  for (let i = 0; i < text.length; ++i) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit < 0xdc00 && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      ++i;
    } else bytes += 3;
  }
  return bytes;
}

/** C's "%.<p>g" with the fewest digits p (6 to 17) that read back: how C++'s format_number prints an error's numbers. */
function c_number(x) {
  let text = x.toPrecision(6);
  for (let p = 7; p <= 17 && Number(text) !== x; ++p) text = x.toPrecision(p);
  const [mantissa, exponent] = text.split('e');
  const trimmed = mantissa.includes('.') ? mantissa.replace(/\.?0+$/, '') : mantissa;
  return exponent === undefined ? trimmed : `${trimmed}e${exponent[0]}${exponent.slice(1).padStart(2, '0')}`;
}

/** The error C++ returns for a file over the parameter's max (sl::too_large in parse_inputs), word for word. */
export function too_large_error(param, got_bytes) {
  const [max, got] = [c_number(param.max), c_number(got_bytes)];
  return { code: 'too_large', param: param.name, message: `${param.name} must be at most ${max} B, got ${got} B`,
    args: { max, got, unit: 'B' } };
}

/**
 * The file input and, for a text format, the paste disclosure (inside the parameter's field). pasted: {name: text},
 * kept by the caller across rebuilds (a language switch), written here; on_give(event) after the reader gives or
 * clears bytes; on_refused(error) for bytes over the max.
 * Returns {control: the file input, paste: the disclosure or null, given()}: given() is a Blob (the File, or the
 * pasted text), null once cleared or refused, or undefined while the reader has given nothing since it was built.
 */
export function bytes_input({ param, id, pasted, on_give, on_refused }) {
  let given;
  let textarea = null;
  let clear_paste = () => {};
  const file = el('input', { id, name: param.name, type: 'file', class: 'sl-input sl-file', accept: param.accept,
    on: { change: (event) => {
      const chosen = file.files[0] || null;
      if (chosen) clear_paste();   // the latest one given is the one used
      if (chosen && chosen.size > param.max) {
        given = null;
        return on_refused(too_large_error(param, chosen.size));
      }
      given = chosen;
      on_give(event);
    } } });
  if (!takes_text(param)) return { control: file, paste: null, given: () => given };

  const status = el('p', { class: 'sl-paste-status', role: 'status' });
  let applied = pasted[param.name] ?? '';   // the text in use ('' for none)
  const show_status = () => {
    status.textContent = applied ? t('cell.paste_in_use', { bytes: format_number(utf8_length(applied), BYTE_DIGITS) }) : '';
  };
  const refuse = (bytes) => {
    [given, applied] = [null, ''];
    delete pasted[param.name];
    show_status();
    on_refused(too_large_error(param, bytes));
  };
  const use = (event) => {
    const text = textarea.value;
    if (text === applied) return;
    const bytes = utf8_length(text);
    if (bytes > param.max) return refuse(bytes);
    applied = text;
    if (text) {
      pasted[param.name] = text;
      file.value = '';
    } else delete pasted[param.name];
    given = text ? new Blob([text], { type: 'text/plain' }) : null;   // a string in a Blob is written as UTF-8
    show_status();
    on_give(event);
  };
  const paste_id = `${id}-paste`;
  textarea = el('textarea', { id: paste_id, class: 'sl-input sl-paste-text', rows: String(PASTE_ROWS), spellcheck: 'false',
    autocomplete: 'off', autocapitalize: 'off', 'data-paste-for': param.name, 'aria-describedby': `${paste_id}-hint`,
    on: { change: use, paste: (event) => {
      // A paste that would take the text over the max never enters the text area (laying out tens of MB of
      // text would freeze the page): it is refused as it is.
      const { selectionStart: start, selectionEnd: end, value } = textarea;
      const pasting = event.clipboardData?.getData('text/plain') ?? '';
      const bytes = utf8_length(value) - utf8_length(value.slice(start, end)) + utf8_length(pasting);
      if (bytes > param.max) {
        event.preventDefault();
        refuse(bytes);
      }
    } } });
  textarea.value = applied;
  clear_paste = () => {
    textarea.value = '';
    applied = '';
    delete pasted[param.name];
    show_status();
  };
  show_status();
  const paste = el('details', { class: 'sl-paste', open: Boolean(applied) },
    el('summary', {}, t('cell.paste_open')),
    el('div', { class: 'sl-paste-box' },
      el('label', { for: paste_id, class: 'sl-label' }, t('cell.paste_label')),
      textarea,
      el('p', { id: `${paste_id}-hint`, class: 'sl-hint' }, t('cell.paste_hint', { max: format_limit(param.max / 1048576) })),
      el('div', { class: 'sl-paste-actions' },
        el('button', { type: 'button', class: 'sl-button sl-button-small sl-paste-use', on: { click: use } }, t('cell.paste_use')),
        el('button', { type: 'button', class: 'sl-button sl-button-small sl-paste-clear', on: { click: (event) => {
          textarea.value = '';
          use(event);
        } } }, t('cell.paste_clear'))),
      status));
  return { control: file, paste, given: () => given };
}
