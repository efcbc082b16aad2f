#include "queues/confidence_intervals.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "core/stats.h"

namespace sl::queues {
namespace {

/// Order statistics of a sample, selected in place. Each selection runs nth_element only between the nearest
/// positions selected before it, which already split the sample ([0, k) <= xs[k] <= (k, n) for each), so after
/// one full pass the next ones near it cost little. The values are the order statistics whatever was selected
/// first.
class OrderStatistics {
 public:
  explicit OrderStatistics(std::vector<double>& xs) : xs_(xs) {}

  /// The k-th smallest value (0-based).
  double select(std::size_t k) {
    std::size_t lo = 0, hi = xs_.size();
    for (const std::size_t s : selected_) {
      if (s == k) return xs_[k];
      if (s < k && s + 1 > lo) lo = s + 1;
      if (s > k && s < hi) hi = s;
    }
    std::nth_element(xs_.begin() + static_cast<std::ptrdiff_t>(lo), xs_.begin() + static_cast<std::ptrdiff_t>(k),
                     xs_.begin() + static_cast<std::ptrdiff_t>(hi));
    selected_.push_back(k);
    return xs_[k];
  }

  /// Type-7 p-quantile: order statistics floor(h) and the next, h = p (n - 1), interpolated.
  double quantile(double p) {
    const double h = p * static_cast<double>(xs_.size() - 1);
    const auto k = static_cast<std::size_t>(std::floor(h));
    const double x_lo = select(k);
    if (k + 1 == xs_.size()) return x_lo;
    const double x_hi = select(k + 1);
    return x_lo + (h - static_cast<double>(k)) * (x_hi - x_lo);
  }

 private:
  std::vector<double>& xs_;
  std::vector<std::size_t> selected_;
};

/// batch_means_se(indicators x <= q of xs, kNumBatches), without storing the indicators: a batch's sum of 0s
/// and 1s is its count, exactly. xs has at least 2 kNumBatches values (batch_means_se's batched case).
double share_below_se(const std::vector<double>& xs, double q) {
  const std::size_t per_batch = xs.size() / static_cast<std::size_t>(kNumBatches);
  RunningStats means;
  for (std::size_t b = 0; b < static_cast<std::size_t>(kNumBatches); ++b) {
    std::int64_t num_below = 0;
    for (std::size_t i = b * per_batch; i < (b + 1) * per_batch; ++i) num_below += xs[i] <= q;
    means.add(static_cast<double>(num_below) / static_cast<double>(per_batch));
  }
  return means.standard_error();
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
  OrderStatistics order(sorted_part);
  // The interval's ends lie near q: a first split a share 1 - p below p (for p = 0.99 the top 2 % of values)
  // lets the selections for q and the interval's ends run inside that share only (when they fall in it).
  if (p > 0.5) order.select(static_cast<std::size_t>(std::floor((2 * p - 1) * static_cast<double>(xs.size() - 1))));
  const double q = order.quantile(p);
  const double share_spread = kStudentT31 * share_below_se(xs, q);
  const double p_lo = std::max(0.0, p - share_spread), p_hi = std::min(1.0, p + share_spread);
  const Estimate quantile{q, order.quantile(p_lo), order.quantile(p_hi)};
  return {around(all.mean(), mean_se, kStudentT31), quantile};
}

std::vector<Estimate> series_quantiles(const std::vector<double>& in_order, const std::vector<double>& sorted,
                                       const std::vector<double>& ps) {
  SL_ASSERT(in_order.size() == sorted.size() && sorted.size() >= 2 * static_cast<std::size_t>(kNumBatches));
  std::vector<Estimate> out;
  for (double p : ps) {
    SL_ASSERT(p > 0 && p < 1);
    const double q = quantile_sorted(sorted, p);
    const double share_spread = kStudentT31 * share_below_se(in_order, q);
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
