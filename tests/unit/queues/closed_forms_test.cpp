#include "queues/closed_forms.h"

#include "matchers.h"

#include <cmath>

namespace SL_UNITY_ID {

using namespace sl::queues;

// The closed forms are a few floating-point operations each: 1e-12 relative is many ulps above their
// rounding and far below any modelling difference we check.

TEST_CASE("The M/M/1 mean time in system is eq. 5, S / (1 - rho), at every load", "[queues][closed-forms]") {
  const double rho = GENERATE(0.1, 0.5, 0.8, 0.95, 0.999);
  const double service_s = 0.005;
  CHECK_THAT(mm1_mean_time_in_system_s(rho / service_s, 1 / service_s), WithinRel(service_s / (1 - rho), 1e-12));
}

TEST_CASE("The M/M/1 time-in-system quantile is exponential with rate mu - lambda", "[queues][closed-forms]") {
  const double lambda = 160, mu = 200;  // rate 40 /s: mean 25 ms
  CHECK_THAT(mm1_time_in_system_quantile_s(lambda, mu, 0.5), WithinRel(std::log(2.0) / 40, 1e-12));
  CHECK_THAT(mm1_time_in_system_quantile_s(lambda, mu, 0.99), WithinRel(std::log(100.0) / 40, 1e-12));
  // The quantile 1 - 1/e of an exponential is its mean.
  CHECK_THAT(mm1_time_in_system_quantile_s(lambda, mu, 1 - std::exp(-1.0)),
             WithinRel(mm1_mean_time_in_system_s(lambda, mu), 1e-12));
}

TEST_CASE("Eq. 6 is the exact M/M/1 p99 with ln 100 rounded to 4.6, 0.11 % low at any load", "[queues][closed-forms]") {
  const double rho = GENERATE(0.2, 0.7, 0.9);
  const double service_s = 0.01;
  const double exact_s = mm1_time_in_system_quantile_s(rho / service_s, 1 / service_s, 0.99);
  CHECK_THAT(eq6_p99_s(service_s, rho) / exact_s, WithinRel(4.6 / std::log(100.0), 1e-12));
  CHECK(eq6_p99_s(service_s, rho) < exact_s);
}

TEST_CASE("M/D/1 queues half as long as M/M/1 (Pollaczek-Khinchine with zero variance)", "[queues][closed-forms]") {
  const double rho = GENERATE(0.3, 0.8, 0.95);
  const double service_s = 0.005;
  const double lambda = rho / service_s, mu = 1 / service_s;
  const double md1_wait_s = md1_mean_time_in_system_s(lambda, mu) - service_s;
  const double mm1_wait_s = mm1_mean_time_in_system_s(lambda, mu) - service_s;
  CHECK_THAT(md1_wait_s, WithinRel(mm1_wait_s / 2, 1e-12));
}

TEST_CASE("M/G/1 with exponential service variance S^2 reproduces the M/M/1 mean", "[queues][closed-forms]") {
  const double service_s = 0.02, lambda = 30;  // rho = 0.6
  CHECK_THAT(mg1_mean_time_in_system_s(lambda, service_s, service_s * service_s),
             WithinRel(mm1_mean_time_in_system_s(lambda, 1 / service_s), 1e-12));
  // A more variable service (cv = 2, variance 4 S^2) queues (1 + 4) / 2 = 2.5 times as long as M/D/1.
  const double md1_wait_s = mg1_mean_time_in_system_s(lambda, service_s, 0) - service_s;
  const double cv2_wait_s = mg1_mean_time_in_system_s(lambda, service_s, 4 * service_s * service_s) - service_s;
  CHECK_THAT(cv2_wait_s, WithinRel(5 * md1_wait_s, 1e-12));
}

}  // namespace SL_UNITY_ID
