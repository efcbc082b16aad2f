// A search spread over the page's workers. A cell that declares `part`, `parts` and a `points` file (C++:
// llm/capacity-search) runs as parts of its grid, each part a run of the cell in its own worker (at most one
// worker per core, bounded), a worker taking the next part as it finishes one. The parts' `points` tables go back
// to C++ as one points file, from which C++ gives the frontier, the winner and what binds it: after each part (the
// partial results the page shows while the rest runs) and once more at the end. Nothing is computed here: the file
// is the tables C++ returned, written as C++ reads them (capacity_search.h, read_points), and the final result is
// the one a single run gives (tests/wasm/spread_run.test.mjs, tests/e2e/capacity_search.spec.mjs).
// Same interface as CellWorker: run(), cancel(), busy. main_lab.js picks it for a cell that declares the three
// parameters, and loads this file on that cell's first run; it hands over worker_pool.js's CellWorker, so this
// file imports nothing (an import shared with main_lab.js would become a chunk of its own on every page).
const MAX_WORKERS = 8;
/** Parts per worker: a part's cost varies (GPU, TP, pruning), and smaller parts keep every worker busy to the end. */
const PARTS_PER_WORKER = 3;
/** The C++ notice of a result read from a points file: here the points were run by this page's own workers. */
const FROM_FILE = 'points_from_file';

/** How many workers a spread run uses: one per core, at most MAX_WORKERS, overridable for a test (?workers=). */
export function spread_width(query = new URLSearchParams(location.search)) {
  const asked = Number(query.get('workers'));
  const cores = Number.isInteger(asked) && asked >= 1 ? asked : navigator.hardwareConcurrency || 2;
  return Math.min(MAX_WORKERS, cores);
}

/**
 * The parts' `points` tables (C++ column arrays, in part order) as the CSV read_points takes: the header is the
 * table's column names, each number as JavaScript writes it (the shortest text that reads back as the same double).
 * Returns null when no part has a point yet.
 */
export function points_file(tables) {
  const present = tables.filter((table) => table && Object.values(table)[0]?.length);
  if (!present.length) return null;
  const names = Object.keys(present[0]);
  const lines = [names.join(',')];
  for (const table of present) {
    const columns = names.map((name) => table[name]);
    for (let row = 0; row < columns[0].length; ++row) lines.push(columns.map((column) => String(column[row])).join(','));
  }
  return new TextEncoder().encode(lines.join('\n') + '\n');
}

/** A merged result as the page shows it: without the "read from a file" notice, since this page ran the points. */
function as_run_here(result) {
  if (!result.notices) return result;
  return { ...result, notices: result.notices.filter((notice) => notice.code !== FROM_FILE) };
}

export class SpreadRun {
  #width; #CellWorker;
  #merger;          // merges the parts' points (a quick run: no point is run)
  #workers = [];
  #pending = null;  // {resolve, stopped}

  /** CellWorker: worker_pool.js's class; width: the workers to use. */
  constructor(CellWorker, width = spread_width()) {
    this.#CellWorker = CellWorker;
    this.#width = width;
    this.#merger = new CellWorker();
  }

  get busy() { return this.#pending !== null; }

  /**
   * Runs the cell. Inputs that already name a part, or give a points file, run as given, in one worker. Otherwise
   * the grid is run in parts; on_partial(result, done, parts) is called with the merged result of the parts done
   * so far. Resolves as CellWorker.run does.
   */
  run(cell, inputs, seed, on_progress = () => {}, on_partial = () => {}) {
    if (this.#pending) this.#stop({ cancelled: true, superseded: true });
    const whole = String(inputs.part ?? '1') === '1' && String(inputs.parts ?? '1') === '1' && !inputs.points?.length;
    return new Promise((resolve) => {
      const pending = { resolve, stopped: false };
      this.#pending = pending;
      const work = whole && this.#width > 1
        ? this.#spread(pending, cell, inputs, seed, on_progress, on_partial)
        : this.#merger.run(cell, inputs, seed, on_progress);
      work.then((result) => this.#settle(pending, result));
    });
  }

  cancel() { if (this.#pending) this.#stop({ cancelled: true }); }

  #stop(outcome) {
    const pending = this.#pending;
    pending.stopped = true;
    this.#pending = null;
    for (const worker of [this.#merger, ...this.#workers]) worker.cancel();
    pending.resolve(outcome);
  }

  #settle(pending, result) {
    if (this.#pending !== pending) return;   // cancelled or superseded: already resolved
    this.#pending = null;
    pending.resolve(result);
  }

  async #spread(pending, cell, inputs, seed, on_progress, on_partial) {
    const parts = this.#width * PARTS_PER_WORKER;
    while (this.#workers.length < this.#width) this.#workers.push(new this.#CellWorker());
    const tables = new Array(parts).fill(null);
    const fracs = new Array(parts).fill(0);
    const report = () => on_progress(fracs.reduce((sum, frac) => sum + frac, 0) / parts);
    let next = 0, done = 0, failure = null;
    const merged = (file) => this.#merger.run(cell, { ...inputs, points: file, part: '1', parts: '1' }, seed);
    // The partial merge: one at a time, of whatever parts are done when it starts; another follows if more finished.
    let merging = null, again = false;
    const merge_partial = () => {
      if (merging) { again = true; return; }
      const file = points_file(tables);
      if (!file) return;
      const at = done;
      merging = merged(file).then((result) => {
        merging = null;
        if (pending.stopped || done === parts) return;
        if (!result.error && !result.cancelled) on_partial(as_run_here(result), at, parts);
        if (again) { again = false; merge_partial(); }
      });
    };
    const take_parts = async (worker) => {
      while (next < parts && !failure && !pending.stopped) {
        const part = next++;
        const result = await worker.run(cell, { ...inputs, part: String(part + 1), parts: String(parts) }, seed,
          (frac) => { fracs[part] = frac; report(); });
        if (result.cancelled) return;
        if (result.error) { failure ??= result; return; }
        tables[part] = result.tables.points;
        fracs[part] = 1;
        done += 1;
        report();
        if (done < parts) merge_partial();
      }
    };
    await Promise.all(this.#workers.map(take_parts));
    if (pending.stopped) return { cancelled: true };
    if (failure) {
      for (const worker of this.#workers) worker.cancel();
      return failure;
    }
    while (merging) await merging;
    return as_run_here(await merged(points_file(tables)));
  }
}
