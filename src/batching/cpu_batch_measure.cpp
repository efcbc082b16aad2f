// Cell batching/cpu-batch-measure. Times real kernels on THIS CPU (blocked GEMM, not sleeps):
//   (a) the fixed cost of one layer call: stacks of tiny dense layers (16 -> 16, batch 1) at depths 1, 10,
//       25, 50, 100; the slope of time against depth is the cost of one call;
//   (b) the time of one batch T(B) for an MNIST-sized MLP (784 -> 256 x 4 -> 10, softmax) and for a conv
//       layer, B = 1 ... max; the line T(B) = a + b B is fitted by least squares and set beside the book's
//       GPU model 5 ms + 0.6 ms B (Table 11). Throughput B / T(B) tends to 1/b, so batching can raise it at
//       most (a + b) / b = 1 + a/b times over batch 1, and reaches half of that limit at B = a/b.
// Every point is the median over samples, each sample lasting well above the timer's resolution.
#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>
#include <utility>

#include "batching/cells.h"
#include "batching/cpu_batch_measure.h"
#include "batching/linear_fit.h"
#include "core/rng.h"
#include "kernels/timing.h"

namespace sl::batching {
namespace {

using kernels::Timing;

/// A sample lasts at least this many timer steps, so rounding to the timer costs at most 2 % of a sample.
constexpr double kMinStepsPerSample = 50;
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

std::string sweep_text(double work) {
  return format_number(std::round(work / 1e8) / 10) + " GFLOP";
}

Result<CpuBatchParams> validate(const Inputs& in) {
  CpuBatchParams p;
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
                  {"got", format_number(static_cast<double>(p.conv.kernel_h))}}};
  if (p.gpu_fixed_ms + p.gpu_per_item_ms <= 0)
    return Error{"invalid", "gpu_per_item_ms", "the GPU model needs gpu_fixed_ms + gpu_per_item_ms > 0 ms, got 0", {}};
  const MeasureBytes bytes = cpu_batch_bytes(p);
  if (bytes.total() > kMaxMeasureBytes) {
    // Name the parameter behind the largest part.
    const std::pair<double, const char*> parts[] = {{bytes.stack, "max_depth"},
                                                    {bytes.mlp_weights, "mlp_hidden"},
                                                    {bytes.mlp_activations, "max_batch"},
                                                    {bytes.conv, "conv_max_batch"}};
    const auto* largest = std::max_element(std::begin(parts), std::end(parts));
    const double mib = std::round(bytes.total() / 1048576.0);
    return Error{"too_large", largest->second,
                 "the weights and activations need " + format_number(mib) + " MiB, more than the " +
                     format_number(kMaxMeasureBytes / 1048576.0) + " MiB this cell allows (lower " + largest->second + ")",
                 {{"max", format_number(kMaxMeasureBytes / 1048576.0)}, {"unit", "MiB"}, {"got", format_number(mib)}}};
  }
  const double mlp_work = mlp_sweep_flop(p), conv_work = conv_sweep_flop(p);
  if (mlp_work > kMaxSweepFlop || conv_work > kMaxSweepFlop) {
    const bool mlp = mlp_work >= conv_work;
    return Error{"too_large", mlp ? "max_batch" : "conv_max_batch",
                 std::string(mlp ? "the MLP" : "the conv") + " sweep would compute " +
                     sweep_text(mlp ? mlp_work : conv_work) + " per sample, more than the " + sweep_text(kMaxSweepFlop) +
                     " limit (minutes in a browser): lower the batch or the layer sizes",
                 {{"max", format_number(kMaxSweepFlop)}, {"unit", "FLOP"},
                  {"got", format_number(mlp ? mlp_work : conv_work)}}};
  }
  return p;
}

/// Outputs a fitted line T(B) = a + b B and what it implies; `prefix` names the workload.
void output_batch_fit(RunResult& result, const std::string& prefix, const LineFit& fit) {
  result.output(prefix + "_fit_a_ms", fit.intercept);
  result.output(prefix + "_fit_b_ms", fit.slope);
  result.output(prefix + "_fit_r2", fit.r2);
  if (fit.slope > 0) {
    result.output(prefix + "_a_over_b", fit.intercept / fit.slope);
    result.output(prefix + "_max_gain", 1.0 + fit.intercept / fit.slope);
  }
  if (fit.intercept < 0)
    result.notice(prefix + "_negative_intercept",
                  prefix + ": the fitted fixed cost a = " + format_number(fit.intercept) +
                      " ms is negative: per-item time grows with the batch (caches overflow), so the fixed cost is "
                      "below what this line can resolve.");
}

/// Table of T(B) for one workload: medians, spread, the fit, per-item time relative to batch 1, throughput.
Table& batch_table(RunResult& result, const std::string& name, const std::vector<std::int64_t>& batches,
                   const std::vector<Timing>& t, const LineFit& fit) {
  std::vector<double> fit_ms, rel, items_per_s;
  for (std::size_t i = 0; i < batches.size(); ++i) {
    const auto b = static_cast<double>(batches[i]);
    fit_ms.push_back(fit.intercept + fit.slope * b);
    rel.push_back(t[i].median_s / b / t[0].median_s);
    items_per_s.push_back(b / t[i].median_s);
  }
  return result.table(name)
      .column("batch", as_doubles(batches))
      .column("median_ms", column(t, &Timing::median_s, 1e3))
      .column("p10_ms", column(t, &Timing::p10_s, 1e3))
      .column("p90_ms", column(t, &Timing::p90_s, 1e3))
      .column("fit_ms", std::move(fit_ms))
      .column("per_item_rel", std::move(rel))
      .column("items_per_s", std::move(items_per_s));
}

Result<RunResult> run_cpu_batch_measure(const Inputs& in, std::uint64_t seed, RunControl& ctl) {
  auto params = validate(in);
  if (!params.ok()) return params.error();
  CpuBatchParams p = params.value();

  const double resolution_s = kernels::timer_resolution_s();
  const kernels::TimingPlan plan{std::max(p.min_sample_s, kMinStepsPerSample * resolution_s), p.num_samples};
  const auto depths = stack_depths(p.max_depth);
  const auto mlp_batches = batch_sizes(p.max_batch);
  const auto conv_batches = batch_sizes(p.conv_max_batch);
  SampleProgress progress{&ctl, 0,
                          static_cast<double>((depths.size() + mlp_batches.size() + conv_batches.size()) * plan.num_samples)};

  Rng rng = Rng::stream(seed, Stream::Misc);
  const std::vector<Timing> depth_t = time_layer_stack(rng, p.width, depths, plan, progress);
  const std::vector<Timing> mlp_t = time_mlp(rng, p.mlp, mlp_batches, plan, progress);
  const std::vector<Timing> conv_t = time_conv(rng, p.conv, conv_batches, plan, progress);

  // Each fit has at least two distinct x (depth 1 and max_depth >= 2; batch 1 and max >= 2).
  const LineFit depth_fit = *fit_line(as_doubles(depths), column(depth_t, &Timing::median_s, 1e6));
  const LineFit mlp_fit = *fit_line(as_doubles(mlp_batches), column(mlp_t, &Timing::median_s, 1e3));
  const LineFit conv_fit = *fit_line(as_doubles(conv_batches), column(conv_t, &Timing::median_s, 1e3));

  RunResult result;
  result.output("timer_resolution_us", resolution_s * 1e6);
  result.output("sample_min_ms", plan.min_sample_s * 1e3);
  if (resolution_s > kCoarseTimerS)
    result.notice("coarse_timer", "the timer only steps every " + format_number(resolution_s * 1e6) +
                                      " us, so each sample was lengthened to " +
                                      format_number(plan.min_sample_s * 1e3) + " ms");
  result.output("per_layer_call_us", depth_fit.slope);
  result.output("stack_intercept_us", depth_fit.intercept);
  result.output("depth_fit_r2", depth_fit.r2);

  result.output("mlp_flop_per_item", static_cast<double>(mlp_flop_per_item(p.mlp)));
  result.output("mlp_t_batch1_ms", mlp_t.front().median_s * 1e3);
  result.output("mlp_t_max_batch_ms", mlp_t.back().median_s * 1e3);
  result.output("mlp_speedup", static_cast<double>(p.max_batch) * mlp_t.front().median_s / mlp_t.back().median_s);
  result.output("mlp_gflop_per_s", static_cast<double>(mlp_flop_per_item(p.mlp) * p.max_batch) /
                                       mlp_t.back().median_s * 1e-9);
  output_batch_fit(result, "mlp", mlp_fit);

  result.output("conv_flop_per_item", static_cast<double>(kernels::conv2d_flop(p.conv)));
  result.output("conv_speedup",
                static_cast<double>(p.conv_max_batch) * conv_t.front().median_s / conv_t.back().median_s);
  result.output("conv_gflop_per_s", static_cast<double>(kernels::conv2d_flop(p.conv) * p.conv_max_batch) /
                                        conv_t.back().median_s * 1e-9);
  output_batch_fit(result, "conv", conv_fit);

  // The book's GPU model (Table 11): T_svc(B) = fixed + per_item B.
  const double ga = p.gpu_fixed_ms, gb = p.gpu_per_item_ms;
  result.output("gpu_t_batch1_ms", ga + gb);
  result.output("gpu_t_batch32_ms", ga + 32 * gb);
  if (gb > 0) {
    result.output("gpu_a_over_b", ga / gb);
    result.output("gpu_max_gain", 1.0 + ga / gb);
  }

  std::vector<double> depth_fit_us;
  for (auto d : depths) depth_fit_us.push_back(depth_fit.intercept + depth_fit.slope * static_cast<double>(d));
  result.table("depth")
      .column("depth", as_doubles(depths))
      .column("median_us", column(depth_t, &Timing::median_s, 1e6))
      .column("p10_us", column(depth_t, &Timing::p10_s, 1e6))
      .column("p90_us", column(depth_t, &Timing::p90_s, 1e6))
      .column("fit_us", std::move(depth_fit_us));
  std::vector<double> gpu_ms, gpu_rel;
  for (auto b : mlp_batches) {
    gpu_ms.push_back(ga + gb * static_cast<double>(b));
    gpu_rel.push_back((ga + gb * static_cast<double>(b)) / static_cast<double>(b) / (ga + gb));
  }
  batch_table(result, "mlp", mlp_batches, mlp_t, mlp_fit)
      .column("gpu_model_ms", std::move(gpu_ms))
      .column("gpu_per_item_rel", std::move(gpu_rel));
  batch_table(result, "conv", conv_batches, conv_t, conv_fit);
  return result;
}

}  // namespace

CellSpec cpu_batch_measure_cell() {
  CellSpec cell{"batching/cpu-batch-measure",
                {count("width", "units", 16, 1, 256), count("max_depth", "layers", 100, 2, 1000),
                 count("mlp_input", "units", 784, 1, 4096), count("mlp_hidden", "units", 256, 1, 4096),
                 count("mlp_layers", "layers", 4, 1, 16), count("mlp_output", "units", 10, 1, 4096),
                 count("max_batch", "items", 256, 2, 4096), count("conv_in", "channels", 16, 1, 512),
                 count("conv_out", "channels", 32, 1, 512), count("conv_size", "pixels", 28, 1, 512),
                 count("conv_kernel", "pixels", 3, 1, 11), count("conv_stride", "pixels", 1, 1, 4),
                 count("conv_padding", "pixels", 1, 0, 5), count("conv_max_batch", "items", 16, 2, 1024),
                 real("gpu_fixed_ms", "ms", 5, 0, 1e4), real("gpu_per_item_ms", "ms", 0.6, 0, 1e4),
                 real("min_sample_ms", "ms", 1, 0.01, 1000), count("samples", "samples", 5, 3, 101)},
                &run_cpu_batch_measure};
  cell.deterministic = false;  // timings of this machine differ run to run
  return cell;
}

}  // namespace sl::batching
