// Probe js_call: seconds per call of a tiny dense layer (task.key "layer") or of an empty function
// ("empty") called from JavaScript straight into a wasm export (src/bindings/bindings.cpp, sl_layer_*) —
// what one call from the page into wasm costs, without Embind's generic invoker in between.
// Cell batching/cpu-batch-measure compares it with the same layer called inside wasm.
'use strict';

let js_call_sink = 0;   // results land here, so no call is dead code

self.SL_PROBES.js_call = function (task, ctx) {
  const module = ctx.module;
  const layer = module._sl_layer_new(task.arg);
  if (!layer) throw new Error(`js_call: the module refused a layer of width ${task.arg}`);
  try {
    // The glue binds Module._sl_layer_* to the module's own exports on their first call.
    module._sl_layer_empty(layer);
    module._sl_layer_call(layer);
    const fn = task.key === 'empty' ? module._sl_layer_empty : module._sl_layer_call;
    if (!/\[native code\]/.test(Function.prototype.toString.call(fn))) throw new Error('js_call: not a bare wasm export');
    const call = () => { js_call_sink += fn(layer); };
    return self.SL_TIMING.time_sync(call, task.repeats);
  } finally {
    module._sl_layer_delete(layer);
  }
};
