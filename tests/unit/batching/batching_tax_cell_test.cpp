#include <catch2/catch.hpp>

#include <cmath>

#include "batching/batch_formulas.h"
#include "cell_runner.h"

namespace SL_UNITY_ID {

const cell_test::Cell cell{"batching/batching-tax"};

TEST_CASE("Eq. 4 at 500 req/s: batch 1 costs 2 ms, batch 32 costs 31 + 15 = 46 ms, 23x", "[batching][tax][book]") {
  const auto r = cell.run({{"n", "1000"}});
  CHECK(out(r, "formation_b1_ms") == 0);
  check_outputs(r, {{"total_b1_ms", 2.0}, {"formation_closed_ms", 31.0}, {"total_closed_ms", 46.0}, {"penalty_x", 23.0},
                   {"first_request_wait_ms", 62.0}});
}

TEST_CASE("Size-triggered batching: simulated formation delay is within 4 SE of (B - 1)/(2 lambda)",
          "[batching][tax][.slow]") {
  // The SE comes from the per-batch mean waits, which are independent (disjoint inter-arrival gaps).
  const int batch = GENERATE(2, 8, 32, 100);
  const double lambda = GENERATE(50.0, 500.0);
  const auto r = cell.run({{"batch", std::to_string(batch)}, {"lambda", std::to_string(lambda)}, {"n", "200000"}});
  const double closed_ms = (batch - 1) / (2 * lambda) * 1e3;
  CHECK_THAT(out(r, "formation_closed_ms"), WithinRel(closed_ms, 1e-12));
  CHECK_THAT(out(r, "formation_sim_ms"), WithinAbs(closed_ms, 4 * out(r, "formation_sim_se_ms")));
  // The SE is real: positive and small next to the mean (at most a few percent at 200,000 requests).
  CHECK(out(r, "formation_sim_se_ms") > 0);
  CHECK(out(r, "formation_sim_se_ms") < 0.02 * closed_ms);
}

TEST_CASE("Every point of the batch sweep matches eq. 4, and batch 1 never waits", "[batching][tax]") {
  const auto r = cell.run({{"n", "100000"}});
  const auto& t = r.tables.front();
  REQUIRE(t.name == "formation");
  const auto& b = t.columns[0].second;
  const auto& closed = t.columns[1].second;
  const auto& sim = t.columns[2].second;
  REQUIRE(b.size() == 9);
  CHECK(sim[0] == 0);
  for (std::size_t i = 1; i < b.size(); ++i) {
    INFO("B = " << b[i]);
    // Per-batch mean wait has sd sqrt(sum_{k<B} k^2) / (B lambda); with N/B batches the SE of the mean is
    // below 4% of the mean for every B <= 256 at N = 10^5; allow 5 x that bound.
    CHECK_THAT(sim[i], WithinRel(closed[i], 0.2));
    CHECK_THAT(closed[i], WithinRel((b[i] - 1) / (2 * 500.0) * 1e3, 1e-12));
  }
  CHECK_THAT(sim[5], WithinAbs(31.0, 4 * out(r, "formation_sim_se_ms")));  // B = 32 is the main run
}

TEST_CASE("Batching tax: the p99 wait is well above the mean, below the first request's wait tail", "[batching][tax]") {
  const auto r = cell.run({{"n", "100000"}});
  // The first request of a batch waits Gamma(B - 1, lambda): mean 62 ms, sd sqrt(31)/500 s = 11 ms.
  CHECK(out(r, "formation_sim_p99_ms") > out(r, "formation_closed_ms"));
  CHECK(out(r, "formation_sim_p99_ms") < out(r, "first_request_wait_ms") + 4 * 11.1);
}

TEST_CASE("Batching tax rejects bad inputs with the parameter named", "[batching][tax]") {
  cell_test::check_bad_inputs(cell, {
      {"a negative rate", {{"lambda", "-1"}}, "out_of_range", "lambda"},
      {"fewer requests than one batch", {{"batch", "64"}, {"n", "100"}}, "invalid", "n"},
      {"a batch of 0", {{"batch", "0"}}, "", "batch"},
  });
}

namespace {

/// P(Gamma(j, lambda) > t): fewer than j arrivals of a Poisson(lambda t) process by t (0 for j = 0).
double erlang_tail(int j, double lambda_t) {
  double term = std::exp(-lambda_t), sum = 0;
  for (int i = 0; i < j; ++i, term *= lambda_t / i) sum += term;
  return sum;
}

}  // namespace

TEST_CASE("Static batches of 32 at 500 req/s: p99 and maximum latency within 4 of their SEs of the exact laws",
          "[batching][tax]") {
  // The notebook's static batching: T_inf(32) = 5 + 0.6 x 32 = 24.2 ms, 100,000 requests.
  const auto r = cell.run({{"lambda", "500"}, {"batch", "32"}, {"t_inf_ms", "24.2"}, {"n", "100000"}});
  const int b = 32;
  const double lambda = 500;
  // The k-th request of a batch waits for the B - k gaps after it: Gamma(B - k, lambda). The p99 of the wait
  // solves (1/B) sum_{j<B} P(Gamma(j) > t) = 1 %, by bisection.
  const auto share_above = [&](double t) {
    double s = 0;
    for (int j = 0; j < b; ++j) s += erlang_tail(j, lambda * t);
    return s / b;
  };
  double lo = 0, hi = 1;
  for (int i = 0; i < 100; ++i) ((share_above(0.5 * (lo + hi)) > 0.01) ? lo : hi) = 0.5 * (lo + hi);
  CHECK(out(r, "total_sim_p99_se_ms") > 0);
  CHECK_THAT(out(r, "total_sim_p99_ms"), WithinAbs(lo * 1e3 + 24.2, 4 * out(r, "total_sim_p99_se_ms")));
  // Every batch's first request waits longest, Gamma(31, lambda); the maximum over the 3,125 batches has
  // median t with P(Gamma(31) <= t)^3125 = 1/2.
  const double batches = 100000.0 / b, target = 1 - std::pow(0.5, 1 / batches);
  lo = 0, hi = 1;
  for (int i = 0; i < 100; ++i) ((erlang_tail(b - 1, lambda * 0.5 * (lo + hi)) > target) ? lo : hi) = 0.5 * (lo + hi);
  CHECK(out(r, "total_sim_max_se_ms") > 0);
  CHECK_THAT(out(r, "total_sim_max_ms"), WithinAbs(lo * 1e3 + 24.2, 4 * out(r, "total_sim_max_se_ms")));
}

}  // namespace SL_UNITY_ID
