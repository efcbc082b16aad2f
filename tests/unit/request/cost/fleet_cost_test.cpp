// Tests of request/cost/fleet_cost.cpp: cost per request, whole-machine fleets and the CPU/GPU crossover.
#include "matchers.h"

#include <algorithm>
#include <vector>

#include "request/cost/fleet_cost.h"

namespace SL_UNITY_ID {

namespace lc = sl::request;

namespace {
const lc::Machine kCpu{0.17, 50}, kT4{0.53, 400}, kV100{3.06, 1200};

/// Brute force: the last integer-spaced load (step 0.01 req/s) at which the CPU fleet is strictly cheaper.
double brute_force_crossover(const lc::Machine& cpu, const std::vector<lc::Machine>& gpus, double rho, double q_max) {
  double last = 0;
  for (double q = 0.01; q <= q_max; q += 0.01) {
    double gpu = 1e300;
    for (const auto& g : gpus) gpu = std::min(gpu, lc::fleet_usd_per_h(g, q, rho));
    if (lc::fleet_usd_per_h(cpu, q, rho) < gpu) last = q;
  }
  return last;
}
}  // namespace

TEST_CASE("Cost per million is the hourly price over the requests of an hour, and grows as 1 / utilization",
          "[request][cost]") {
  // $3.06/h at 1,200 req/s: 4.32 M requests an hour, so $0.7083 per million.
  CHECK_THAT(lc::usd_per_million(kV100), WithinRel(3.06 / 4.32, 1e-12));
  const double u = GENERATE(0.1, 0.5, 0.9);
  // Both sides are a handful of correctly rounded operations: a few ulps apart at most.
  for (const auto& m : {kCpu, kT4, kV100}) CHECK_THAT(lc::usd_per_million(m, u), WithinRel(lc::usd_per_million(m) / u, 1e-12));
}

TEST_CASE("A fleet costs its whole machines: the hourly cost is a staircase in the load", "[request][cost]") {
  // One T4 at rho 0.5 takes 200 req/s: 200 fits one machine, 200.01 needs a second.
  CHECK(lc::machines_needed(kT4, 200, 0.5) == 1);
  CHECK(lc::machines_needed(kT4, 200.01, 0.5) == 2);
  for (double q : {1.0, 199.0, 201.0, 5000.0})
    CHECK(lc::fleet_usd_per_h(kT4, q, 0.5) == static_cast<double>(lc::machines_needed(kT4, q, 0.5)) * kT4.usd_per_h);
}

TEST_CASE("Each fleet has enough machines and one fewer would break the utilization cap", "[request][cost]") {
  const double rho = GENERATE(0.3, 0.54, 0.9);
  for (double q : {1.0, 27.0, 80.0, 999.0, 5000.0, 123456.0}) {
    for (const auto& m : {kCpu, kT4, kV100}) {
      const auto n = static_cast<double>(lc::machines_needed(m, q, rho));
      CHECK(q / (n * m.saturated_per_s) <= rho * (1 + 1e-12));
      if (n > 1) CHECK(q / ((n - 1) * m.saturated_per_s) > rho);
    }
  }
}

TEST_CASE("The breakpoint walk agrees with a brute-force scan of the fleet costs", "[request][cost]") {
  // Prices where the answer is not a simple multiple: CPU $0.30/h at 70 req/s vs a $1.00/h GPU at 500 req/s
  // and a $1.70/h one at 900 req/s. The scan steps 0.01 req/s, so it may stop up to 0.01 short.
  const lc::Machine cpu{0.30, 70}, g1{1.00, 500}, g2{1.70, 900};
  const double rho = GENERATE(0.37, 0.54, 0.91);
  const auto x = lc::cpu_cheaper_up_to_qps(cpu, {g1, g2}, rho);
  REQUIRE(x.has_value());
  CHECK_THAT(brute_force_crossover(cpu, {g1, g2}, rho, 4 * *x + 10), WithinAbs(*x, 0.011));
}

}  // namespace SL_UNITY_ID
