// Tests of request/budget/checks.cpp: the ordered-range rule and the log-spaced grid the charts use.
#include "matchers.h"

#include <cmath>
#include <vector>

#include "request/budget/checks.h"

namespace SL_UNITY_ID {

namespace lc = sl::request;

TEST_CASE("A range whose high end is below its low end is an error naming the high end", "[request][budget]") {
  CHECK_FALSE(lc::check_ordered("ser_lo_us", 50, "ser_hi_us", 500, "us").has_value());
  CHECK_FALSE(lc::check_ordered("ser_lo_us", 50, "ser_hi_us", 50, "us").has_value());  // an empty range is fine
  const auto e = lc::check_ordered("net_lo_ms", 5, "net_hi_ms", 1, "ms");
  REQUIRE(e.has_value());
  CHECK(e->code == "invalid");
  CHECK(e->param == "net_hi_ms");
  CHECK(e->message == "net_hi_ms must be at least net_lo_ms (5 ms), got 1 ms");
}

TEST_CASE("The log grid has 2^levels + 1 points, exact ends and a constant ratio", "[request][budget]") {
  const int levels = GENERATE(0, 1, 4, 8);
  const double lo = GENERATE(1.0, 0.37), hi = GENERATE(10.0, 1e6);
  const std::vector<double> xs = lc::log_grid(lo, hi, levels);
  REQUIRE(xs.size() == (std::size_t{1} << levels) + 1);
  CHECK(xs.front() == lo);
  CHECK(xs.back() == hi);
  // Every point is a geometric midpoint of two others, so each step's ratio is (hi/lo)^(1/2^levels); each
  // sqrt(a b) adds at most ~1.5 ulp and a point sits at most `levels` midpoints deep: 1e-13 is ample.
  const double ratio = std::pow(hi / lo, 1.0 / static_cast<double>(xs.size() - 1));
  for (std::size_t i = 1; i < xs.size(); ++i) {
    CHECK(xs[i] > xs[i - 1]);
    CHECK_THAT(xs[i] / xs[i - 1], WithinRel(ratio, 1e-13));
  }
}

TEST_CASE("The log grid uses only correctly rounded operations: a midpoint is sqrt of its neighbours' product",
          "[request][budget]") {
  const std::vector<double> xs = lc::log_grid(1, 1000, 6);
  const std::size_t n = xs.size() - 1;
  // The middle point is computed first, from the ends: sqrt(1 x 1000) to the bit.
  CHECK(xs[n / 2] == std::sqrt(1.0 * 1000.0));
  CHECK(xs[n / 4] == std::sqrt(xs[0] * xs[n / 2]));
}

}  // namespace SL_UNITY_ID
