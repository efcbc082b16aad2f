// One cell's worker (classic script). Protocol: docs/boundary.md, "Worker protocol".
// page → worker: {type: "init", module}, {type: "run", run_id, cell, inputs, seed}, {type: "timer"} (a run or
//                timer request may come before init: it waits until the module is instantiated)
// worker → page: {type: "ready"}, {type: "progress", run_id, frac}, {type: "result", run_id, result},
//                {type: "timer", resolution_s} (measured as the probes measure it),
//                {type: "csp_violation", directive, blocked}
// Before a run of a cell that declares probes, the worker takes the browser measurements the module plans
// (web/probes/README.md) and passes them in as inputs "measured.<probe>.<key>".
/* global createServingLab */
'use strict';
// Built, dist/worker.js holds the glue and the probes ahead of this file (scripts/build.mjs bundles this list),
// so a page's workers fetch one file; unbuilt, they are imported.
if (typeof createServingLab === 'undefined') {
  importScripts('serving_lab.js', 'probes/timing.js', 'probes/js_call.js', 'probes/json_parse.js',
    'probes/image_bitmap.js', 'probes/model_fetch.js', 'probes/wasm_start.js');
}

// A Content-Security-Policy violation in this worker (say, an eval the policy blocks) goes to the page's console.
self.addEventListener('securitypolicyviolation', (event) => {
  postMessage({ type: 'csp_violation', directive: event.violatedDirective, blocked: event.blockedURI });
});

const PROBE_SHARE = 0.5;   // of the progress bar, while probes measure
let serving_lab = null;
// A run or timer request may arrive before init, or while the module instantiates (the page posts a run as
// soon as it has one, without waiting for "ready"): it waits here, and messages keep their order.
let instantiated_ok;
const instantiated = new Promise((resolve) => { instantiated_ok = resolve; });

self.onmessage = function (event) {
  const message = event.data;
  if (message.type === 'init') init(message.module);
  else if (message.type === 'run') instantiated.then(() => run(message));
  else if (message.type === 'timer') instantiated.then(() => postMessage({ type: 'timer', resolution_s: self.SL_TIMING.timer_resolution_s() }));
};

function init(module) {
  createServingLab({
    instantiateWasm(imports, ok) {
      WebAssembly.instantiate(module, imports)
        .then((instance) => ok(instance, module))
        .catch((error) => postMessage({ type: 'failed', message: String((error && error.message) || error) }));
      return {};
    },
  }).then((instance) => {
    serving_lab = instance;
    self.SL_TIMING.configure(serving_lab.timing_protocol());   // the one protocol, C++'s
    // The page has the cells' specs from its lab file (scripts/build.mjs calls list_cells() once): no call
    // here, whose first run in a fresh module cost ~90 ms before the first result.
    postMessage({ type: 'ready' });
    instantiated_ok();
  }, (error) => postMessage({ type: 'failed', message: String((error && error.message) || error) }));
}

async function run({ run_id, cell, inputs, seed }) {
  const progress = (frac) => postMessage({ type: 'progress', run_id, frac });
  let result;
  try {
    const measured = await measure(cell, inputs, progress);
    if (measured.error) result = measured;
    else {
      const share = Object.keys(measured).length ? PROBE_SHARE : 0;
      result = serving_lab.run(cell, { ...inputs, ...measured }, seed, (frac) => progress(share + (1 - share) * frac));
    }
  } catch (error) {
    // Bad input never throws (it comes back as {error}); reaching here means a trap or abort in the module,
    // or a probe the browser refused. The page restarts this worker, since the module state is unknown.
    result = { error: { code: 'internal', param: '', message: String((error && error.message) || error), args: {} } };
  }
  postMessage({ type: 'result', run_id, result }, table_buffers(result));
}

/**
 * Runs the probes the module plans for these inputs (none, at once, for a cell without probes); returns
 * {"measured.<probe>.<key>": "s1 s2 ..."}.
 */
async function measure(cell, inputs, progress) {
  const plan = serving_lab.probe_plan(cell, inputs);
  if (plan.error) return plan;   // bad inputs: the same error run() would give
  const measured = {};
  for (let i = 0; i < plan.length; ++i) {
    const task = plan[i];
    const probe = self.SL_PROBES[task.probe];
    if (!probe) throw new Error(`no browser probe '${task.probe}' (web/probes/)`);
    const samples = await probe(task, { module: serving_lab });
    measured[`measured.${task.probe}.${task.key}`] = samples.join(' ');
    progress(PROBE_SHARE * (i + 1) / plan.length);
  }
  return measured;
}

/** The ArrayBuffers of every column of every table, each once, for the transfer list. */
function table_buffers(result) {
  const buffers = new Set();
  for (const table of Object.values(result.tables || {})) {
    for (const column of Object.values(table)) {
      if (ArrayBuffer.isView(column)) buffers.add(column.buffer);
    }
  }
  return [...buffers];
}
