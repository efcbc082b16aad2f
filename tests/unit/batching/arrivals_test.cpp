#include "matchers.h"

#include <cmath>

#include "batching/arrivals.h"

namespace SL_UNITY_ID {

using sl::batching::piecewise_poisson_arrivals_s;
using sl::batching::poisson_arrivals_s;

TEST_CASE("Poisson arrivals: n increasing instants whose mean gap is within 4 SE of 1/lambda", "[batching][arrivals]") {
  const double lambda = GENERATE(0.5, 500.0);
  const std::int64_t n = 100'000;
  sl::Rng rng = sl::Rng::stream(3, sl::Stream::Arrivals);
  const auto at_s = poisson_arrivals_s(lambda, n, rng);
  REQUIRE(static_cast<std::int64_t>(at_s.size()) == n);
  CHECK(at_s.front() > 0);
  for (std::size_t i = 1; i < at_s.size(); ++i) REQUIRE(at_s[i] >= at_s[i - 1]);
  // Exponential gaps are i.i.d. with sd = mean = 1/lambda, so the mean gap has SE (1/lambda)/sqrt(n).
  const double mean_gap_s = at_s.back() / static_cast<double>(n);
  CHECK_THAT(mean_gap_s, WithinAbs(1 / lambda, 4 * (1 / lambda) / std::sqrt(static_cast<double>(n))));
}

TEST_CASE("Poisson arrivals depend only on the seed's stream", "[batching][arrivals]") {
  sl::Rng a = sl::Rng::stream(9, sl::Stream::Arrivals);
  sl::Rng b = sl::Rng::stream(9, sl::Stream::Arrivals);
  sl::Rng c = sl::Rng::stream(10, sl::Stream::Arrivals);
  const auto xa = poisson_arrivals_s(100, 1000, a);
  CHECK(xa == poisson_arrivals_s(100, 1000, b));
  CHECK(xa != poisson_arrivals_s(100, 1000, c));
}

TEST_CASE("Piecewise Poisson arrivals: none in a silent stretch, each stretch's count within 4 sd of rate x time",
          "[batching][arrivals]") {
  sl::Rng rng = sl::Rng::stream(5, sl::Stream::Misc);
  // 100 s at 50/s, 20 s silent, 10 s at 2,000/s: counts are Poisson, sd = sqrt(mean).
  const auto at_s = piecewise_poisson_arrivals_s({{100, 50}, {20, 0}, {10, 2000}}, rng);
  std::int64_t first = 0, silent = 0, burst = 0;
  for (std::size_t i = 0; i < at_s.size(); ++i) {
    if (i > 0) REQUIRE(at_s[i] >= at_s[i - 1]);
    REQUIRE(at_s[i] < 130);
    if (at_s[i] < 100) ++first;
    else if (at_s[i] < 120) ++silent;
    else ++burst;
  }
  CHECK(silent == 0);
  CHECK_THAT(static_cast<double>(first), WithinAbs(5000, 4 * std::sqrt(5000.0)));
  CHECK_THAT(static_cast<double>(burst), WithinAbs(20000, 4 * std::sqrt(20000.0)));
}

}  // namespace SL_UNITY_ID
