#include "queues/md1_tail.h"

#include <cmath>

#include "core/error.h"

namespace sl::queues {

std::optional<double> md1_wait_cdf(double t_s, double lambda_per_s, double service_s) {
  const double rho = lambda_per_s * service_s;
  SL_ASSERT(rho > 0 && rho < 1 && t_s >= 0);
  if (lambda_per_s * t_s > std::log(kMd1MaxTerm)) return std::nullopt;  // the first term alone is e^(lambda t)
  const auto num_terms = static_cast<std::int64_t>(std::floor(t_s / service_s)) + 1;
  double sum = 0;
  double log_k_factorial = 0;
  for (std::int64_t k = 0; k < num_terms; ++k) {
    const double x = lambda_per_s * (t_s - static_cast<double>(k) * service_s);  // >= 0
    if (k > 0) log_k_factorial += std::log(static_cast<double>(k));
    double term = 0;
    if (k == 0) term = std::exp(x);
    else if (x > 0) term = std::exp(x + static_cast<double>(k) * std::log(x) - log_k_factorial);
    if (term > kMd1MaxTerm) return std::nullopt;
    sum += (k % 2 == 0) ? term : -term;
  }
  return (1 - rho) * sum;
}

std::optional<double> md1_time_in_system_quantile_s(double lambda_per_s, double service_s, double p) {
  const double rho = lambda_per_s * service_s;
  SL_ASSERT(rho > 0 && rho < 1 && p > 0 && p < 1);
  if (p <= 1 - rho) return service_s;  // the wait has an atom of 1 - rho at zero
  // Bracket: grow by a quarter from one service time until the cdf reaches p (or the sum gives up).
  double lo = 0, hi = service_s;
  for (;;) {
    const auto cdf = md1_wait_cdf(hi, lambda_per_s, service_s);
    if (!cdf) return std::nullopt;
    if (*cdf >= p) break;
    lo = hi;
    hi *= 1.25;
  }
  while (hi - lo > 1e-12 * hi) {
    const double mid = 0.5 * (lo + hi);
    const auto cdf = md1_wait_cdf(mid, lambda_per_s, service_s);
    if (!cdf) return std::nullopt;
    (*cdf < p ? lo : hi) = mid;
  }
  return service_s + hi;
}

}  // namespace sl::queues
