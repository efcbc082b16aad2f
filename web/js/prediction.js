// Predict, then run: the cell's lab file asks a question whose answer is one output; the cell's results
// stay hidden until the reader types a guess (or skips), then the guess is shown beside the answer and compared
// with it (how far above or below, relative to the result); a guess made while the run is still going is compared
// when the run ends, and again after each later run.
// A teacher turns prompts off with ?predict=0.
import { el, replace_children } from './dom.js';
import { t, current_lang, unit_text } from './i18n.js';
import { format_number } from './format.js';
import { to_c_number } from './number_text.js';

export class Prediction {
  pending = true;
  #guess = null;      // the reader's number, or null when skipped
  #answer_text = '';
  #answer_value = null;   // the predicted output's value in the last result (C++'s), or null
  #id_prefix; #on_reveal; #box = null;

  constructor({ id_prefix, on_reveal }) {
    this.#id_prefix = id_prefix;
    this.#on_reveal = on_reveal;
  }

  /** The prompt (while pending) or the guess beside the result, in the current language. */
  build(question, unit) {
    this.#box = el('div', { class: 'sl-predict', 'data-state': this.pending ? 'pending' : 'revealed' });
    if (!this.pending) {
      this.#render_revealed();
      return this.#box;
    }
    const id = `${this.#id_prefix}-predict`;
    const input = el('input', { id, type: 'text', inputmode: 'decimal', class: 'sl-input sl-predict-input', autocomplete: 'off',
      'aria-describedby': `${id}-message` });
    const message = el('p', { id: `${id}-message`, class: 'sl-predict-message' }, t('predict.hidden_note'));
    const reveal = (event) => {
      event.preventDefault();
      const guess = Number(to_c_number(input.value, current_lang()).text);
      if (input.value.trim() === '' || !Number.isFinite(guess)) {
        message.textContent = t('predict.need_number');
        message.classList.add('sl-field-error');
        input.setAttribute('aria-invalid', 'true');
        return input.focus();
      }
      this.#finish(guess);
    };
    const unit_label = unit_text(unit);
    replace_children(this.#box,
      el('form', { class: 'sl-predict-form', 'aria-label': t('predict.heading'), novalidate: true, on: { submit: reveal } },
        el('p', { class: 'sl-predict-heading' }, t('predict.heading')),
        el('label', { for: id, class: 'sl-label' }, question),
        el('div', { class: 'sl-predict-row' },
          el('span', { class: 'sl-predict-guess' }, input, unit_label ? el('span', { class: 'sl-unit' }, ` ${unit_label}`) : null),
          el('button', { type: 'submit', class: 'sl-button sl-button-primary' }, t('predict.reveal')),
          el('button', { type: 'button', class: 'sl-button', on: { click: () => this.#finish(null) } }, t('predict.skip'))),
        message));
    return this.#box;
  }

  /** The current result of the predicted output (value, and its text with unit). */
  answer(value, text) {
    this.#answer_text = value === undefined ? t('cell.not_in_run') : text;
    this.#answer_value = typeof value === 'number' && Number.isFinite(value) ? value : null;
    if (!this.pending) this.#render_revealed();
  }

  #finish(guess) {
    this.#guess = guess;
    this.pending = false;
    this.#box.dataset.state = 'revealed';
    this.#render_revealed();
    this.#on_reveal();
  }

  /** How the guess compares with the result: " Your guess is 12 % above it." (empty before the result). */
  #comparison() {
    const value = this.#answer_value;
    if (value === null || this.#guess === null) return '';
    const off = value === 0 ? (this.#guess === 0 ? 0 : Math.sign(this.#guess)) : (this.#guess - value) / Math.abs(value);
    if (Math.abs(off) < 0.005) return t('predict.on');
    return t(off > 0 ? 'predict.above' : 'predict.below', { off: `${format_number(Math.abs(off) * 100, 2)} %` });
  }

  #render_revealed() {
    if (!this.#box) return;
    const result = this.#answer_text || '—';
    const text = this.#guess === null
      ? t('predict.result_skipped', { result })
      : t('predict.result', { guess: format_number(this.#guess), result, comparison: this.#comparison() });
    replace_children(this.#box, el('p', { class: 'sl-predict-outcome', role: 'status' }, text));
  }
}
