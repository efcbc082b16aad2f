// Cell batching/cpu-batch-measure. Times real kernels on THIS CPU (blocked GEMM, not sleeps):
//   (a) the fixed cost of one layer call: stacks of tiny dense layers (16 -> 16, batch 1) at depths 1, 10,
//       25, 50, 100; the slope of time against depth is the cost of one call;
//   (b) the time of one batch T(B) for an MNIST-sized MLP (784 -> 256 x 4 -> 10, softmax) and for a conv
//       layer, B = 1 ... max; the line T(B) = a + b B is fitted by least squares (on relative errors) beside the book's
//       GPU model 5 ms + 0.6 ms B (Table 11). Throughput B / T(B) tends to 1/b, so batching can raise it at
//       most (a + b) / b = 1 + a/b times over batch 1, and reaches half of that limit at B = a/b.
// Every point is the median over samples, each sample lasting well above the timer's resolution.
#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>
#include <string>
#include <utility>

#include "batching/cells.h"
#include "batching/cpu_batch_measure.h"
#include "batching/linear_fit.h"
#include "core/checked_run.h"
#include "core/budget.h"
#include "core/outputs.h"
#include "core/rng.h"
#include "core/units.h"
#include "kernels/timing.h"

namespace sl::batching {
namespace {

using kernels::Timing;

/// Every depth and batch is timed (samples + kCalibrationTimings) times, each at least min_sample_ms long.
using kernels::kCalibrationTimings;
/// One FLOP of the MLP and conv kernels, natively: 0.10 ns measured at mlp_hidden 700 (1.6e10 FLOP in 1.54 s of
/// CPU), 0.11 ns at conv_max_batch 256 (3.7e10 FLOP in 4.23 s, which the old 4-GFLOP-a-pass cap let run).
constexpr budget::UnitCost kFlopCost{0.12e-9, 0};
constexpr const char* kMeasuringWhat =
    "the measuring time (depths and batches x (samples + 4 calibration timings) x min_sample_ms, plus the "
    "sweeps' FLOPs x (samples + 5) passes)";
/// A fitted fixed cost is claimed only when it is at least this many standard errors above zero.
constexpr double kInterceptSigmas = 2;
/// Timers coarser than this (a page that is not cross-origin isolated) lengthen every sample; say so.
constexpr double kCoarseTimerS = 20e-6;
/// Depths of the tiny-layer stack, as fractions of max_depth (1, 10, 25, 50, 100 at the default 100).
constexpr double kDepthFractions[] = {0.10, 0.25, 0.50, 1.0};

/// Batch sizes 1, 2, 4, ... below max_batch, then max_batch.
std::vector<std::int64_t> batch_sizes(std::int64_t max_batch) {
  std::vector<std::int64_t> sizes;
  for (std::int64_t b = 1; b < max_batch; b *= 2) sizes.push_back(b);
  sizes.push_back(max_batch);
  return sizes;
}

std::vector<std::int64_t> stack_depths(std::int64_t max_depth) {
  std::vector<std::int64_t> depths = {1};
  for (double f : kDepthFractions) {
    const auto d = static_cast<std::int64_t>(std::llround(f * static_cast<double>(max_depth)));
    if (d > depths.back()) depths.push_back(d);
  }
  return depths;
}

std::vector<double> as_doubles(const std::vector<std::int64_t>& xs) { return {xs.begin(), xs.end()}; }

std::vector<double> column(const std::vector<Timing>& ts, double Timing::*field, double scale) {
  std::vector<double> out;
  for (const auto& t : ts) out.push_back(t.*field * scale);
  return out;
}

/// Samples the browser took of a call from JavaScript (seconds per call), when it took them.
struct JsCallSamples {
  std::vector<double> layer_s;  ///< one tiny layer per call
  std::vector<double> empty_s;  ///< an empty call
};

/// The workloads and, in the browser, its measurements of the JS -> wasm call.
struct CpuBatchMeasureParams {
  CpuBatchParams workloads;
  std::optional<JsCallSamples> js_calls;  ///< nullopt natively, or when the page measured nothing
};

/// The time a run measures, in browser seconds: every timing lasts at least min_sample_ms (wall clock, the same
/// in the browser), and the calls it times compute the sweeps at least (samples + 5) times (a timing is the
/// longer of the two; their sum bounds it). The parameter named is the larger part's.
budget::Estimate measuring_time(const CpuBatchParams& p) {
  const double series = static_cast<double>(stack_depths(p.max_depth).size() + batch_sizes(p.max_batch).size() +
                                            batch_sizes(p.conv_max_batch).size());
  const double measure_s = series * (p.num_samples + kCalibrationTimings) * p.min_sample_s;
  const double mlp_flop = mlp_sweep_flop(p), conv_flop = conv_sweep_flop(p);
  const double passes = p.num_samples + kCalibrationTimings + 1;
  const double compute_s = passes * (mlp_flop + conv_flop) * kFlopCost.native_s * budget::kWasmSlowdown;
  const char* param = measure_s >= compute_s ? "min_sample_ms" : mlp_flop >= conv_flop ? "max_batch" : "conv_max_batch";
  return budget::estimate(param, kMeasuringWhat, "s", measure_s + compute_s, budget::kMeasuredSecond);
}

Result<CpuBatchMeasureParams> validate_cpu_batch_measure(const Inputs& in) {
  CpuBatchMeasureParams params;
  const std::vector<double>* layer = in.measured("js_call.layer");
  const std::vector<double>* empty = in.measured("js_call.empty");
  if (layer != nullptr && empty != nullptr && !layer->empty() && !empty->empty())
    params.js_calls = JsCallSamples{*layer, *empty};
  CpuBatchParams& p = params.workloads;
  p.width = in.count("width");
  p.max_depth = in.count("max_depth");
  p.mlp = {in.count("mlp_input"), in.count("mlp_hidden"), in.count("mlp_layers"), in.count("mlp_output")};
  p.max_batch = in.count("max_batch");
  const std::int64_t size = in.count("conv_size");
  p.conv = {1, in.count("conv_in"), size, size, in.count("conv_out"), in.count("conv_kernel"), in.count("conv_kernel"),
            in.count("conv_stride"), in.count("conv_padding")};
  p.conv_max_batch = in.count("conv_max_batch");
  p.gpu_fixed_ms = in.real("gpu_fixed_ms");
  p.gpu_per_item_ms = in.real("gpu_per_item_ms");
  p.min_sample_s = in.real("min_sample_ms") * 1e-3;
  p.num_samples = static_cast<int>(in.count("samples"));

  if (!p.conv.is_valid())
    return Error{"invalid", "conv_kernel",
                 "conv_kernel must fit the padded input: " + format_number(static_cast<double>(p.conv.kernel_h)) +
                     " > conv_size + 2 conv_padding = " + format_number(static_cast<double>(size + 2 * p.conv.padding)) +
                     " pixels",
                 {{"max", format_number(static_cast<double>(size + 2 * p.conv.padding))},
                  {"got", format_number(static_cast<double>(p.conv.kernel_h))}, {"problem", "kernel_above_input"}}};
  if (p.gpu_fixed_ms + p.gpu_per_item_ms <= 0)
    return Error{"invalid", "gpu_per_item_ms", "the GPU model needs gpu_fixed_ms + gpu_per_item_ms > 0 ms, got 0",
                 {{"problem", "zero_sum"}, {"other", "gpu_fixed_ms"}, {"unit", "ms"}}};
  const MeasureBytes bytes = cpu_batch_bytes(p);
  // Name the parameter behind the largest part.
  const std::pair<double, const char*> parts[] = {{bytes.stack, "max_depth"},
                                                  {bytes.mlp_weights, "mlp_hidden"},
                                                  {bytes.mlp_activations, "max_batch"},
                                                  {bytes.conv, "conv_max_batch"}};
  const auto* largest = std::max_element(std::begin(parts), std::end(parts));
  if (auto e = budget::check(budget::estimate(largest->second, "the weights and activations", "MiB",
                                              bytes.total() / units::kMiB, {0, units::kMiB})))
    return *e;
  if (auto e = budget::check(measuring_time(p))) return *e;
  return params;
}

/// One swept workload: the x values (depths or batch sizes), their timings and the least-squares line
/// through the medians (in `unit_scale` units of seconds: 1e6 for us, 1e3 for ms).
struct Sweep {
  std::vector<std::int64_t> x;
  std::vector<Timing> t;
  LineFit fit;
  double intercept_se = 0;  ///< standard error of the intercept (0 with only two points: no residual left)
};

/// Standard error of a weighted least-squares intercept: residual variance s^2 = sum w r^2 / (n - 2), and
/// Var(a) = s^2 sum w x^2 / (sum w sum w x^2 - (sum w x)^2).
double intercept_standard_error(const std::vector<double>& x, const std::vector<double>& y,
                                const std::vector<double>& w, const LineFit& fit) {
  const auto n = static_cast<double>(x.size());
  if (n <= 2) return 0.0;
  double sw = 0, swx = 0, swxx = 0, swrr = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double r = y[i] - fit.intercept - fit.slope * x[i];
    sw += w[i], swx += w[i] * x[i], swxx += w[i] * x[i] * x[i], swrr += w[i] * r * r;
  }
  const double det = sw * swxx - swx * swx;
  if (det <= 0) return 0.0;
  return std::sqrt(swrr / (n - 2) * swxx / det);
}

/// How a sweep's line is fitted. Depths 1 ... 100 have similar absolute noise: ordinary least squares.
/// Batch times span 1 ... 256 items, so plain least squares would fit the big batches and ignore batch 1,
/// where a fixed cost shows; weights 1 / T^2 fit relative errors instead, every point counting alike.
enum class FitErrors { Absolute, Relative };

Sweep fitted(std::vector<std::int64_t> x, std::vector<Timing> t, double unit_scale, FitErrors errors) {
  const std::vector<double> y = column(t, &Timing::median_s, unit_scale);
  std::vector<double> weights;
  for (double yi : y) weights.push_back(errors == FitErrors::Relative ? 1.0 / (yi * yi) : 1.0);
  // Every sweep has at least two distinct x (depth 1 and max_depth >= 2; batch 1 and max_batch >= 2) and
  // positive times, so the fit exists.
  const std::vector<double> xs = as_doubles(x);
  const LineFit fit = *fit_line(xs, y, weights);
  const double se = intercept_standard_error(xs, y, weights, fit);
  return {std::move(x), std::move(t), fit, se};
}

/// (a) The cost of one layer call: slope and intercept of chain time against depth, and the depth table.
void output_call_cost(RunResult& result, const Sweep& depth) {
  result.output("per_layer_call_us", depth.fit.slope);
  result.output("stack_intercept_us", depth.fit.intercept);
  result.output("depth_fit_r2", depth.fit.r2);
  std::vector<double> fit_us;
  for (auto d : depth.x) fit_us.push_back(depth.fit.intercept + depth.fit.slope * static_cast<double>(d));
  result.table("depth")
      .column("depth", as_doubles(depth.x))
      .column("median_us", column(depth.t, &Timing::median_s, 1e6))
      .column("p10_us", column(depth.t, &Timing::p10_s, 1e6))
      .column("p90_us", column(depth.t, &Timing::p90_s, 1e6))
      .column("fit_us", std::move(fit_us));
}

/// (a, browser) The same tiny layer called from JavaScript, one layer per call, and an empty call: what
/// crossing the JS -> wasm boundary (through Embind) adds to a call. Natively there is no such boundary.
void output_js_calls(RunResult& result, const std::optional<JsCallSamples>& js_calls, const Sweep& depth) {
  if (!js_calls) {
    result.notice("js_call_not_measured",
                  "the cost of one call from JavaScript into wasm is measured only in the browser (the page's probe)");
    return;
  }
  const Timing js_layer = kernels::summarize_per_call(js_calls->layer_s);
  const Timing js_empty = kernels::summarize_per_call(js_calls->empty_s);
  const double layer_us = js_layer.median_s * 1e6, empty_us = js_empty.median_s * 1e6;
  const double inside_us = depth.fit.slope;  // one layer inside wasm: the depth sweep's slope
  result.output("js_layer_call_us", layer_us);
  result.output("js_empty_call_us", empty_us);
  result.output("js_boundary_us", layer_us - inside_us);
  if (inside_us > 0) result.output("js_call_ratio", layer_us / inside_us);
  if (layer_us < inside_us)
    result.notice("js_call_within_noise", "a layer called from JavaScript measured faster than the slope inside wasm: "
                                          "the boundary's cost is below this run's noise");
  // where: 0 = inside wasm (slope of the depth sweep, no spread), 1 = one layer per call from JS, 2 = empty call from JS
  result.table("calls")
      .column("where", {0, 1, 2})
      .column("median_us", {inside_us, layer_us, empty_us})
      .column("p10_us", {inside_us, js_layer.p10_s * 1e6, js_empty.p10_s * 1e6})
      .column("p90_us", {inside_us, js_layer.p90_s * 1e6, js_empty.p90_s * 1e6});
}

/// The browser measurements for (a): a call of one layer and an empty call from JS, `samples` each.
std::vector<ProbeTask> plan_js_calls(const Inputs& in) {
  const auto params = validate_cpu_batch_measure(in);
  if (!params.ok()) return {};  // the run reports the error
  const double width = static_cast<double>(params.value().workloads.width);
  const int repeats = params.value().workloads.num_samples;
  return {{"js_call", "layer", {}, width, repeats}, {"js_call", "empty", {}, width, repeats}};
}

/// The names one workload's batch sweep outputs, written out (grep finds each), and its table.
struct SweepNames {
  const char* workload;  ///< "mlp", "conv": the table's name
  const char* flop_per_item;
  const char* t_batch1_ms;
  const char* t_max_batch_ms;
  const char* speedup;
  const char* gflop_per_s;
  const char* fit_a_ms;
  const char* fit_b_ms;
  const char* fit_r2;
  const char* a_over_b;
  const char* max_gain;
  const char* fit_a_se_ms;
  const char* negative_intercept;  ///< notice code
  const char* intercept_in_noise;  ///< notice code
};
constexpr SweepNames kMlpNames = {"mlp",        "mlp_flop_per_item", "mlp_t_batch1_ms", "mlp_t_max_batch_ms",
                                  "mlp_speedup", "mlp_gflop_per_s",  "mlp_fit_a_ms",    "mlp_fit_b_ms",
                                  "mlp_fit_r2",  "mlp_a_over_b",     "mlp_max_gain",    "mlp_fit_a_se_ms",
                                  "mlp_negative_intercept", "mlp_intercept_in_noise"};
constexpr SweepNames kConvNames = {"conv",        "conv_flop_per_item", "conv_t_batch1_ms", "conv_t_max_batch_ms",
                                   "conv_speedup", "conv_gflop_per_s",  "conv_fit_a_ms",    "conv_fit_b_ms",
                                   "conv_fit_r2",  "conv_a_over_b",     "conv_max_gain",    "conv_fit_a_se_ms",
                                   "conv_negative_intercept", "conv_intercept_in_noise"};

/// (b) One workload's batch sweep: its outputs (times, throughput gain, GFLOP/s, the fit T(B) = a + b B and
/// what a/b implies) and its table: medians, spread, the fit, per-item time relative to batch 1, throughput.
Table& output_batch_sweep(RunResult& result, const SweepNames& names, const Sweep& sweep, std::int64_t flop_per_item) {
  const Timing& first = sweep.t.front();
  const Timing& last = sweep.t.back();
  const auto max_batch = static_cast<double>(sweep.x.back());
  result.output(names.flop_per_item, static_cast<double>(flop_per_item));
  result.output(names.t_batch1_ms, first.median_s * 1e3);
  result.output(names.t_max_batch_ms, last.median_s * 1e3);
  result.output(names.speedup, max_batch * first.median_s / last.median_s);
  result.output(names.gflop_per_s, static_cast<double>(flop_per_item) * max_batch / last.median_s * 1e-9);
  const LineFit& fit = sweep.fit;
  result.output(names.fit_a_ms, fit.intercept);
  result.output(names.fit_b_ms, fit.slope);
  result.output(names.fit_r2, fit.r2);
  result.output(names.fit_a_se_ms, sweep.intercept_se);
  // a / b (the batch at which the fixed cost equals the per-item cost) and the gain it implies are claimed
  // only for a fixed cost the points resolve: positive and kInterceptSigmas standard errors above zero.
  const bool resolved = fit.intercept > kInterceptSigmas * sweep.intercept_se && fit.intercept > 0;
  if (fit.slope > 0 && resolved) {
    result.output(names.a_over_b, fit.intercept / fit.slope);
    result.output(names.max_gain, 1.0 + fit.intercept / fit.slope);
  }
  if (fit.intercept < 0)
    result.notice(names.negative_intercept,
                  std::string(names.workload) + ": the fitted fixed cost a = " + format_number(fit.intercept) +
                      " ms is negative: per-item time grows with the batch (caches overflow), so these points cannot "
                      "show a fixed cost; a / b and the largest gain are not given.");
  else if (!resolved)
    result.notice(names.intercept_in_noise,
                  std::string(names.workload) + ": the fitted fixed cost a = " + format_number(fit.intercept) +
                      " ms is within " + format_number(kInterceptSigmas) + " standard errors (" +
                      format_number(sweep.intercept_se) + " ms) of zero: these points cannot tell it from none; "
                      "a / b and the largest gain are not given.");

  std::vector<double> fit_ms, rel, items_per_s;
  for (std::size_t i = 0; i < sweep.x.size(); ++i) {
    const auto b = static_cast<double>(sweep.x[i]);
    fit_ms.push_back(fit.intercept + fit.slope * b);
    rel.push_back(sweep.t[i].median_s / b / first.median_s);
    items_per_s.push_back(b / sweep.t[i].median_s);
  }
  return result.table(names.workload)
      .column("batch", as_doubles(sweep.x))
      .column("median_ms", column(sweep.t, &Timing::median_s, 1e3))
      .column("p10_ms", column(sweep.t, &Timing::p10_s, 1e3))
      .column("p90_ms", column(sweep.t, &Timing::p90_s, 1e3))
      .column("fit_ms", std::move(fit_ms))
      .column("per_item_rel", std::move(rel))
      .column("items_per_s", std::move(items_per_s));
}

/// The book's GPU model (Table 11), T_svc(B) = a + b B: its times at B = 1 and 32, a/b, and its columns
/// beside the MLP's measured ones.
void output_gpu_model(RunResult& result, double a_ms, double b_ms, const std::vector<std::int64_t>& batches,
                      Table& table) {
  result.output("gpu_t_batch1_ms", a_ms + b_ms);
  result.output("gpu_t_batch32_ms", a_ms + 32 * b_ms);
  if (b_ms > 0) {
    result.output("gpu_a_over_b", a_ms / b_ms);
    result.output("gpu_max_gain", 1.0 + a_ms / b_ms);
  }
  std::vector<double> model_ms, rel;
  for (auto batch : batches) {
    const auto b = static_cast<double>(batch);
    model_ms.push_back(a_ms + b_ms * b);
    rel.push_back((a_ms + b_ms * b) / b / (a_ms + b_ms));
  }
  table.column("gpu_model_ms", std::move(model_ms)).column("gpu_per_item_rel", std::move(rel));
}

Result<RunResult> run_cpu_batch_measure(const CpuBatchMeasureParams& params, std::uint64_t seed, RunControl& ctl) {
  const CpuBatchParams& p = params.workloads;

  const double resolution_s = kernels::timer_resolution_s();
  // The thread's CPU time natively (the wall clock in a browser): other processes' time slices on a shared
  // host stay out of the samples.
  const kernels::TimingPlan plan{kernels::cell_min_sample_s(p.min_sample_s, resolution_s), p.num_samples,
                                 kernels::TimingClock::ThreadCpu};
  const auto depths = stack_depths(p.max_depth);
  const auto mlp_batches = batch_sizes(p.max_batch);
  const auto conv_batches = batch_sizes(p.conv_max_batch);
  SampleProgress progress{&ctl, 0,
                          static_cast<double>((depths.size() + mlp_batches.size() + conv_batches.size()) * plan.num_samples)};

  Rng rng = Rng::stream(seed, Stream::Misc);
  const Sweep depth = fitted(depths, time_layer_stack(rng, p.width, depths, plan, progress), 1e6, FitErrors::Absolute);
  const Sweep mlp = fitted(mlp_batches, time_mlp(rng, p.mlp, mlp_batches, plan, progress), 1e3, FitErrors::Relative);
  const Sweep conv = fitted(conv_batches, time_conv(rng, p.conv, conv_batches, plan, progress), 1e3, FitErrors::Relative);

  RunResult result;
  result.output("timer_resolution_us", resolution_s * 1e6);
  result.output("sample_min_ms", plan.min_sample_s * 1e3);
  if (resolution_s > kCoarseTimerS)
    result.notice("coarse_timer", "the timer only steps every " + format_number(resolution_s * 1e6) +
                                      " us, so each sample was lengthened to " +
                                      format_number(plan.min_sample_s * 1e3) + " ms");
  output_call_cost(result, depth);
  output_js_calls(result, params.js_calls, depth);
  Table& mlp_table = output_batch_sweep(result, kMlpNames, mlp, mlp_flop_per_item(p.mlp));
  output_gpu_model(  // adds columns to the MLP table: before any other table, while the reference is valid
      result, p.gpu_fixed_ms, p.gpu_per_item_ms, mlp_batches, mlp_table);
  output_batch_sweep(result, kConvNames, conv, kernels::conv2d_flop(p.conv));
  return result;
}

}  // namespace

CpuServiceFit measure_cpu_service_fit(std::int64_t max_batch, std::uint64_t seed) {
  SL_ASSERT(max_batch >= 2);
  const double resolution_s = kernels::timer_resolution_s(kernels::TimingClock::ThreadCpu);
  const kernels::TimingPlan plan{kernels::cell_min_sample_s(1e-3, resolution_s), 5, kernels::TimingClock::ThreadCpu};
  const auto batches = batch_sizes(max_batch);
  RunControl quiet;
  SampleProgress progress{&quiet, 0, 1};
  Rng rng = Rng::stream(seed, Stream::Misc);
  const Sweep mlp = fitted(batches, time_mlp(rng, MlpShape{}, batches, plan, progress), 1e3, FitErrors::Relative);
  return {mlp.fit.intercept, mlp.fit.slope, mlp.fit.r2};
}

CellSpec cpu_batch_measure_cell() {
  CellSpec cell = checked_cell<&validate_cpu_batch_measure, &run_cpu_batch_measure>("batching/cpu-batch-measure",
      {count("width", "units", 16, 1, 256), count("max_depth", "layers", 100, 2, 1000),
       count("mlp_input", "units", 784, 1, 4096), count("mlp_hidden", "units", 256, 1, 4096),
       count("mlp_layers", "layers", 4, 1, 16), count("mlp_output", "units", 10, 1, 4096),
       explored(count("max_batch", "items", 256, 2, 4096), 4, 256), count("conv_in", "channels", 16, 1, 512),
       count("conv_out", "channels", 32, 1, 512), count("conv_size", "pixels", 28, 1, 512),
       count("conv_kernel", "pixels", 3, 1, 11), count("conv_stride", "pixels", 1, 1, 4),
       count("conv_padding", "pixels", 1, 0, 5), explored(count("conv_max_batch", "items", 16, 2, 1024), 2, 32),
       real("gpu_fixed_ms", "ms", 5, 0, 1e4), real("gpu_per_item_ms", "ms", 0.6, 0, 1e4),
       real("min_sample_ms", "ms", 1, 0.01, 1000), count("samples", "samples", 5, 3, 101)});
  cell.deterministic = false;  // timings of this machine differ run to run
  cell.probes = {"js_call"};
  cell.plan_probes = &plan_js_calls;
  cell.outputs = outputs({"timer_resolution_us", "sample_min_ms", "per_layer_call_us", "stack_intercept_us", "depth_fit_r2",
                  browser_only("js_layer_call_us"), browser_only("js_empty_call_us"), browser_only("js_boundary_us"),
                  browser_only(out("js_call_ratio", "×")), "mlp_flop_per_item", "mlp_t_batch1_ms", "mlp_t_max_batch_ms",
                  "mlp_speedup", "mlp_gflop_per_s", "mlp_fit_a_ms", "mlp_fit_b_ms", "mlp_fit_r2", "mlp_fit_a_se_ms",
                  sometimes(out("mlp_a_over_b", "items")), sometimes(out("mlp_max_gain", "×")), "conv_flop_per_item",
                  "conv_t_batch1_ms", "conv_t_max_batch_ms", "conv_speedup", "conv_gflop_per_s", "conv_fit_a_ms",
                  "conv_fit_b_ms", "conv_fit_r2", "conv_fit_a_se_ms", sometimes("conv_a_over_b"),
                  sometimes(out("conv_max_gain", "×")), "gpu_t_batch1_ms", "gpu_t_batch32_ms",
                  sometimes(out("gpu_a_over_b", "items")), sometimes(out("gpu_max_gain", "×"))});
  cell.tables = {table("depth"), table("mlp"), table("conv"), table("calls", Presence::BrowserOnly)};
  cell.budget = {budget::describe(kMeasuringWhat, "s", budget::kMeasuredSecond) + "; the kernels at " +
                     format_number(kFlopCost.native_s * 1e9) + " ns per FLOP natively",
                 "the weights and activations: at most " + format_number(budget::kMaxBytes / units::kMiB) + " MiB"};
  return cell;
}

}  // namespace sl::batching
