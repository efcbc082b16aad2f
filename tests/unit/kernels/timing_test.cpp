// Timing is never asserted (it depends on the machine and its load); these tests check that the
// measurement machinery runs and returns positive, finite, ordered numbers.
#include <catch2/catch.hpp>

#include <cmath>

#include "kernels/fill.h"
#include "kernels/heap_array.h"
#include "kernels/timing.h"

namespace SL_UNITY_ID {

using namespace sl::kernels;

TEST_CASE("The timer resolution is positive and finite", "[kernels][timing]") {
  const double r = timer_resolution_s();
  CHECK(std::isfinite(r));
  CHECK(r > 0);
}

TEST_CASE("The protocol's minimum sample is 1 ms, or 100 timer steps on a coarser timer", "[kernels][timing]") {
  CHECK(protocol_min_sample_s(1e-9) == kTimingProtocol.min_sample_s);
  CHECK(kTimingProtocol.min_sample_s == 1e-3);
  // A 100 us timer (a browser without cross-origin isolation): 100 steps = 10 ms.
  CHECK(protocol_min_sample_s(1e-4) == kTimingProtocol.min_steps_per_sample * 1e-4);
}

TEST_CASE("time_per_call returns ordered positive times and reports every sample", "[kernels][timing]") {
  volatile double sink = 0;
  int samples_seen = 0;
  const Timing t = time_per_call(
      [&] {
        for (int i = 0; i < 100; ++i) sink = sink + 1.0;
      },
      TimingPlan{1e-4, 7}, [&](int) { ++samples_seen; });
  CHECK(samples_seen == 7);
  CHECK(t.num_samples == 7);
  CHECK(t.calls_per_sample >= 1);
  CHECK(std::isfinite(t.median_s));
  CHECK(t.p10_s > 0);
  CHECK(t.p10_s <= t.median_s);
  CHECK(t.median_s <= t.p90_s);
}

TEST_CASE("HeapArray reports an allocation that cannot fit instead of aborting", "[kernels][timing]") {
  HeapArray<float> ok(1000);
  CHECK(ok.ok());
  CHECK(ok.bytes() == 4000);
  HeapArray<float> huge(std::int64_t{1} << 62);  // 2^64 bytes: larger than any address space
  CHECK_FALSE(huge.ok());
  CHECK(huge.size() == 0);
  HeapArray<float> moved = std::move(ok);
  CHECK(moved.ok());
  CHECK_FALSE(ok.ok());  // NOLINT(bugprone-use-after-move): the moved-from array is empty by contract
}

TEST_CASE("Seeded fills are reproducible and stay in range", "[kernels][timing]") {
  sl::Rng r1(3), r2(3);
  std::vector<float> a(1001), b(1001);
  fill_uniform(r1, a.data(), 1001, 0.5f);
  fill_uniform(r2, b.data(), 1001, 0.5f);
  CHECK(a == b);
  double sum = 0;
  for (float v : a) {
    REQUIRE(v >= -0.5f);
    REQUIRE(v < 0.5f);
    sum += v;
  }
  // Mean of U(-0.5, 0.5) is 0 with SE sqrt(1/12 / 1001) = 0.0091; allow 5 SE.
  CHECK(std::fabs(sum / 1001) < 0.046);
  std::vector<std::int8_t> q(999);
  fill_uniform(r1, q.data(), 999);
  int lo = 0, hi = 0;
  for (auto v : q) {
    REQUIRE(v >= -127);
    lo = std::min(lo, static_cast<int>(v));
    hi = std::max(hi, static_cast<int>(v));
  }
  CHECK(lo < -100);
  CHECK(hi > 100);
}

}  // namespace SL_UNITY_ID
