// Cell llm/validation: the simulator against published measurements of real serving systems (issue 32 §3). Each
// point it can model (validation_points.h says which, and why not) is simulated at the page's default knobs; the
// knobs are calibrated on all of them (serving_calibration.h), and every point is predicted again with the knobs
// calibrated on the other points (leave-one-out). Per family of figures (TTFT; ITL or TPOT; E2E; throughput):
// the median and the worst relative error, default and calibrated; one table row per compared figure; the knobs
// fitted on all points offered to every cell of the page.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

#include "core/checked_run.h"
#include "core/stats.h"
#include "core/table_columns.h"
#include "core/units.h"
#include "llm/model_architecture.h"
#include "llm/simulator_cells.h"
#include "llm/validation_points.h"

namespace sl::llm {
namespace {

constexpr int kNumFamilies = 4;  // TTFT, ITL or TPOT, E2E, throughput

struct ValidationParams {
  EngineFilter filter = EngineFilter::All;
  std::int64_t max_requests = 500;
  int max_iterations = 6;
  std::vector<ValidationPoint> points;  ///< every measured point, modelled or not
  std::vector<ServingPoint> modelled;   ///< the modelled ones' serving points, in order
};

EngineFilter filter_of(const std::string& name) {
  if (name == "vllm") return EngineFilter::Vllm;
  if (name == "tensorrt-llm") return EngineFilter::TensorRtLlm;
  return EngineFilter::All;
}

Result<ValidationParams> validate_validation(const Inputs& in) {
  ValidationParams p;
  p.filter = filter_of(in.choice("engines"));
  p.max_requests = in.count("max_requests");
  p.max_iterations = static_cast<int>(in.count("iterations"));
  p.points = validation_points(p.max_requests, p.filter);
  for (const ValidationPoint& v : p.points)
    if (v.exclusion == Exclusion::None) p.modelled.push_back(v.serving);
  SL_ASSERT(p.modelled.size() >= 2);  // every filter takes a dozen points or more
  EngineWork largest;
  for (const ServingPoint& s : p.modelled) {
    const EngineWork one = calibration_work({s}, 0);
    if (one.bytes() > largest.bytes()) largest = one;
  }
  if (auto e = check_engine_budget(calibration_work(p.modelled, p.max_iterations), largest, "max_requests",
                                   "the published points' calibration (each Poisson point simulated " +
                                       std::to_string(planned_timed_simulations(p.max_iterations)) + " times)"))
    return *e;
  return p;
}

int family_of(Metric m) {
  switch (m) {
    case Metric::Ttft: return 0;
    case Metric::Itl: case Metric::Tpot: return 1;
    case Metric::E2e: return 2;
    default: return 3;
  }
}

/// Latencies in ms, throughput in tokens/s: the table's one unit per metric.
double shown(Metric m, double value) { return m == Metric::Throughput ? value : value * units::kMsPerS; }

/// The table's `gpu` codes: 0 H100 SXM, 1 A100 80 GB, 2 no preset, then the other presets (codes fixed here, not
/// by the presets' order, so the lab file's labels stay put).
int gpu_code(const std::string& sku) {
  static const char* const kIds[] = {"h100", "a100", "", "h200", "b200", "l40s", "a100-40gb", "h100-pcie", "mi300x", "mi325x"};
  const GpuPreset* preset = gpu_preset_of(sku);
  if (preset == nullptr) return 2;
  for (int code = 0; code < static_cast<int>(std::size(kIds)); ++code)
    if (preset->id == kIds[code]) return code;
  SL_ASSERT(false);  // a preset without a code: add it here and in labs/llm/validation.json
  return 2;
}
int engine_code(const std::string& engine) { return engine == "vllm" ? 0 : engine == "sglang" ? 1 : 2; }

/// A knob as shown: efficiencies as fractions, taxes in ms.
double knob_shown(const std::vector<double>& theta, int j) {
  return j >= static_cast<int>(Knob::LayerTax) ? theta[static_cast<std::size_t>(j)] * units::kMsPerS
                                                : theta[static_cast<std::size_t>(j)];
}

std::string rounded(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", x);
  return buf;
}

/// The knobs as the page's parameters take them (efficiency_frac, bw_efficiency_frac, layer_tax_ms, dispatch_tax_ms).
InputFill knobs_fill(const StepKnobs& k) {
  return InputFill{"fitted_knobs", true,
                   {{"efficiency_frac", rounded(k.compute_efficiency)}, {"bw_efficiency_frac", rounded(k.bandwidth_efficiency)},
                    {"layer_tax_ms", rounded(k.layer_tax_s * units::kMsPerS)},
                    {"dispatch_tax_ms", rounded(k.dispatch_tax_s * units::kMsPerS)}}};
}

void error_outputs(const std::vector<double> (&start)[kNumFamilies], const std::vector<double> (&loo)[kNumFamilies],
                   RunResult& result) {
  // Literal names, one grep away: [family][median default, median calibrated, worst default, worst calibrated].
  static const char* const kNames[kNumFamilies][4] = {
      {"ttft_median_err_default_pct", "ttft_median_err_pct", "ttft_worst_err_default_pct", "ttft_worst_err_pct"},
      {"itl_median_err_default_pct", "itl_median_err_pct", "itl_worst_err_default_pct", "itl_worst_err_pct"},
      {"e2e_median_err_default_pct", "e2e_median_err_pct", "e2e_worst_err_default_pct", "e2e_worst_err_pct"},
      {"throughput_median_err_default_pct", "throughput_median_err_pct", "throughput_worst_err_default_pct",
       "throughput_worst_err_pct"}};
  for (int f = 0; f < kNumFamilies; ++f) {
    if (start[f].empty()) continue;
    result.output(kNames[f][0], 100 * quantile(start[f], 0.5));
    result.output(kNames[f][1], 100 * quantile(loo[f], 0.5));
    result.output(kNames[f][2], 100 * *std::max_element(start[f].begin(), start[f].end()));
    result.output(kNames[f][3], 100 * *std::max_element(loo[f].begin(), loo[f].end()));
  }
}

/// One row per compared figure, and the absolute errors by family.
void comparison_table(const ValidationParams& p, const Calibration& c, const LeaveOneOut& loo, RunResult& result,
                      std::vector<double> (&start)[kNumFamilies], std::vector<double> (&calibrated)[kNumFamilies]) {
  TableColumns table;
  std::size_t k = 0;
  for (const ValidationPoint& v : p.points) {
    if (v.exclusion != Exclusion::None) continue;
    const MeasuredPoint& m = measured_points()[static_cast<std::size_t>(v.index)];
    const WorkloadRecipe& w = v.serving.workload;
    for (std::size_t t = 0; t < v.serving.targets.size(); ++t) {
      const Target& target = v.serving.targets[t];
      const double e0 = relative_error(c.at_start[k][t], target.measured), e1 = relative_error(loo.predictions[k][t], target.measured);
      start[family_of(target.metric)].push_back(std::fabs(e0));
      calibrated[family_of(target.metric)].push_back(std::fabs(e1));
      table.put({{"point", static_cast<double>(v.index)}, {"source", static_cast<double>(source_code(m))},
                 {"engine", engine_code(m.engine)}, {"params_b", m.params_b}, {"gpu", gpu_code(m.gpu_sku)},
                 {"tp", static_cast<double>(m.tp)}, {"arrival", static_cast<double>(v.arrival)},
                 {"rate_per_s", w.arrival == Arrival::Poisson ? w.rate_per_s : 0.0},
                 {"prompt_tokens", static_cast<double>(w.prompt_tokens)}, {"output_tokens", static_cast<double>(w.output_tokens)},
                 {"requests", static_cast<double>(w.num_requests)}, {"metric", static_cast<double>(target.metric)},
                 {"stat", static_cast<double>(target.stat)}, {"measured", shown(target.metric, target.measured)},
                 {"default", shown(target.metric, c.at_start[k][t])}, {"calibrated", shown(target.metric, loo.predictions[k][t])},
                 {"default_err_pct", 100 * e0}, {"calibrated_err_pct", 100 * e1}});
    }
    ++k;
  }
  table.into(result.table("validation"));
}

void excluded_table(const ValidationParams& p, RunResult& result) {
  TableColumns table;
  bool any = false;
  for (const ValidationPoint& v : p.points) {
    if (v.exclusion == Exclusion::None || v.exclusion == Exclusion::Engine) continue;
    const MeasuredPoint& m = measured_points()[static_cast<std::size_t>(v.index)];
    table.put({{"point", static_cast<double>(v.index)}, {"source", static_cast<double>(source_code(m))},
               {"engine", engine_code(m.engine)}, {"params_b", m.params_b}, {"gpu", gpu_code(m.gpu_sku)},
               {"exclusion", static_cast<double>(v.exclusion)}});
    any = true;
  }
  if (any) table.into(result.table("excluded"));
}

void knobs_table(const Calibration& c, const LeaveOneOut& loo, RunResult& result) {
  TableColumns table;
  const std::vector<double> start = knob_vector(c.start), fitted = knob_vector(c.fitted);
  for (int j = 0; j < kNumKnobs; ++j) {
    double lo = knob_shown(fitted, j), hi = lo;
    for (const StepKnobs& k : loo.knobs) {
      lo = std::min(lo, knob_shown(knob_vector(k), j));
      hi = std::max(hi, knob_shown(knob_vector(k), j));
    }
    table.put({{"knob", static_cast<double>(j)}, {"default", knob_shown(start, j)}, {"fitted", knob_shown(fitted, j)},
               {"fold_min", lo}, {"fold_max", hi}, {"unseen", c.is_unseen[static_cast<std::size_t>(j)] ? 1.0 : 0.0}});
  }
  table.into(result.table("knobs"));
}

void notices(const ValidationParams& p, RunResult& result) {
  std::int64_t excluded = 0, dropped = 0, assumed = 0, total = 0;
  for (const ValidationPoint& v : p.points) {
    if (v.exclusion == Exclusion::Engine) continue;
    ++total;
    excluded += v.exclusion != Exclusion::None;
    dropped += v.exclusion == Exclusion::None && v.dropped_latency;
    assumed += v.exclusion == Exclusion::None && v.arrival == ArrivalCode::RateAssumedPoisson;
  }
  if (excluded > 0)
    result.notice("points_excluded", std::to_string(excluded) + " of the " + std::to_string(total) +
                                         " published points are not simulated (a GPU without a preset, lengths not stated...): "
                                         "the excluded table says why, point by point.");
  if (dropped > 0)
    result.notice("latency_dropped", std::to_string(dropped) + " saturated point(s), simulated with fewer requests than "
                                         "the source sent, are compared on throughput only: their latencies grow with the count.");
  if (assumed > 0)
    result.notice("rate_assumed_poisson", std::to_string(assumed) + " point(s) state a request rate but not how arrivals "
                                              "were spaced: they run as Poisson arrivals.");
}

Result<RunResult> run_validation(const ValidationParams& p, std::uint64_t seed, RunControl& ctl) {
  RunControl calibrating([&ctl](double f) { ctl.report(0.9 * f, 1); });
  CalibrationOptions options;
  options.max_iterations = p.max_iterations;
  options.need_jacobian_at_fitted = true;
  auto c = calibrate_serving(p.modelled, page_default_knobs(), options, seed, calibrating);
  if (!c.ok()) return c.error();
  RunControl folds([&ctl](double f) { ctl.report(0.9 + 0.1 * f, 1); });
  auto loo = leave_one_out(p.modelled, c.value(), seed, folds);
  if (!loo.ok()) return loo.error();
  RunResult result;
  std::vector<double> start[kNumFamilies], calibrated[kNumFamilies];
  comparison_table(p, c.value(), loo.value(), result, start, calibrated);
  excluded_table(p, result);
  knobs_table(c.value(), loo.value(), result);
  result.output("points_modelled", static_cast<double>(p.modelled.size()));
  std::int64_t excluded = 0;
  for (const ValidationPoint& v : p.points) excluded += v.exclusion != Exclusion::None && v.exclusion != Exclusion::Engine;
  result.output("points_excluded", static_cast<double>(excluded));
  error_outputs(start, calibrated, result);
  const StepKnobs& k = c.value().fitted;
  result.output("fitted_efficiency_frac", k.compute_efficiency);
  result.output("fitted_bw_efficiency_frac", k.bandwidth_efficiency);
  result.output("fitted_layer_tax_ms", k.layer_tax_s * units::kMsPerS);
  result.output("fitted_dispatch_tax_ms", k.dispatch_tax_s * units::kMsPerS);
  result.output("simulations", static_cast<double>(c.value().num_simulations));
  result.fills.push_back(knobs_fill(k));
  notices(p, result);
  return result;
}

}  // namespace

CellSpec validation_cell() {
  CellSpec cell{"llm/validation",
                {choice("engines", {"all", "vllm", "tensorrt-llm"}, "all"),
                 explored(count("max_requests", "requests", 500, 20, 100'000), 50, 1000),
                 count("iterations", "steps", 6, 1, 30)},
                checked_run(&validate_validation, &run_validation)};
  cell.outputs = {out("points_modelled", "points"), out("points_excluded", "points"), out("simulations", "runs")};
  const char* const families[kNumFamilies] = {"ttft", "itl", "e2e", "throughput"};
  for (const char* f : families)
    for (const char* suffix : {"_median_err_default_pct", "_median_err_pct", "_worst_err_default_pct", "_worst_err_pct"}) {
      OutputSpec spec = out(std::string(f) + suffix, "%");
      const bool always = f == families[0] || f == families[3];  // every filter has TTFT and throughput points
      cell.outputs.push_back(always ? spec : sometimes(spec));
    }
  for (const char* name : {"fitted_efficiency_frac", "fitted_bw_efficiency_frac"}) cell.outputs.push_back(out(name, ""));
  for (const char* name : {"fitted_layer_tax_ms", "fitted_dispatch_tax_ms"}) cell.outputs.push_back(out(name, "ms"));
  cell.tables = {table("validation"), table("excluded", Presence::SomeInputs), table("knobs")};
  cell.fills = {"fitted_knobs"};
  cell.budget = {describe_engine_budget() + ", over every Poisson point's " + std::to_string(planned_timed_simulations(6)) +
                 " simulations (at 6 steps) and every other point's one"};
  cell.validate = &validation_of<&validate_validation>;
  return cell;
}

}  // namespace sl::llm
