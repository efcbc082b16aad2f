#include "matchers.h"

#include "batching/camera_sync.h"

namespace SL_UNITY_ID {

using namespace sl::batching;

namespace {

std::vector<std::array<double, kNumCameras>> zeros(std::size_t n) { return std::vector<std::array<double, kNumCameras>>(n); }

}  // namespace

TEST_CASE("Table 16 without jitter: every set is ready at 15 + 10 + 7 = 32 ms, with no miss and no stale frame",
          "[batching][camera]") {
  const auto run = simulate_camera_sync(CameraSyncParams{}, zeros(100));
  CHECK(run.num_sets == 100);
  CHECK(run.num_missed == 0);
  CHECK(run.num_stale_frames == 0);
  for (double r : run.result_s) CHECK_THAT(r, WithinAbs(0.032, 1e-12));
}

TEST_CASE("A timeout before camera 6 makes its frame stale in every set, and each set starts at the timeout",
          "[batching][camera]") {
  CameraSyncParams p;
  p.timeout_s = 0.012;  // cameras 1-5 are in by 10 ms, camera 6 only at 15 ms
  const auto run = simulate_camera_sync(p, zeros(50));
  CHECK(run.num_stale_frames == 50);
  CHECK(run.num_sets_with_stale == 50);
  CHECK(run.max_consecutive_stale == 50);
  CHECK_THAT(run.stale_frac(), WithinAbs(1.0 / 6, 1e-15));
  for (double r : run.result_s) CHECK_THAT(r, WithinAbs(0.012 + 0.010 + 0.007, 1e-12));
}

TEST_CASE("A late result is counted as a miss: inference longer than the slack", "[batching][camera]") {
  CameraSyncParams p;
  p.inference_s = 0.012;  // 15 + 12 + 7 = 34 ms > 33 ms
  const auto run = simulate_camera_sync(p, zeros(10));
  CHECK(run.miss_frac() == 1.0);
}

}  // namespace SL_UNITY_ID
