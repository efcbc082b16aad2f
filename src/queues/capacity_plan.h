#pragma once
#include <cstdint>

namespace sl::queues {

/// The givens of napkin math 1.3 (ResNet-50 capacity planning): 5,000 QPS at peak, 5 ms per request on
/// one GPU, a 50 ms p99 SLO, 30 % headroom, and the M/M/1 p99 factor 4.6 of book eq. 6.
struct CapacityPlanInputs {
  double peak_per_s = 5000;
  double service_s = 0.005;
  double slo_p99_s = 0.050;
  double headroom = 1.3;
  double p99_factor = 4.6;
};

/// Each step of napkin math 1.3, in the book's order (book values at the defaults in brackets).
struct CapacityPlan {
  double rho_safe = 0;                   ///< 1 - 4.6 S / SLO: eq. 6 solved for rho [0.54]
  double gpu_rate_per_s = 0;             ///< 1 / S [200 req/s]
  double mu_required_per_s = 0;          ///< peak / rho_safe [9,259.3 req/s]
  double gpus_exact = 0;                 ///< mu_required / gpu rate [46.3]
  std::int64_t gpus_min = 0;             ///< rounded up [47]
  double gpus_headroom_exact = 0;        ///< gpus_min x headroom [61.1]
  std::int64_t gpus_planned = 0;         ///< rounded up [62]
  double util_one_failure_frac = 0;      ///< peak / (gpu rate x (planned - 1)) [41.0 %]; 0 if planned = 1
  std::int64_t gpus_n_plus_2_min = 0;    ///< gpus_min + 2: two spares at the same threshold [49]
  std::int64_t gpus_n_plus_2_headroom = 0;  ///< gpus_planned + 2: headroom that survives two failures [64]
};

/// Napkin math 1.3 as a chain of formulas. Needs rho_safe > 0 (an SLO above p99_factor x S) and a plan
/// small enough to count in 64 bits; the cell validates both.
CapacityPlan plan_capacity(const CapacityPlanInputs& in);

/// The smallest integer >= x, forgiving rounding noise: 40 x 1.3 = 52.000000000000007 rounds up to 52.
std::int64_t ceil_count(double x);

}  // namespace sl::queues
