#include <catch2/catch.hpp>

#include "cell_runner.h"
#include "core/budget.h"
#include "core/registry.h"

namespace SL_UNITY_ID {

namespace {

sl::Error run_error(const std::string& cell, std::map<std::string, std::string> raw, std::string seed = "1") {
  sl::RunControl ctl;
  auto r = sl::run_cell(cell, raw, seed, ctl);
  REQUIRE_FALSE(r.ok());
  return r.error();
}

}  // namespace

TEST_CASE("Bad inputs are errors that name the parameter and say why", "[core][cell]") {
  const std::string cell = "queues/littles-law";
  SECTION("negative rate") {
    const auto e = run_error(cell, {{"lambda", "-1"}});
    CHECK(e.code == "out_of_range");
    CHECK(e.param == "lambda");
    CHECK(e.message == "lambda must be a number in [1e-06, 1e+07] 1/s, got -1");
  }
  SECTION("NaN") { CHECK(run_error(cell, {{"mu", "NaN"}}).code == "not_finite"); }
  SECTION("infinity") { CHECK(run_error(cell, {{"mu", "inf"}}).code == "not_finite"); }
  SECTION("text") { CHECK(run_error(cell, {{"lambda", "fast"}}).code == "not_a_number"); }
  SECTION("empty") { CHECK(run_error(cell, {{"lambda", ""}}).code == "not_a_number"); }
  SECTION("trailing garbage") { CHECK(run_error(cell, {{"lambda", "3x"}}).code == "not_a_number"); }
  SECTION("absurd sample count") {
    const auto e = run_error(cell, {{"n", "1e12"}});
    CHECK(e.code == "out_of_range");
    CHECK(e.param == "n");
  }
  SECTION("fractional count") { CHECK(run_error(cell, {{"n", "10.5"}}).code == "not_integer"); }
  SECTION("bad choice") { CHECK(run_error(cell, {{"service", "gamma"}}).code == "bad_choice"); }
  SECTION("unknown parameter") { CHECK(run_error(cell, {{"lamda", "1"}}).code == "unknown_param"); }
  SECTION("unknown cell") { CHECK(run_error("queues/nope", {}).code == "unknown_cell"); }
  SECTION("negative seed") { CHECK(run_error(cell, {}, "-3").param == "seed"); }
  SECTION("seed beyond 2^53") { CHECK(run_error(cell, {}, "9007199254740993").code == "out_of_range"); }
}

TEST_CASE("Every cell runs at its defaults and every output is finite", "[core][cell][every-cell]") {
  for (const auto& cell : sl::all_cells()) {
    INFO(cell.id);
    const sl::RunResult& r = cell_test::shared_run(cell.id);
    CHECK_FALSE(r.outputs.empty());
    for (const auto& [name, value] : r.outputs) CHECK(std::isfinite(value));
  }
}

TEST_CASE("A cell's default cost is its cost model at the defaults: within the run budget, 0 without a model",
          "[core][cell][budget]") {
  for (const auto& cell : sl::all_cells()) {
    INFO(cell.id);
    CHECK(cell.default_cost_s() >= 0);
    // A default run is never refused: within a run's budget, or a search's (llm/capacity-search, which shows its
    // progress point by point and can be cancelled; its model counts every point run, pruning not counted on).
    const bool search = cell.id == "llm/capacity-search";
    CHECK(cell.default_cost_s() <= (search ? sl::budget::kMaxSearchSeconds : sl::budget::kMaxRunSeconds));
  }
  CHECK(sl::find_cell("queues/littles-law")->default_cost_s() == 0);  // a calculator
  // The lab page starts its costliest simulation early by this estimate: on the LLM page that is the validation
  // against published runs (49 configurations, each Poisson one simulated 17 times), then the fleet.
  const double validation_s = sl::find_cell("llm/validation")->default_cost_s();
  const double fleet_s = sl::find_cell("llm/fleet")->default_cost_s();
  CHECK(fleet_s > 0);
  CHECK(validation_s > fleet_s);
  for (const auto& cell : sl::all_cells())
    if (cell.lab() == "llm" && cell.deterministic && cell.id != "llm/fleet" && cell.id != "llm/validation" &&
        cell.id != "llm/capacity-search")
      CHECK(cell.default_cost_s() < fleet_s);
  // It follows the inputs the model counts: more requests, a higher estimate.
  const sl::CellSpec& mm1 = *sl::find_cell("queues/mm1-md1");
  auto more = sl::parse_inputs(mm1, {{"n", "2000000"}});
  REQUIRE(more.ok());
  sl::budget::Tally tally;
  mm1.validate(more.value());
  CHECK(tally.seconds() > mm1.default_cost_s());
}

TEST_CASE("A validate_only run (the default cost's) validates and runs nothing; a refused one still errs",
          "[core][cell][budget]") {
  sl::RunControl alone;
  alone.validate_only = true;
  for (const auto& cell : sl::all_cells()) {
    INFO(cell.id);
    auto defaults = sl::parse_inputs(cell, {});
    REQUIRE(defaults.ok());
    auto r = cell.run(defaults.value(), 1, alone);
    // A cell on a data asset the native build does not hold may refuse its defaults; every other passes.
    if (!r.ok()) continue;
    CHECK(r.value().outputs.empty());
    CHECK(r.value().tables.empty());
  }
  // Over the run budget (a fuzz corpus case, tests/fuzz/corpus/budget.txt): refused, as by a full run.
  const sl::CellSpec& energy = *sl::find_cell("llm/energy");
  auto too_many = sl::parse_inputs(energy, {{"user_tokens", "100000"}, {"chats", "50"}});
  REQUIRE(too_many.ok());
  auto refused = energy.run(too_many.value(), 1, alone);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().param == "chats");
}

TEST_CASE("Every parameter's default lies inside its own range", "[core][cell]") {
  for (const auto& cell : sl::all_cells())
    for (const auto& p : cell.params) {
      INFO(cell.id << " " << p.name);
      if (p.kind == sl::ParamSpec::Kind::Bytes) {
        CHECK(p.max > 0);
      } else if (p.kind == sl::ParamSpec::Kind::Choice) {
        CHECK(std::find(p.choices.begin(), p.choices.end(), p.default_choice) != p.choices.end());
      } else {
        CHECK(p.min <= p.default_value);
        CHECK(p.default_value <= p.max);
      }
    }
}

TEST_CASE("A book reference outside its scenario is shown but not judged", "[core][cell]") {
  sl::RunControl ctl;
  auto r = sl::run_cell("queues/littles-law", {{"qps", "2000"}, {"n", "1000"}}, "1", ctl);
  REQUIRE(r.ok());
  bool seen = false;
  for (const auto& c : r.value().book)
    if (c.ref == "napkin-1.2" && c.book == 50) {
      seen = true;
      CHECK_FALSE(c.applies);
      CHECK(c.ours == 100);
    }
  CHECK(seen);
}

TEST_CASE("Progress reports reach the callback and end at 1", "[core][cell]") {
  std::vector<double> fracs;
  sl::RunControl ctl([&](double f) { fracs.push_back(f); });
  auto r = sl::run_cell("queues/littles-law", {{"n", "200000"}}, "1", ctl);
  REQUIRE(r.ok());
  REQUIRE_FALSE(fracs.empty());
  CHECK(fracs.back() == 1.0);
  CHECK(std::is_sorted(fracs.begin(), fracs.end()));
}

TEST_CASE("A declared data asset arrives as bytes; an undeclared one is an unknown parameter", "[core][cell]") {
  sl::CellSpec cell{"test/asset", {sl::real("x", "", 1, 0, 2)}, nullptr};
  cell.assets = {{"digits", "data/digits.bin"}};
  const std::string data("\x00\x01\xff", 3);
  auto in = sl::parse_inputs(cell, {{"asset.digits", data}});
  REQUIRE(in.ok());
  REQUIRE(in.value().asset("digits") != nullptr);
  CHECK(*in.value().asset("digits") == data);
  CHECK(in.value().asset("other") == nullptr);
  CHECK(in.value().values().size() == 1);  // not a parameter: the result's inputs do not echo it
  auto unknown = sl::parse_inputs(cell, {{"asset.photos", data}});
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.error().code == "unknown_param");
  CHECK(unknown.error().param == "asset.photos");
}

TEST_CASE("A download declares the bytes of each choice and moves none by default", "[core][cell]") {
  const auto spec = sl::downloads(sl::choice("fetch", {"off", "small", "large"}, "off"), {0, 1e6, 1e8});
  CHECK(spec.network_bytes == std::vector<double>{0, 1e6, 1e8});
  CHECK(sl::choice("plain", {"a", "b"}, "a").network_bytes.empty());
}

TEST_CASE("Host measurements and files are checked like any input", "[core][cell]") {
  sl::CellSpec cell{"test/probe", {sl::real("x", "", 1, 0, 2), sl::bytes("photo", "image/jpeg", 8)}, nullptr};
  cell.probes = {"json_parse"};
  SECTION("samples of a declared probe are parsed, in order") {
    auto in = sl::parse_inputs(cell, {{"measured.json_parse.1000", "1e-6 2.5e-6,3e-6"}});
    REQUIRE(in.ok());
    const auto* samples = in.value().measured("json_parse.1000");
    REQUIRE(samples != nullptr);
    CHECK(*samples == std::vector<double>{1e-6, 2.5e-6, 3e-6});
    CHECK(in.value().measured("json_parse.10") == nullptr);
    CHECK(in.value().bytes("photo").empty());
  }
  SECTION("an undeclared probe is an unknown parameter") {
    auto in = sl::parse_inputs(cell, {{"measured.fetch.cold", "1"}});
    REQUIRE_FALSE(in.ok());
    CHECK(in.error().code == "unknown_param");
  }
  SECTION("negative, NaN or non-numeric samples are refused") {
    for (const char* bad : {"-1", "nan", "1 x", "inf"}) {
      INFO(bad);
      auto in = sl::parse_inputs(cell, {{"measured.json_parse.1", bad}});
      REQUIRE_FALSE(in.ok());
      CHECK(in.error().code == "bad_measurement");
    }
  }
  SECTION("a file up to its limit is kept byte for byte, a larger one is refused") {
    const std::string data("\xff\xd8\x00\x01\xff", 5);
    auto in = sl::parse_inputs(cell, {{"photo", data}});
    REQUIRE(in.ok());
    CHECK(in.value().bytes("photo") == data);
    auto big = sl::parse_inputs(cell, {{"photo", std::string(9, 'x')}});
    REQUIRE_FALSE(big.ok());
    CHECK(big.error().code == "too_large");
    CHECK(big.error().param == "photo");
  }
}

TEST_CASE("A parameter used only at some choices names a choice parameter of its cell and real choices",
          "[core][cell]") {
  int conditional = 0;
  for (const auto& cell : sl::all_cells())
    for (const auto& p : cell.params) {
      if (p.used_when_param.empty()) continue;
      ++conditional;
      INFO(cell.id << " " << p.name << " used when " << p.used_when_param);
      const sl::ParamSpec* owner = nullptr;
      for (const auto& q : cell.params)
        if (q.name == p.used_when_param) owner = &q;
      REQUIRE(owner != nullptr);
      CHECK(owner->kind == sl::ParamSpec::Kind::Choice);
      REQUIRE_FALSE(p.used_when_values.empty());
      for (const auto& v : p.used_when_values)
        CHECK(std::find(owner->choices.begin(), owner->choices.end(), v) != owner->choices.end());
    }
  CHECK(conditional > 0);  // the custom model/GPU fields and the linear service model's a, b
}

TEST_CASE("Every run at the defaults returns only declared outputs and tables, and every always-present one",
          "[core][cell][every-cell]") {
  for (const auto& cell : sl::all_cells()) {
    INFO(cell.id);
    const sl::RunResult& r = cell_test::shared_run(cell.id);
    for (const auto& [name, value] : r.outputs) {
      INFO("output " << name << " is declared");
      CHECK(cell.find_output(name) != nullptr);
    }
    for (const auto& t : r.tables) {
      INFO("table " << t.name << " is declared");
      CHECK(cell.find_table(t.name) != nullptr);
    }
    // Natively no browser measurement exists, so a browser-only output or table is absent here.
    for (const auto& o : cell.outputs) {
      INFO("output " << o.name << " (" << sl::presence_name(o.presence) << ")");
      if (o.presence == sl::Presence::Always) CHECK(r.find_output(o.name) != nullptr);
      if (o.presence == sl::Presence::BrowserOnly) CHECK(r.find_output(o.name) == nullptr);
    }
    for (const auto& t : cell.tables) {
      bool present = false;
      for (const auto& have : r.tables) present = present || have.name == t.name;
      INFO("table " << t.name << " (" << sl::presence_name(t.presence) << ")");
      if (t.presence == sl::Presence::Always) CHECK(present);
      if (t.presence == sl::Presence::BrowserOnly) CHECK_FALSE(present);
    }
  }
}

TEST_CASE("A parameter's old name is accepted as its name, and giving both is an error", "[core][cell]") {
  sl::CellSpec cell{"queues/test", {sl::aliased(sl::real("lambda_per_s", "1/s", 1, 0, 10), {"qps"})}, nullptr};
  auto by_old = sl::parse_inputs(cell, {{"qps", "3"}});
  REQUIRE(by_old.ok());
  CHECK(by_old.value().real("lambda_per_s") == 3);
  auto by_new = sl::parse_inputs(cell, {{"lambda_per_s", "4"}});
  REQUIRE(by_new.ok());
  CHECK(by_new.value().real("lambda_per_s") == 4);
  auto both = sl::parse_inputs(cell, {{"qps", "3"}, {"lambda_per_s", "4"}});
  REQUIRE_FALSE(both.ok());
  CHECK(both.error().param == "lambda_per_s");
  auto unknown = sl::parse_inputs(cell, {{"lambda", "3"}});
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.error().code == "unknown_param");
}

}  // namespace SL_UNITY_ID
