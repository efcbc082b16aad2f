// A book comparison must be able to fail. For every row that is not a measurement (those time this host:
// their plausibility ranges are checked by `serving-lab check`), in the run `serving-lab check` makes of it
// (sl::book_scenarios: the defaults overridden by its `when`):
//  * some small change of the inputs moves "ours" (a constant cannot fail). Each parameter in turn is moved
//    (a real by 5 %, a count by max(1, 5 %), inside its range; a choice to each other choice), the rows'
//    `when` parameters first; a second pass moves by 25 % what the first did not (whole-number outputs such
//    as a Poisson quantile need a larger step), and
//  * "ours" is no input handed back: where it equals a numeric input x of the run, moving some other input
//    must move it off x. (Equality alone is allowed: at the book's 1,000 req/s, Little's L = 1,000/s x 50 ms
//    is 50, the latency's value in ms, and stays a real product.)
// Exempt: rows computed from ResNet-50's layer table, which no parameter changes (they fail if the table is
// wrong, not if an input moves): hidden-constants resnet_*, resnet-request resnet50_*.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cell_runner.h"
#include "core/registry.h"

namespace SL_UNITY_ID {

namespace {

/// The value as text that parses back to the same double.
std::string exact_text(double x) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", x);
  return text;
}

/// Other values of a parameter to try, nearest first: x (1 ± frac) for a real, ± max(1, frac x) for a count,
/// the other choices for a choice; only values inside the range and different from x.
std::vector<std::string> nearby_values(const sl::ParamSpec& p, const sl::Inputs::Value& v, double frac) {
  std::vector<std::string> values;
  if (p.kind == sl::ParamSpec::Kind::Choice) {
    for (const auto& c : p.choices)
      if (c != v.text) values.push_back(c);
    return values;
  }
  if (p.kind == sl::ParamSpec::Kind::Bytes) return values;
  const double x = v.number;
  const double step = p.kind == sl::ParamSpec::Kind::Count ? std::max(1.0, std::round(frac * std::fabs(x)))
                                                          : (x != 0 ? frac * std::fabs(x) : frac * (p.max - p.min));
  for (const double y : {x + step, x - step})
    if (y >= p.min && y <= p.max && y != x) values.push_back(exact_text(y));
  return values;
}

/// The run's raw inputs with one parameter set (its earlier names dropped, so that they do not clash).
std::map<std::string, std::string> with_value(std::map<std::string, std::string> inputs, const sl::ParamSpec& p,
                                              const std::string& value) {
  for (const auto& alias : p.aliases) inputs.erase(alias);
  inputs[p.name] = value;
  return inputs;
}

/// A row's value in the base run.
double unmoved_value(const sl::RunResult& r, const sl::BookRef* ref) { return *r.find_output(ref->output); }

bool is_exempt(const sl::BookRef& ref) {
  return ref.kind == "measurement" ||
         (ref.cell == "request/hidden-constants" && ref.output.rfind("resnet_", 0) == 0) ||
         (ref.cell == "request/resnet-request" && ref.output.rfind("resnet50_", 0) == 0);
}

}  // namespace

TEST_CASE("Every book row that is not a measurement moves when the inputs move, and hands back no input",
          "[labs][book][every-cell]") {
  int num_rows = 0;
  for (const auto& cell : sl::all_cells()) {
    for (const auto& scenario : sl::book_scenarios(cell)) {
      std::vector<const sl::BookRef*> refs;
      for (const auto* ref : scenario.refs)
        if (!is_exempt(*ref)) refs.push_back(ref);
      if (refs.empty()) continue;
      const sl::RunResult& r = cell_test::shared_run(cell.id, scenario.inputs);

      // Parameters to move: those of the rows' `when` first, then the rest in declaration order.
      std::set<std::string> in_when;
      for (const auto* ref : refs)
        for (const auto& [name, value] : ref->when) in_when.insert(name);
      std::vector<const sl::ParamSpec*> order;
      for (const bool first : {true, false})
        for (const auto& p : cell.params)
          if ((in_when.count(p.name) > 0) == first) order.push_back(&p);

      std::map<const sl::BookRef*, double> unmoved;                     // row -> ours at the base run
      std::set<std::pair<const sl::BookRef*, std::string>> equal_to;    // (row, input it equals)
      for (const auto* ref : refs) {
        const double* ours = r.find_output(ref->output);
        INFO(cell.id << " " << ref->ref << " " << ref->output);
        REQUIRE(ours != nullptr);
        unmoved[ref] = *ours;
        for (const auto& v : r.inputs.values())
          if ((v.kind == sl::ParamSpec::Kind::Real || v.kind == sl::ParamSpec::Kind::Count) && *ours == v.number)
            equal_to.insert({ref, v.name});
        ++num_rows;
      }
      for (const double frac : {0.05, 0.25}) {
        for (const auto* p : order) {
          if (unmoved.empty() && equal_to.empty()) break;
          const sl::Inputs::Value* v = nullptr;
          for (const auto& value : r.inputs.values())
            if (value.name == p->name) v = &value;
          if (v == nullptr) continue;
          for (const auto& value : nearby_values(*p, *v, frac)) {
            sl::RunControl quiet;
            auto moved = sl::run_cell(cell.id, with_value(scenario.inputs, *p, value), "1", quiet);
            if (!moved.ok()) continue;  // the cell's own rules refuse that combination: try the next one
            const auto now = [&](const sl::BookRef* ref) { return moved.value().find_output(ref->output); };
            for (auto it = unmoved.begin(); it != unmoved.end();) {
              const double* x = now(it->first);
              it = x != nullptr && *x != it->second ? unmoved.erase(it) : std::next(it);
            }
            for (auto it = equal_to.begin(); it != equal_to.end();) {  // another input moved it off that input
              const double* x = now(it->first);
              it = it->second != p->name && x != nullptr && *x != unmoved_value(r, it->first) ? equal_to.erase(it) : std::next(it);
            }
            break;
          }
        }
      }
      for (const auto& [ref, value] : unmoved) {
        INFO(cell.id << " " << ref->ref << " " << ref->output << " = " << value << ": no nearby input moves it (a constant)");
        CHECK(false);
      }
      for (const auto& [ref, input] : equal_to) {
        INFO(cell.id << " " << ref->ref << " " << ref->output << " = --" << input << ": only that input moves it (an echo)");
        CHECK(false);
      }
    }
  }
  CHECK(num_rows > 100);
}

}  // namespace SL_UNITY_ID
