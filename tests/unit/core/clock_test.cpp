#include <catch2/catch.hpp>

#include "core/clock.h"

namespace SL_UNITY_ID {

TEST_CASE("The wall clock never runs backwards and advances while work is done", "[core][clock]") {
  const double start = sl::wall_now_s();
  double last = start;
  volatile double sink = 0;
  // Spin until the clock moves: steady_clock has at most microsecond steps, so this ends within
  // microseconds; the bound only keeps a broken clock from hanging the suite.
  for (long i = 0; i < 100'000'000 && last == start; ++i) {
    sink = sink + 1;
    const double now = sl::wall_now_s();
    REQUIRE(now >= last);
    last = now;
  }
  CHECK(last > start);
}

}  // namespace SL_UNITY_ID
