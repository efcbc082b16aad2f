#include "queues/erlang_c.h"

#include <cmath>

#include "core/error.h"

namespace sl::queues {

double erlang_b(std::int64_t num_servers, double offered_load) {
  SL_ASSERT(num_servers >= 0 && offered_load >= 0);
  double b = 1.0;
  for (std::int64_t k = 1; k <= num_servers; ++k) b = offered_load * b / (static_cast<double>(k) + offered_load * b);
  return b;
}

double erlang_c(std::int64_t num_servers, double offered_load) {
  SL_ASSERT(num_servers >= 1 && offered_load < static_cast<double>(num_servers));
  const double b = erlang_b(num_servers, offered_load);
  const double rho = offered_load / static_cast<double>(num_servers);
  return b / (1.0 - rho * (1.0 - b));
}

double mmc_mean_wait_s(std::int64_t num_servers, double lambda_per_s, double mu_per_s) {
  const double theta = static_cast<double>(num_servers) * mu_per_s - lambda_per_s;
  return erlang_c(num_servers, lambda_per_s / mu_per_s) / theta;
}

double mmc_mean_time_in_system_s(std::int64_t num_servers, double lambda_per_s, double mu_per_s) {
  return mmc_mean_wait_s(num_servers, lambda_per_s, mu_per_s) + 1.0 / mu_per_s;
}

namespace {

/// P(T > t) given the Erlang C probability and theta = c mu - lambda.
double tail(double c_wait, double theta, double mu_per_s, double t_s) {
  const double d = mu_per_s - theta;
  // (e^(-theta t) - e^(-mu t)) / (mu - theta) = e^(-theta t) (1 - e^(-d t)) / d, and t in the limit d -> 0.
  const double spread_s = d == 0 ? t_s : -std::expm1(-d * t_s) / d;
  return std::exp(-mu_per_s * t_s) + c_wait * mu_per_s * std::exp(-theta * t_s) * spread_s;
}

}  // namespace

double mmc_time_in_system_tail(std::int64_t num_servers, double lambda_per_s, double mu_per_s, double t_s) {
  const double theta = static_cast<double>(num_servers) * mu_per_s - lambda_per_s;
  return tail(erlang_c(num_servers, lambda_per_s / mu_per_s), theta, mu_per_s, t_s);
}

double mmc_time_in_system_quantile_s(std::int64_t num_servers, double lambda_per_s, double mu_per_s, double p) {
  SL_ASSERT(p > 0 && p < 1);
  const double target = 1.0 - p;
  const double theta = static_cast<double>(num_servers) * mu_per_s - lambda_per_s;
  const double c_wait = erlang_c(num_servers, lambda_per_s / mu_per_s);
  double lo = 0;
  double hi = -std::log(target) * (1.0 / mu_per_s + 1.0 / theta);  // a first guess; doubled until above
  while (tail(c_wait, theta, mu_per_s, hi) > target) hi *= 2;
  for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    (tail(c_wait, theta, mu_per_s, mid) > target ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace sl::queues
