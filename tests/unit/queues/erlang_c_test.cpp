#include <catch2/catch.hpp>
#include <cmath>

#include "queues/closed_forms.h"
#include "queues/erlang_c.h"

using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
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
