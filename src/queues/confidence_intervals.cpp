#include "queues/confidence_intervals.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "core/stats.h"

namespace sl::queues {
namespace {

/// type-7 p-quantile of xs[begin, end), reordering that range only.
double quantile_in_place(std::vector<double>& xs, std::size_t begin, std::size_t end, double p) {
  const auto first = xs.begin() + static_cast<std::ptrdiff_t>(begin);
  const auto last = xs.begin() + static_cast<std::ptrdiff_t>(end);
  const double h = p * static_cast<double>(end - begin - 1);
  const auto k = static_cast<std::ptrdiff_t>(std::floor(h));
  std::nth_element(first, first + k, last);
  const double x_lo = first[k];
  if (first + k + 1 == last) return x_lo;
  const double x_hi = *std::min_element(first + k + 1, last);
  return x_lo + (h - static_cast<double>(k)) * (x_hi - x_lo);
}

Estimate around(double value, double se, double critical) {
  return {value, value - critical * se, value + critical * se};
}

}  // namespace

SeriesSummary summarize_series(std::vector<double> xs, double p) {
  SL_ASSERT(xs.size() >= 2 * static_cast<std::size_t>(kNumBatches) && p > 0 && p < 1);
  RunningStats all;
  for (double x : xs) all.add(x);
  const double mean_se = batch_means_se(xs, kNumBatches);
  // The quantile through the share below it (its Bahadur representation): F(q) is a mean of indicators, so
  // batch means give its SE honestly, and the CI maps back through the sample's own quantiles. Batch
  // quantiles, by contrast, under-state the spread when a batch is not much longer than the busy periods
  // that make the tail (at rho = 0.9 by half).
  std::vector<double> sorted_part = xs;  // reordered by selection; xs keeps arrival order for the batches
  const double q = quantile_in_place(sorted_part, 0, sorted_part.size(), p);
  std::vector<double> below(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) below[i] = xs[i] <= q ? 1.0 : 0.0;
  const double share_spread = kStudentT31 * batch_means_se(below, kNumBatches);
  const double p_lo = std::max(0.0, p - share_spread), p_hi = std::min(1.0, p + share_spread);
  const Estimate quantile{q, quantile_in_place(sorted_part, 0, sorted_part.size(), p_lo),
                          quantile_in_place(sorted_part, 0, sorted_part.size(), p_hi)};
  return {around(all.mean(), mean_se, kStudentT31), quantile};
}

std::vector<Estimate> series_quantiles(const std::vector<double>& in_order, const std::vector<double>& sorted,
                                       const std::vector<double>& ps) {
  SL_ASSERT(in_order.size() == sorted.size() && sorted.size() >= 2 * static_cast<std::size_t>(kNumBatches));
  std::vector<Estimate> out;
  std::vector<double> below(in_order.size());
  for (double p : ps) {
    SL_ASSERT(p > 0 && p < 1);
    const double q = quantile_sorted(sorted, p);
    for (std::size_t i = 0; i < in_order.size(); ++i) below[i] = in_order[i] <= q ? 1.0 : 0.0;
    const double share_spread = kStudentT31 * batch_means_se(below, kNumBatches);
    const double p_lo = std::max(0.0, p - share_spread), p_hi = std::min(1.0, p + share_spread);
    out.push_back({q, quantile_sorted(sorted, p_lo), quantile_sorted(sorted, p_hi)});
  }
  return out;
}

Estimate with_pool_error(const Estimate& resampled, const Estimate& pool) {
  const double v = resampled.value;
  return {v, v - std::hypot(v - resampled.lo, pool.value - pool.lo), v + std::hypot(resampled.hi - v, pool.hi - pool.value)};
}

Estimate ratio_of_independent(const Estimate& a, const Estimate& b) {
  SL_ASSERT(a.value > 0 && b.value > 0);
  const double r = a.value / b.value;
  const double rel_a = a.half_width() / a.value;
  const double rel_b = b.half_width() / b.value;
  const double half = r * std::sqrt(rel_a * rel_a + rel_b * rel_b);
  return {r, r - half, r + half};
}

Estimate iid_quantile_sorted(const std::vector<double>& sorted, double p) {
  SL_ASSERT(!sorted.empty() && p > 0 && p < 1);
  const double n = static_cast<double>(sorted.size());
  const double spread = kNormal975 * std::sqrt(n * p * (1 - p));
  const auto rank = [&](double r) {  // 1-based rank r, clamped, to a 0-based index
    const double clamped = std::min(n, std::max(1.0, r));
    return static_cast<std::size_t>(clamped) - 1;
  };
  return {quantile_sorted(sorted, p), sorted[rank(std::floor(n * p - spread))], sorted[rank(std::ceil(n * p + spread) + 1)]};
}

Estimate binomial_share(std::int64_t k, std::int64_t n) {
  SL_ASSERT(n > 0 && k >= 0 && k <= n);
  const double nn = static_cast<double>(n);
  const double share = static_cast<double>(k) / nn;
  const double z2 = kNormal975 * kNormal975;
  const double centre = (share + z2 / (2 * nn)) / (1 + z2 / nn);
  const double half = kNormal975 * std::sqrt(share * (1 - share) / nn + z2 / (4 * nn * nn)) / (1 + z2 / nn);
  return {share, std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

}  // namespace sl::queues
