// Probe js_call: seconds per call of a tiny dense layer (task.key "layer") or of an empty function
// ("empty") called from JavaScript through Embind — what one call from the page into wasm costs.
// Cell batching/cpu-batch-measure compares it with the same layer called inside wasm.
'use strict';

let js_call_sink = 0;   // results land here, so no call is dead code

self.SL_PROBES.js_call = function (task, ctx) {
  const layer = new ctx.module.LayerCall(task.arg);
  try {
    const call = task.key === 'empty' ? () => { js_call_sink += layer.empty(); } : () => { js_call_sink += layer.call(); };
    return self.SL_TIMING.time_sync(call, task.repeats);
  } finally {
    layer.delete();
  }
};
