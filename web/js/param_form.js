// The form of one cell, generated from the C++ param specs (list_cells) and labelled from the lab file.
// Numbers are typed as text and sent to C++ as strings, so bad text ("-1", "NaN", "1e12") reaches the
// one validator, in C++, which reports it. The lab file's key parameters get a slider beside the text field
// (its range from the C++ declaration, spec.slider); the others sit under a closed "More parameters". A
// choice that downloads (C++ declares network_bytes per choice) is never a plain menu: the reader picks a
// size and presses a button stating the bytes; the parameter otherwise stays at its default (none). A file
// parameter takes a file, or pasted text for a text format (bytes_input.js).
import { el } from './dom.js';
import { t, pick, current_lang, unit_text, fill } from './i18n.js';
import { format_limit, format_number } from './format.js';
import { to_c_number, from_c_number } from './number_text.js';
import { bytes_input } from './bytes_input.js';

const SLIDER_STEPS = 1000;   // positions of a slider over its range
const LOG_DECADES = 2;       // a range spanning more decades than this is drawn on a log scale

/** True for a parameter whose choices download bytes: it runs only at the reader's request (needs_consent). */
export function needs_consent(param) { return param.kind === 'choice' && (param.network_bytes || []).some((b) => b > 0); }

/**
 * Builds the parameter fields. values: {name: C text}; seed_text: text or null when the cell has no seed;
 * key_params: names with a slider; pasted: {name: text} pasted into file parameters, kept by the caller
 * across rebuilds. on_edit() is called on every edit; on_consent(name, choice) when the reader presses a
 * download's button; on_refused(error) when the reader gives a file parameter more bytes than its max.
 * Returns {element, read(), mark_invalid(name, message)}.
 */
export function build_param_fields({ spec, doc, id_prefix, values, seed_text, key_params = [], pasted = {}, on_edit,
  on_consent = () => {}, on_refused = () => {} }) {
  const controls = new Map();   // name → input or select
  const field_of = new Map();   // name → its field, for params used only at some choices
  const notes = new Map();      // name → the "read as 1000" line of a number field
  const sliders = new Map();    // name → {slider, scale}
  const bytes_inputs = new Map();   // name → bytes_input() of a file parameter
  let on_relevance = () => {};   // the "More parameters" count, once the fold exists
  const update_relevance = () => {
    for (const param of spec.params) {
      if (!param.used_when || sets_its_choice(param)) continue;
      const chosen = controls.get(param.used_when.param)?.value;
      field_of.get(param.name).hidden = !param.used_when.values.includes(chosen);
    }
    on_relevance();
  };
  const edited = (event) => { update_relevance(); on_edit(event); };
  // A file (or pasted text) given for a parameter used at one choice only (trace: workload = trace; model_config:
  // model = config) sets that choice, unless it is already one the parameter is used at, so the run uses what the
  // reader just gave; the form shows the new choice. Such a field stays in view at every choice for this reason.
  const given = (param, event) => {
    const select = param.used_when && controls.get(param.used_when.param);
    if (bytes_inputs.get(param.name).given() && sets_its_choice(param) && select && !param.used_when.values.includes(select.value)) {
      select.value = param.used_when.values[0];
    }
    edited(event);
  };
  const is_key = (param) => key_params.includes(param.name) && (param.kind === 'real' || param.kind === 'count');
  const fields = spec.params.map((param) => {
    const text = pick(doc.params?.[param.name]?.label, param.name);
    const choice_labels = doc.params?.[param.name]?.choices || {};
    const id = `${id_prefix}-${param.name}`;
    const number_edited = (event) => {
      const { text: c_text, note } = to_c_number(event.target.value, current_lang());
      show_note(notes.get(param.name), note ? c_text : null);
      sliders.get(param.name)?.set_from_text(c_text);
      edited(event);
    };
    if (needs_consent(param)) {
      const consent = consent_field(param, id, text, choice_labels, doc.params?.[param.name]?.consent, on_consent);
      field_of.set(param.name, consent);
      return consent;
    }
    if (param.kind === 'bytes') {
      const input = bytes_input({ param, id, pasted, on_give: (event) => given(param, event), on_refused });
      bytes_inputs.set(param.name, input);
      controls.set(param.name, input.control);
      const box = field(input.control, text, param, file_hint(param, doc), null, false, input.paste);
      field_of.set(param.name, box);
      return box;
    }
    const control = make_control(param, id, values[param.name], choice_labels, param.kind === 'real' || param.kind === 'count' ? number_edited : edited);
    controls.set(param.name, control);
    let slider = null;
    if (is_key(param)) {
      slider = make_slider(param, id, text, values[param.name], (c_text) => {
        control.value = from_c_number(c_text, current_lang());
        show_note(notes.get(param.name), null);
        edited();
      });
      sliders.set(param.name, slider);
    }
    const box = field(control, text, param, limits_hint(param), slider?.element, is_key(param));
    notes.set(param.name, box.querySelector('.sl-read-as'));
    field_of.set(param.name, box);
    return box;
  });
  update_relevance();
  if (seed_text !== null) {
    const control = el('input', {
      id: `${id_prefix}-seed`, name: 'seed', type: 'text', inputmode: 'numeric', class: 'sl-input',
      autocomplete: 'off', spellcheck: 'false', value: seed_text, on: { input: on_edit },
    });
    controls.set('seed', control);
    fields.push(field(control, t('cell.seed'), { name: 'seed', unit: '' }, t('cell.seed_help'), null, false));
  }
  // A download's button stays in view, with the key parameters.
  const in_view = (box) => box.classList.contains('sl-field-key') || box.classList.contains('sl-field-consent');
  const key_fields = fields.filter(in_view);
  const other_fields = fields.filter((box) => !in_view(box));
  // With no key parameter (or only a few fields), everything stays in view.
  const fold = key_fields.length > 0 && other_fields.length > 0;
  // Its parameters are sorted into groups, with a filter, when it first opens (param_groups.js, loaded then).
  const more_box = el('div', { class: 'sl-params' }, other_fields);
  // Counted as the filter counts them: the parameters these choices use (a custom model's fields only when chosen).
  const more_summary = el('summary', {});
  on_relevance = () => {
    more_summary.textContent = t('cell.more_parameters', { count: other_fields.filter((box) => !box.hidden).length });
    more_box.dispatchEvent(new Event('sl-relevance'));
  };
  on_relevance();
  const more = fold
    ? el('details', { class: 'sl-more-params', on: { toggle: () => {
      if (!more.open || more_box.dataset.grouped) return;
      more_box.dataset.grouped = 'true';
      import('./param_groups.js').then((m) => m.group_fields({ spec, box: more_box, id_prefix, el, fill, lang: current_lang() }));
    } } }, more_summary, more_box)
    : null;
  return {
    element: el('div', { class: 'sl-param-groups' },
      el('div', { class: 'sl-params sl-params-key' }, fold ? key_fields : fields), more),
    /**
     * {name: C text}, except file parameters: {name: Blob (a File or pasted text), null once cleared, undefined
     * while untouched since this form was built}. Numbers in the reader's notation become C's.
     */
    read: () => Object.fromEntries([...controls].map(([name, control]) => {
      if (bytes_inputs.has(name)) return [name, bytes_inputs.get(name).given()];
      if (control.tagName === 'SELECT' || name === 'seed') return [name, control.value];
      return [name, to_c_number(control.value, current_lang()).text];
    })),
    /** Marks one field invalid (null: none), shows message beside it and opens "More parameters" if it is there. */
    mark_invalid(name, message = '') {
      for (const [key, control] of controls) {
        const invalid = key === name;
        control.setAttribute('aria-invalid', String(invalid));
        const box = control.closest('.sl-field');
        const error = box?.querySelector('.sl-field-error');
        if (!error) continue;
        error.textContent = invalid ? message : '';
        error.hidden = !invalid || !message;
        const described = [error.hidden ? null : error.id, `${control.id}-hint`].filter(Boolean).join(' ');
        control.setAttribute('aria-describedby', described);
        for (let d = invalid ? control.closest('details') : null; d; d = d.parentElement.closest('details')) d.open = true;
      }
    },
    focus(name) { controls.get(name)?.focus(); },
  };
}

/**
 * A download's field: a menu of the choices that move bytes (the smallest first) and a button stating what
 * the chosen one downloads ("Measure: download 8 MiB twice (16 MiB)", the lab file's consent text with C++'s
 * bytes). Pressing it calls on_consent(name, choice); nothing is downloaded before.
 */
function consent_field(param, id, label_text, choice_labels, consent_text, on_consent) {
  const sized = param.choices.map((choice, i) => ({ choice, bytes: param.network_bytes[i] })).filter((c) => c.bytes > 0);
  const label_of = (choice) => (choice_labels[choice] ? pick(choice_labels[choice]) : choice);
  const select = el('select', { id, name: param.name, class: 'sl-input sl-select', 'data-consent': 'true' },
    sized.map(({ choice }, i) => el('option', { value: choice, selected: i === 0 }, label_of(choice))));
  const button = el('button', { type: 'button', class: 'sl-button sl-consent-button' });
  const relabel = () => {
    const chosen = sized.find((c) => c.choice === select.value) || sized[0];
    const bytes = `${format_number(chosen.bytes / 1048576)} ${unit_text('MiB')}`;
    button.textContent = pick(consent_text, '{choice} ({bytes})').replace('{choice}', label_of(chosen.choice)).replace('{bytes}', bytes);
    button.dataset.bytes = String(chosen.bytes);
  };
  select.addEventListener('change', relabel);
  button.addEventListener('click', () => on_consent(param.name, select.value));
  relabel();
  return el('div', { class: 'sl-field sl-field-consent', 'data-param': param.name },
    el('label', { for: id, class: 'sl-label', title: `--${param.name}` }, label_text),
    el('div', { class: 'sl-consent-control' }, select, button),
    el('p', { id: `${id}-error`, class: 'sl-field-error', hidden: true }));
}

/** True for a file parameter used at exactly one value of a choice: giving it bytes sets that value. */
function sets_its_choice(param) {
  return param.kind === 'bytes' && param.used_when?.values.length === 1;
}

/** The hint of a file field: its size limit, and the choice a file sets ("… sets Workload to a real trace, replayed."). */
function file_hint(param, doc) {
  const hint = limits_hint(param);
  if (!sets_its_choice(param)) return hint;
  const choice = doc.params?.[param.used_when.param];
  const value = param.used_when.values[0];
  return `${hint} ${t('cell.file_sets_choice', { param: pick(choice?.label, param.used_when.param), choice: pick(choice?.choices?.[value], value) })}`;
}

/** A choice's menu or a number's text field (a file parameter's input is bytes_input()'s). */
function make_control(param, id, value, choice_labels, on_edit) {
  if (param.kind === 'choice') {
    // A value from the URL that is not a choice is kept as an option, so C++ reports it (bad_choice).
    const choices = param.choices.includes(value) ? param.choices : [...param.choices, value];
    const options = choices.map((choice) => el('option', { value: choice, selected: choice === value },
      choice_labels[choice] ? pick(choice_labels[choice]) : choice));
    return el('select', { id, name: param.name, class: 'sl-input sl-select', on: { change: on_edit } }, options);
  }
  return el('input', {
    id, name: param.name, type: 'text', inputmode: 'decimal', class: 'sl-input',
    autocomplete: 'off', spellcheck: 'false', value: from_c_number(value, current_lang()), on: { input: on_edit },
  });
}

/**
 * A slider over the parameter's slider range (C++'s spec.slider, else [min, max]); log-scale when the range
 * spans more than LOG_DECADES decades and starts above 0. Moving it writes a rounded value into the text
 * field (3 significant digits; whole numbers for counts) and calls on_change(C text).
 */
function make_slider(param, id, label, value, on_change) {
  const lo = param.slider?.min ?? param.min;
  const hi = param.slider?.max ?? param.max;
  const log = lo > 0 && hi / lo > 10 ** LOG_DECADES;
  const to_value = (position) => {
    const f = position / SLIDER_STEPS;
    const x = log ? lo * (hi / lo) ** f : lo + (hi - lo) * f;
    const rounded = param.kind === 'count' ? Math.round(x) : Number(x.toPrecision(3));
    return Math.min(hi, Math.max(lo, rounded));
  };
  const to_position = (x) => {
    if (!Number.isFinite(x)) return 0;
    const clamped = Math.min(hi, Math.max(lo, x));
    const f = log ? Math.log(clamped / lo) / Math.log(hi / lo) : (clamped - lo) / (hi - lo || 1);
    return Math.round(f * SLIDER_STEPS);
  };
  const unit = unit_text(param.unit);
  const slider = el('input', {
    id: `${id}-slider`, type: 'range', class: 'sl-slider', min: '0', max: String(SLIDER_STEPS), step: '1',
    value: String(to_position(Number(value))), 'aria-label': t('cell.slider_label', { label }),
    'data-scale': log ? 'log' : 'linear',
    on: {
      input: (event) => {
        const x = to_value(Number(event.target.value));
        event.target.setAttribute('aria-valuetext', `${format_number(x)} ${unit}`.trim());
        on_change(String(x));
      },
    },
  });
  slider.setAttribute('aria-valuetext', `${format_number(Number(value))} ${unit}`.trim());
  const ends = el('div', { class: 'sl-slider-ends', 'aria-hidden': 'true' },
    el('span', {}, format_limit(lo)), el('span', {}, `${format_limit(hi)} ${unit}`.trim()));
  return {
    element: el('div', { class: 'sl-slider-box' }, slider, ends),
    set_from_text(c_text) {
      const x = Number(c_text);
      if (c_text !== '' && Number.isFinite(x)) {
        slider.value = String(to_position(x));
        slider.setAttribute('aria-valuetext', `${format_number(x)} ${unit}`.trim());
      }
    },
  };
}

function show_note(note, c_text) {
  if (!note) return;
  note.hidden = c_text === null;
  // The number as read, without grouping (in vi, "1.000" would read as one again): 1000, 1000,5.
  note.textContent = c_text === null ? '' : t('cell.read_as', { value: from_c_number(c_text, current_lang()) });
}

function field(control, label_text, param, hint_text, slider, is_key, extra = null) {
  const hint_id = `${control.id}-hint`;
  control.setAttribute('aria-describedby', hint_id);
  const unit = unit_text(param.unit);
  return el('div', { class: `sl-field${is_key ? ' sl-field-key' : ''}`, 'data-param': param.name },
    el('label', { for: control.id, class: 'sl-label', title: `--${param.name}` }, label_text,
      unit ? el('span', { class: 'sl-unit' }, ` (${unit})`) : null),
    is_key ? el('div', { class: 'sl-key-control' }, slider, control) : control,
    el('p', { class: 'sl-read-as', role: 'status', hidden: true }),
    el('p', { id: `${control.id}-error`, class: 'sl-field-error', hidden: true }),
    // A key parameter's slider shows its range; the full range the field accepts stays its description.
    el('div', { id: hint_id, class: is_key ? 'sl-hint sl-visually-hidden' : 'sl-hint' }, hint_text),
    extra);
}

function limits_hint(param) {
  if (param.kind === 'bytes') return t('cell.file_hint', { max: format_limit(param.max / 1048576) });
  if (param.kind === 'choice') return '';
  const args = { min: format_limit(param.min), max: format_limit(param.max), unit: unit_text(param.unit) };
  const key = param.kind === 'count' ? 'cell.range_count' : 'cell.range_real';
  return t(key, args).replace(/\s+([.,;)])/g, '$1').trim();
}
