// The whole wasm boundary: four exports, no per-cell code, no arithmetic (docs/boundary.md); plus the
// domain objects the browser probes call directly (web/probes/), bound as they are, and as plain exports.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include <map>
#include <string>

#include "batching/layer_call.h"
#include "bindings/to_val.h"
#include "core/registry.h"

namespace {

using emscripten::val;

val list_cells() {
  val cells = val::array();
  unsigned i = 0;
  for (const auto& c : sl::all_cells()) cells.set(i++, sl::bindings::to_val(c));   // set, not push: see ValWriter
  return cells;
}

// Array.isArray and ArrayBuffer.isView, unlike val::isArray() (an instanceof), run no Proxy trap.
bool is_array(const val& value) { return val::global("Array").call<bool>("isArray", value); }
bool is_view(const val& value) { return val::global("ArrayBuffer").call<bool>("isView", value); }

// What a JS value is, for the type errors below: "null", "array", "Uint8Array", or its typeof.
std::string js_type(const val& value) {
  if (value.isNull()) return "null";
  if (is_array(value)) return "array";
  if (is_view(value)) return value["constructor"]["name"].as<std::string>();
  return value.typeOf().as<std::string>();
}

// Conversions only check the JS type before `as<>` (which would throw into the caller); what the text says is
// C++ core's to check (parse_inputs, parse_seed). The guard in src/bindings/guard.js has already copied
// `inputs` into a plain object, so reading it runs no code of the caller's.
sl::Result<std::string> text_arg(const char* name, const val& value, const char* what) {
  if (!value.isString()) {
    return sl::invalid(name, std::string(name) + " must be a string (" + what + "), got " + js_type(value));
  }
  return value.as<std::string>();
}

// Values arrive as text, except file parameters, which arrive as a Uint8Array (Embind copies its bytes
// into the std::string).
sl::Result<std::map<std::string, std::string>> raw_inputs(const val& inputs) {
  if (inputs.isUndefined()) return std::map<std::string, std::string>{};   // no inputs: every default
  if (inputs.typeOf().as<std::string>() != "object" || inputs.isNull() || is_array(inputs) ||
      is_view(inputs)) {
    return sl::invalid("inputs", "inputs must be an object {parameter: text}, got " + js_type(inputs));
  }
  std::map<std::string, std::string> raw;
  const val keys = val::global("Object").call<val>("keys", inputs);
  const int num_keys = keys["length"].as<int>();
  for (int i = 0; i < num_keys; ++i) {
    const std::string key = keys[i].as<std::string>();
    const val value = inputs[key];
    if (value.isString()) {
      raw[key] = value.as<std::string>();
    } else if (is_view(value) && value.instanceof(val::global("Uint8Array"))) {
      raw[key] = value.as<std::string>();
    } else {
      return sl::invalid(key, "the value of '" + key + "' must be a string (or a Uint8Array for a file), got " +
                                  js_type(value));
    }
  }
  return raw;
}

val probe_plan(const val& cell, const val& inputs) {
  const auto id = text_arg("cell", cell, "a cell id such as queues/littles-law");
  if (!id.ok()) return sl::bindings::to_val(id.error());
  const auto raw = raw_inputs(inputs);
  if (!raw.ok()) return sl::bindings::to_val(raw.error());
  auto tasks = sl::plan_probes(id.value(), raw.value());
  return tasks.ok() ? sl::bindings::to_val(tasks.value()) : sl::bindings::to_val(tasks.error());
}

// on_progress is null, undefined or a function that never throws: guard.js wraps the caller's in a try, since
// a JS exception unwinding through wasm frames would skip every C++ destructor (and the stack pointer's reset).
val run(const val& cell, const val& inputs, const val& seed, const val& on_progress) {
  const auto id = text_arg("cell", cell, "a cell id such as queues/littles-law");
  if (!id.ok()) return sl::bindings::to_val(id.error());
  const auto raw = raw_inputs(inputs);
  if (!raw.ok()) return sl::bindings::to_val(raw.error());
  const auto seed_text = text_arg("seed", seed, "an integer written in decimal");
  if (!seed_text.ok()) return sl::bindings::to_val(seed_text.error());
  const std::string progress_type = on_progress.typeOf().as<std::string>();
  if (progress_type != "function" && !on_progress.isNull() && !on_progress.isUndefined()) {
    return sl::bindings::to_val(
        sl::invalid("on_progress", "on_progress must be a function, null or undefined, got " + js_type(on_progress)));
  }
  sl::RunControl ctl;
  if (progress_type == "function") ctl = sl::RunControl([&](double frac) { on_progress(frac); });
  auto result = sl::run_cell(id.value(), raw.value(), seed_text.value(), ctl);
  return result.ok() ? sl::bindings::to_val(result.value()) : sl::bindings::to_val(result.error());
}

// The timing protocol the browser's probes follow (kernels/timing_protocol.h), so its constants exist once.
val timing_protocol() { return sl::bindings::to_val(sl::kernels::kTimingProtocol); }

}  // namespace

EMSCRIPTEN_BINDINGS(serving_lab) {
  emscripten::function("list_cells", &list_cells);
  emscripten::function("probe_plan", &probe_plan);
  emscripten::function("run", &run);
  emscripten::function("timing_protocol", &timing_protocol);
  emscripten::class_<sl::batching::LayerCall>("LayerCall")
      .constructor<int>()
      .function("call", &sl::batching::LayerCall::call)
      .function("empty", &sl::batching::LayerCall::empty);
}

// The same layer for the js_call probe as plain wasm exports (Module._sl_layer_*, the module's own export
// once called), so a call from JavaScript is a bare call into wasm, not Embind's generic invoker: what
// one call across the boundary costs. sl_layer_new returns 0 for a width outside [1, 256].
extern "C" {
EMSCRIPTEN_KEEPALIVE sl::batching::LayerCall* sl_layer_new(int width) {
  return width >= 1 && width <= 256 ? new sl::batching::LayerCall(width) : nullptr;
}
EMSCRIPTEN_KEEPALIVE void sl_layer_delete(sl::batching::LayerCall* layer) { delete layer; }
EMSCRIPTEN_KEEPALIVE float sl_layer_call(sl::batching::LayerCall* layer) { return layer->call(); }
EMSCRIPTEN_KEEPALIVE float sl_layer_empty(sl::batching::LayerCall* layer) { return layer->empty(); }
}
