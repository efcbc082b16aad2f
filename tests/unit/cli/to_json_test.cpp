#include <catch2/catch.hpp>

#include <cmath>

#include "cli/to_json.h"
#include "core/registry.h"

namespace SL_UNITY_ID {

// The JSON `serving-lab run --json` prints is the result's fields, in the schema's order (core/result_fields.h),
// with every double reading back exactly.
TEST_CASE("A run's JSON has the result's keys in order, and its numbers read back exactly", "[cli][json]") {
  sl::RunControl ctl;
  auto r = sl::run_cell("queues/littles-law", {{"lambda", "150"}}, "3", ctl);
  REQUIRE(r.ok());
  const auto j = sl::cli::to_json(r.value());
  std::vector<std::string> keys;
  for (const auto& [key, value] : j.items()) keys.push_back(key);
  CHECK(keys == std::vector<std::string>{"cell", "seed", "inputs", "outputs", "book", "tables", "notices", "fills"});
  CHECK(j["cell"] == "queues/littles-law");
  CHECK(j["seed"] == 3);
  CHECK(j["inputs"]["lambda"] == 150.0);
  for (const auto& [name, value] : r.value().outputs) {
    INFO(name);
    const auto text = j["outputs"][name].dump();
    CHECK(std::strtod(text.c_str(), nullptr) == value);
  }
  REQUIRE(j["tables"].contains("in_system"));
  CHECK(j["tables"]["in_system"]["t_s"].size() == r.value().tables.front().columns.front().second.size());
}

TEST_CASE("A cell's spec lists its parameters with aliases, outputs with units, and tables", "[cli][json]") {
  const auto* cell = sl::find_cell("queues/littles-law");
  REQUIRE(cell != nullptr);
  const auto j = sl::cli::to_json(*cell);
  CHECK(j["id"] == "queues/littles-law");
  CHECK(j["params"].size() == cell->params.size());
  CHECK(j["outputs"].size() == cell->outputs.size());
  CHECK(j["tables"].size() == cell->tables.size());
  bool has_unit = false;
  for (const auto& o : j["outputs"]) has_unit = has_unit || (o["name"] == "W_ms" && o["unit"] == "ms");
  CHECK(has_unit);
}

TEST_CASE("An error prints as {error: {code, param, message, args}}", "[cli][json]") {
  const auto j = sl::cli::to_json(sl::too_large("n", 2, 1, "requests"));
  REQUIRE(j.contains("error"));
  CHECK(j["error"]["code"] == "too_large");
  CHECK(j["error"]["param"] == "n");
  CHECK(j["error"]["args"]["max"] == "1");
}

}  // namespace SL_UNITY_ID
