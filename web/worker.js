// One cell's worker (classic script). Protocol: docs/boundary.md, "Worker protocol".
// page → worker: {type: "init", module}, {type: "run", run_id, cell, inputs, seed}
// worker → page: {type: "ready", cells}, {type: "progress", run_id, frac}, {type: "result", run_id, result}
/* global createServingLab */
'use strict';
importScripts('serving_lab.js');

let serving_lab = null;

self.onmessage = function (event) {
  const message = event.data;
  if (message.type === 'init') init(message.module);
  else if (message.type === 'run') run(message);
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
    postMessage({ type: 'ready', cells: serving_lab.list_cells() });
  }, (error) => postMessage({ type: 'failed', message: String((error && error.message) || error) }));
}

function run({ run_id, cell, inputs, seed }) {
  let result;
  try {
    result = serving_lab.run(cell, inputs, seed, (frac) => postMessage({ type: 'progress', run_id, frac }));
  } catch (error) {
    // Bad input never throws (it comes back as {error}); reaching here means a trap or abort in the module.
    // The page restarts this worker, since the module state is unknown after a trap.
    result = { error: { code: 'internal', param: '', message: String((error && error.message) || error), args: {} } };
  }
  postMessage({ type: 'result', run_id, result }, table_buffers(result));
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
