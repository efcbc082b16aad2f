#pragma once
// Timing of short kernels on this machine, for the measurement cells. A single call of a small layer can
// take less than the timer's resolution (the browser coarsens performance.now() to 5 us - 1 ms), so each
// sample times enough back-to-back calls to last a set minimum, and the result is the median over samples,
// with the 10th and 90th percentiles as spread. Never used by simulations.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "kernels/timing_protocol.h"

namespace sl::kernels {

/// The clock a plan reads: wall time, or (natively, on Linux) the CPU time of the calling thread, which
/// leaves out the time other processes hold the core, so a busy shared host slows fewer samples. In wasm
/// and where the thread clock is missing, ThreadCpu reads the wall clock.
enum class TimingClock { Wall, ThreadCpu };


/// Resolution of sl::wall_now_s(), in seconds: the finest nonzero step between successive readings, over
/// at most kTimingProtocol.resolution_max_steps steps or resolution_max_spin_s of spinning.
double timer_resolution_s(TimingClock clock = TimingClock::Wall);

/// The protocol's minimum sample duration for a timer of this resolution: max(min_sample_s, 100 steps).
double protocol_min_sample_s(double resolution_s);
/// A cell's own minimum sample (a parameter), raised to the protocol's min_steps_per_sample timer steps.
double cell_min_sample_s(double requested_s, double resolution_s);

/// Timings a swept point costs besides its samples: one warm-up call, and calibration needs two timings in a
/// row that reach the minimum, after at least one that grew the count.
inline constexpr double kCalibrationTimings = 4;

struct TimingPlan {
  double min_sample_s = kTimingProtocol.min_sample_s;  ///< each sample lasts at least this long
  int num_samples = 5;
  TimingClock clock = TimingClock::Wall;
};

/// True when TimingClock::ThreadCpu really reads the thread's CPU time here.
bool thread_cpu_clock_available();

/// Time per call: median and 10th/90th percentiles over samples (type-7 quantiles), and the best (fastest)
/// sample, all > 0. On a shared machine other work only ever slows a sample down, so the best sample is the
/// one a rate that must not exceed a measured roof is computed from.
struct Timing {
  double median_s = 0;
  double best_s = 0;
  double p10_s = 0;
  double p90_s = 0;
  std::int64_t calls_per_sample = 0;
  int num_samples = 0;
};

/// The summary time_per_call gives its own samples, for per-call times measured elsewhere (the browser's
/// probes): best, median and 10th/90th percentiles of a non-empty list; calls_per_sample 0 (unknown).
Timing summarize_per_call(std::vector<double> per_call_s);

/// Times `fn`: one warm-up call, then calibration (kTimingProtocol) finds how many back-to-back calls last
/// at least plan.min_sample_s twice in a row (so a slow first call cannot size the samples), then plan.num_samples
/// samples of that many calls are taken; on_sample(i) runs after sample i (for progress reports).
Timing time_per_call(const std::function<void()>& fn, const TimingPlan& plan,
                     const std::function<void(int)>& on_sample = {});

}  // namespace sl::kernels
