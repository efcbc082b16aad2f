#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <set>

#include "cell_runner.h"
#include "core/registry.h"

namespace SL_UNITY_ID {

TEST_CASE("Cell ids are unique and find_cell finds each one, nothing else", "[core][registry]") {
  std::set<std::string> ids;
  for (const auto& cell : sl::all_cells()) {
    CHECK(ids.insert(cell.id).second);
    CHECK(sl::find_cell(cell.id) == &cell);
  }
  CHECK(sl::find_cell("queues/no-such-cell") == nullptr);
  CHECK(sl::find_cell("") == nullptr);
}

TEST_CASE("An unknown cell is an error value for run and probe planning", "[core][registry]") {
  sl::RunControl ctl;
  auto run = sl::run_cell("nope/cell", {}, "1", ctl);
  REQUIRE_FALSE(run.ok());
  CHECK(run.error().code == "unknown_cell");
  auto plan = sl::plan_probes("nope/cell", {});
  REQUIRE_FALSE(plan.ok());
  CHECK(plan.error().code == "unknown_cell");
}

TEST_CASE("A bad seed is an error naming the seed", "[core][registry]") {
  sl::RunControl ctl;
  for (const char* seed : {"-1", "1.5", "9007199254740992", "x"}) {
    INFO(seed);
    auto run = sl::run_cell("queues/littles-law", {}, seed, ctl);
    REQUIRE_FALSE(run.ok());
    CHECK(run.error().param == "seed");
  }
}

TEST_CASE("Each book comparison is judged against its own tolerance, and only at the book's inputs",
          "[core][registry][every-cell]") {
  // Every reference the lab files hold is attached to its cell's runs at the defaults; the verdict is
  // |ours - book| <= tolerance (relative ones scaled by |book|; se ones: z x sqrt(ours_se^2 + ref_se^2)),
  // recomputed here from the row's own numbers, and an expected difference passes only outside it.
  for (const auto& cell : sl::all_cells()) {
    const sl::RunResult& run = cell_test::shared_run(cell.id);
    for (const auto& c : run.book) {
      INFO(cell.id << " " << c.ref << " " << c.output);
      const double allowed = c.tol_kind == "se"    ? c.tolerance * std::hypot(c.ours_se, c.ref_se)
                             : c.tol_kind == "rel" ? c.tolerance * std::abs(c.book)
                                                   : c.tolerance;
      CHECK(c.allowed == Approx(allowed).epsilon(1e-12));
      // An se row is judged only when the run has its standard error (e.g. burst SEs need replicas >= 2).
      const auto ref = std::find_if(sl::book_refs().begin(), sl::book_refs().end(), [&](const sl::BookRef& b) {
        return b.cell == cell.id && b.ref == c.ref && b.output == c.output && b.label == c.label;
      });
      REQUIRE(ref != sl::book_refs().end());
      const bool judged = c.tol_kind != "se" || run.find_output(ref->se_output) != nullptr;
      CHECK(c.within == (judged && std::abs(c.ours - c.book) <= c.allowed));
      CHECK(c.ok == (c.within != c.expect_differs));
      CHECK(c.difference == c.ours - c.book);
    }
  }
  // Off the book's scenario the row is still shown, marked as not applying.
  sl::RunControl ctl;
  auto off = sl::run_cell("queues/littles-law", {{"qps", "2000"}}, "1", ctl);
  REQUIRE(off.ok());
  bool some_off = false;
  for (const auto& c : off.value().book) some_off = some_off || !c.applies;
  CHECK(some_off);
}

TEST_CASE("Every slider range lies inside its parameter's range and holds its default", "[core][registry]") {
  for (const auto& cell : sl::all_cells())
    for (const auto& p : cell.params) {
      if (p.slider_min == 0 && p.slider_max == 0) continue;
      INFO(cell.id << " --" << p.name);
      CHECK((p.kind == sl::ParamSpec::Kind::Real || p.kind == sl::ParamSpec::Kind::Count));
      CHECK(p.slider_min < p.slider_max);
      CHECK(p.slider_min >= p.min);
      CHECK(p.slider_max <= p.max);
      CHECK(p.default_value >= p.slider_min);
      CHECK(p.default_value <= p.slider_max);
    }
}

TEST_CASE("explored() sets the slider range and nothing else", "[core][cell]") {
  auto p = sl::explored(sl::real("lambda_per_s", "1/s", 100, 0, 1e9), 1, 1000);
  CHECK(p.slider_min == 1);
  CHECK(p.slider_max == 1000);
  CHECK(p.min == 0);
  CHECK(p.max == 1e9);
  CHECK(p.default_value == 100);
}

}  // namespace SL_UNITY_ID
