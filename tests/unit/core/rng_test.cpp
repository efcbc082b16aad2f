#include <catch2/catch.hpp>

#include <cmath>

#include "core/rng.h"
#include "core/stats.h"

namespace SL_UNITY_ID {

using sl::Rng;

TEST_CASE("The same seed gives the same sequence, and a different seed a different one", "[core][rng]") {
  Rng a(42), b(42), c(43);
  bool any_differs = false;
  for (int i = 0; i < 1000; ++i) {
    const auto x = a.next_u64();
    REQUIRE(x == b.next_u64());
    any_differs = any_differs || x != c.next_u64();
  }
  CHECK(any_differs);
}

TEST_CASE("Streams of one seed are independent of each other", "[core][rng]") {
  Rng arrivals = Rng::stream(7, sl::Stream::Arrivals);
  Rng service = Rng::stream(7, sl::Stream::Service);
  int equal = 0;
  for (int i = 0; i < 1000; ++i) equal += arrivals.next_u64() == service.next_u64();
  CHECK(equal == 0);
}

TEST_CASE("uniform() lies strictly inside (0, 1) with mean 1/2 and variance 1/12", "[core][rng]") {
  Rng rng(1);
  sl::RunningStats s;
  const int n = 1'000'000;
  for (int i = 0; i < n; ++i) {
    const double u = rng.uniform();
    REQUIRE(u > 0.0);
    REQUIRE(u < 1.0);
    s.add(u);
  }
  // SE of the mean: sqrt(1/12 / n) = 2.9e-4; allow 5 SE.
  CHECK(std::fabs(s.mean() - 0.5) < 5 * std::sqrt(1.0 / 12 / n));
  // Var of the sample variance of U(0,1): (1/80 - 1/144) / n; SE = 7.5e-5; allow 5 SE.
  CHECK(std::fabs(s.variance() - 1.0 / 12) < 5 * std::sqrt((1.0 / 80 - 1.0 / 144) / n));
}

TEST_CASE("below(n) covers [0, n) evenly", "[core][rng]") {
  Rng rng(3);
  const int n = 10, draws = 100'000;
  int counts[10] = {};
  for (int i = 0; i < draws; ++i) {
    const auto k = rng.below(n);
    REQUIRE(k < 10u);
    ++counts[k];
  }
  // Each count ~ Binomial(draws, 0.1): sd = sqrt(draws * 0.09) = 94.9; allow 5 sd.
  for (int c : counts) CHECK(std::fabs(c - draws / 10.0) < 5 * std::sqrt(draws * 0.09));
}

}  // namespace SL_UNITY_ID
