// Cell llm/validation: the simulator against published measurements of real serving systems (issues 32 and 37).
// Each point it can model (validation_points.h says which, and why not) is simulated at the page's default knobs
// (the book's model); then each source's points calibrate the knobs (serving_calibration.h: the book's four terms and
// the mechanisms' four, step_time.h), and every point is predicted again with the knobs calibrated on the other
// points of its source (leave-one-out). Per family of figures (TTFT; ITL or TPOT; E2E mean or median; E2E p99;
// throughput): the median and the worst relative error, default and held out; one table row per compared figure;
// each source's knobs. `switch_off` names one mechanism to run without, every fit redone (one row of the ablation
// table in docs/fidelity.md, which tools/ablation.sh makes by running each in turn). The
// first source's knobs (vLLM's) are offered to every cell of the page.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>

#include "core/checked_run.h"
#include "core/preset.h"
#include "core/stats.h"
#include "core/table_columns.h"
#include "core/units.h"
#include "llm/model/model_architecture.h"
#include "llm/simulator_cells.h"
#include "llm/calibration/validation_points.h"
#include "llm/engine/step_model.h"

namespace sl::llm {
namespace {

constexpr int kNumFamilies = 5;  // TTFT, ITL or TPOT, E2E (mean or median), E2E p99, throughput
constexpr int kDefaultIterations = 8;  // trust-region steps; at 4/6/8, vLLM's held-out E2E was 21.5/15.1/7.0 %

/// The mechanisms `switch_off` can switch off (step_time.h), or none.
enum class Mechanism { None = -1, LayerTaxEveryStep = 0, HostTime = 1, RequestOverhead = 2, ShortStepEfficiency = 3,
                       CudaGraphPadding = 4, Collectives = 5, LowPrecisionEfficiency = 6, LmHeadAndEmbedding = 7,
                       AttentionRoofline = 8, FirstTextLag = 9 };
/// The `switch_off` choices, in Mechanism order after "none".
const std::vector<std::string>& mechanism_names() {
  static const std::vector<std::string> names = {"none", "layer_tax_every_step", "host_time", "request_overhead",
                                                 "short_step_efficiency", "cuda_graph_padding", "collectives",
                                                 "low_precision_efficiency", "lm_head_and_embedding",
                                                 "attention_roofline", "first_text_lag"};
  return names;
}

struct ValidationParams {
  EngineFilter filter = EngineFilter::All;
  std::int64_t max_requests = 500;
  int max_iterations = kDefaultIterations;
  Mechanism off = Mechanism::None;
  bool expert_efficiency = false;  ///< fit the expert layers' own efficiency too (off: the dense roofline's)
  std::vector<ValidationPoint> points;  ///< every measured point, modelled or not
  std::vector<ServingPoint> modelled;   ///< the modelled ones' serving points, in order
};

EngineFilter filter_of(const std::string& name) {
  if (name == "vllm") return EngineFilter::Vllm;
  if (name == "tensorrt-llm") return EngineFilter::TensorRtLlm;
  return EngineFilter::All;
}

std::vector<std::pair<int, std::vector<std::size_t>>> source_groups(const ValidationParams& p);
std::vector<ServingPoint> subset(const std::vector<ServingPoint>& points, const std::vector<std::size_t>& members);

/// Every knob, the expert layers' share only when asked for.
KnobMask mechanisms_free(const ValidationParams& p) {
  KnobMask free = kAllKnobs;
  free[static_cast<std::size_t>(Knob::ExpertEfficiency)] = p.expert_efficiency;
  return free;
}

/// The calibrations' work: each source's Poisson points simulated once per trial and per knob that moves them.
EngineWork validation_work(const ValidationParams& p) {
  EngineWork total;
  for (const auto& [source, members] : source_groups(p))
    total += calibration_work(subset(p.modelled, members), p.max_iterations, mechanisms_free(p));
  return total;
}

Result<ValidationParams> validate_validation(const Inputs& in) {
  ValidationParams p;
  p.filter = filter_of(in.choice("engines"));
  p.max_requests = in.count("max_requests");
  p.max_iterations = static_cast<int>(in.count("iterations"));
  const auto& names = mechanism_names();
  p.off = static_cast<Mechanism>(std::find(names.begin(), names.end(), in.choice("switch_off")) - names.begin() - 1);
  p.expert_efficiency = in.choice("expert_efficiency") == "fitted";
  p.points = validation_points(p.max_requests, p.filter);
  for (const ValidationPoint& v : p.points)
    if (v.exclusion == Exclusion::None) p.modelled.push_back(v.serving);
  SL_ASSERT(p.modelled.size() >= 2);  // every filter takes a dozen points or more
  EngineWork largest;
  for (const ServingPoint& s : p.modelled) {
    const EngineWork one = calibration_work({s}, 0);
    if (one.bytes() > largest.bytes()) largest = one;
  }
  if (auto e = check_engine_budget(validation_work(p), largest, "max_requests",
                                   "the published points' calibration (each Poisson point simulated up to " +
                                       std::to_string(planned_timed_simulations(p.max_iterations, kAllKnobs)) + " times)"))
    return *e;
  return p;
}

int family_of(const Target& t) {
  switch (t.metric) {
    case Metric::Ttft: return 0;
    case Metric::Itl: case Metric::Tpot: return 1;
    case Metric::E2e: return t.stat == Stat::P99 ? 3 : 2;
    default: return 4;
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

/// A knob as shown: efficiencies as fractions, times in ms, half-efficiency tokens in tokens.
double knob_shown(const std::vector<double>& theta, int j) {
  const double x = theta[static_cast<std::size_t>(j)];
  const bool is_time = j >= static_cast<int>(Knob::LayerTax) && j != static_cast<int>(Knob::HalfEfficiencyTokens) &&
                       j != static_cast<int>(Knob::LowPrecisionEfficiency) && j != static_cast<int>(Knob::ExpertEfficiency) &&
                       j != static_cast<int>(Knob::FirstTextLag);
  return is_time ? x * units::kMsPerS : x;
}

/// The knobs as the page's parameters take them (step_model = custom and its fields), with the mechanisms vLLM's
/// points ran with (validation_points.cpp's config_of: real_server_mechanisms, NVLink's direct all-reduce).
InputFill knobs_fill(const StepKnobs& k) { return InputFill{"fitted_knobs", true, vllm_step_model_fields(k)}; }

void error_outputs(const std::vector<double> (&start)[kNumFamilies], const std::vector<double> (&loo)[kNumFamilies],
                   RunResult& result) {
  // Literal names, one grep away: [family][median default, median calibrated, worst default, worst calibrated].
  static const char* const kNames[kNumFamilies][4] = {
      {"ttft_median_err_default_pct", "ttft_median_err_pct", "ttft_worst_err_default_pct", "ttft_worst_err_pct"},
      {"itl_median_err_default_pct", "itl_median_err_pct", "itl_worst_err_default_pct", "itl_worst_err_pct"},
      {"e2e_median_err_default_pct", "e2e_median_err_pct", "e2e_worst_err_default_pct", "e2e_worst_err_pct"},
      {"e2e_p99_median_err_default_pct", "e2e_p99_median_err_pct", "e2e_p99_worst_err_default_pct",
       "e2e_p99_worst_err_pct"},
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
/// Every modelled point's figures at the page's defaults and held out (leave-one-out within its source's fit).
struct Predicted {
  std::vector<Predictions> at_start, held_out;
};

void comparison_table(const ValidationParams& p, const Predicted& c, RunResult& result,
                      std::vector<double> (&start)[kNumFamilies], std::vector<double> (&calibrated)[kNumFamilies]) {
  TableColumns table;
  std::size_t k = 0;
  for (const ValidationPoint& v : p.points) {
    if (v.exclusion != Exclusion::None) continue;
    if (c.held_out[k].empty()) {  // the only point of its source: nothing to fit it on without it
      ++k;
      continue;
    }
    const MeasuredPoint& m = measured_points()[static_cast<std::size_t>(v.index)];
    const WorkloadRecipe& w = v.serving.workload;
    for (std::size_t t = 0; t < v.serving.targets.size(); ++t) {
      const Target& target = v.serving.targets[t];
      const double e0 = relative_error(c.at_start[k][t], target.measured), e1 = relative_error(c.held_out[k][t], target.measured);
      start[family_of(target)].push_back(std::fabs(e0));
      calibrated[family_of(target)].push_back(std::fabs(e1));
      table.put({{"point", static_cast<double>(v.index)}, {"source", static_cast<double>(source_code(m))},
                 {"engine", engine_code(m.engine)}, {"params_b", m.params_b}, {"gpu", gpu_code(m.gpu_sku)},
                 {"tp", static_cast<double>(m.tp)}, {"arrival", static_cast<double>(v.arrival)},
                 {"rate_per_s", w.arrival == Arrival::Poisson ? w.rate_per_s : 0.0},
                 {"prompt_tokens", static_cast<double>(w.prompt_tokens)}, {"output_tokens", static_cast<double>(w.output_tokens)},
                 {"requests", static_cast<double>(w.num_requests)}, {"metric", static_cast<double>(target.metric)},
                 {"stat", static_cast<double>(target.stat)}, {"measured", shown(target.metric, target.measured)},
                 {"default", shown(target.metric, c.at_start[k][t])}, {"calibrated", shown(target.metric, c.held_out[k][t])},
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

/// The points with one mechanism switched off, and the knobs a fit may move then (a knob-shaped mechanism is off
/// when its knob stays at the start's 0).
std::vector<ServingPoint> without(const std::vector<ServingPoint>& points, Mechanism m, KnobMask& free) {
  std::vector<ServingPoint> out = points;
  const auto fix = [&free](Knob k) { free[static_cast<std::size_t>(k)] = false; };
  if (m == Mechanism::HostTime) fix(Knob::StepHost);
  if (m == Mechanism::RequestOverhead) fix(Knob::RequestOverhead);
  if (m == Mechanism::ShortStepEfficiency) fix(Knob::HalfEfficiencyTokens);
  if (m == Mechanism::LowPrecisionEfficiency) fix(Knob::LowPrecisionEfficiency);
  if (m == Mechanism::FirstTextLag) fix(Knob::FirstTextLag);
  for (ServingPoint& s : out) {
    if (m == Mechanism::LayerTaxEveryStep) s.config.gpu.layer_tax_every_step = false;
    if (m == Mechanism::CudaGraphPadding) s.config.gpu.cuda_graph_padding = false;
    if (m == Mechanism::LmHeadAndEmbedding) s.config.gpu.lm_head_and_embedding = false;
    if (m == Mechanism::AttentionRoofline) s.config.gpu.attention_roofline = false;
    if (m == Mechanism::Collectives) {  // a free, instant link: tensor parallelism's all-reduces cost nothing
      s.config.tp.link_bytes_per_s = std::numeric_limits<double>::infinity();
      s.config.tp.link_latency_s = 0;
    }
  }
  return out;
}

/// Calibration on `points` from the page's defaults, `free` knobs moved, and its leave-one-out.
struct Fitted {
  Calibration calibration;
  LeaveOneOut loo;
};
Result<Fitted> fit_and_hold_out(const std::vector<ServingPoint>& points, const KnobMask& free, const ValidationParams& p,
                                std::uint64_t seed, RunControl& ctl) {
  RunControl calibrating([&ctl](double f) { ctl.report(0.9 * f, 1); });
  CalibrationOptions options;
  options.max_iterations = p.max_iterations;
  options.need_jacobian_at_fitted = true;
  options.free = free;
  auto c = calibrate_serving(points, book_knobs(), options, seed, calibrating);
  if (!c.ok()) return c.error();
  RunControl folds([&ctl](double f) { ctl.report(0.9 + 0.1 * f, 1); });
  auto loo = leave_one_out(points, c.value(), seed, folds);
  if (!loo.ok()) return loo.error();
  return Fitted{std::move(c.value()), std::move(loo.value())};
}

/// One source's knobs, fitted on its own points: each source is one engine version measured by one client, and a
/// server's overheads are its own (vLLM's Python engine loop and HTTP server are not TensorRT-LLM's C++ runtime,
/// nor is TensorRT-LLM 0.5's session benchmark its 0.17 executor).
struct SourceFit {
  int source = 0;                    ///< source_code
  std::vector<std::size_t> members;  ///< indices into the modelled points
  Fitted fitted;
};

/// The modelled points grouped by source, in source-code order; a group of one point cannot be held out and is not
/// fitted (its figures are left out of the table; there is none today: every source has four points or more).
std::vector<std::pair<int, std::vector<std::size_t>>> source_groups(const ValidationParams& p) {
  std::vector<std::pair<int, std::vector<std::size_t>>> groups;
  std::size_t k = 0;
  for (const ValidationPoint& v : p.points) {
    if (v.exclusion != Exclusion::None) continue;
    const int code = static_cast<int>(source_code(measured_points()[static_cast<std::size_t>(v.index)]));
    auto it = std::find_if(groups.begin(), groups.end(), [code](const auto& g) { return g.first == code; });
    if (it == groups.end()) groups.push_back({code, {}}), it = groups.end() - 1;
    it->second.push_back(k++);
  }
  std::sort(groups.begin(), groups.end());
  return groups;
}

/// The knobs of `free` that some point of `points` can move (knobs_moving: the low-precision share only where a
/// step computes at an FP8 or FP4 peak, the client's knobs only where a client timed the figures they move, the
/// expert layers' share only on a mixture of experts).
KnobMask moved_by(const std::vector<ServingPoint>& points, const KnobMask& free) {
  KnobMask moved{};
  for (const ServingPoint& s : points) {
    const KnobMask by_point = knobs_moving(s, free);
    for (std::size_t j = 0; j < moved.size(); ++j) moved[j] = moved[j] || by_point[j];
  }
  return moved;
}

std::vector<ServingPoint> subset(const std::vector<ServingPoint>& points, const std::vector<std::size_t>& members) {
  std::vector<ServingPoint> out;
  for (const std::size_t i : members) out.push_back(points[i]);
  return out;
}

/// Each source's fit of `points` (the modelled ones, perhaps with a mechanism off) and its leave-one-out.
Result<std::vector<SourceFit>> fit_sources(const ValidationParams& p, const std::vector<ServingPoint>& points,
                                           const KnobMask& free, std::uint64_t seed, RunControl& ctl) {
  std::vector<SourceFit> fits;
  const auto groups = source_groups(p);
  double done = 0;
  for (const auto& [source, members] : groups) {
    if (members.size() < 2) continue;
    const double share = static_cast<double>(members.size()) / static_cast<double>(points.size());
    RunControl part([&ctl, done, share](double f) { ctl.report(done + share * f, 1); });
    const std::vector<ServingPoint> group = subset(points, members);
    auto fitted = fit_and_hold_out(group, moved_by(group, free), p, seed, part);
    if (!fitted.ok()) return fitted.error();
    fits.push_back({source, members, std::move(fitted.value())});
    done += share;
  }
  return fits;
}

/// The fits' figures, back in the modelled points' order.
Predicted predicted(const std::vector<SourceFit>& fits, std::size_t num_points) {
  Predicted out;
  out.at_start.resize(num_points);
  out.held_out.resize(num_points);
  for (const SourceFit& f : fits)
    for (std::size_t i = 0; i < f.members.size(); ++i) {
      out.at_start[f.members[i]] = f.fitted.calibration.at_start[i];
      out.held_out[f.members[i]] = f.fitted.loo.predictions[i];
    }
  return out;
}

void knobs_table(const std::vector<SourceFit>& fits, RunResult& result) {
  TableColumns table;
  for (const SourceFit& f : fits) {
    const Calibration& c = f.fitted.calibration;
    const std::vector<double> start = knob_vector(c.start), fitted = knob_vector(c.fitted);
    for (int j = 0; j < kNumKnobs; ++j) {
      double lo = knob_shown(fitted, j), hi = lo;
      for (const StepKnobs& k : f.fitted.loo.knobs) {
        lo = std::min(lo, knob_shown(knob_vector(k), j));
        hi = std::max(hi, knob_shown(knob_vector(k), j));
      }
      table.put({{"source", static_cast<double>(f.source)}, {"points", static_cast<double>(f.members.size())},
                 {"knob", static_cast<double>(j)}, {"default", knob_shown(start, j)}, {"fitted", knob_shown(fitted, j)},
                 {"fold_min", lo}, {"fold_max", hi}, {"unseen", c.is_unseen[static_cast<std::size_t>(j)] ? 1.0 : 0.0}});
    }
  }
  table.into(result.table("knobs"));
}

/// One row per source: its points, and the held-out median error of each family it publishes (-1: none)
/// -- the provenance of its knobs ("fitted to N runs of vLLM on H100, leave-one-out median error e %").
void sources_table(const ValidationParams& p, const std::vector<SourceFit>& fits, const Predicted& c, RunResult& result) {
  static const char* const kColumns[kNumFamilies] = {"ttft_median_err_pct", "itl_median_err_pct", "e2e_median_err_pct",
                                                      "e2e_p99_median_err_pct", "throughput_median_err_pct"};
  TableColumns table;
  for (const SourceFit& f : fits) {
    std::vector<double> errors[kNumFamilies];
    for (const std::size_t k : f.members)
      for (std::size_t t = 0; t < c.held_out[k].size(); ++t) {
        const Target& target = p.modelled[k].targets[t];
        errors[family_of(target)].push_back(std::fabs(relative_error(c.held_out[k][t], target.measured)));
      }
    table.put("source", static_cast<double>(f.source));
    table.put("points", static_cast<double>(f.members.size()));
    for (int family = 0; family < kNumFamilies; ++family)
      table.put(kColumns[family], errors[family].empty() ? -1.0 : 100 * quantile(errors[family], 0.5));
  }
  table.into(result.table("sources"));
}

Result<RunResult> run_validation(const ValidationParams& p, std::uint64_t seed, RunControl& ctl) {
  KnobMask free = mechanisms_free(p);
  const std::vector<ServingPoint> points = without(p.modelled, p.off, free);
  auto fits = fit_sources(p, points, free, seed, ctl);
  if (!fits.ok()) return fits.error();
  const Predicted c = predicted(fits.value(), points.size());
  RunResult result;
  std::vector<double> start[kNumFamilies], calibrated[kNumFamilies];
  comparison_table(p, c, result, start, calibrated);
  excluded_table(p, result);
  knobs_table(fits.value(), result);
  sources_table(p, fits.value(), c, result);
  result.output("points_modelled", static_cast<double>(p.modelled.size()));
  std::int64_t excluded = 0;
  for (const ValidationPoint& v : p.points) excluded += v.exclusion != Exclusion::None && v.exclusion != Exclusion::Engine;
  result.output("points_excluded", static_cast<double>(excluded));
  error_outputs(start, calibrated, result);
  // The page simulates vLLM: the first source's fit (inference-sim's vLLM runs) is the one offered (the first
  // TensorRT-LLM source's when only those points run).
  const SourceFit& offered = fits.value().front();
  const StepKnobs& k = offered.fitted.calibration.fitted;
  result.output({{"fitted_efficiency_frac", k.compute_efficiency},
                 {"fitted_bw_efficiency_frac", k.bandwidth_efficiency}});
  result.output_scaled(units::kMsPerS, {{"fitted_layer_tax_ms", k.layer_tax_s},
                                        {"fitted_dispatch_tax_ms", k.dispatch_tax_s},
                                        {"fitted_host_step_ms", k.step_host_s},
                                        {"fitted_request_overhead_ms", k.request_overhead_s}});
  result.output({{"fitted_half_efficiency_tokens", k.half_efficiency_tokens},
                 {"fitted_expert_efficiency_frac", k.expert_efficiency}});
  std::int64_t simulations = 0;
  for (const SourceFit& f : fits.value()) simulations += f.fitted.calibration.num_simulations;
  result.output("simulations", static_cast<double>(simulations));
  result.fills.push_back(knobs_fill(k));
  notices(p, result);
  return result;
}

}  // namespace

CellSpec validation_cell() {
  CellSpec cell = checked_cell<&validate_validation, &run_validation>("llm/validation",
      {choice("engines", {"all", "vllm", "tensorrt-llm"}, "all"),
       explored(count("max_requests", "requests", 500, 20, 100'000), 50, 1000),
       count("iterations", "steps", kDefaultIterations, 1, 30), choice("switch_off", mechanism_names(), "none"),
       choice("expert_efficiency", {"off", "fitted"}, "off")});
  cell.presets = presets_of({{"vllm-only", "engines=vllm"}});
  cell.outputs = {out("points_modelled", "points"), out("points_excluded", "points"), out("simulations", "runs")};
  const char* const families[kNumFamilies] = {"ttft", "itl", "e2e", "e2e_p99", "throughput"};
  for (const char* f : families)
    for (const char* suffix : {"_median_err_default_pct", "_median_err_pct", "_worst_err_default_pct", "_worst_err_pct"}) {
      OutputSpec spec = out(std::string(f) + suffix, "%");
      const bool always = f == families[0] || f == families[4];  // every filter has TTFT and throughput points
      cell.outputs.push_back(always ? spec : sometimes(spec));
    }
  for (const char* name : {"fitted_efficiency_frac", "fitted_bw_efficiency_frac"}) cell.outputs.push_back(out(name, ""));
  for (const char* name : {"fitted_layer_tax_ms", "fitted_dispatch_tax_ms", "fitted_host_step_ms", "fitted_request_overhead_ms"})
    cell.outputs.push_back(out(name, "ms"));
  cell.outputs.push_back(out("fitted_half_efficiency_tokens", "tokens"));
  cell.outputs.push_back(out("fitted_expert_efficiency_frac", ""));
  cell.tables = {table("validation"), table("excluded", Presence::SomeInputs), table("knobs"), table("sources")};
  cell.fills = {"fitted_knobs"};
  cell.budget = {describe_engine_budget() + ", over every Poisson point's " + std::to_string(planned_timed_simulations(kDefaultIterations, kAllKnobs)) +
                 " simulations (at " + std::to_string(kDefaultIterations) + " steps) and every other point's one"};
  return cell;
}

}  // namespace sl::llm
