// The whole wasm boundary: four exports, no per-cell code, no arithmetic (docs/boundary.md); plus the
// domain objects the browser probes call directly (web/probes/), bound as they are.
#include <emscripten/bind.h>
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
  for (const auto& c : sl::all_cells()) cells.call<void>("push", sl::bindings::to_val(c));
  return cells;
}

// Values arrive as text, except file parameters, which arrive as a Uint8Array (Embind copies its bytes
// into the std::string).
std::map<std::string, std::string> raw_inputs(const val& inputs) {
  std::map<std::string, std::string> raw;
  const val keys = val::global("Object").call<val>("keys", inputs);
  const int num_keys = keys["length"].as<int>();
  for (int i = 0; i < num_keys; ++i) {
    const std::string key = keys[i].as<std::string>();
    const val value = inputs[key];
    raw[key] = value.instanceof(val::global("Uint8Array")) ? value.as<std::string>()
                                                          : val::global("String")(value).as<std::string>();
  }
  return raw;
}

val probe_plan(const std::string& cell, const val& inputs) {
  auto tasks = sl::plan_probes(cell, raw_inputs(inputs));
  return tasks.ok() ? sl::bindings::to_val(tasks.value()) : sl::bindings::to_val(tasks.error());
}

val run(const std::string& cell, const val& inputs, const std::string& seed, const val& on_progress) {
  const auto raw = raw_inputs(inputs);
  sl::RunControl ctl;
  if (on_progress.typeOf().as<std::string>() == "function") ctl = sl::RunControl([&](double frac) { on_progress(frac); });
  auto result = sl::run_cell(cell, raw, seed, ctl);
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
