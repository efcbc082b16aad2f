// The form of one cell, generated from the C++ param specs (list_cells) and labelled from the lab file.
// Numbers are typed as text and sent to C++ as strings, so bad text ("-1", "NaN", "1e12") reaches the
// one validator, in C++, which reports it.
import { el } from './dom.js';
import { t, pick } from './i18n.js';
import { format_limit } from './format.js';

/**
 * Builds the parameter fields. values: {name: text}; seed_text: text or null when the cell has no seed.
 * on_edit() is called on every edit. Returns {element, read(), mark_invalid(name)}.
 */
export function build_param_fields({ spec, doc, id_prefix, values, seed_text, on_edit }) {
  const controls = new Map();   // name → input or select
  const field_of = new Map();   // name → its field, for params used only at some choices
  const update_relevance = () => {
    for (const param of spec.params) {
      if (!param.used_when) continue;
      const chosen = controls.get(param.used_when.param)?.value;
      field_of.get(param.name).hidden = !param.used_when.values.includes(chosen);
    }
  };
  const edited = (event) => { update_relevance(); on_edit(event); };
  const fields = spec.params.map((param) => {
    const text = pick(doc.params?.[param.name]?.label, param.name);
    const help = pick(doc.params?.[param.name]?.help, '');
    const choice_labels = doc.params?.[param.name]?.choices || {};
    const control = make_control(param, `${id_prefix}-${param.name}`, values[param.name], choice_labels, edited);
    controls.set(param.name, control);
    const box = field(control, text, param.unit, [help, limits_hint(param)], param.name);
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
    fields.push(field(control, t('cell.seed'), '', [t('cell.seed_help')], 'seed'));
  }
  return {
    element: el('div', { class: 'sl-params' }, fields),
    /** {name: text}, except file parameters: {name: File or null}. */
    read: () => Object.fromEntries([...controls].map(([name, control]) =>
      [name, control.type === 'file' ? (control.files[0] || null) : control.value])),
    mark_invalid(name) {
      for (const [key, control] of controls) control.setAttribute('aria-invalid', String(key === name));
    },
    focus(name) { controls.get(name)?.focus(); },
  };
}

function make_control(param, id, value, choice_labels, on_edit) {
  if (param.kind === 'bytes') {
    // A file the user picks (or drops on the field); never in the URL. Empty: the cell's built-in default.
    return el('input', { id, name: param.name, type: 'file', class: 'sl-input sl-file', accept: param.accept,
      on: { change: on_edit } });
  }
  if (param.kind === 'choice') {
    // A value from the URL that is not a choice is kept as an option, so C++ reports it (bad_choice).
    const choices = param.choices.includes(value) ? param.choices : [...param.choices, value];
    const options = choices.map((choice) => el('option', { value: choice, selected: choice === value },
      choice_labels[choice] ? pick(choice_labels[choice]) : choice));
    return el('select', { id, name: param.name, class: 'sl-input sl-select', on: { change: on_edit } }, options);
  }
  return el('input', {
    id, name: param.name, type: 'text', inputmode: 'decimal', class: 'sl-input',
    autocomplete: 'off', spellcheck: 'false', value, on: { input: on_edit },
  });
}

function field(control, label_text, unit, hints, name) {
  const hint_id = `${control.id}-hint`;
  control.setAttribute('aria-describedby', hint_id);
  const hint_text = hints.filter(Boolean).join(' ');
  return el('div', { class: 'sl-field' },
    el('label', { for: control.id, class: 'sl-label' }, label_text,
      unit ? el('span', { class: 'sl-unit' }, ` (${unit})`) : null),
    control,
    el('div', { id: hint_id, class: 'sl-hint' }, hint_text, ' ',
      el('code', { class: 'sl-key', title: t('cell.key_title') }, name)));
}

function limits_hint(param) {
  if (param.kind === 'bytes') return t('cell.file_hint', { max: format_limit(param.max / 1048576) });
  if (param.kind === 'choice') return t('cell.choices', { choices: param.choices.join(', ') });
  const args = { min: format_limit(param.min), max: format_limit(param.max), unit: param.unit };
  const key = param.kind === 'count' ? 'cell.range_count' : 'cell.range_real';
  return t(key, args).replace(/\s+([.,;)])/g, '$1').trim();
}
