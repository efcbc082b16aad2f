#pragma once
#include <cstdint>
#include <vector>

namespace sl {

/// Streaming mean and variance (Welford), with min and max.
class RunningStats {
 public:
  void add(double x) {
    // Inline: a call per value kept the mean in memory between adds, on the chain of divisions that bounds
    // a run's summary (std::min / std::max spelled out, the same comparisons).
    if (n_ == 0) {
      min_ = max_ = x;
    } else {
      min_ = x < min_ ? x : min_;
      max_ = max_ < x ? x : max_;
    }
    ++n_;
    const double delta = x - mean_;
    mean_ += delta / static_cast<double>(n_);
    m2_ += delta * (x - mean_);
  }
  std::int64_t count() const { return n_; }
  double mean() const { return mean_; }
  /// Sample variance (n - 1 in the denominator); 0 for fewer than two values.
  double variance() const;
  double stddev() const;
  /// Standard error of the mean for independent samples: stddev / sqrt(n).
  double standard_error() const;
  double min() const { return min_; }
  double max() const { return max_; }

 private:
  std::int64_t n_ = 0;
  double mean_ = 0;
  double m2_ = 0;
  double min_ = 0;
  double max_ = 0;
};

/// Standard error of the mean of a correlated series (such as successive waits in a queue) by the method of
/// batch means: split into `num_batches` contiguous batches, treat batch means as independent.
double batch_means_se(const std::vector<double>& xs, int num_batches = 32);

/// Exact p-quantile (p in [0, 1]) of a sample, with linear interpolation between order statistics
/// (type 7, as numpy's default). Copies and partially sorts; xs must not be empty.
double quantile(std::vector<double> xs, double p);
/// The same, partially sorting `xs` itself instead of a copy (a scratch buffer the caller reuses).
double quantile_in_place(std::vector<double>& xs, double p);

/// Sorts a sample of doubles (no NaN) ascending: the order of std::sort, as an LSD radix sort on the values' bits
/// (11-bit digits, skipping a digit all values share), several times faster on the 10^5 latencies of a run.
/// -0 sorts before +0 (std::sort leaves them in either order).
void sort_ascending(std::vector<double>& xs);

/// Quantiles of an already sorted sample (type 7).
double quantile_sorted(const std::vector<double>& sorted, double p);

/// Streaming p-quantile in O(1) memory: the P-square algorithm of Jain and Chlamtac (1985), five markers
/// moved by piecewise-parabolic interpolation. Exact for the first five values; an estimate afterwards.
class P2Quantile {
 public:
  explicit P2Quantile(double p);
  void add(double x);
  double value() const;
  std::int64_t count() const { return n_; }

 private:
  double p_;
  std::int64_t n_ = 0;
  double q_[5] = {};     // marker heights
  double pos_[5] = {};   // actual marker positions (1-based)
  double want_[5] = {};  // desired positions
  double step_[5] = {};  // desired position increments
};

/// Equal-width histogram on [lo, hi); values outside are counted as underflow / overflow.
class Histogram {
 public:
  Histogram(double lo, double hi, int num_bins);
  void add(double x);
  int num_bins() const { return static_cast<int>(counts_.size()); }
  double bin_lo(int i) const { return lo_ + i * width_; }
  double bin_width() const { return width_; }
  double bin_center(int i) const { return lo_ + (i + 0.5) * width_; }
  std::int64_t count(int i) const { return counts_[static_cast<std::size_t>(i)]; }
  std::int64_t total() const { return total_; }
  std::int64_t underflow() const { return under_; }
  std::int64_t overflow() const { return over_; }
  /// count / (total * width): integrates to the share of values inside [lo, hi).
  double density(int i) const;

 private:
  double lo_;
  double width_;
  std::vector<std::int64_t> counts_;
  std::int64_t total_ = 0;
  std::int64_t under_ = 0;
  std::int64_t over_ = 0;
};

}  // namespace sl
