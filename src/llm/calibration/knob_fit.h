#pragma once
// Fitting the step-time model's free terms (StepKnobs: compute and bandwidth efficiency, layer and dispatch
// taxes) to measurements by bounded least squares (core/least_squares.h) on log(predicted / measured), so that a
// 10 % miss weighs the same on a 20 ms TTFT as on a 5,000 tokens/s throughput, softened by asinh for points far
// off. What predicts a measurement is the caller's: serving_calibration.h re-times and simulates serving runs;
// fit_step_times here predicts measured decode steps with the step-time model directly.
// The box (issue 32): efficiencies in [0.05, 1], layer tax in [0, 1] ms, dispatch tax in [0, 50] ms; and for the
// mechanisms' terms (issue 37): host time per step in [0, 20] ms, time outside the engine per request in [0, 500] ms,
// half-efficiency tokens in [0, 2048], the low-precision share of the efficiency in [0.2, 1], the expert layers'
// share of it in [0.1, 1], the client's first-text lag in [0, 16] tokens. A fit moves only the
// knobs its mask frees; the others keep their start.
#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/least_squares.h"
#include "llm/engine/step_schedule.h"
#include "llm/model/step_time.h"

namespace sl::llm {

/// One measured figure of a serving point: seconds (TTFT, ITL, TPOT, E2E) or output tokens/s.
struct Target {
  Metric metric = Metric::Ttft;
  Stat stat = Stat::Mean;
  double measured = 0;
  /// Throughput of an open loop simulated with fewer requests than measured: measured / simulated requests
  /// (RecordedSchedule::value's extrapolation); 1 otherwise.
  double count_scale = 1;
  /// Output tokens as the client counts them per token the server generated (throughput): a client that
  /// re-tokenizes the streamed text counts fewer or more than were generated (inference-perf); 1 otherwise.
  double client_tokens_per_token = 1;
};

/// A log-error as the fit weighs it: asinh(r), which is r while |r| is small and grows as log(2|r|) beyond, so
/// that a prediction 100 times off (a point tipped into saturation, its queue growing) weighs like one 10 times
/// off, not like fifty points 2 times off. Written with log and sqrt (the same last bit natively and in wasm).
double robust_log_error(double predicted, double measured);
/// The same weighting of a log-error r = log(predicted / measured) already taken.
double robust(double log_error);

/// The knobs as a parameter vector (the order of the fit and of its tables' knob codes), and back.
enum class Knob {
  ComputeEfficiency = 0, BandwidthEfficiency = 1, LayerTax = 2, DispatchTax = 3,
  StepHost = 4, RequestOverhead = 5, HalfEfficiencyTokens = 6, LowPrecisionEfficiency = 7, ExpertEfficiency = 8,
  FirstTextLag = 9
};
inline constexpr int kNumKnobs = 10;
/// Which knobs a fit moves (Knob order).
using KnobMask = std::array<bool, kNumKnobs>;
/// The book's four terms (llm/calibration fits these), and every knob.
inline constexpr KnobMask kBookKnobs = {true, true, true, true, false, false, false, false, false, false};
inline constexpr KnobMask kAllKnobs = {true, true, true, true, true, true, true, true, true, true};
/// Whether knob j changes the engine's steps (else only how the client times them: the request's time outside the
/// engine, the first text's lag), so that moving it needs a new simulation.
constexpr bool moves_steps(std::size_t j) {
  return j != static_cast<std::size_t>(Knob::RequestOverhead) && j != static_cast<std::size_t>(Knob::FirstTextLag);
}
constexpr int num_free(const KnobMask& mask) {
  int n = 0;
  for (const bool f : mask) n += f ? 1 : 0;
  return n;
}
std::vector<double> knob_vector(const StepKnobs& knobs);
StepKnobs knobs_from(const std::vector<double>& theta);
/// The box, per knob in Knob order (seconds for the taxes).
const std::vector<double>& knob_lower();
const std::vector<double>& knob_upper();
/// `knobs` moved into the box (a start outside it, e.g. efficiency 0.01 from a page input).
StepKnobs clamped_to_box(const StepKnobs& knobs);

struct KnobFit {
  StepKnobs knobs;
  LsqResult lsq;
  /// Knobs the measurements do not move at all (no step decodes, none prefills, none is compute-bound...): the
  /// fit leaves them at their start.
  std::vector<bool> is_unseen;
};

/// The typical size of each knob (Knob order): the fit's unit of each, for finite differences and trust regions.
const std::vector<double>& knob_scale();

/// Bounded least squares of `residuals` (num_residuals of them) over the knobs `free` frees (the others stay at
/// `start`), from `start`, inside [lower, upper] (within the box), in at most max_iterations trial steps; free knobs
/// the residuals do not move are flagged, and the fixed ones too (no measurement moved them).
using KnobResiduals = std::function<bool(const std::vector<double>& theta, std::vector<double>& residuals)>;
Result<KnobFit> fit_knobs(const KnobResiduals& residuals, std::int64_t num_residuals, const StepKnobs& start,
                          const std::vector<double>& lower, const std::vector<double>& upper, int max_iterations,
                          const KnobMask& free = kBookKnobs);

/// A measured decode step: `batch` sequences of `context_tokens` tokens each (so batch x context KV read).
struct StepSample {
  std::int64_t batch = 1;
  std::int64_t context_tokens = 0;
  double step_s = 0;
};
/// The step's work as the step-time model takes it.
StepWork decode_work(const StepSample& sample);

/// Fits the knobs to measured decode steps of `model` on `gpu` over `tp` (the GPU's own knobs are ignored).
Result<KnobFit> fit_step_times(const ModelSpec& model, const GpuSpec& gpu, const TensorParallel& tp,
                               const std::vector<StepSample>& samples, const StepKnobs& start, int max_iterations);

}  // namespace sl::llm
