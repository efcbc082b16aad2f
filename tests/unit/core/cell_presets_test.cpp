// Parameter groups and presets (CellSpec::presets, ParamSpec::group): every llm cell groups every parameter, every
// llm and queues cell has a preset, and each preset passes its cell's validation and changes what it names.
#include <catch2/catch.hpp>

#include <set>

#include "core/registry.h"

namespace SL_UNITY_ID {

namespace {

bool in_lab(const sl::CellSpec& cell, std::initializer_list<const char*> labs) {
  for (const char* lab : labs)
    if (cell.lab() == lab) return true;
  return false;
}

const sl::ParamSpec* param_of(const sl::CellSpec& cell, const std::string& name) {
  for (const auto& p : cell.params)
    if (p.name == name) return &p;
  return nullptr;
}

}  // namespace

TEST_CASE("Every parameter of every llm cell has a group", "[core][presets]") {
  for (const auto& cell : sl::all_cells()) {
    if (cell.lab() != "llm") continue;
    for (const auto& p : cell.params) {
      INFO(cell.id << " " << p.name);
      CHECK(p.group != nullptr);
    }
  }
}

TEST_CASE("Every llm and queues cell has a preset, and each passes the cell's validation", "[core][presets]") {
  int checked = 0;
  for (const auto& cell : sl::all_cells()) {
    if (!in_lab(cell, {"llm", "queues"})) continue;
    INFO(cell.id);
    CHECK_FALSE(cell.presets.empty());
    std::set<std::string> ids;
    for (const auto& preset : cell.presets) {
      INFO(preset.id);
      CHECK(ids.insert(preset.id).second);
      REQUIRE_FALSE(preset.values.empty());
      auto defaults = sl::parse_inputs(cell, {});
      REQUIRE(defaults.ok());
      auto inputs = sl::parse_inputs(cell, {{"preset", preset.id}});
      REQUIRE(inputs.ok());
      // Each value it names is one of the cell's parameters, and at least one differs from the default.
      bool changes = false;
      for (const auto& [name, text] : preset.values) {
        INFO(name);
        const sl::ParamSpec* p = param_of(cell, name);
        REQUIRE(p != nullptr);
        if (p->kind == sl::ParamSpec::Kind::Choice) {
          CHECK(inputs.value().choice(name) == text);
          changes = changes || text != p->default_choice;
        } else {
          CHECK(inputs.value().real(name) == std::stod(text));
          changes = changes || std::stod(text) != p->default_value;
        }
      }
      CHECK(changes);
      // The run would start: the cell's own validation, budget included.
      sl::RunControl validation_alone;
      validation_alone.validate_only = true;
      auto run = sl::run_cell(cell.id, {{"preset", preset.id}}, "1", validation_alone);
      if (!run.ok()) FAIL_CHECK(run.error().param << ": " << run.error().message);
      ++checked;
    }
  }
  CHECK(checked >= 19);   // 12 llm cells and 7 queues cells, one preset each at least
}

TEST_CASE("A value given beside a preset wins over the preset's", "[core][presets]") {
  const sl::CellSpec* fleet = sl::find_cell("llm/fleet");
  REQUIRE(fleet != nullptr);
  auto inputs = sl::parse_inputs(*fleet, {{"preset", "chat-h100"}, {"lambda", "3"}});
  REQUIRE(inputs.ok());
  CHECK(inputs.value().real("lambda") == 3);
  CHECK(inputs.value().choice("model") == "llama3.1-8b");   // the preset's
  CHECK(inputs.value().count("replicas") == 1);             // the preset's, default 4
}

TEST_CASE("An unknown preset is a bad choice naming the presets; a cell without presets has none", "[core][presets]") {
  const sl::CellSpec* mm1 = sl::find_cell("queues/mm1-md1");
  REQUIRE(mm1 != nullptr);
  auto bad = sl::parse_inputs(*mm1, {{"preset", "nope"}});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().code == "bad_choice");
  CHECK(bad.error().param == "preset");
  CHECK(bad.error().args.front() == std::make_pair(std::string("choices"), std::string("slow-service")));
  for (const auto& cell : sl::all_cells()) {
    if (!cell.presets.empty()) continue;
    auto none = sl::parse_inputs(cell, {{"preset", "x"}});
    REQUIRE_FALSE(none.ok());
    CHECK(none.error().code == "unknown_param");
    break;
  }
}

}  // namespace SL_UNITY_ID
