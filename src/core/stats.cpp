#include "core/stats.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"

namespace sl {

void RunningStats::add(double x) {
  if (n_ == 0) {
    min_ = max_ = x;
  } else {
    min_ = std::min(min_, x);
    max_ = std::max(max_, x);
  }
  ++n_;
  const double delta = x - mean_;
  mean_ += delta / static_cast<double>(n_);
  m2_ += delta * (x - mean_);
}

double RunningStats::variance() const { return n_ > 1 ? m2_ / static_cast<double>(n_ - 1) : 0.0; }
double RunningStats::stddev() const { return std::sqrt(variance()); }
double RunningStats::standard_error() const {
  return n_ > 0 ? stddev() / std::sqrt(static_cast<double>(n_)) : 0.0;
}

double batch_means_se(const std::vector<double>& xs, int num_batches) {
  const auto n = static_cast<std::int64_t>(xs.size());
  SL_ASSERT(num_batches >= 2);
  if (n < 2 * num_batches) {  // too few values to batch: fall back to the i.i.d. formula
    RunningStats s;
    for (double x : xs) s.add(x);
    return s.standard_error();
  }
  const std::int64_t per_batch = n / num_batches;
  RunningStats means;
  for (int b = 0; b < num_batches; ++b) {
    double sum = 0;
    for (std::int64_t i = b * per_batch; i < (b + 1) * per_batch; ++i) sum += xs[static_cast<std::size_t>(i)];
    means.add(sum / static_cast<double>(per_batch));
  }
  return means.standard_error();
}

double quantile_sorted(const std::vector<double>& sorted, double p) {
  SL_ASSERT(!sorted.empty() && p >= 0 && p <= 1);
  const double h = p * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

double quantile(std::vector<double> xs, double p) {
  SL_ASSERT(!xs.empty() && p >= 0 && p <= 1);
  const double h = p * static_cast<double>(xs.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(h));
  std::nth_element(xs.begin(), xs.begin() + static_cast<std::ptrdiff_t>(lo), xs.end());
  const double x_lo = xs[lo];
  if (lo + 1 >= xs.size()) return x_lo;
  const double x_hi = *std::min_element(xs.begin() + static_cast<std::ptrdiff_t>(lo) + 1, xs.end());
  return x_lo + (h - static_cast<double>(lo)) * (x_hi - x_lo);
}

P2Quantile::P2Quantile(double p) : p_(p) {
  SL_ASSERT(p > 0 && p < 1);
  const double want[5] = {1, 1 + 2 * p, 1 + 4 * p, 3 + 2 * p, 5};
  const double step[5] = {0, p / 2, p, (1 + p) / 2, 1};
  for (int i = 0; i < 5; ++i) {
    want_[i] = want[i];
    step_[i] = step[i];
    pos_[i] = i + 1;
  }
}

void P2Quantile::add(double x) {
  if (n_ < 5) {
    q_[n_++] = x;
    if (n_ == 5) std::sort(q_, q_ + 5);
    return;
  }
  ++n_;
  int k;  // the cell [q_k, q_{k+1}) that x falls in, extending the extreme markers if needed
  if (x < q_[0]) {
    q_[0] = x;
    k = 0;
  } else if (x >= q_[4]) {
    q_[4] = std::max(q_[4], x);
    k = 3;
  } else {
    k = 0;
    while (k < 3 && x >= q_[k + 1]) ++k;
  }
  for (int i = k + 1; i < 5; ++i) pos_[i] += 1;
  for (int i = 0; i < 5; ++i) want_[i] += step_[i];
  for (int i = 1; i <= 3; ++i) {  // move the middle markers towards their desired positions
    const double d = want_[i] - pos_[i];
    if ((d >= 1 && pos_[i + 1] - pos_[i] > 1) || (d <= -1 && pos_[i - 1] - pos_[i] < -1)) {
      const double s = d > 0 ? 1.0 : -1.0;
      const double parabolic =
          q_[i] + s / (pos_[i + 1] - pos_[i - 1]) *
                      ((pos_[i] - pos_[i - 1] + s) * (q_[i + 1] - q_[i]) / (pos_[i + 1] - pos_[i]) +
                       (pos_[i + 1] - pos_[i] - s) * (q_[i] - q_[i - 1]) / (pos_[i] - pos_[i - 1]));
      if (q_[i - 1] < parabolic && parabolic < q_[i + 1]) {
        q_[i] = parabolic;
      } else {  // linear step when the parabola would break the ordering
        const int j = i + static_cast<int>(s);
        q_[i] += s * (q_[j] - q_[i]) / (pos_[j] - pos_[i]);
      }
      pos_[i] += s;
    }
  }
}

double P2Quantile::value() const {
  SL_ASSERT(n_ > 0);
  if (n_ >= 5) return q_[2];
  std::vector<double> first(q_, q_ + n_);
  return quantile(first, p_);
}

Histogram::Histogram(double lo, double hi, int num_bins)
    : lo_(lo), width_((hi - lo) / num_bins), counts_(static_cast<std::size_t>(num_bins), 0) {
  SL_ASSERT(num_bins > 0 && hi > lo);
}

void Histogram::add(double x) {
  ++total_;
  if (x < lo_) {
    ++under_;
    return;
  }
  const auto i = static_cast<std::int64_t>((x - lo_) / width_);
  if (i >= num_bins()) {
    ++over_;
    return;
  }
  ++counts_[static_cast<std::size_t>(i)];
}

double Histogram::density(int i) const {
  return total_ > 0 ? static_cast<double>(count(i)) / (static_cast<double>(total_) * width_) : 0.0;
}

}  // namespace sl
