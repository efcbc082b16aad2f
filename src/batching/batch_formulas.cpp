// Closed forms of the batching section: eq. 4, 8, 9, 12, 13, 15 and Example 1.7.
#include "batching/batch_formulas.h"

#include <cmath>

#include "core/error.h"

namespace sl::batching {

double formation_delay_s(std::int64_t batch_size, double lambda_per_s) {
  SL_ASSERT(batch_size >= 1 && lambda_per_s > 0);
  return static_cast<double>(batch_size - 1) / (2 * lambda_per_s);
}

double window_mean_wait_s(double window_s) { return window_s / 2; }

double poisson_pmf(std::int64_t k, double mean) {
  SL_ASSERT(k >= 0 && mean >= 0);
  if (mean == 0) return k == 0 ? 1.0 : 0.0;
  double log_p = -mean;
  const double log_mean = std::log(mean);
  for (std::int64_t i = 1; i <= k; ++i) log_p += log_mean - std::log(static_cast<double>(i));
  return std::exp(log_p);
}

double poisson_cdf(std::int64_t k, double mean) {
  if (k < 0) return 0;
  double sum = 0;
  double log_p = -mean;
  const double log_mean = mean > 0 ? std::log(mean) : 0;
  for (std::int64_t i = 0; i <= k; ++i) {
    if (i > 0) log_p += log_mean - std::log(static_cast<double>(i));
    sum += mean > 0 ? std::exp(log_p) : (i == 0 ? 1.0 : 0.0);
  }
  return std::fmin(sum, 1.0);
}

double poisson_tail_at_least(std::int64_t k, double mean) {
  if (k <= 0) return 1;
  if (mean == 0) return 0;
  if (static_cast<double>(k) < mean) return 1 - poisson_cdf(k - 1, mean);  // the tail holds most of the mass
  // Past the mode the terms fall geometrically (ratio mean / i < 1): sum until they stop mattering.
  double p = poisson_pmf(k, mean);
  double sum = 0;
  for (std::int64_t i = k; p > 1e-18 * sum || i == k; ++i) {
    sum += p;
    p *= mean / static_cast<double>(i + 1);
  }
  return sum;
}

std::int64_t poisson_quantile(double mean, double p) {
  SL_ASSERT(p > 0 && p < 1 && mean >= 0);
  if (mean == 0) return 0;
  double sum = 0;
  double log_p = -mean;
  const double log_mean = std::log(mean);
  for (std::int64_t k = 0;; ++k) {
    if (k > 0) log_p += log_mean - std::log(static_cast<double>(k));
    sum += std::exp(log_p);
    if (sum >= p) return k;
    SL_ASSERT(static_cast<double>(k) < 10 * mean + 1000);  // CDF reaches p long before this
  }
}

std::int64_t request_seen_batch_quantile(double lambda_per_s, double window_s, double p) {
  return 1 + poisson_quantile(lambda_per_s * window_s, p);
}

double window_mean_latency_s(double lambda_per_s, double window_s, const ServiceModel& service) {
  SL_ASSERT(service.is_linear());
  // Linear T_svc: E[T_svc(1 + N)] = T_svc(1 + E[N]) = fixed + per_item (1 + lambda T). T_svc(1) plus the
  // slope times lambda T avoids rounding lambda T to a whole batch.
  const double slope_s = service.service_s(2) - service.service_s(1);
  return window_mean_wait_s(window_s) + service.service_s(1) + slope_s * lambda_per_s * window_s;
}

double envelope_latency_s(double lambda_per_s, double window_s, const ServiceModel& service) {
  return window_s + service.service_s(request_seen_batch_quantile(lambda_per_s, window_s, 0.99));
}

std::int64_t latency_constrained_batch(double window_s, double target_s, const ServiceModel& service,
                                       std::int64_t max_batch) {
  std::int64_t best = 0;
  for (std::int64_t b = 1; b <= max_batch; ++b)
    if (window_mean_wait_s(window_s) + service.service_s(b) <= target_s) best = b;
  return best;
}

double adaptive_window_s(double slo_s, double service_s, double lambda_per_s) {
  SL_ASSERT(lambda_per_s > 0 && service_s >= 0);
  return std::fmin(slo_s - service_s, std::sqrt(service_s / lambda_per_s));
}

double batch_efficiency_frac(double fixed_s, double per_item_s, std::int64_t batch_size) {
  const double compute_s = per_item_s * static_cast<double>(batch_size);
  return compute_s / (fixed_s + compute_s);
}

std::int64_t batch_for_overhead_below(double fixed_s, double per_item_s, double overhead_frac) {
  if (fixed_s <= 0) return 1;
  if (per_item_s <= 0) return 0;
  // per_item B >= (1 - f)(fixed + per_item B)  <=>  B >= (1 - f) fixed / (f per_item). At the book's
  // numbers the bound is exactly 75 (overhead exactly 10 %), which binary rounding can push to 75.000...01;
  // a relative slack of 1e-12 keeps the exact boundary.
  const double bound = (1 - overhead_frac) * fixed_s / (overhead_frac * per_item_s);
  const auto b = static_cast<std::int64_t>(std::ceil(bound * (1 - 1e-12)));
  return b < 1 ? 1 : b;
}

double round_half_up(double x) { return x >= 0 ? std::floor(x + 0.5) : -std::floor(-x + 0.5); }

}  // namespace sl::batching
