// Frame sets walked in order: arrivals, the moment the batch can start (last arrival or timeout), the one
// accelerator, the result time against the deadline, and which cameras had to reuse an old frame.
#include "batching/camera_sync.h"

#include <algorithm>
#include <cmath>

namespace sl::batching {
namespace {

/// A result exactly at the deadline (16 + 10 + 7 = 33 ms) meets it; sums of binary fractions can land a few
/// ulps above, so the comparison allows 1 ns.
constexpr double kRoundingSlackS = 1e-9;

}  // namespace

CameraSyncRun simulate_camera_sync(const CameraSyncParams& p, const std::vector<std::array<double, kNumCameras>>& z) {
  CameraSyncRun run;
  run.result_s.reserve(z.size());
  std::array<std::int64_t, kNumCameras> stale_streak{};
  double accelerator_free_s = 0;
  for (std::size_t k = 0; k < z.size(); ++k) {
    const double capture_s = static_cast<double>(k) * p.period_s;
    const double timeout_at_s = capture_s + p.timeout_s;
    double last_in_time_s = capture_s;
    bool any_stale = false;
    for (int i = 0; i < kNumCameras; ++i) {
      const double arrival_s = capture_s + std::fmax(0.0, p.nominal_delay_s[i] + p.jitter_sd_s * z[k][i]);
      if (arrival_s > timeout_at_s) {  // too late: reuse this camera's previous frame
        ++run.num_stale_frames;
        any_stale = true;
        run.max_consecutive_stale = std::max(run.max_consecutive_stale, ++stale_streak[i]);
      } else {
        stale_streak[i] = 0;
        last_in_time_s = std::fmax(last_in_time_s, arrival_s);
      }
    }
    const double ready_s = any_stale ? timeout_at_s : last_in_time_s;
    const double start_s = std::fmax(ready_s, accelerator_free_s);
    accelerator_free_s = start_s + p.inference_s;
    const double result_s = accelerator_free_s + p.post_s - capture_s;
    run.result_s.push_back(result_s);
    run.num_missed += result_s > p.deadline_s + kRoundingSlackS;
    run.num_sets_with_stale += any_stale;
  }
  run.num_sets = static_cast<std::int64_t>(z.size());
  return run;
}

}  // namespace sl::batching
