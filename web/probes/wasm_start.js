// Probe wasm_start: the browser's side of starting this lab's own module, serving_lab.wasm (fetched once,
// outside the timing). task.key:
//   "bytes"        one sample: the module's size in bytes;
//   "compile"      seconds per WebAssembly.compile of its bytes. Each call appends a different custom
//                  section (ignored by the module), so the engine cannot reuse a module it compiled before
//                  from the same bytes (V8 shares compiled modules by their bytes);
//   "instantiate"  seconds per createServingLab() from the compiled module (instantiateWasm hook, as
//                  worker.js starts a cell): memory, imports, the C++ runtime's start-up, the Embind tables.
/* global createServingLab */
'use strict';

(function () {
  let wasm_bytes = null;
  let compiled = null;
  let salt = 0;

  async function module_bytes() {
    if (!wasm_bytes) {
      const response = await fetch('serving_lab.wasm');
      if (!response.ok) throw new Error(`wasm_start: serving_lab.wasm answered ${response.status}`);
      wasm_bytes = new Uint8Array(await response.arrayBuffer());
    }
    return wasm_bytes;
  }

  /** The module's bytes plus a custom section named "sl-salt" holding a fresh number. */
  function salted(bytes) {
    const name = new TextEncoder().encode('sl-salt');
    const payload = new TextEncoder().encode(String(++salt).padStart(12, '0'));
    const size = 1 + name.length + payload.length;   // < 128: one-byte LEB128 lengths
    const out = new Uint8Array(bytes.length + 2 + size);
    out.set(bytes);
    let at = bytes.length;
    out[at++] = 0;   // section id 0: custom
    out[at++] = size;
    out[at++] = name.length;
    out.set(name, at);
    out.set(payload, at + name.length);
    return out;
  }

  /** Resolves when the new instance's runtime is up; rejects when instantiation fails. */
  function instantiate(module) {
    return new Promise((resolve, reject) => {
      createServingLab({
        instantiateWasm(imports, ok) {
          WebAssembly.instantiate(module, imports).then((instance) => ok(instance, module), reject);
          return {};
        },
      }).then(() => resolve(), reject);
    });
  }

  self.SL_PROBES.wasm_start = async function (task) {
    const bytes = await module_bytes();
    if (task.key === 'bytes') return [bytes.length];
    if (task.key === 'compile') return self.SL_TIMING.time_async(() => WebAssembly.compile(salted(bytes)), task.repeats);
    if (task.key !== 'instantiate') throw new Error(`wasm_start: unknown key '${task.key}'`);
    if (!compiled) compiled = await WebAssembly.compile(bytes);
    return self.SL_TIMING.time_async(() => instantiate(compiled), task.repeats);
  };
})();
