#pragma once
#include <array>
#include <cstdint>
#include <vector>

namespace sl::batching {

/// Six cameras feeding one fused batch (Table 16, Example 1.8). Every frame period all cameras capture at
/// once; camera i's frame reaches the server after nominal_i + jitter (jitter = sd * z, z standard normal,
/// delays clipped at 0). The batch of six starts when the last frame is in, or at the timeout, reusing the
/// previous frame of every camera still missing (a stale frame); then inference and post-processing run.
/// One accelerator: a batch also waits for the previous one. The result misses its deadline if it is ready
/// more than `deadline_s` after capture.
inline constexpr int kNumCameras = 6;

struct CameraSyncParams {
  double period_s = 1.0 / 30;
  double deadline_s = 0.033;
  std::array<double, kNumCameras> nominal_delay_s = {0.008, 0.010, 0.010, 0.010, 0.010, 0.015};
  double jitter_sd_s = 0.001;
  double timeout_s = 0.020;
  double inference_s = 0.010;
  double post_s = 0.007;
};

/// Outcome of a run over many frame sets.
struct CameraSyncRun {
  std::int64_t num_sets = 0;
  std::int64_t num_missed = 0;          ///< result later than the deadline
  std::int64_t num_stale_frames = 0;    ///< camera frames replaced by that camera's previous frame
  std::int64_t num_sets_with_stale = 0;
  std::int64_t max_consecutive_stale = 0;  ///< longest run of stale frames of one camera
  std::vector<double> result_s;         ///< per set: result ready - capture
  double miss_frac() const { return num_sets > 0 ? static_cast<double>(num_missed) / static_cast<double>(num_sets) : 0; }
  double stale_frac() const {
    return num_sets > 0 ? static_cast<double>(num_stale_frames) / static_cast<double>(num_sets * kNumCameras) : 0;
  }
};

/// Simulates one frame set per row of `z` (kNumCameras standard normals per set, drawn once by the caller so
/// that sweeps over timeout or jitter reuse the same randomness).
CameraSyncRun simulate_camera_sync(const CameraSyncParams& params, const std::vector<std::array<double, kNumCameras>>& z);

}  // namespace sl::batching
