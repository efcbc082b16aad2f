#include "matchers.h"

#include "batching/window_batching.h"

namespace SL_UNITY_ID {

using namespace sl::batching;

TEST_CASE("Calendar windows: each request waits for its window's end and is served with its whole window",
          "[batching][window]") {
  CalendarWindowParams p;
  p.window_s = 0.010;
  p.service = ServiceModel::linear(5e-3, 1e-3);
  // Windows [0, 10), [10, 20), [20, 30) ms; the arrival at 31 ms is past the last whole window of 35 ms.
  const auto run = simulate_calendar_windows(p, {0.001, 0.004, 0.015, 0.031}, 0.035);
  REQUIRE(run.window_counts == std::vector<std::int64_t>{2, 1, 0});
  REQUIRE(run.wait_s.size() == 3);
  CHECK(run.seen_batch == std::vector<std::int64_t>{2, 2, 1});
  CHECK_THAT(run.wait_s[0], WithinAbs(0.009, 1e-15));
  CHECK_THAT(run.wait_s[2], WithinAbs(0.005, 1e-15));
  CHECK_THAT(run.latency_s[1], WithinAbs(0.006 + 0.007, 1e-15));  // wait + T_svc(2) = 5 + 2 ms
  CHECK_THAT(run.latency_s[2], WithinAbs(0.005 + 0.006, 1e-15));
}

TEST_CASE("Calendar windows with one accelerator: a batch also waits for the previous one", "[batching][window]") {
  CalendarWindowParams p;
  p.window_s = 0.010;
  p.service = ServiceModel::linear(15e-3, 0);  // every batch takes 15 ms, longer than a window
  p.one_accelerator = true;
  const auto run = simulate_calendar_windows(p, {0.001, 0.012}, 0.020);
  REQUIRE(run.wait_s.size() == 2);
  CHECK_THAT(run.wait_s[0], WithinAbs(0.009, 1e-15));
  // Window 2 closes at 20 ms, but batch 1 runs 10 .. 25 ms: it starts at 25 ms.
  CHECK_THAT(run.wait_s[1], WithinAbs(0.025 - 0.012, 1e-15));
  p.one_accelerator = false;
  CHECK_THAT(simulate_calendar_windows(p, {0.001, 0.012}, 0.020).wait_s[1], WithinAbs(0.008, 1e-15));
}

}  // namespace SL_UNITY_ID
