#include "queues/fan_out.h"

#include "matchers.h"

#include <algorithm>
#include <cmath>

#include "queues/confidence_intervals.h"

namespace SL_UNITY_ID {

using namespace sl::queues;

TEST_CASE("P(at least one of n leaves is slower than its p-quantile) is 1 - p^n", "[queues][fanout]") {
  CHECK_THAT(fan_out_slow_share(0.99, 1), WithinRel(0.01, 1e-12));
  CHECK_THAT(fan_out_slow_share(0.99, 10), WithinRel(1 - std::pow(0.99, 10), 1e-12));   // 0.0956
  CHECK_THAT(fan_out_slow_share(0.99, 100), WithinRel(0.6339676587267709, 1e-12));      // 1 - 0.99^100
  CHECK_THAT(fan_out_slow_share(0.999, 1000), WithinRel(1 - std::pow(0.999, 1000), 1e-12));
}

TEST_CASE("Hedged exponential leaves: the closed form is (t - m ln(1 - G)) / 2 beyond the hedge point",
          "[queues][fanout]") {
  // Past t a hedged leaf is late only if both copies are: P(Y > y) = e^(-y/m) e^(-(y-t)/m), so its
  // G-quantile is (t - m ln(1 - G)) / 2, with G = p^(1/n) for the request p-quantile.
  const double m = 0.010, t = m * std::log(20.0);  // hedge after the leaf p95
  const LeafLaw leaf = LeafLaw::exponential(m);
  const double g = std::pow(0.99, 0.01);
  CHECK_THAT(hedged_request_quantile_s(leaf, t, 100, 0.99), WithinRel((t - m * std::log1p(-g)) / 2, 1e-10));
}

TEST_CASE("Lognormal leaves: cdf and quantile invert each other, and the mean is the one asked for",
          "[queues][fanout]") {
  // Error budget: Acklam's quantile 1.2e-9 relative, the erfc fit 1.2e-7 relative.
  const LeafLaw leaf = LeafLaw::lognormal(0.010, 1.5);
  CHECK_THAT(leaf.mean_s(), WithinRel(0.010, 1e-12));
  for (double p : {0.001, 0.05, 0.5, 0.95, 0.99, 0.9999}) CHECK_THAT(leaf.cdf(leaf.quantile(p)), WithinRel(p, 3e-7));
}

TEST_CASE("M/M/1 leaves: the backup share solves h = (1 - q) exp(a rho h), about 10 % at rho = 0.7", "[queues][fanout]") {
  // The share h solves h = 0.05 exp(a rho h), a = ln 20 / 0.3; at rho = 0.9 there is no solution.
  const auto h = mm1_hedge_share(0.7, 0.95);
  REQUIRE(h.has_value());
  CHECK_THAT(*h, WithinRel(0.05 * std::exp(std::log(20.0) / 0.3 * 0.7 * *h), 1e-12));
  CHECK(*h > 0.09);
  CHECK(*h < 0.11);
  CHECK_FALSE(mm1_hedge_share(0.9, 0.95).has_value());
}

TEST_CASE("Resampled leaves: the request quantile matches the measured sample's own quantile at p^(1/n)",
          "[queues][fanout]") {
  // A measured sample is an empirical law G; the slowest of n draws from it has p-quantile G^-1(p^(1/n)),
  // here within the order-statistic interval of 20,000 simulated requests.
  std::vector<double> measured;
  sl::Rng source(4);
  for (int i = 0; i < 100'000; ++i) measured.push_back(0.01 * std::exp(2 * source.uniform()));
  std::sort(measured.begin(), measured.end());
  const LeafSampler sampler(LeafLaw::exponential(0.01), measured);
  sl::Rng rng(8);
  const FanOutSample s = simulate_fan_out(sampler, 20, 20'000, sampler.quantile(0.99), std::nullopt, rng);
  for (double p : {0.5, 0.99}) {
    const sl::queues::Estimate q = iid_quantile_sorted(s.request_s, p);
    INFO("p = " << p << ": simulated " << q.value << " [" << q.lo << ", " << q.hi << "]");
    CHECK(q.covers(sampler.quantile(std::pow(p, 1.0 / 20))));
  }
}

}  // namespace SL_UNITY_ID
