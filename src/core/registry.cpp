#include "core/registry.h"

#include "core/result_check.h"
#include "core/text.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace sl {

// One call per domain; each lives in src/<lab>/cells.cpp.
namespace queues { std::vector<CellSpec> cells(); }
namespace batching { std::vector<CellSpec> cells(); }
namespace llm { std::vector<CellSpec> cells(); }
namespace request { std::vector<CellSpec> cells(); }

namespace {

/// Position of a cell id in cell_order(); ids the lab files do not list come last (a test fails on them).
std::size_t page_position(const std::string& id) {
  const auto& order = cell_order();
  return static_cast<std::size_t>(std::find(order.begin(), order.end(), id) - order.begin());
}

}  // namespace

const std::vector<CellSpec>& all_cells() {
  static const std::vector<CellSpec> cells = [] {
    std::vector<CellSpec> all;
    for (auto lab_cells : {queues::cells, batching::cells, llm::cells, request::cells})
      for (auto& cell : lab_cells()) all.push_back(std::move(cell));
    std::stable_sort(all.begin(), all.end(),
                     [](const CellSpec& a, const CellSpec& b) { return page_position(a.id) < page_position(b.id); });
    return all;
  }();
  return cells;
}

const CellSpec* find_cell(const std::string& id) {
  for (const auto& c : all_cells())
    if (c.id == id) return &c;
  return nullptr;
}

namespace {

bool input_matches(const Inputs& inputs, const std::string& name, const std::string& want) {
  for (const auto& v : inputs.values()) {
    if (v.name != name) continue;
    if (v.kind == ParamSpec::Kind::Choice) return v.text == want;
    const double w = std::strtod(want.c_str(), nullptr);
    return std::fabs(v.number - w) <= 1e-12 * std::fmax(1.0, std::fabs(w));
  }
  return false;
}

}  // namespace

std::vector<BookCheck> compare_with_book(const CellSpec& cell, const RunResult& result) {
  std::vector<BookCheck> checks;
  for (const auto& ref : book_refs()) {
    if (ref.cell != cell.id) continue;
    const double* ours = result.find_output(ref.output);
    if (ours == nullptr) continue;  // output absent at these inputs (e.g. a closed form for an unstable queue)
    BookCheck c;
    c.ref = ref.ref, c.output = ref.output, c.label = ref.label, c.book = ref.value, c.ours = *ours;
    c.unit = ref.unit, c.tolerance = ref.tolerance, c.relative = ref.tol_kind == "rel";
    c.difference = *ours - ref.value;
    c.rel_difference = ref.value != 0 ? (*ours - ref.value) / std::fabs(ref.value) : 0.0;
    c.kind = ref.kind, c.source = ref.source, c.tol_kind = ref.tol_kind, c.expect_differs = ref.expect_differs;
    for (const auto& [name, want] : ref.when) {
      c.when += (c.when.empty() ? "" : " ") + name + "=" + want;
      c.applies = c.applies && input_matches(result.inputs, name, want);
    }
    bool judged = true;  // an se row is judged only with our run's standard error beside it
    if (ref.tol_kind == "se") {
      const double* se = result.find_output(ref.se_output);
      judged = se != nullptr;
      c.ours_se = judged ? *se : 0.0;
      c.ref_se = ref.ref_se;
      c.allowed = ref.tolerance * std::sqrt(c.ours_se * c.ours_se + c.ref_se * c.ref_se);
    } else {
      c.allowed = c.relative ? ref.tolerance * std::fabs(ref.value) : ref.tolerance;
    }
    c.within = judged && std::fabs(c.difference) <= c.allowed;
    c.ok = judged && (c.within != ref.expect_differs);
    checks.push_back(std::move(c));
  }
  return checks;
}

std::vector<BookScenario> book_scenarios(const CellSpec& cell) {
  std::vector<BookScenario> scenarios(1);
  const auto defaults = parse_inputs(cell, {});
  for (const auto& ref : book_refs()) {
    if (ref.cell != cell.id) continue;
    bool at_defaults = defaults.ok();
    for (const auto& [name, want] : ref.when) at_defaults = at_defaults && input_matches(defaults.value(), name, want);
    const std::map<std::string, std::string> inputs(ref.when.begin(), ref.when.end());
    auto it = at_defaults ? scenarios.begin()
                          : std::find_if(scenarios.begin() + 1, scenarios.end(),
                                         [&](const BookScenario& s) { return s.inputs == inputs; });
    if (it == scenarios.end()) it = scenarios.insert(scenarios.end(), BookScenario{inputs, {}});
    it->refs.push_back(&ref);
  }
  return scenarios;
}

Result<std::vector<ProbeTask>> plan_probes(const std::string& id,
                                           const std::map<std::string, std::string>& raw_inputs) {
  const CellSpec* cell = find_cell(id);
  if (cell == nullptr) return Error{"unknown_cell", "", "no cell '" + id + "'", {{"cell", id}}};
  if (!cell->plan_probes) return std::vector<ProbeTask>{};
  auto inputs = parse_inputs(*cell, raw_inputs);
  if (!inputs.ok()) return inputs.error();
  return cell->plan_probes(inputs.value());
}

namespace {

Result<RunResult> run_checked_cell(const std::string& id, const std::map<std::string, std::string>& raw_inputs,
                                   const std::string& seed_text, RunControl& ctl) {
  const CellSpec* cell = find_cell(id);
  if (cell == nullptr)
    return Error{"unknown_cell", "", "no cell '" + echo(id) + "' (try: serving-lab list)", {{"cell", echo(id)}}};
  auto inputs = parse_inputs(*cell, raw_inputs);
  if (!inputs.ok()) return inputs.error();
  auto seed = parse_seed(seed_text);
  if (!seed.ok()) return seed.error();
  auto result = cell->run(inputs.value(), seed.value(), ctl);
  if (!result.ok() || ctl.validate_only) return result;  // validate_only: accepted, nothing run (checked_run.h)
  RunResult& r = result.value();
  r.cell = cell->id;
  r.seed = seed.value();
  r.inputs = std::move(inputs.value());
  r.book = compare_with_book(*cell, r);
  if (auto error = non_finite_value(cell->id, r)) return *error;
  for (const InputFill& fill : r.fills)  // a fill the cell does not declare has no label on the page
    SL_ASSERT(std::find(cell->fills.begin(), cell->fills.end(), fill.name) != cell->fills.end());
  ctl.finish();
  return result;
}

}  // namespace

Result<RunResult> run_cell(const std::string& id, const std::map<std::string, std::string>& raw_inputs,
                           const std::string& seed_text, RunControl& ctl) {
  auto result = run_checked_cell(id, raw_inputs, seed_text, ctl);
  if (!result.ok()) return printable(result.error());  // every message: one line of valid UTF-8
  return result;
}

}  // namespace sl
