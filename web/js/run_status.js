// The run line of a cell: a status text, and a progress bar with Cancel shown when a run takes longer
// than PROGRESS_DELAY_MS.
import { el } from './dom.js';
import { t } from './i18n.js';
import { format_duration_ms } from './format.js';

const PROGRESS_DELAY_MS = 200;
const ELAPSED_TICK_MS = 100;

export class RunStatus {
  element; #text; #box; #bar; #elapsed; #cancel;
  #started_at = 0; #show_timer = 0; #tick_timer = 0; #frac = 0;
  #parts = null;   // {done, parts} of a run spread over the workers, once a part is done
  #last = null;   // {kind, elapsed_ms} of the last finished run, re-worded when the language changes

  constructor(on_cancel) {
    this.#text = el('p', { class: 'sl-status', role: 'status', 'aria-live': 'polite' });
    this.#bar = el('progress', { class: 'sl-progress-bar', max: '1', value: '0' });
    this.#elapsed = el('span', { class: 'sl-elapsed' });
    this.#cancel = el('button', { type: 'button', class: 'sl-button sl-button-cancel', on: { click: on_cancel } });
    this.#box = el('div', { class: 'sl-progress', hidden: true }, this.#bar, this.#elapsed, this.#cancel);
    this.element = el('div', { class: 'sl-run-status' }, this.#box, this.#text);
    this.relabel();
  }

  relabel() {
    this.#cancel.textContent = t('cell.cancel');
    this.#bar.setAttribute('aria-label', t('cell.progress'));
    if (this.#last) this.#word(this.#last.kind, this.#last.elapsed_ms);
  }

  #word(kind, elapsed_ms) {
    if (kind === 'done') this.#text.textContent = t('cell.done', { time: format_duration_ms(elapsed_ms) });
    else if (kind === 'cancelled') this.#text.textContent = t('cell.cancelled');
    else this.#text.textContent = '';
  }

  /** A run began: arm the progress bar, which appears if the run is still going after the delay. */
  started() {
    this.#stop_timers();
    this.#started_at = performance.now();
    this.#frac = 0;
    this.#parts = null;
    this.#bar.value = 0;
    this.#show_timer = setTimeout(() => this.#show_progress(), PROGRESS_DELAY_MS);
  }

  progress(frac) {
    this.#frac = frac;
    this.#bar.value = frac;
  }

  /** A spread run (spread_run.js) has `done` of its `parts` done, and the page shows their merged result. */
  parts(done, parts) { this.#parts = { done, parts }; }

  /** The run ended. kind: 'done' | 'error' | 'cancelled'. Returns the elapsed time in ms. */
  finished(kind) {
    const elapsed_ms = performance.now() - this.#started_at;
    const had_focus = this.#box.contains(document.activeElement);
    this.#stop_timers();
    this.#box.hidden = true;
    this.#last = { kind, elapsed_ms };
    this.#word(kind, elapsed_ms);
    this.#text.dataset.state = kind;
    return { elapsed_ms, had_focus };
  }

  #show_progress() {
    this.#box.hidden = false;
    this.#text.textContent = t('cell.running');
    this.#text.dataset.state = 'running';
    const tick = () => {
      const percent = Math.round(this.#frac * 100);
      const time = format_duration_ms(performance.now() - this.#started_at);
      this.#elapsed.textContent = this.#parts ? t('cell.elapsed_parts', { percent, time, ...this.#parts }) : t('cell.elapsed', { percent, time });
    };
    tick();
    this.#tick_timer = setInterval(tick, ELAPSED_TICK_MS);
  }

  #stop_timers() {
    clearTimeout(this.#show_timer);
    clearInterval(this.#tick_timer);
  }
}
