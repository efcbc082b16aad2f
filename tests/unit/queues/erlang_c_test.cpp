#include "matchers.h"
#include <cmath>

#include "queues/closed_forms.h"
#include "queues/erlang_c.h"

namespace SL_UNITY_ID {

using namespace sl::queues;

TEST_CASE("Erlang C with one server is rho, and the M/M/c forms reduce to M/M/1 (eq. 5 and 6)",
          "[queues][multiserver][erlang]") {
  const double rho = GENERATE(0.3, 0.8, 0.95);
  const double mu = 200, lambda = rho * mu;
  CHECK_THAT(erlang_c(1, rho), WithinRel(rho, 1e-12));
  CHECK_THAT(mmc_mean_wait_s(1, lambda, mu), WithinRel(rho / (mu - lambda), 1e-12));
  CHECK_THAT(mmc_mean_time_in_system_s(1, lambda, mu), WithinRel(mm1_mean_time_in_system_s(lambda, mu), 1e-12));
  // M/M/1 FCFS time in system is exponential of rate mu - lambda: p99 = ln 100 / (mu - lambda).
  CHECK_THAT(mmc_time_in_system_quantile_s(1, lambda, mu, 0.99), WithinRel(std::log(100.0) / (mu - lambda), 1e-9));
}

TEST_CASE("Erlang B: the loss probability of M/M/c/c, by hand and from the classic table", "[queues][multiserver][erlang]") {
  // One server: a / (1 + a). Two at a = 1: (1/2) / (1 + 1 + 1/2) = 1/5. No server loses every arrival.
  CHECK_THAT(erlang_b(1, 3.0), WithinRel(0.75, 1e-12));
  CHECK_THAT(erlang_b(2, 1.0), WithinRel(0.2, 1e-12));
  CHECK(erlang_b(0, 2.0) == 1.0);
  // a^c / c! over sum_k a^k / k!, summed directly where it cannot overflow: c = 10, a = 5 gives 0.018385.
  double term = 1, sum = 1;
  for (int k = 1; k <= 10; ++k) sum += (term *= 5.0 / k);
  CHECK_THAT(erlang_b(10, 5.0), WithinRel(term / sum, 1e-12));
  CHECK_THAT(erlang_b(10, 5.0), WithinAbs(0.018385, 5e-7));
  // A loss system has no stability bound: at a = 2c half the arrivals and more are lost, and B < 1 still.
  const double overloaded = erlang_b(100, 200.0);
  CHECK(overloaded > 0.5);
  CHECK(overloaded < 1);
  // Erlang C from it: C = B / (1 - rho (1 - B)) >= B.
  CHECK(erlang_c(10, 5.0) > erlang_b(10, 5.0));
}

TEST_CASE("Erlang C matches hand-computed values", "[queues][multiserver][erlang]") {
  // c = 2, a = 1: (a^2/2!)(2/(2-1)) = 1 over 1 + a + 1 = 3, so C = 1/3.
  CHECK_THAT(erlang_c(2, 1.0), WithinRel(1.0 / 3.0, 1e-12));
  // c = 3, a = 2: a^3/3! x 3/(3-2) = 4 over 1 + 2 + 2 + 4 = 9, so C = 4/9.
  CHECK_THAT(erlang_c(3, 2.0), WithinRel(4.0 / 9.0, 1e-12));
  // Mean wait of M/M/2 at lambda = 1, mu = 1: C / (c mu - lambda) = (1/3) / 1.
  CHECK_THAT(mmc_mean_wait_s(2, 1.0, 1.0), WithinRel(1.0 / 3.0, 1e-12));
}

TEST_CASE("Erlang C stays finite and tends to 0 for thousands of lightly loaded servers", "[queues][multiserver][erlang]") {
  const double c_wait = erlang_c(5000, 0.4 * 5000);
  CHECK(std::isfinite(c_wait));
  CHECK(c_wait >= 0);
  CHECK(c_wait < 1e-100);
  // At high load and many servers waiting is likely but not certain.
  const double busy = erlang_c(5000, 0.999 * 5000);
  CHECK(busy > 0.5);
  CHECK(busy < 1);
}

TEST_CASE("The M/M/c time-in-system quantile inverts its tail", "[queues][multiserver][erlang]") {
  const std::int64_t c = GENERATE(2, 8, 62);
  const double rho = GENERATE(0.4, 0.9);
  const double mu = 200, lambda = rho * static_cast<double>(c) * mu;
  const double q = mmc_time_in_system_quantile_s(c, lambda, mu, 0.99);
  CHECK_THAT(mmc_time_in_system_tail(c, lambda, mu, q), WithinAbs(0.01, 1e-12));
  // T = W + S >= S, so its p99 is at least the service p99 ln 100 / mu.
  CHECK(q >= std::log(100.0) / mu * (1 - 1e-12));
  // The tail at 0 is 1 and it decreases.
  CHECK_THAT(mmc_time_in_system_tail(c, lambda, mu, 0.0), WithinAbs(1.0, 1e-12));
  CHECK(mmc_time_in_system_tail(c, lambda, mu, q / 2) > 0.01);
}

TEST_CASE("The M/M/c tail is continuous where the two exponential rates meet", "[queues][multiserver][erlang]") {
  // theta = c mu - lambda equals mu when lambda = (c - 1) mu: the formula switches to its limit there.
  const double mu = 1.0, t = 2.0;
  const double at = mmc_time_in_system_tail(4, 3.0, mu, t);
  const double near = mmc_time_in_system_tail(4, 3.0 - 1e-7, mu, t);
  CHECK_THAT(at, WithinRel(near, 1e-6));
}

}  // namespace SL_UNITY_ID
