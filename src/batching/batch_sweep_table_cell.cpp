// Cell batching/batch-sweep-table. Table 9 recomputed from its only inputs, the measured time of one batch
// T(B) at B = 1, 4, 8, 16, 32 (ResNet-50 on a V100): per-image time T(B)/B, throughput B/T(B), the gains of
// batch 32 and batch 8 over batch 1, and what a window adds to latency (batch 32 behind a 10 ms window vs
// batch 1; batch 8 behind a 5 ms window against a 20 ms SLO). The GPU utilisation column is the book's
// measurement, shown beside ours but not derivable from T(B). The knee: throughput gained per extra ms.
#include <array>
#include <string>

#include "core/checked_run.h"
#include "core/outputs.h"
#include "core/table_columns.h"
#include "batching/cells.h"

namespace sl::batching {
namespace {

constexpr std::array<std::int64_t, 5> kBatches = {1, 4, 8, 16, 32};
/// Table 9's GPU utilisation column (measured by the book, not derivable from T(B)).
constexpr std::array<double, 5> kBookGpuUtilFrac = {0.15, 0.42, 0.65, 0.85, 0.95};

/// The measured batch times, one parameter per row of Table 9.
constexpr std::array<const char*, 5> kTimeParams = {"t_b1_ms", "t_b4_ms", "t_b8_ms", "t_b16_ms", "t_b32_ms"};
/// Table 9's per-image time and throughput of each row (literal names: book references use them).
constexpr std::array<const char*, 5> kPerImageOutputs = {"per_image_b1_ms", "per_image_b4_ms", "per_image_b8_ms",
                                                         "per_image_b16_ms", "per_image_b32_ms"};
constexpr std::array<const char*, 5> kThroughputOutputs = {"throughput_b1_per_s", "throughput_b4_per_s",
                                                           "throughput_b8_per_s", "throughput_b16_per_s",
                                                           "throughput_b32_per_s"};

struct BatchSweepTableParams {
  std::array<double, 5> t_ms{};  ///< T(B) at kBatches, non-decreasing
  double window_ms = 10;
  double small_window_ms = 5;
  double slo_ms = 20;
};

/// Reads the inputs; a bigger batch that finishes sooner than a smaller one is a typo, not a measurement.
Result<BatchSweepTableParams> validate_batch_sweep_table(const Inputs& in) {
  BatchSweepTableParams p;
  for (std::size_t i = 0; i < kBatches.size(); ++i) p.t_ms[i] = in.real(kTimeParams[i]);
  for (std::size_t i = 1; i < p.t_ms.size(); ++i)
    if (p.t_ms[i] < p.t_ms[i - 1])
      return Error{"invalid", kTimeParams[i],
                   std::string(kTimeParams[i]) + " must be >= " + kTimeParams[i - 1] + " (" +
                       format_number(p.t_ms[i - 1]) + " ms): a bigger batch cannot finish sooner, got " +
                       format_number(p.t_ms[i]) + " ms",
                   {{"min", format_number(p.t_ms[i - 1])}, {"unit", "ms"}, {"got", format_number(p.t_ms[i])},
                    {"problem", "bigger_batch_sooner"}, {"other", kTimeParams[i - 1]}}};
  p.window_ms = in.real("window_ms");
  p.small_window_ms = in.real("small_window_ms");
  p.slo_ms = in.real("slo_ms");
  return p;
}

Result<RunResult> run_batch_sweep_table(const BatchSweepTableParams& params, std::uint64_t /*seed*/, RunControl& /*ctl*/) {
  const std::array<double, 5>& t_ms = params.t_ms;
  const double window_ms = params.window_ms;
  const double small_window_ms = params.small_window_ms;
  const double slo_ms = params.slo_ms;

  RunResult result;
  const auto throughput = [&t_ms](std::size_t i) { return static_cast<double>(kBatches[i]) / (t_ms[i] * 1e-3); };
  TableColumns sweep;
  for (std::size_t i = 0; i < kBatches.size(); ++i) {
    const auto b = static_cast<double>(kBatches[i]);
    result.output(kPerImageOutputs[i], t_ms[i] / b);
    result.output(kThroughputOutputs[i], throughput(i));
    // The knee (figure 6): throughput bought per extra ms of batch time, from the previous row.
    const double extra_ms = i == 0 ? 0.0 : t_ms[i] - t_ms[i - 1];
    const double gain_per_ms = i == 0 || extra_ms <= 0 ? 0.0 : (throughput(i) - throughput(i - 1)) / extra_ms;
    sweep.put({{"batch", b}, {"inference_ms", t_ms[i]}, {"per_image_ms", t_ms[i] / b},
               {"throughput_per_s", throughput(i)}, {"latency_with_window_ms", t_ms[i] + window_ms},
               {"gain_per_extra_ms", gain_per_ms}, {"book_gpu_util_frac", kBookGpuUtilFrac[i]}});
  }
  result.output("speedup_b32_vs_b1", throughput(4) / throughput(0));
  result.output("speedup_b8_vs_b1", throughput(2) / throughput(0));
  result.output("latency_b1_ms", t_ms[0]);
  result.output("latency_b32_window_ms", t_ms[4] + window_ms);
  result.output("latency_b8_small_window_ms", t_ms[2] + small_window_ms);
  result.output("slo_headroom_b8_ms", slo_ms - (t_ms[2] + small_window_ms));
  std::int64_t largest_within_slo = 0;  // the largest table batch that still meets the SLO behind the small window
  for (std::size_t i = 0; i < kBatches.size(); ++i)
    if (t_ms[i] + small_window_ms <= slo_ms) largest_within_slo = kBatches[i];
  result.output("largest_batch_within_slo", static_cast<double>(largest_within_slo));
  if (largest_within_slo == 0)
    result.notice("slo_unreachable", "even batch 1 misses the " + format_number(slo_ms) + " ms SLO behind a " +
                                         format_number(small_window_ms) + " ms window");

  sweep.into(result.table("sweep"));
  return result;
}

}  // namespace

CellSpec batch_sweep_table_cell() {
  CellSpec cell = checked_cell<&validate_batch_sweep_table, &run_batch_sweep_table>("batching/batch-sweep-table",
      {real("t_b1_ms", "ms", 5.0, 1e-3, 1e5), real("t_b4_ms", "ms", 7.2, 1e-3, 1e5),
       real("t_b8_ms", "ms", 9.1, 1e-3, 1e5), real("t_b16_ms", "ms", 14.0, 1e-3, 1e5),
       explored(real("t_b32_ms", "ms", 25.0, 1e-3, 1e5), 14, 80),
       explored(real("window_ms", "ms", 10, 0, 1e5), 0, 40),
       real("small_window_ms", "ms", 5, 0, 1e5), explored(real("slo_ms", "ms", 20, 1e-3, 1e5), 5, 60)});
  cell.uses_seed = false;
  cell.outputs = outputs({"per_image_b1_ms", "throughput_b1_per_s", "per_image_b4_ms", "throughput_b4_per_s", "per_image_b8_ms",
                  "throughput_b8_per_s", "per_image_b16_ms", "throughput_b16_per_s", "per_image_b32_ms",
                  "throughput_b32_per_s", out("speedup_b32_vs_b1", "×"), out("speedup_b8_vs_b1", "×"), "latency_b1_ms",
                  "latency_b32_window_ms", "latency_b8_small_window_ms", "slo_headroom_b8_ms",
                  "largest_batch_within_slo"});
  cell.tables = {table("sweep")};
  return cell;
}

}  // namespace sl::batching
