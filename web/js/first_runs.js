// The first run of every cell of a lab page: the simulations, as many at once as the machine has cores, then
// each cell that times this machine, alone (in page order), so no other cell's work slows what it measures and
// no measurement holds the simulations back. One core takes the simulations in page order, so the top cells
// answer first; every other core takes the costliest simulation waiting (its default_cost_s, C++'s cost model
// at the defaults), so that a long one does not start last and decide when the page is done (the LLM page's
// fleet, a second of the browser's CPU, started sixth of seven and finished 0.85 s after the others in a
// trace). A cell joins as soon as the page has built it, so the first simulations compute while the page
// builds the rest. A run holds its core until its worker answers (run_now's on_computed), not until the page
// has shown the result: the next run starts while the page draws the last one. The runs share as many workers
// as run at once (worker_pool.js starts one when a run finds none idle). A simulation whose cost model at the
// defaults (default_cost_s) exceeds LATE_COST_S — llm/validation's 49 published runs, ~4 s of the browser — runs
// after the others are shown, before the measurements: it would otherwise hold a core for longer than the whole
// page's other simulations take.

import * as chart_gate from './chart_gate.js';

/** Browser seconds above which a cell's first run waits for the page's other simulations. */
export const LATE_COST_S = 2;

export class FirstRuns {
  #slots = Math.max(1, navigator.hardwareConcurrency || 2);
  #waiting = [];      // simulations not started yet, in page order
  #measuring = [];    // cells that time this machine, in page order
  #late = [];         // simulations costlier than LATE_COST_S, in page order
  #computing = 0;     // simulations whose worker has not answered yet
  #in_page_order = false;   // whether the core that goes down the page computes one now
  #shown = [];        // each started run's run_now() promise
  #drained = null;    // resolves when no simulation waits or computes (finish() waits on it)

  /** A cell the page has built (views without run_now, such as an error note, have no run). */
  add(view) {
    if (!view.run_now) return;
    if (view.measures_machine) this.#measuring.push(view);
    else if (view.default_cost_s > LATE_COST_S) this.#late.push(view);
    else this.#waiting.push(view);
    this.#pump();
  }

  /**
   * Resolves once every simulation is shown and every chart drawn, then runs the late simulations (together) and
   * the cells that time this machine, one by one.
   */
  async finish() {
    if (this.#waiting.length || this.#computing) await new Promise((resolve) => { this.#drained = resolve; });
    chart_gate.open_near();   // the charts within a screen of the viewport first
    await Promise.all(this.#shown);
    chart_gate.open();   // then the rest
    await chart_gate.drawn();
    await Promise.all(this.#late.map((view) => view.run_now()));
    for (const view of this.#measuring) await view.run_now();
  }

  #pump() {
    while (this.#waiting.length && this.#computing < this.#slots) {
      this.#computing += 1;
      const in_page_order = !this.#in_page_order;
      if (in_page_order) this.#in_page_order = true;
      const view = this.#waiting.splice(in_page_order ? 0 : costliest(this.#waiting, (view) => view.default_cost_s), 1)[0];
      // Called as the worker answers, before the result is shown: the next run is posted at once.
      this.#shown.push(view.run_now({}, () => {
        this.#computing -= 1;
        if (in_page_order) this.#in_page_order = false;
        this.#pump();
        if (!this.#waiting.length && !this.#computing) this.#drained?.();
      }));
    }
  }
}

/** The index of the costliest of `items` by cost_of(item) (the first of equals; 0 for none). */
export function costliest(items, cost_of) {
  let best = 0;
  items.forEach((item, i) => { if (cost_of(item) > cost_of(items[best])) best = i; });
  return best;
}
