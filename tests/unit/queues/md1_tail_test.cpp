#include "matchers.h"

#include <cmath>

#include "queues/closed_forms.h"
#include "queues/md1_tail.h"

namespace SL_UNITY_ID {

using namespace sl::queues;

TEST_CASE("The M/D/1 wait cdf has an atom 1 - rho at zero and the Pollaczek-Khinchine mean", "[queues][md1]") {
  const double service_s = 0.005, lambda = 100;  // rho = 0.5
  CHECK_THAT(*md1_wait_cdf(0, lambda, service_s), WithinAbs(0.5, 1e-15));
  // E[W] = integral of P(W > t): trapezoid rule on [0, 80 ms] in 10 us steps (the cdf is piecewise smooth,
  // with kinks at multiples of S, which are grid points). P-K: rho S / (2 (1 - rho)) = 2.5 ms. P(W > 80 ms)
  // is below 1e-9 (the p99 is 16.7 ms), and the trapezoid error is below 1e-8 s; allow 1e-6 relative.
  const double dt = 1e-5;
  double mean_wait_s = 0;
  for (int i = 0; i < 8000; ++i)
    mean_wait_s += 0.5 * dt * ((1 - *md1_wait_cdf(i * dt, lambda, service_s)) + (1 - *md1_wait_cdf((i + 1) * dt, lambda, service_s)));
  CHECK_THAT(mean_wait_s, WithinRel(0.0025, 1e-6));
}

TEST_CASE("The M/D/1 p99 agrees with 60-digit arithmetic up to rho = 0.85 and gives up above", "[queues][md1]") {
  // Reference values: the same series evaluated with mpmath at 60 significant digits (bisection to 1e-24),
  // for S = 5 ms: rho 0.5 -> 21.681279785011018 ms, rho 0.85 -> 76.04305416971131 ms.
  CHECK_THAT(*md1_time_in_system_quantile_s(100, 0.005, 0.99), WithinRel(0.021681279785011018, 1e-9));
  CHECK_THAT(*md1_time_in_system_quantile_s(170, 0.005, 0.99), WithinRel(0.07604305416971131, 1e-7));
  CHECK_FALSE(md1_time_in_system_quantile_s(190, 0.005, 0.99).has_value());  // rho = 0.95: cancellation
  // Below the atom: a p <= 1 - rho quantile is the bare service time.
  CHECK(*md1_time_in_system_quantile_s(100, 0.005, 0.4) == 0.005);
}

TEST_CASE("The M/D/1 p99 sits below eq. 6, between 0.38 and 0.5 of it, rising with rho", "[queues][md1]") {
  double previous = 0;
  for (double rho : {0.1, 0.3, 0.5, 0.7, 0.8, 0.85}) {
    const double ratio = *md1_time_in_system_quantile_s(rho / 0.005, 0.005, 0.99) / eq6_p99_s(0.005, rho);
    INFO("rho " << rho << ": M/D/1 p99 / eq. 6 = " << ratio);
    CHECK(ratio > 0.38);
    CHECK(ratio < 0.5);
    CHECK(ratio > previous);
    previous = ratio;
  }
}

}  // namespace SL_UNITY_ID
