// Cell llm/cpu-decode-roofline. Measures one decode step on this CPU and places it on a roofline measured
// here too. The roof: memory bandwidth (a read-only stream over the weight buffer, several times the
// last-level cache at the defaults) and arithmetic peaks (register-resident multiply-add probes at the
// kernels' vector width), each raised to the sweep's own best rate when the sweep beat it, so no point lies
// above the roof drawn (cpu_decode_probes.cpp). Rates come from the best of >= 7 samples. The points: a step at
// each batch B = 1, 2, 4, ... max_batch, with arithmetic intensity FLOP / bytes moved (formulas in
// cpu_decode_roofline.h) and achieved FLOP/s. At B = 1 a step reads every weight for 2 FLOP, far left of
// the ridge peak / bandwidth: memory-bound, and eq. 18 (weight bytes / bandwidth) predicts its time. Past the
// knee B* the same bytes serve enough FLOPs to reach the arithmetic peak.
#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>

#include "core/checked_run.h"
#include "core/budget.h"
#include "core/outputs.h"
#include "core/preset.h"
#include "core/rng.h"
#include "core/units.h"
#include "kernels/fill.h"
#include "kernels/heap_array.h"
#include "llm/cpu/cpu_decode_roofline.h"

namespace sl::llm {
namespace {

using kernels::HeapArray;
using kernels::Timing;

using units::kMiB;
/// Every probe and step is timed (samples + kCalibrationTimings) times, each at least min_sample_ms long.
using kernels::kCalibrationTimings;
/// The probes timed besides the steps: the stream and the FP32 and INT8 multiply-add.
constexpr double kProbeSeries = 3;
/// One FLOP of a decode step (the weights streamed from memory at batch 1, computed at the larger batches),
/// natively, for hidden >= 1024: 0.013 ns at the defaults (1e11 FLOP in 1.32 s of CPU), 0.0096 ns at max_batch 128
/// (8.2e11 FLOP in 7.9 s, which the old 20-GFLOP-a-pass cap let run). Small matrices cost more per FLOP: 0.063 ns
/// at hidden 64 and 256 (step_flop_s below adds 0.055 ns x (256 / hidden)^2, capped at 1).
constexpr budget::UnitCost kStepFlopCost{0.015e-9, 0};
/// Reading the weights: every timed call of a step reads them once, and so does each call of the stream probe
/// (over the larger buffer). At a floor of 5 GB/s (this host streams 7-13 GB/s) the defaults' ~23 GB take
/// 4.7 s (measured ~4 s natively), 512 MiB of weights 9.3 s (measured 9.3-10 s, where the FLOP cost alone said 7.5).
constexpr double kReadFloorBytesPerS = 5e9;
double step_flop_s(std::int64_t hidden) {
  const double small = std::min(1.0, std::pow(256.0 / static_cast<double>(hidden), 2));
  return kStepFlopCost.native_s + 0.055e-9 * small;
}
constexpr const char* kMeasuringWhat =
    "the measuring time ((3 probes + the batches of each precision) x (samples + 4 calibration timings) x "
    "min_sample_ms, plus 0.1 s of settling per probe, plus the larger of the sweep's FLOPs x (samples + 5) "
    "passes per precision and the weights read once per timed call at 5 GB/s)";
/// The book's H100 (reference §0): dense FP16 peak and HBM bandwidth; ridge 989e12 / 3.35e12 = 295 FLOP/B.
constexpr double kH100PeakFlopPerS = 989e12;
constexpr double kH100BytesPerS = 3.35e12;
/// The book's V100 PCIe (§0): FP32 14.0 TFLOP/s, 900 GB/s; ridge 15.6 FLOP/B (printed with Table 6).
constexpr double kV100Fp32FlopPerS = 14.0e12;
constexpr double kV100BytesPerS = 900e9;
/// Eq. 18's batch-1 decode of INT4 weights: 2 FLOP per parameter over 0.5 B per parameter = 4 FLOP/B.
constexpr double kInt4BytesPerWeight = 0.5;
/// The roof curve spans these intensities (FLOP/B), 4 points per octave.
constexpr double kRoofMinIntensity = 1.0 / 16;
constexpr double kRoofMaxIntensity = 1024;

struct CpuDecodeRooflineParams {
  DecodeShape shape;
  std::int64_t max_batch = 16;
  bool fp32 = true;
  bool int8 = true;
  double min_sample_s = 1e-3;
  int num_samples = 7;
  std::vector<std::int64_t> batches;

  double fp32_weight_bytes() const { return fp32 ? decode_step_bytes(shape, kFp32, 0) : 0.0; }
  double int8_weight_bytes() const { return int8 ? decode_step_bytes(shape, kInt8, 0) : 0.0; }
  /// Weights plus activation buffers at max_batch for both precisions (always allocated).
  double total_bytes() const {
    const auto acts = static_cast<double>(max_batch * shape.hidden);
    return fp32_weight_bytes() + int8_weight_bytes() + acts * (4 + 4 + 1 + 4);
  }
};

std::string mib_text(double bytes) { return format_number(std::round(bytes / kMiB * 10) / 10) + " MiB"; }

/// The time a run measures, in browser seconds: every timing lasts at least min_sample_ms (wall clock, the same
/// in the browser), and the steps it times compute the sweep at least (samples + 5) times per precision (a
/// timing is the longer of the two; their sum bounds it). The parameter named is the larger part's.
budget::Estimate measuring_time(const CpuDecodeRooflineParams& p) {
  const double precisions = (p.fp32 ? 1.0 : 0.0) + (p.int8 ? 1.0 : 0.0);
  const double series = kProbeSeries + precisions * static_cast<double>(p.batches.size());
  const double measure_s =
      series * (p.num_samples + kCalibrationTimings) * p.min_sample_s + kProbeSeries * kProbeSettleS;
  double sweep_flop = 0;
  for (auto b : p.batches) sweep_flop += decode_step_flop(p.shape, b);
  const double timed_calls = p.num_samples + kCalibrationTimings + 1;  // of each probe and step
  const double compute_s = precisions * timed_calls * sweep_flop * step_flop_s(p.shape.hidden) * budget::kWasmSlowdown;
  const double weight_bytes = p.fp32_weight_bytes() + p.int8_weight_bytes();
  const double stream_bytes = std::max(p.fp32_weight_bytes(), p.int8_weight_bytes());
  const double read_bytes = timed_calls * (static_cast<double>(p.batches.size()) * weight_bytes + stream_bytes);
  // The FLOP cost was fitted at the defaults, where it already holds their reads; the larger of the two
  // bounds the steps, so neither large weights (reads) nor large batches (FLOPs) are undercounted.
  const double read_s = read_bytes / kReadFloorBytesPerS;
  const double steps_s = std::max(compute_s, read_s);
  return budget::estimate(measure_s >= steps_s ? "min_sample_ms" : read_s >= compute_s ? "weights_mib" : "max_batch",
                          kMeasuringWhat, "s", measure_s + steps_s, budget::kMeasuredSecond);
}

Result<CpuDecodeRooflineParams> validate_cpu_decode_roofline(const Inputs& in) {
  CpuDecodeRooflineParams p;
  p.shape.hidden = in.count("hidden");
  const double weights_bytes = in.real("weights_mib") * kMiB;
  const double matrix_bytes = 4.0 * static_cast<double>(p.shape.hidden * p.shape.hidden);
  p.shape.layers = static_cast<std::int64_t>(std::floor(weights_bytes / matrix_bytes));
  p.max_batch = in.count("max_batch");
  p.fp32 = in.choice("precision") != "int8";
  p.int8 = in.choice("precision") != "fp32";
  p.min_sample_s = in.real("min_sample_ms") * 1e-3;
  p.num_samples = static_cast<int>(in.count("samples"));
  for (std::int64_t b = 1; b < p.max_batch; b *= 2) p.batches.push_back(b);
  p.batches.push_back(p.max_batch);

  if (p.shape.layers < 1)
    return Error{"invalid", "weights_mib",
                 "weights_mib must hold at least one " + std::to_string(p.shape.hidden) + " x " +
                     std::to_string(p.shape.hidden) + " FP32 matrix (" + mib_text(matrix_bytes) + "), got " +
                     mib_text(weights_bytes),
                 {{"min", format_number(matrix_bytes / kMiB)}, {"unit", "MiB"}, {"got", format_number(weights_bytes / kMiB)},
                  {"problem", "weights_below_matrix"}, {"hidden", std::to_string(p.shape.hidden)}}};
  if (auto e = budget::check(budget::estimate(
          "weights_mib", "the weights and activations (beside the page in a browser's 2 GiB wasm heap)", "MiB",
          p.total_bytes() / kMiB, {0, kMiB})))
    return *e;
  if (auto e = budget::check(measuring_time(p))) return *e;
  return p;
}

/// The output, notice and table names of one precision's sweep, written out in full.
struct SweepNames {
  const char* table;
  const char* b1_step_ms;
  const char* eq18_step_ms;
  const char* b1_gb_per_s;
  const char* b1_ai_flop_per_byte;
  const char* b1_ai_over_ridge;
  const char* b1_roof_frac;
  const char* max_batch_gflop_per_s;
  const char* max_batch_peak_frac;
  const char* tok_per_s_gain;
  const char* knee_batch;
  const char* b1_memory_bound;
  const char* b1_compute_bound;  ///< notice code
  const char* knee_below_one;    ///< notice code
};
constexpr SweepNames kFp32Names{"fp32", "fp32_b1_step_ms", "fp32_eq18_step_ms", "fp32_b1_gb_per_s",
                                "fp32_b1_ai_flop_per_byte", "fp32_b1_ai_over_ridge", "fp32_b1_roof_frac",
                                "fp32_max_batch_gflop_per_s", "fp32_max_batch_peak_frac", "fp32_tok_per_s_gain",
                                "fp32_knee_batch", "fp32_b1_memory_bound", "fp32_b1_compute_bound",
                                "fp32_knee_below_one"};
constexpr SweepNames kInt8Names{"int8", "int8_b1_step_ms", "int8_eq18_step_ms", "int8_b1_gb_per_s",
                                "int8_b1_ai_flop_per_byte", "int8_b1_ai_over_ridge", "int8_b1_roof_frac",
                                "int8_max_batch_gflop_per_s", "int8_max_batch_peak_frac", "int8_tok_per_s_gain",
                                "int8_knee_batch", "int8_b1_memory_bound", "int8_b1_compute_bound",
                                "int8_knee_below_one"};

/// Best rates of one precision's sweep (from each step's best sample), and the spread of the step that reached each.
struct SweepBest {
  double flop_per_s = 0;
  double bytes_per_s = 0;
  double flop_spread = 1;
  double bytes_spread = 1;
};
SweepBest sweep_best(const CpuDecodeRooflineParams& p, const DecodePrecision& prec, const std::vector<Timing>& t) {
  SweepBest best;
  for (std::size_t i = 0; i < p.batches.size(); ++i) {
    const double flop_per_s = decode_step_flop(p.shape, p.batches[i]) / t[i].best_s;
    const double bytes_per_s = decode_step_bytes(p.shape, prec, p.batches[i]) / t[i].best_s;
    if (flop_per_s > best.flop_per_s) best.flop_per_s = flop_per_s, best.flop_spread = spread(t[i]);
    if (bytes_per_s > best.bytes_per_s) best.bytes_per_s = bytes_per_s, best.bytes_spread = spread(t[i]);
  }
  return best;
}

/// One precision's sweep: its outputs (fp32_* or int8_*, from `names`) and table. `verdict`: the run is
/// steady enough to say whether batch 1 is memory- or compute-bound.
void output_sweep(RunResult& result, const CpuDecodeRooflineParams& p, const DecodePrecision& prec,
                  const SweepNames& names, const std::vector<Timing>& t, double peak_per_s, double bytes_per_s,
                  bool verdict) {
  const std::string name = prec.name;
  const double ridge = peak_per_s / bytes_per_s;
  std::vector<double> batch, step_ms, p10_ms, p90_ms, ai, gflop, gb, tok, roof, frac;
  for (std::size_t i = 0; i < p.batches.size(); ++i) {
    const std::int64_t b = p.batches[i];
    const double flop = decode_step_flop(p.shape, b);
    const double bytes = decode_step_bytes(p.shape, prec, b);
    const double attainable = std::min(peak_per_s, bytes_per_s * flop / bytes);
    batch.push_back(static_cast<double>(b));
    step_ms.push_back(t[i].best_s * units::kMsPerS);
    p10_ms.push_back(t[i].p10_s * units::kMsPerS);
    p90_ms.push_back(t[i].p90_s * units::kMsPerS);
    ai.push_back(flop / bytes);
    gflop.push_back(flop / t[i].best_s / units::kGiga);
    gb.push_back(bytes / t[i].best_s / units::kGB);
    tok.push_back(static_cast<double>(b) / t[i].best_s);
    roof.push_back(attainable / units::kGiga);
    // The roofs include this sweep's best rates, so the share is at most 1; the min only absorbs the last
    // bit of rounding when this point is the one that set the roof.
    frac.push_back(std::min(1.0, flop / t[i].best_s / attainable));
  }
  result.output(names.b1_step_ms, step_ms.front());
  result.output(names.eq18_step_ms, decode_step_bytes(p.shape, prec, 0) / bytes_per_s * units::kMsPerS);
  result.output(names.b1_gb_per_s, gb.front());
  result.output(names.b1_ai_flop_per_byte, ai.front());
  result.output(names.b1_ai_over_ridge, ai.front() / ridge);
  result.output(names.b1_roof_frac, frac.front());
  result.output(names.max_batch_gflop_per_s, gflop.back());
  result.output(names.max_batch_peak_frac, gflop.back() * units::kGiga / peak_per_s);
  result.output(names.tok_per_s_gain, tok.back() / tok.front());
  const double knee = knee_batch(p.shape, prec, ridge);
  if (knee > 0) result.output(names.knee_batch, knee);
  const bool knee_below_one = ai.front() >= ridge;  // the knee falls at or below batch 1
  // FP32 reads 4 bytes a weight for 2 FLOPs: batch 1 far below any CPU's ridge, so past it the probes were disturbed.
  // INT8 does 2 operations a weight byte, near the ridge of a CPU with slow INT8 multiply-adds (SIMD128: 2-2.7 op/B),
  // so past it batch 1 may really be compute-bound; the run cannot tell that from a probe slowed by other work.
  if (knee_below_one) {
    const char* why = prec.weight_bytes >= 4
        ? "which a decode step that reads every weight should not do; the probes were probably disturbed, so no "
          "verdict is given."
        : "which a CPU whose multiply-adds at this precision are slow can really do, or a probe slowed by other work "
          "can fake; no verdict is given: run it again on a quieter machine to tell them apart.";
    result.notice(names.knee_below_one, name + " at batch 1 does " + format_number(ai.front()) +
                                            " FLOP per byte, at or past the ridge " + format_number(ridge) +
                                            " measured here: the knee falls below batch 1, " + why);
  }
  if (verdict && !knee_below_one) result.output(names.b1_memory_bound, 1.0);
  result.table(names.table)
      .column("batch", std::move(batch))
      .column("step_ms", std::move(step_ms))
      .column("p10_ms", std::move(p10_ms))
      .column("p90_ms", std::move(p90_ms))
      .column("ai_flop_per_byte", std::move(ai))
      .column("gflop_per_s", std::move(gflop))
      .column("gb_per_s", std::move(gb))
      .column("tok_per_s", std::move(tok))
      .column("roof_gflop_per_s", std::move(roof))
      .column("roof_frac", std::move(frac));
}

void output_roofs(RunResult& result, const Roofs& roofs) {
  result.output("vector_bits", static_cast<double>(roofs.vector_bits));
  result.output("stream_mib", roofs.stream_buffer_bytes / kMiB);
  if (roofs.llc_bytes > 0) result.output("llc_mib", roofs.llc_bytes / kMiB);
  result.output("read_gb_per_s", roofs.stream_bytes_per_s / units::kGB);
  result.output("fma_gflop_per_s", roofs.fma_flop_per_s / units::kGiga);
  result.output("int8_probe_gop_per_s", roofs.int8_probe_op_per_s / units::kGiga);
  result.output("roof_gb_per_s", roofs.bytes_per_s / units::kGB);
  result.output("peak_fp32_gflop_per_s", roofs.fp32_flop_per_s / units::kGiga);
  result.output("peak_int8_gop_per_s", roofs.int8_op_per_s / units::kGiga);
  result.output("ridge_fp32_flop_per_byte", roofs.fp32_flop_per_s / roofs.bytes_per_s);
  result.output("ridge_int8_op_per_byte", roofs.int8_op_per_s / roofs.bytes_per_s);
  result.output("max_spread", roofs.max_spread);
  result.output("h100_ridge_flop_per_byte", kH100PeakFlopPerS / kH100BytesPerS);
  result.output("v100_ridge_flop_per_byte", kV100Fp32FlopPerS / kV100BytesPerS);
  result.output("int4_b1_ai_flop_per_byte", 2.0 / kInt4BytesPerWeight);
  std::vector<double> ai, fp32, int8;
  for (double x = kRoofMinIntensity; x <= kRoofMaxIntensity * 1.0001; x *= std::sqrt(std::sqrt(2.0))) {
    ai.push_back(x);
    fp32.push_back(std::min(roofs.fp32_flop_per_s, roofs.bytes_per_s * x) / units::kGiga);
    int8.push_back(std::min(roofs.int8_op_per_s, roofs.bytes_per_s * x) / units::kGiga);
  }
  result.table("roof").column("ai_flop_per_byte", std::move(ai)).column("fp32_gflop_per_s", std::move(fp32))
      .column("int8_gop_per_s", std::move(int8));
  if (roofs.llc_bytes <= 0)
    result.notice("stream_cache_unknown",
                  "The stream read " + mib_text(roofs.stream_buffer_bytes) +
                      ", but the size of this machine's last-level cache is not known here: the memory roof may be "
                      "partly cache bandwidth.");
  else if (roofs.stream_buffer_bytes < kStreamLlcMultiple * roofs.llc_bytes)
    result.notice("stream_in_cache",
                  "The stream read " + mib_text(roofs.stream_buffer_bytes) + ", less than " +
                      format_number(kStreamLlcMultiple) + " x the " + mib_text(roofs.llc_bytes) +
                      " last-level cache: the memory roof is cache bandwidth, not DRAM's.");
}

Result<RunResult> run_cpu_decode_roofline(const CpuDecodeRooflineParams& p, std::uint64_t seed, RunControl& ctl) {
  const std::int64_t h = p.shape.hidden;
  const std::int64_t weights = p.shape.layers * h * h;

  HeapArray<float> w32(p.fp32 ? weights : 0);
  HeapArray<std::int8_t> w8(p.int8 ? weights : 0);
  HeapArray<float> x32(p.max_batch * h), y32(p.max_batch * h);
  HeapArray<std::int8_t> x8(p.max_batch * h);
  HeapArray<std::int32_t> y8(p.max_batch * h);
  if ((p.fp32 && !w32.ok()) || (p.int8 && !w8.ok()) || !x32.ok() || !y32.ok() || !x8.ok() || !y8.ok())
    return out_of_memory("weights_mib", p.total_bytes());

  // The thread's CPU time where there is one (natively): a roofline is the core's, not the share of it the
  // other processes on a shared host leave, so their time slices are left out of the samples.
  const kernels::TimingClock clock = kernels::TimingClock::ThreadCpu;
  const double resolution_s = kernels::timer_resolution_s(clock);
  const kernels::TimingPlan plan{kernels::cell_min_sample_s(p.min_sample_s, resolution_s), p.num_samples,
                                 clock};
  const double num_sweeps = (p.fp32 ? 1.0 : 0.0) + (p.int8 ? 1.0 : 0.0);
  const double total = plan.num_samples * (kProbeSeries + num_sweeps * static_cast<double>(p.batches.size()));
  double done = 0;
  const auto tick = [&] { ctl.report(++done, total); };

  // Roofs first: the stream probe overwrites the weight buffer, which the seed fills afterwards.
  Roofs roofs;
  const ProbeBuffer buffer = p.fp32 ? ProbeBuffer{reinterpret_cast<unsigned char*>(w32.data()), w32.bytes()}
                                    : ProbeBuffer{reinterpret_cast<unsigned char*>(w8.data()), w8.bytes()};
  probe_stream(buffer, plan, roofs, tick);
  probe_peaks(plan, roofs, tick);

  Rng rng = Rng::stream(seed, Stream::Misc);
  std::vector<Timing> t32, t8;
  if (p.fp32) {
    // Weights ~ U(-1/sqrt(h), 1/sqrt(h)), inputs ~ U(-1, 1): outputs stay O(1), no overflow or denormals.
    kernels::fill_uniform(rng, w32.data(), weights, static_cast<float>(1.0 / std::sqrt(static_cast<double>(h))));
    kernels::fill_uniform(rng, x32.data(), x32.size(), 1.0f);
    t32 = time_decode_fp32(p.shape, w32.data(), p.batches, x32.data(), y32.data(), plan, tick);
  }
  if (p.int8) {
    kernels::fill_uniform(rng, w8.data(), weights);
    kernels::fill_uniform(rng, x8.data(), x8.size());
    t8 = time_decode_int8(p.shape, w8.data(), p.batches, x8.data(), y8.data(), plan, tick);
  }
  // The roofs drawn: each probe, or the sweep's own best rate where the sweep did better (a point cannot lie
  // above a rate this run reached), as the companion notebook derives its roofs. The verdict compares batch 1's
  // intensity (a count of FLOPs and bytes, no timing) with the ridge, peak / bandwidth: it rests only on the
  // timings that set the roofs, so their spread (verdict_spread) decides whether the run is steady enough.
  roofs.bytes_per_s = roofs.stream_bytes_per_s;
  roofs.fp32_flop_per_s = roofs.fma_flop_per_s;
  roofs.int8_op_per_s = roofs.int8_probe_op_per_s;
  double bytes_spread = roofs.stream_spread, verdict_spread = 1;
  for (const auto& [on, prec, t, peak, probe_spread] :
       {std::tuple{p.fp32, kFp32, &t32, &roofs.fp32_flop_per_s, roofs.fma_spread},
        std::tuple{p.int8, kInt8, &t8, &roofs.int8_op_per_s, roofs.int8_probe_spread}}) {
    if (!on) continue;
    const SweepBest best = sweep_best(p, prec, *t);
    if (best.bytes_per_s > roofs.bytes_per_s) roofs.bytes_per_s = best.bytes_per_s, bytes_spread = best.bytes_spread;
    verdict_spread = std::max(verdict_spread, best.flop_per_s > *peak ? best.flop_spread : probe_spread);
    *peak = std::max(*peak, best.flop_per_s);
    for (const Timing& step : *t) roofs.max_spread = std::max(roofs.max_spread, spread(step));
  }
  verdict_spread = std::max(verdict_spread, bytes_spread);
  const bool steady = verdict_spread <= kMaxSpread;

  RunResult result;
  result.output("timer_resolution_us", resolution_s * units::kUsPerS);
  result.output("sample_min_ms", plan.min_sample_s * units::kMsPerS);
  result.output("num_layers", static_cast<double>(p.shape.layers));
  output_roofs(result, roofs);
  result.output("verdict_spread", verdict_spread);
  if (!steady)
    result.notice("noisy_run", "The samples of a timing that sets a roof spread " + format_number(verdict_spread) +
                                   " x between their 10th and 90th percentiles, more than " + format_number(kMaxSpread) +
                                   " x: the machine was busy, so this run gives no verdict; run it again.");
  else if (roofs.max_spread > kMaxSpread)
    result.notice("noisy_steps", "Some step's samples spread " + format_number(roofs.max_spread) +
                                     " x (p90 / p10), but the timings the roofs rest on spread at most " +
                                     format_number(verdict_spread) + " x: the verdict stands; the table shows each "
                                     "step's p10 and p90.");
  if (p.fp32) {
    result.output("fp32_weight_bytes", p.fp32_weight_bytes());
    output_sweep(result, p, kFp32, kFp32Names, t32, roofs.fp32_flop_per_s, roofs.bytes_per_s, steady);
  }
  if (p.int8) {
    result.output("int8_weight_bytes", p.int8_weight_bytes());
    output_sweep(result, p, kInt8, kInt8Names, t8, roofs.int8_op_per_s, roofs.bytes_per_s, steady);
  }
  return result;
}

}  // namespace

CellSpec cpu_decode_roofline_cell() {
  CellSpec cell = checked_cell<&validate_cpu_decode_roofline, &run_cpu_decode_roofline>("llm/cpu-decode-roofline",
      {real("weights_mib", "MiB", 256, 1, 4096), count("hidden", "units", 1024, 64, 16384),
       count("max_batch", "sequences", 16, 2, 1024), choice("precision", {"both", "fp32", "int8"}, "both"),
       real("min_sample_ms", "ms", 1, 0.01, 1000), count("samples", "samples", 7, 7, 51)});
  cell.presets = presets_of({{"int8-large", "precision=int8 weights_mib=1024"}});
  cell.deterministic = false;  // timings of this machine differ run to run
  cell.outputs = outputs({"timer_resolution_us", "sample_min_ms", "num_layers", out("vector_bits", "bits"), "stream_mib",
                  sometimes("llc_mib"), "read_gb_per_s", "fma_gflop_per_s", "int8_probe_gop_per_s", "roof_gb_per_s",
                  "peak_fp32_gflop_per_s", "peak_int8_gop_per_s", "ridge_fp32_flop_per_byte", "ridge_int8_op_per_byte",
                  out("max_spread", "×"), out("verdict_spread", "×"), "h100_ridge_flop_per_byte", "v100_ridge_flop_per_byte",
                  out("int4_b1_ai_flop_per_byte", ""), sometimes("fp32_weight_bytes"), sometimes("fp32_b1_step_ms"),
                  sometimes("fp32_eq18_step_ms"), sometimes("fp32_b1_gb_per_s"), sometimes("fp32_b1_ai_flop_per_byte"),
                  sometimes("fp32_b1_ai_over_ridge"), sometimes("fp32_b1_roof_frac"),
                  sometimes("fp32_max_batch_gflop_per_s"), sometimes("fp32_max_batch_peak_frac"),
                  sometimes("fp32_tok_per_s_gain"), sometimes("fp32_knee_batch"), sometimes("fp32_b1_memory_bound"),
                  sometimes("int8_weight_bytes"), sometimes("int8_b1_step_ms"), sometimes("int8_eq18_step_ms"),
                  sometimes("int8_b1_gb_per_s"), sometimes(out("int8_b1_ai_flop_per_byte", "")),
                  sometimes("int8_b1_ai_over_ridge"), sometimes("int8_b1_roof_frac"),
                  sometimes("int8_max_batch_gflop_per_s"), sometimes("int8_max_batch_peak_frac"),
                  sometimes("int8_tok_per_s_gain"), sometimes("int8_knee_batch"), sometimes("int8_b1_memory_bound")});
  cell.tables = {table("roof"), table("fp32"), table("int8")};
  cell.budget = {budget::describe(kMeasuringWhat, "s", budget::kMeasuredSecond) + "; the steps at " +
                     format_number(kStepFlopCost.native_s * 1e9) + " ns per FLOP natively",
                 "the weights and activations: at most " + format_number(budget::kMaxBytes / kMiB) + " MiB"};
  return cell;
}

}  // namespace sl::llm
