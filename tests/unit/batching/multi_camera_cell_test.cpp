#include <catch2/catch.hpp>

#include <cmath>

#include "batching/camera_sync.h"
#include "cell_runner.h"

namespace SL_UNITY_ID {

namespace {

const cell_test::Cell cell{"batching/multi-camera"};

double normal_upper_tail(double z) { return 0.5 * std::erfc(z / std::sqrt(2.0)); }

}  // namespace

TEST_CASE("Table 16: frames in at 8/10/15 ms, inference 15-25 ms, result at 32 ms, 1 ms slack, 36 % sync budget",
          "[batching][camera][book]") {
  const auto r = cell.run({{"frames", "100"}});
  CHECK_THAT(out(r, "arrival_spread_ms"), WithinAbs(7.0, 1e-9));
  CHECK_THAT(out(r, "nominal_start_ms"), WithinAbs(15.0, 1e-9));
  CHECK_THAT(out(r, "nominal_inference_done_ms"), WithinAbs(25.0, 1e-9));
  CHECK_THAT(out(r, "nominal_result_ms"), WithinAbs(32.0, 1e-9));
  CHECK_THAT(out(r, "nominal_slack_ms"), WithinAbs(1.0, 1e-9));
  CHECK_THAT(out(r, "sync_budget_frac"), WithinRel(12.0 / 33, 1e-12));
  CHECK_THAT(out(r, "latest_start_ms"), WithinAbs(16.0, 1e-9));
  CHECK_THAT(out(r, "period_ms"), WithinRel(1000.0 / 30, 1e-12));
}

TEST_CASE("Multi-camera: with a 20 ms timeout a set misses exactly when camera 6 is later than 16 ms",
          "[batching][camera]") {
  // Camera 6 arrives at 15 + N(0, 1) ms; the batch then needs 17 ms more, so it misses 33 ms iff Z > 1:
  // 1 - Phi(1) = 0.1587. Cameras 1-5 are 6 sd below 16 ms and the timeout (5 sd) almost never fires.
  // Sets are independent (the accelerator is free again long before the next one), so the binomial SE holds.
  const std::int64_t n = 20'000;
  const auto r = cell.run({{"frames", std::to_string(n)}});
  const double p = normal_upper_tail(1.0);
  CHECK_THAT(out(r, "miss_frac"), WithinAbs(p, 4 * std::sqrt(p * (1 - p) / n)));
  CHECK(out(r, "stale_frac") < 1e-3);
}

TEST_CASE("Multi-camera: a 16 ms timeout never misses; camera 6's late frames become stale instead",
          "[batching][camera]") {
  const std::int64_t n = 20'000;
  const auto r = cell.run({{"frames", std::to_string(n)}, {"timeout_ms", "16"}});
  CHECK(out(r, "miss_frac") == 0);
  // Stale frames: camera 6 after 16 ms, Pr = 1 - Phi(1), over 6 cameras.
  const double p = normal_upper_tail(1.0);
  CHECK_THAT(out(r, "stale_frac"), WithinAbs(p / 6, 4 * std::sqrt(p * (1 - p) / n) / 6));
  CHECK_THAT(out(r, "sets_with_stale_frac"), WithinAbs(p, 4 * std::sqrt(p * (1 - p) / n)));
}

TEST_CASE("Multi-camera: without jitter the book's timeline holds; sweeps trade misses for stale frames",
          "[batching][camera]") {
  const auto calm = cell.run({{"frames", "1000"}, {"jitter_ms", "0"}});
  CHECK(out(calm, "miss_frac") == 0);
  CHECK(out(calm, "stale_frac") == 0);
  CHECK_THAT(out(calm, "result_p99_ms"), WithinAbs(32.0, 1e-9));
  const auto r = cell.run({{"frames", "5000"}});
  for (const auto& t : r.tables) {
    if (t.name != "by_timeout") continue;
    const auto& timeout = t.columns[0].second;
    const auto& miss = t.columns[1].second;
    const auto& stale = t.columns[2].second;
    for (std::size_t i = 0; i < timeout.size(); ++i) {
      INFO("timeout " << timeout[i] << " ms");
      if (timeout[i] <= 16) CHECK(miss[i] == 0);  // start <= 16 ms always makes 33 ms
      if (i > 0) CHECK(stale[i] <= stale[i - 1]);  // waiting longer never adds stale frames
    }
  }
}

TEST_CASE("Camera sync: one accelerator delays a set whose predecessor is still running", "[batching][camera]") {
  sl::batching::CameraSyncParams p;
  p.jitter_sd_s = 0;
  p.inference_s = 0.030;  // longer than the gap between batch starts
  p.deadline_s = 1.0;
  const std::vector<std::array<double, sl::batching::kNumCameras>> z(3, std::array<double, sl::batching::kNumCameras>{});
  const auto run = sl::batching::simulate_camera_sync(p, z);
  // Set 0 starts at 15 ms, ends at 45; set 1 is ready at 33.3 + 15 = 48.3 ms (free): no wait.
  CHECK_THAT(run.result_s[1], WithinAbs(0.015 + 0.030 + 0.007, 1e-12));
  p.inference_s = 0.040;  // set 0 ends at 55 ms, set 1 waits 6.7 ms
  const auto slow = sl::batching::simulate_camera_sync(p, z);
  CHECK_THAT(slow.result_s[1], WithinAbs(0.055 + 0.040 + 0.007 - 1.0 / 30, 1e-12));
}

TEST_CASE("Multi-camera rejects bad values", "[batching][camera]") {
  cell_test::check_bad_inputs(cell, {
      {"no frames per second", {{"frames_per_s", "0"}}, "", "frames_per_s"},
      {"too few frames", {{"frames", "5"}}, "out_of_range", ""},
      {"a jitter that is not a number", {{"jitter_ms", "nan"}}, "", "jitter_ms"},
  });
}

TEST_CASE("Multi-camera still takes the frame rate under its earlier name fps", "[batching][camera]") {
  const auto renamed = cell.run({{"frames_per_s", "25"}, {"frames", "200"}});
  const auto old_name = cell.run({{"fps", "25"}, {"frames", "200"}});
  CHECK_THAT(out(renamed, "period_ms"), WithinRel(40.0, 1e-12));  // 1 / 25 per s
  CHECK(out(old_name, "period_ms") == out(renamed, "period_ms"));
}

TEST_CASE("Multi-camera with exponential jitter (the notebook's 8 ms + Exp(1.5 ms)): misses and stale sets as "
          "1 - (1 - e^(-slack / 1.5))^6",
          "[batching][camera]") {
  const std::map<std::string, std::string> rig = {{"cam1_ms", "8"}, {"cam2to5_ms", "8"}, {"cam6_ms", "8"}, {"jitter_ms", "1.5"},
                                                  {"jitter_law", "exp"}, {"frames", "100000"}};
  const auto share = [](double slack_ms) { return 1 - std::pow(1 - std::exp(-slack_ms / 1.5), 6); };
  auto with = [&](const char* timeout) { auto in = rig; in["timeout_ms"] = timeout; return cell.run(in); };
  // Waiting for all six: a set misses the 33 ms deadline when its last frame is past 16 ms (8 ms late): 2.86 %.
  const auto all = with("100");
  CHECK_THAT(out(all, "miss_frac"), WithinAbs(share(8), 4 * out(all, "miss_se_frac")));
  CHECK(out(all, "sets_with_stale_frac") == 0);
  // A 12 ms timeout never misses and reuses a frame whenever one is 4 ms late: 35.1 %.
  const auto early = with("12");
  CHECK(out(early, "miss_frac") == 0);
  CHECK_THAT(out(early, "sets_with_stale_frac"), WithinAbs(share(4), 4 * out(early, "sets_with_stale_se_frac")));
  // Every exponential delay is late (> 0), unlike the normal law's, whose mean delay is the nominal one.
  CHECK(out(with("8"), "sets_with_stale_frac") == 1);
}

}  // namespace SL_UNITY_ID
