#include "queues/closed_forms.h"

#include <cmath>

#include "core/error.h"

namespace sl::queues {

double mm1_mean_time_in_system_s(double lambda_per_s, double mu_per_s) {
  SL_ASSERT(lambda_per_s < mu_per_s);
  return 1.0 / (mu_per_s - lambda_per_s);
}

double mm1_time_in_system_quantile_s(double lambda_per_s, double mu_per_s, double p) {
  SL_ASSERT(lambda_per_s < mu_per_s && p > 0 && p < 1);
  return -std::log1p(-p) / (mu_per_s - lambda_per_s);
}

double eq6_p99_s(double service_s, double rho) {
  SL_ASSERT(rho < 1);
  return 4.6 * service_s / (1 - rho);
}

double mg1_mean_time_in_system_s(double lambda_per_s, double mean_service_s, double service_variance_s2) {
  const double rho = lambda_per_s * mean_service_s;
  SL_ASSERT(rho < 1);
  const double second_moment = service_variance_s2 + mean_service_s * mean_service_s;
  return mean_service_s + lambda_per_s * second_moment / (2 * (1 - rho));
}

double md1_mean_time_in_system_s(double lambda_per_s, double mu_per_s) {
  return mg1_mean_time_in_system_s(lambda_per_s, 1.0 / mu_per_s, 0.0);
}

}  // namespace sl::queues
