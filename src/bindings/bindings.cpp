// The whole wasm boundary: two exports, no per-cell code, no arithmetic (docs/boundary.md).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <map>
#include <string>

#include "bindings/to_val.h"
#include "core/registry.h"

namespace {

using emscripten::val;

val list_cells() {
  val cells = val::array();
  for (const auto& c : sl::all_cells()) cells.call<void>("push", sl::bindings::to_val(c));
  return cells;
}

val run(const std::string& cell, const val& inputs, const std::string& seed, const val& on_progress) {
  std::map<std::string, std::string> raw;
  const val keys = val::global("Object").call<val>("keys", inputs);
  const int num_keys = keys["length"].as<int>();
  for (int i = 0; i < num_keys; ++i) {
    const std::string key = keys[i].as<std::string>();
    raw[key] = val::global("String")(inputs[key]).as<std::string>();
  }
  sl::RunControl ctl;
  if (on_progress.typeOf().as<std::string>() == "function") ctl = sl::RunControl([&](double frac) { on_progress(frac); });
  auto result = sl::run_cell(cell, raw, seed, ctl);
  return result.ok() ? sl::bindings::to_val(result.value()) : sl::bindings::to_val(result.error());
}

}  // namespace

EMSCRIPTEN_BINDINGS(serving_lab) {
  emscripten::function("list_cells", &list_cells);
  emscripten::function("run", &run);
}
