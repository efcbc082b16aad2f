// Cell llm/calibration: the step-time knobs fitted to your own measurements (issue 32 §2). The file (a vllm bench
// serve JSON, or a CSV of decode steps or of serving points: calibration_measurements.h) is measured on the
// deployment the cell's hardware, model and scheduler parameters describe. Decode steps are fitted on the step-time
// model directly; serving points by calibrating the simulator on them (serving_calibration.h), from the cell's own
// knobs. Fitted against measured, point by point, and the fitted knobs offered to every cell of the page.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/checked_run.h"
#include "core/preset.h"
#include "core/stats.h"
#include "core/table_columns.h"
#include "core/units.h"
#include "llm/calibration/bench_result.h"
#include "llm/calibration/calibration_measurements.h"
#include "llm/engine/engine_budget.h"
#include "llm/engine/engine_setup.h"
#include "llm/simulator_cells.h"

namespace sl::llm {
namespace {

constexpr int kStepFitIterations = 100;
constexpr double kStepMetric = 5;  // the table's metric code of a decode step (after Metric's)

struct CalibrationParams {
  EngineHardware hw;
  SchedulerInputs scheduler;
  bool prefix_caching = true;
  bool is_example = false;
  int max_iterations = 6;
  Measurements measurements;
  std::vector<LinedServingPoint> points;  ///< serving layouts
  std::int64_t num_cut = 0;
  StepKnobs start;
};

/// The requests the measurements need at once, longest: each serving point's prompt + output.
std::pair<std::int64_t, std::int64_t> longest_request(const Measurements& m, std::int64_t prompt, std::int64_t output) {
  std::pair<std::int64_t, std::int64_t> longest{0, 0};  // (tokens, line)
  for (const ServingMeasurement& s : m.serving) {
    const std::int64_t tokens = (s.prompt_tokens > 0 ? s.prompt_tokens : prompt) + (s.output_tokens > 0 ? s.output_tokens : output);
    if (tokens > longest.first) longest = {tokens, s.line};
  }
  return longest;
}

Result<CalibrationParams> validate_calibration(const Inputs& in) {
  CalibrationParams p;
  const std::string& file = in.bytes("measurements");
  p.is_example = file.empty();
  auto parsed = parse_measurements(p.is_example ? calibration_example_csv() : file, "measurements");
  if (!parsed.ok()) return parsed.error();
  p.measurements = std::move(parsed.value());
  p.max_iterations = static_cast<int>(in.count("iterations"));
  const std::int64_t max_model_len = in.count("max_model_len");
  const std::int64_t prompt = in.count("prompt_tokens"), output = in.count("output_tokens");
  const auto [longest, line] = longest_request(p.measurements, prompt, output);
  if (longest > max_model_len)
    return Error{"calib_too_long", "max_model_len",
                 "max_model_len = " + std::to_string(max_model_len) + " tokens is shorter than the requests of measurements "
                 "line " + std::to_string(line) + " (" + std::to_string(longest) + " tokens of prompt and output); raise it",
                 {{"got", std::to_string(max_model_len)}, {"min", std::to_string(longest)}, {"line", std::to_string(line)}}};
  auto hw = validate_engine_hardware(in, std::max<std::int64_t>(longest, 1), "max_model_len");
  if (!hw.ok()) return hw.error();
  p.hw = hw.value();
  auto scheduler = validate_scheduler(in, max_model_len);
  if (!scheduler.ok()) return scheduler.error();
  p.scheduler = scheduler.value();
  p.prefix_caching = in.choice("prefix_caching") == "on";
  p.start = clamped_to_box(knobs_of(p.hw.gpu));
  if (p.measurements.layout == MeasurementLayout::StepCsv) return p;  // at most 10,000 steps: milliseconds a fit
  MeasurementDefaults d;
  d.config = engine_config(p.hw, p.scheduler);
  d.config.kv_cache.enable_caching = p.prefix_caching;
  d.config.max_waiting = std::int64_t{1} << 40;  // calibration models no rejection
  d.max_requests = in.count("n");
  d.prompt_tokens = prompt;
  d.output_tokens = output;
  p.points = serving_points(p.measurements, d, p.num_cut);
  if (p.points.empty())
    return Error{"calib_empty", "measurements",
                 "measurements: no run the calibration can use (each was cut to n requests and measured no throughput)",
                 {{"line", "1"}}};
  std::vector<ServingPoint> points;
  EngineWork largest;
  for (const LinedServingPoint& l : p.points) {
    points.push_back(l.point);
    const EngineWork one = calibration_work({l.point}, 0);
    if (one.bytes() > largest.bytes()) largest = one;
  }
  if (auto e = check_engine_budget(calibration_work(points, p.max_iterations), largest, "n",
                                   "the calibration (each Poisson point simulated " +
                                       std::to_string(planned_timed_simulations(p.max_iterations)) + " times)"))
    return *e;
  return p;
}

double shown(double metric, double value) { return metric == static_cast<double>(Metric::Throughput) ? value : value * units::kMsPerS; }

/// One row per measured figure; the relative errors at the start and fitted knobs.
struct Rows {
  TableColumns table;
  std::vector<double> start_err, fitted_err;
  void put(double row, std::int64_t line, double metric, double stat, double measured, double start, double fitted) {
    const double e0 = relative_error(start, measured), e1 = relative_error(fitted, measured);
    start_err.push_back(std::fabs(e0));
    fitted_err.push_back(std::fabs(e1));
    table.put({{"row", row}, {"line", static_cast<double>(line)}, {"metric", metric}, {"stat", stat},
               {"measured", shown(metric, measured)}, {"start", shown(metric, start)}, {"fitted", shown(metric, fitted)},
               {"start_err_pct", 100 * e0}, {"fitted_err_pct", 100 * e1}});
  }
};

struct Fitted {
  StepKnobs knobs;
  std::vector<bool> is_unseen;
};

Result<Fitted> fit_steps(const CalibrationParams& p, Rows& rows) {
  std::vector<StepSample> samples;
  for (const StepMeasurement& s : p.measurements.steps) samples.push_back(s.sample);
  auto fit = fit_step_times(p.hw.model, p.hw.gpu, p.hw.tp, samples, p.start, kStepFitIterations);
  if (!fit.ok()) return fit.error();
  const StepTimeModel at_start(p.hw.model, with_knobs(p.hw.gpu, p.start), p.hw.tp);
  const StepTimeModel at_fitted(p.hw.model, with_knobs(p.hw.gpu, fit.value().knobs), p.hw.tp);
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const StepWork w = decode_work(samples[i]);
    rows.put(static_cast<double>(i), p.measurements.steps[i].line, kStepMetric, 0, samples[i].step_s,
             at_start(w).total_s, at_fitted(w).total_s);
  }
  return Fitted{fit.value().knobs, fit.value().is_unseen};
}

Result<Fitted> fit_serving(const CalibrationParams& p, std::uint64_t seed, RunControl& ctl, Rows& rows, RunResult& result) {
  std::vector<ServingPoint> points;
  for (const LinedServingPoint& l : p.points) points.push_back(l.point);
  CalibrationOptions options;
  options.max_iterations = p.max_iterations;
  auto c = calibrate_serving(points, p.start, options, seed, ctl);
  if (!c.ok()) return c.error();
  for (std::size_t i = 0; i < points.size(); ++i)
    for (std::size_t t = 0; t < points[i].targets.size(); ++t) {
      const Target& target = points[i].targets[t];
      rows.put(static_cast<double>(i), p.points[i].line, static_cast<double>(target.metric), static_cast<double>(target.stat),
               target.measured, c.value().at_start[i][t], c.value().at_fitted[i][t]);
    }
  result.output("simulations", static_cast<double>(c.value().num_simulations));
  return Fitted{c.value().fitted, c.value().is_unseen};
}

void knobs_table(const StepKnobs& start, const Fitted& f, RunResult& result) {
  TableColumns table;
  const std::vector<double> a = knob_vector(start), b = knob_vector(f.knobs);
  for (int j = 0; j < kNumKnobs; ++j) {
    if (!kBookKnobs[static_cast<std::size_t>(j)]) continue;  // the reader's runs fit the book's four terms
    const double scale = j >= static_cast<int>(Knob::LayerTax) ? units::kMsPerS : 1.0;  // taxes in ms
    table.put({{"knob", static_cast<double>(j)}, {"start", a[static_cast<std::size_t>(j)] * scale},
               {"fitted", b[static_cast<std::size_t>(j)] * scale}, {"unseen", f.is_unseen[static_cast<std::size_t>(j)] ? 1.0 : 0.0}});
  }
  table.into(result.table("knobs"));
}

void notices(const CalibrationParams& p, const Fitted& f, RunResult& result) {
  const Measurements& m = p.measurements;
  if (p.is_example)
    result.notice("calib_example", "No file given: the bundled example (made by this simulator at known knobs, "
                                   "assets/calibration/serving-example.csv) is fitted.");
  // Runs of the reader's file the simulation treats differently, each counted in a notice.
  const struct {
    std::int64_t runs;
    const char* code;
    const char* text;
  } counted[] = {
      {m.num_gated, "calib_gated", " run(s) at a finite rate also capped the client's concurrency: the cap is not "
                                   "modelled (it binds only when that many requests are in flight)."},
      {m.num_bursty, "calib_bursty", " run(s) drew burstier or smoother arrivals than Poisson (burstiness other than "
                                     "1): they run as Poisson arrivals."},
      {m.num_failed, "calib_failed", " run(s) had failed requests: their figures count the completed ones, the "
                                     "simulation serves them all."},
      {p.num_cut, "calib_cut", " burst or closed-loop run(s) sent more requests than 4 x n: simulated with fewer, "
                               "they are compared on throughput only."},
  };
  for (const auto& c : counted)
    if (c.runs > 0) result.notice(c.code, std::to_string(c.runs) + c.text);
  bool any_unseen = false;
  for (std::size_t j = 0; j < f.is_unseen.size(); ++j) any_unseen = any_unseen || (kBookKnobs[j] && f.is_unseen[j]);
  if (any_unseen)
    result.notice("calib_unseen", "Some knobs move none of these measurements (decode steps never see the chunk tax, "
                                  "for one): they keep their starting values; the knobs table marks them.");
}

Result<RunResult> run_calibration(const CalibrationParams& p, std::uint64_t seed, RunControl& ctl) {
  RunResult result;
  Rows rows;
  auto fitted = p.measurements.layout == MeasurementLayout::StepCsv ? fit_steps(p, rows) : fit_serving(p, seed, ctl, rows, result);
  if (!fitted.ok()) return fitted.error();
  const Fitted& f = fitted.value();
  result.output("points", static_cast<double>(p.measurements.layout == MeasurementLayout::StepCsv ? p.measurements.steps.size()
                                                                                                  : p.points.size()));
  result.output("median_err_start_pct", 100 * quantile(rows.start_err, 0.5));
  result.output("median_err_pct", 100 * quantile(rows.fitted_err, 0.5));
  result.output("worst_err_pct", 100 * *std::max_element(rows.fitted_err.begin(), rows.fitted_err.end()));
  result.output("fitted_efficiency_frac", f.knobs.compute_efficiency);
  result.output("fitted_bw_efficiency_frac", f.knobs.bandwidth_efficiency);
  result.output("fitted_layer_tax_ms", f.knobs.layer_tax_s * units::kMsPerS);
  result.output("fitted_dispatch_tax_ms", f.knobs.dispatch_tax_s * units::kMsPerS);
  rows.table.into(result.table("fit"));
  knobs_table(p.start, f, result);
  // The fitted terms with the mechanisms the fit ran with: step_model = custom reproduces this model.
  result.fills.push_back(InputFill{"fitted_knobs", true, step_model_fields(with_knobs(p.hw.gpu, f.knobs), p.hw.tp)});
  notices(p, f, result);
  add_hardware_outputs(p.hw, result);
  return result;
}

}  // namespace

CellSpec calibration_cell() {
  std::vector<ParamSpec> params = {
      bytes("measurements", ".json,.jsonl,.csv,.txt,application/json,text/csv,text/plain", static_cast<double>(kMaxBenchFileBytes)),
      explored(count("n", "requests", 300, 20, 100'000), 50, 2000), count("prompt_tokens", "tokens", 1000, 1, 1'000'000),
      count("output_tokens", "tokens", 256, 1, 1'000'000), count("iterations", "steps", 6, 1, 30),
      count("max_model_len", "tokens", 8192, 2, 131072)};
  for (ParamSpec& spec : engine_hardware_params()) params.push_back(std::move(spec));
  for (ParamSpec& spec : scheduler_params()) params.push_back(std::move(spec));
  params.push_back(choice("prefix_caching", {"on", "off"}, "on"));
  CellSpec cell = checked_cell<&validate_calibration, &run_calibration>("llm/calibration", std::move(params));
  cell.presets = presets_of({{"short-prompts", "prompt_tokens=200 output_tokens=128"}});
  cell.outputs = {out("points", "points"), out("median_err_start_pct", "%"), out("median_err_pct", "%"),
                  out("worst_err_pct", "%"), out("fitted_efficiency_frac", ""), out("fitted_bw_efficiency_frac", ""),
                  out("fitted_layer_tax_ms", "ms"), out("fitted_dispatch_tax_ms", "ms"),
                  sometimes(out("simulations", "runs"))};
  for (OutputSpec& spec : model_outputs()) cell.outputs.push_back(std::move(spec));
  cell.tables = {table("fit"), table("knobs")};
  cell.fills = {"fitted_knobs"};
  cell.budget = {describe_engine_budget() + ", over every Poisson point's simulations (17 at 6 steps) and every other point's one"};
  return cell;
}

}  // namespace sl::llm
