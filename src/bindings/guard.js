// Linked into serving_lab.js with --post-js (CMakeLists.txt): wraps the Embind exports so that no call of
// the caller's code happens while wasm frames are on the stack. A JS exception unwinding through wasm skips
// every C++ destructor (the build has no exceptions) and the stack pointer's reset: over 1,000 runs with a
// throwing progress callback, +5.1 MB of heap and 2,000 live emval handles. So:
// * `inputs` is copied into a plain object here (a getter or a Proxy trap runs now, not inside the run);
// * the caller's `on_progress` is called inside a try; after it throws, the run finishes without further
//   calls and returns {error: {code: "invalid", param: "on_progress", ...}} instead of its result;
// * each export is called with exactly its number of arguments (Embind throws on any other count).
// Every check of what the arguments hold (types included) is C++'s (src/bindings/bindings.cpp, src/core/).
// Runs after the runtime has started (postRun), when Embind has registered the exports.
addOnPostRun(function () {
  // Module.run is an overload table (Emscripten's own run() holds the name too): take Embind's by its count.
  function embind_export(name, count) {
    var f = Module[name];
    return f.overloadTable ? f.overloadTable[count] : f;
  }
  var raw = {
    run: embind_export('run', 4),
    probe_plan: embind_export('probe_plan', 2),
    list_cells: embind_export('list_cells', 0),
    timing_protocol: embind_export('timing_protocol', 0),
  };

  function error(param, message) {
    return { error: { code: 'invalid', param: param, message: message, args: {} } };
  }

  function reason(thrown) {
    try {
      return String((thrown && thrown.message) || thrown).slice(0, 200);
    } catch (_) {
      return 'an exception';
    }
  }

  // A plain object holding the caller's own enumerable properties, read here; anything else is passed on as
  // it is, for C++ to refuse by its type (null, arrays, typed arrays, numbers, ...).
  function plain_inputs(inputs) {
    try {
      if (inputs === null || typeof inputs !== 'object' || Array.isArray(inputs) || ArrayBuffer.isView(inputs)) {
        return { ok: inputs };
      }
      var copy = {};
      var keys = Object.keys(inputs);
      for (var i = 0; i < keys.length; ++i) copy[keys[i]] = inputs[keys[i]];
      return { ok: copy };
    } catch (thrown) {   // a revoked Proxy, a throwing getter or ownKeys trap
      return { failed: error('inputs', 'inputs could not be read: ' + reason(thrown)) };
    }
  }

  Module['run'] = function run(cell, inputs, seed, on_progress) {
    var copied = plain_inputs(inputs);
    if (copied.failed) return copied.failed;
    var thrown = null;
    var guarded = on_progress;
    if (typeof on_progress === 'function') {
      guarded = function (frac) {
        if (thrown !== null) return;
        try {
          on_progress(frac);
        } catch (e) {
          thrown = { reason: reason(e) };
        }
      };
    }
    var result = raw.run(cell, copied.ok, seed, guarded);
    if (thrown !== null && !result.error) {
      return error('on_progress', 'on_progress threw (' + thrown.reason + '); the run finished without it and its result is dropped');
    }
    return result;
  };

  Module['probe_plan'] = function probe_plan(cell, inputs) {
    var copied = plain_inputs(inputs);
    return copied.failed || raw.probe_plan(cell, copied.ok);
  };

  Module['list_cells'] = function list_cells() {
    return raw.list_cells();
  };

  Module['timing_protocol'] = function timing_protocol() {
    return raw.timing_protocol();
  };
});
