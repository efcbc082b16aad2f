#pragma once
// Timing of short kernels on this machine, for the measurement cells. A single call of a small layer can
// take less than the timer's resolution (the browser coarsens performance.now() to 5 us - 1 ms), so each
// sample times enough back-to-back calls to last a set minimum, and the result is the median over samples,
// with the 10th and 90th percentiles as spread. Never used by simulations.
#include <cstdint>
#include <functional>
#include <vector>

#include "kernels/timing_protocol.h"

namespace sl::kernels {

/// Resolution of sl::wall_now_s(), in seconds: the finest nonzero step between successive readings, over
/// at most kTimingProtocol.resolution_max_steps steps or resolution_max_spin_s of spinning.
double timer_resolution_s();

/// The protocol's minimum sample duration for a timer of this resolution: max(min_sample_s, 100 steps).
double protocol_min_sample_s(double resolution_s);

struct TimingPlan {
  double min_sample_s = kTimingProtocol.min_sample_s;  ///< each sample lasts at least this long
  int num_samples = 5;
};

/// Time per call: median and 10th/90th percentiles over samples (type-7 quantiles), all > 0.
struct Timing {
  double median_s = 0;
  double p10_s = 0;
  double p90_s = 0;
  std::int64_t calls_per_sample = 0;
  int num_samples = 0;
};

/// The summary time_per_call gives its own samples, for per-call times measured elsewhere (the browser's
/// probes): median and 10th/90th percentiles of a non-empty list; calls_per_sample 0 (unknown).
Timing summarize_per_call(std::vector<double> per_call_s);

/// Times `fn`: one warm-up call, then calibration (kTimingProtocol) finds how many back-to-back calls last
/// at least plan.min_sample_s twice in a row (so a slow first call cannot size the samples), then plan.num_samples
/// samples of that many calls are taken; on_sample(i) runs after sample i (for progress reports).
Timing time_per_call(const std::function<void()>& fn, const TimingPlan& plan,
                     const std::function<void(int)>& on_sample = {});

}  // namespace sl::kernels
