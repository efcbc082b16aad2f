// The first run of every cell of a lab page: the simulations in page order, as many at once as the machine
// has cores, so the top cells answer first instead of all sharing the cores; then each cell that times this
// machine, alone (in page order), so no other cell's work slows what it measures and no measurement holds
// the simulations back. A cell joins as soon as the page has built it, so the first simulations compute
// while the page builds the rest. A run holds its core until its worker answers (run_now's on_computed), not until
// the page has shown the result: the next run starts while the page draws the last one. The runs share as
// many workers as run at once (worker_pool.js starts one when a run finds none idle).

import * as chart_gate from './chart_gate.js';

export class FirstRuns {
  #slots = Math.max(1, navigator.hardwareConcurrency || 2);
  #waiting = [];      // simulations not started yet, in page order
  #measuring = [];    // cells that time this machine, in page order
  #computing = 0;     // simulations whose worker has not answered yet
  #shown = [];        // each started run's run_now() promise
  #drained = null;    // resolves when no simulation waits or computes (finish() waits on it)

  /** A cell the page has built (views without run_now, such as an error note, have no run). */
  add(view) {
    if (!view.run_now) return;
    (view.measures_machine ? this.#measuring : this.#waiting).push(view);
    this.#pump();
  }

  /**
   * Resolves once every simulation is shown and every chart drawn, then runs the cells that time this machine,
   * one by one.
   */
  async finish() {
    if (this.#waiting.length || this.#computing) await new Promise((resolve) => { this.#drained = resolve; });
    await Promise.all(this.#shown);
    chart_gate.open();   // the charts far from the viewport, held back while the simulations computed
    await chart_gate.drawn();
    for (const view of this.#measuring) await view.run_now();
  }

  #pump() {
    while (this.#waiting.length && this.#computing < this.#slots) {
      this.#computing += 1;
      // Called as the worker answers, before the result is shown: the next run is posted at once.
      this.#shown.push(this.#waiting.shift().run_now({}, () => {
        this.#computing -= 1;
        this.#pump();
        if (!this.#waiting.length && !this.#computing) this.#drained?.();
      }));
    }
  }
}
