// Compiles serving_lab.wasm once and runs the cells in a pool of Web Workers (docs/boundary.md): a run takes
// an idle worker, or starts one when every worker is busy, and gives it back when it is done. A worker is
// stateless between runs (run() builds everything from its inputs), so any cell may use any worker; a page
// of eleven cells on a two-core machine instantiates the module in as many workers as run at once, not eleven.
// Cancel terminates the worker of that run and starts a fresh one from the cached WebAssembly.Module;
// messages carrying a stale run_id are dropped.

const WASM_URL = 'serving_lab.wasm';
const WORKER_URL = 'worker.js';
let module_promise = null;

/** The compiled module, fetched and compiled once per page. */
export function compiled_module() {
  module_promise ??= compile(WASM_URL);
  return module_promise;
}

/**
 * Fetches the bytes, then compiles them. Not compileStreaming: with lazy compilation Chromium validates every
 * function of a streamed module before it resolves and holds the page's main thread for it (wasm.FinishStreaming,
 * 100-180 ms on this 1.4 MB module in a trace, in which the page cannot build its first cell); compile() took
 * 8 ms of the main thread there, and the functions are compiled in the workers as they first run. Any MIME
 * type will do.
 */
async function compile(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return WebAssembly.compile(await response.arrayBuffer());
}

/** One worker with the module instantiated (ready), lent to one CellWorker at a time. */
class Slot {
  owner = null;       // the CellWorker whose run this worker computes, or null (idle)
  on_timer = null;
  constructor() {
    const worker = new Worker(WORKER_URL);
    first_ready ??= this;
    this.worker = worker;
    this.ready = new Promise((resolve, reject) => {
      worker.onmessage = (event) => {
        const message = event.data;
        if (message.type === 'csp_violation') return console.error(`Content-Security-Policy violation in a worker: ${message.directive} ${message.blocked}`);
        if (message.type === 'ready') return resolve();
        if (message.type === 'failed') return reject(new Error(message.message));
        if (message.type === 'timer') return this.on_timer?.(message.resolution_s);
        this.owner?.on_message(this, message);
      };
      worker.onerror = (event) => { event.preventDefault(); reject(new Error(event.message || 'worker error')); };
      compiled_module().then((module) => worker.postMessage({ type: 'init', module }), reject);
    });
    this.ready.catch(() => {});   // reported through run() and cells()
  }
}

let first_ready = null;   // the first slot started: whether the module instantiates at all
const idle = [];   // slots no run holds
let started = 0;   // slots alive (idle or lent)

function take_slot() {
  if (idle.length) return idle.shift();
  started += 1;
  return new Slot();
}

function give_back(slot) {
  slot.owner = null;
  idle.push(slot);
}

function drop(slot) {
  slot.owner = null;
  slot.worker.terminate();
  started -= 1;
}

/** Starts workers until `count` are alive, so that many runs at once find one instantiated. */
export function prestart(count) {
  while (started < count) {
    started += 1;
    idle.push(new Slot());
  }
}

/** Resolves once the module is instantiated in a worker; rejects if it cannot be. */
export function pool_ready() {
  prestart(1);
  return first_ready.ready;
}

async function take_then_give(use) {
  const slot = take_slot();
  try { return await use(slot); } finally { give_back(slot); }
}

/** Resolves with performance.now()'s resolution in seconds, as a worker's probes measure it (null if none). */
export function timer_resolution_s() {
  return take_then_give(async (slot) => {
    try { await slot.ready; } catch { return null; }
    return new Promise((resolve) => {
      slot.on_timer = resolve;
      slot.worker.postMessage({ type: 'timer' });
    });
  });
}

export class CellWorker {
  #slot = null;       // the worker computing this cell's current run
  #next_run_id = 0;
  #pending = null;    // {run_id, resolve, on_progress}

  /**
   * Runs one cell. Resolves with the C++ result, or with {cancelled: true} when cancel() or a newer
   * run() supersedes it (then {superseded: true} as well). A run requested while another is in flight
   * replaces it: its worker is terminated (and replaced), because the old result would be stale anyway.
   */
  run(cell, inputs, seed, on_progress = () => {}) {
    if (this.#pending) this.#stop({ cancelled: true, superseded: true });
    const run_id = ++this.#next_run_id;
    const slot = take_slot();
    slot.owner = this;
    this.#slot = slot;
    return new Promise((resolve) => {
      this.#pending = { run_id, resolve, on_progress };
      // Posted at once: a worker still instantiating the module runs it as soon as it can, without waiting
      // for this page to handle its "ready" (the page may be busy building the other cells).
      slot.worker.postMessage({ type: 'run', run_id, cell, inputs, seed });
      slot.ready.catch((error) => {
        if (this.#slot === slot) { this.#slot = null; drop(slot); }
        this.#settle(run_id, failure(error));
      });
    });
  }

  /** Stops the current run, if any; the cell stays usable (a fresh worker takes the terminated one's place). */
  cancel() { if (this.#pending) this.#stop({ cancelled: true }); }

  get busy() { return this.#pending !== null; }

  /** Terminates the worker of the current run, starts one in its place, and resolves the run with outcome. */
  #stop(outcome) {
    const pending = this.#pending;
    this.#pending = null;
    if (this.#slot) {
      drop(this.#slot);
      this.#slot = null;
      prestart(started + 1);
    }
    if (pending) pending.resolve(outcome);
  }

  /** A message of the worker this cell's run holds (Slot routes it here). */
  on_message(slot, message) {
    const pending = this.#pending;
    if (slot !== this.#slot || !pending || message.run_id !== pending.run_id) return;   // stale run_id
    if (message.type === 'progress') pending.on_progress(message.frac);
    else if (message.type === 'result') {
      this.#pending = null;
      this.#slot = null;
      // A trap or abort leaves the module's state unknown: that worker is replaced, not reused.
      if (message.result.error && message.result.error.code === 'internal') { drop(slot); prestart(started + 1); } else give_back(slot);
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
