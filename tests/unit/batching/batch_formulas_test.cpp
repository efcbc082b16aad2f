#include "matchers.h"

#include <cmath>

#include "batching/batch_formulas.h"

namespace SL_UNITY_ID {

using namespace sl::batching;

TEST_CASE("Eq. 4: a batch of B waits (B - 1)/(2 lambda) to form; batch 1 never waits", "[batching][formulas]") {
  CHECK_THAT(formation_delay_s(32, 500), WithinRel(31.0 / 1000, 1e-15));  // the book's 31 ms
  CHECK(formation_delay_s(1, 500) == 0);
  CHECK_THAT(window_mean_wait_s(0.02), WithinRel(0.01, 1e-15));  // eq. 8: T/2
}

TEST_CASE("Poisson quantile is the smallest k whose CDF reaches p, and CDF + upper tail = 1", "[batching][formulas]") {
  const double mean = GENERATE(0.5, 6.0, 120.0);
  const double p = GENERATE(0.5, 0.99);
  const std::int64_t k = poisson_quantile(mean, p);
  CHECK(poisson_cdf(k, mean) >= p);
  if (k > 0) CHECK(poisson_cdf(k - 1, mean) < p);
  for (std::int64_t j = 0; j <= k + 5; ++j)  // summed separately; 1e-12 covers the rounding of ~150 terms
    CHECK_THAT(poisson_cdf(j, mean) + poisson_tail_at_least(j + 1, mean), WithinAbs(1.0, 1e-12));
  // A request sees itself plus the others: 1 + the Poisson quantile (eq. 13).
  CHECK(request_seen_batch_quantile(mean, 1.0, p) == 1 + k);
}

TEST_CASE("Eq. 12: the largest batch with T/2 + T_svc(B) within the target, 0 when batch 1 misses", "[batching][formulas]") {
  const ServiceModel svc = ServiceModel::linear(5e-3, 0.6e-3);
  // 2.5 + 5 + 0.6 B <= 50 ms  <=>  B <= 70.8
  CHECK(latency_constrained_batch(5e-3, 50e-3, svc, 100'000) == 70);
  CHECK(latency_constrained_batch(5e-3, 50e-3, svc, 32) == 32);  // the search stops at max_batch
  CHECK(latency_constrained_batch(5e-3, 7e-3, svc, 100) == 0);    // 2.5 + 5.6 > 7
}

TEST_CASE("Eq. 15: the adaptive window is min(SLO - T_svc, sqrt(T_svc / lambda))", "[batching][formulas]") {
  CHECK_THAT(adaptive_window_s(0.05, 0.025, 1000), WithinRel(std::sqrt(0.025 / 1000), 1e-15));
  CHECK_THAT(adaptive_window_s(0.05, 0.025, 0.01), WithinRel(0.025, 1e-15));  // the SLO caps it
}

TEST_CASE("Example 1.7: the overhead rule's batch is the first whose compute share reaches 1 - target",
          "[batching][formulas]") {
  const std::int64_t b = batch_for_overhead_below(5e-3, 0.6e-3, 0.1);
  CHECK(b == 75);  // 0.6 B / (5 + 0.6 B) >= 0.9  <=>  B >= 75
  CHECK(batch_efficiency_frac(5e-3, 0.6e-3, b) >= 0.9 - 1e-12);
  CHECK(batch_efficiency_frac(5e-3, 0.6e-3, b - 1) < 0.9);
  CHECK(batch_for_overhead_below(5e-3, 0, 0.1) == 0);  // no per-item cost: never
  CHECK(batch_for_overhead_below(0, 1e-3, 0.1) == 1);  // no fixed cost: at once
  CHECK(round_half_up(2.5) == 3);
  CHECK(round_half_up(-2.5) == -3);
}

TEST_CASE("Eq. 13's envelope lies above eq. 7's mean latency", "[batching][formulas]") {
  const ServiceModel svc = ServiceModel::linear(5e-3, 0.6e-3);
  // At 500/s and 10 ms: mean 5 + 5 + 0.6 x 6 = 13.6 ms (T_svc linear, so the mean of T_svc is T_svc of the mean).
  CHECK_THAT(window_mean_latency_s(500, 0.01, svc), WithinRel(13.6e-3, 1e-12));
  CHECK(envelope_latency_s(500, 0.01, svc) > window_mean_latency_s(500, 0.01, svc));
}

}  // namespace SL_UNITY_ID
