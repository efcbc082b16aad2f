// Compiles serving_lab.wasm once and gives each cell its own worker (docs/boundary.md).
// Cancel terminates the worker and starts a fresh one from the cached WebAssembly.Module;
// messages carrying a stale run_id are dropped. A worker starts when it is first needed (or warmed by
// start()), so a page of seven cells on a two-core machine does not instantiate seven modules at once
// while the first cell computes.

const WASM_URL = 'serving_lab.wasm';
const WORKER_URL = 'worker.js';
let module_promise = null;

/** The compiled module, fetched and compiled once per page. */
export function compiled_module() {
  module_promise ??= compile(WASM_URL);
  return module_promise;
}

async function compile(url) {
  try {
    return await WebAssembly.compileStreaming(fetch(url));
  } catch (streaming_error) {
    // Some static hosts send the wrong MIME type for .wasm; compileStreaming refuses it, compile() does not.
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    return WebAssembly.compile(await response.arrayBuffer());
  }
}

export class CellWorker {
  #worker = null;
  #ready = null;      // Promise of the cell specs from list_cells()
  #next_run_id = 0;
  #pending = null;    // {run_id, resolve, on_progress}
  #on_timer = null;   // resolves timer_resolution_s()

  /** Starts the worker now (it fetches its script and instantiates the module); later calls do nothing. */
  start() {
    if (!this.#worker) this.#spawn();
    return this;
  }

  /** Resolves with list_cells() once the module is instantiated in this worker. */
  cells() { return this.start().#ready; }

  /** Resolves with performance.now()'s resolution in seconds, as this worker's probes measure it. */
  timer_resolution_s() {
    this.start();
    return new Promise((resolve) => {
      this.#on_timer = resolve;
      this.#ready.then(() => this.#worker.postMessage({ type: 'timer' }), () => resolve(null));
    });
  }

  /**
   * Runs one cell. Resolves with the C++ result, or with {cancelled: true} when cancel() or a newer
   * run() supersedes it (then {superseded: true} as well). A run requested while another is in flight
   * replaces it: its worker is restarted, because the old result would be stale anyway.
   */
  run(cell, inputs, seed, on_progress = () => {}) {
    this.start();
    if (this.#pending) this.#restart({ cancelled: true, superseded: true });
    const run_id = ++this.#next_run_id;
    const worker = this.#worker;
    return new Promise((resolve) => {
      this.#pending = { run_id, resolve, on_progress };
      this.#ready.then(() => {
        if (this.#pending && this.#pending.run_id === run_id) worker.postMessage({ type: 'run', run_id, cell, inputs, seed });
      }, (error) => this.#settle(run_id, failure(error)));
    });
  }

  /** Stops the current run, if any; the worker is replaced and stays usable. */
  cancel() { if (this.#worker) this.#restart({ cancelled: true }); }

  get busy() { return this.#pending !== null; }

  #spawn() {
    const worker = new Worker(WORKER_URL);
    this.#worker = worker;
    this.#ready = new Promise((resolve, reject) => {
      worker.onmessage = (event) => this.#on_message(worker, event.data, resolve, reject);
      worker.onerror = (event) => { event.preventDefault(); reject(new Error(event.message || 'worker error')); };
      compiled_module().then((module) => worker.postMessage({ type: 'init', module }), reject);
    });
    this.#ready.catch(() => {});   // reported through run() and cells()
  }

  #restart(outcome) {
    this.#worker.terminate();
    const pending = this.#pending;
    this.#pending = null;
    this.#spawn();
    if (pending) pending.resolve(outcome);
  }

  #on_message(worker, message, resolve_ready, reject_ready) {
    if (message.type === 'csp_violation') return console.error(`Content-Security-Policy violation in a worker: ${message.directive} ${message.blocked}`);
    if (worker !== this.#worker) return;   // a terminated worker's last words
    if (message.type === 'ready') return resolve_ready(message.cells);
    if (message.type === 'failed') return reject_ready(new Error(message.message));
    if (message.type === 'timer') return this.#on_timer?.(message.resolution_s);
    const pending = this.#pending;
    if (!pending || message.run_id !== pending.run_id) return;   // stale run_id
    if (message.type === 'progress') pending.on_progress(message.frac);
    else if (message.type === 'result') {
      this.#pending = null;
      if (message.result.error && message.result.error.code === 'internal') this.#restart(null);
      pending.resolve(message.result);
    }
  }

  #settle(run_id, result) {
    if (!this.#pending || this.#pending.run_id !== run_id) return;
    const { resolve } = this.#pending;
    this.#pending = null;
    resolve(result);
  }
}

function failure(error) {
  return { error: { code: 'internal', param: '', message: String((error && error.message) || error), args: {} } };
}
