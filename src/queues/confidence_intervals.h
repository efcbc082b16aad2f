#pragma once
#include <cstdint>
#include <vector>

namespace sl::queues {

/// A point estimate with a two-sided 95 % confidence interval [lo, hi].
struct Estimate {
  double value = 0;
  double lo = 0;
  double hi = 0;
  double half_width() const { return 0.5 * (hi - lo); }
  bool covers(double x) const { return lo <= x && x <= hi; }
};

/// Batches used for the batch-means method (and the Student t quantile that goes with them).
constexpr int kNumBatches = 32;
/// 97.5 % quantile of Student's t with kNumBatches - 1 = 31 degrees of freedom: 2.0395.
constexpr double kStudentT31 = 2.0395;
/// 97.5 % quantile of the standard normal: 1.96.
constexpr double kNormal975 = 1.959964;

/// Mean and p-quantile of a correlated series (successive times in system of one queue) with 95 % CIs by
/// batch means: the series is cut into kNumBatches contiguous batches whose means are treated as
/// independent, SE = sd(batch means) / sqrt(32), CI = estimate +- t(31) SE. For the mean this is the classic
/// method. For the quantile q (type 7 over the whole series) it is applied to the share of values <= q,
/// which is a mean of indicators: its CI [p - d, p + d] (d = t(31) SE) maps back to the interval between
/// the series' own (p - d)- and (p + d)-quantiles. (Taking the spread of 32 batch quantiles instead
/// under-covers at high load, by half at rho = 0.9.) Needs at least 2 * kNumBatches values.
struct SeriesSummary {
  Estimate mean;
  Estimate quantile;
};
SeriesSummary summarize_series(std::vector<double> xs, double p);

/// p-quantiles of a correlated series at several levels, each with the CI summarize_series gives it (the share
/// below the quantile by batch means, mapped back through the series' own quantiles); `in_order` is the series
/// in time order, `sorted` the same values sorted (so one sort serves every level).
std::vector<Estimate> series_quantiles(const std::vector<double>& in_order, const std::vector<double>& sorted,
                                       const std::vector<double>& ps);

/// An estimate from resampling a finite pool, with the pool's own error added: `resampled` carries the
/// resampling CI, `pool` the CI of the pool statistic it converges to; half-widths add in quadrature, on each
/// side.
Estimate with_pool_error(const Estimate& resampled, const Estimate& pool);

/// Ratio a / b of estimates from two independent runs; its CI by the delta method: relative half-widths
/// add in quadrature.
Estimate ratio_of_independent(const Estimate& a, const Estimate& b);

/// p-quantile of an i.i.d. sample that is already sorted, with the distribution-free 95 % CI from order
/// statistics: the count of values below the true quantile is Binomial(n, p), so the interval runs between
/// the order statistics of rank n p -+ 1.96 sqrt(n p (1 - p)) (clamped to the sample).
Estimate iid_quantile_sorted(const std::vector<double>& sorted, double p);

/// Share k / n of i.i.d. trials with the Wilson score 95 % interval (sound also for k = 0 or k = n).
Estimate binomial_share(std::int64_t k, std::int64_t n);

}  // namespace sl::queues
