// Tests of request/budget/amdahl.cpp: Amdahl's law (Systems Perspective 1.3) and its ceiling.
#include "matchers.h"

#include <cmath>

#include "request/budget/amdahl.h"

namespace SL_UNITY_ID {

namespace lc = sl::request;

TEST_CASE("Amdahl's law is 1 at k = 1, grows with k and tends to its ceiling", "[request][budget]") {
  const double f = GENERATE(0.1, 0.495, 0.9);
  CHECK_THAT(lc::amdahl_speedup(f, 1.0), WithinRel(1.0, 1e-15));
  double previous = 1.0;
  for (double k = 2; k < 1e7; k *= 3) {
    const double s = lc::amdahl_speedup(f, k);
    CHECK(s > previous);
    CHECK(s < lc::amdahl_ceiling(f));
    previous = s;
  }
  // At k = 1e9 the gap to the ceiling is f / k relative to the denominator: below 1e-8.
  CHECK_THAT(lc::amdahl_speedup(f, 1e9), WithinRel(lc::amdahl_ceiling(f), 1e-8));
}

TEST_CASE("Amdahl's speedup is the ratio of the request times before and after", "[request][budget]") {
  // A request of 1 - f + f time units becomes (1 - f) + f / k: the speedup is their ratio, whatever the units.
  const double f = GENERATE(0.0, 0.25, 0.495, 1.0);
  const double k = GENERATE(1.5, 10.0, 1000.0);
  CHECK_THAT(lc::amdahl_speedup(f, k), WithinRel(1.0 / ((1.0 - f) + f / k), 1e-15));
  // With f = 0 nothing gets faster; with f = 1 the whole request does, k times.
  if (f == 0.0) CHECK(lc::amdahl_speedup(f, k) == 1.0);
  if (f == 1.0) CHECK_THAT(lc::amdahl_speedup(f, k), WithinRel(k, 1e-15));
}

TEST_CASE("The Amdahl ceiling is 1 / (1 - f), and infinite once the whole request speeds up", "[request][budget]") {
  CHECK(lc::amdahl_ceiling(0.5) == 2.0);
  CHECK(lc::amdahl_ceiling(0.0) == 1.0);
  CHECK(std::isinf(lc::amdahl_ceiling(1.0)));
}

}  // namespace SL_UNITY_ID
