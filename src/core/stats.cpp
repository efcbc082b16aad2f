#include "core/stats.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/error.h"

namespace sl {

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

void sort_ascending(std::vector<double>& xs) {
  constexpr std::size_t kSmall = 512;  // below this, a comparison sort is as fast
  if (xs.size() < kSmall) {
    std::sort(xs.begin(), xs.end());
    return;
  }
  // A key whose unsigned order is the values' order: negatives have every bit flipped, the rest the sign bit.
  constexpr int kDigitBits = 11, kNumDigits = (64 + kDigitBits - 1) / kDigitBits;
  constexpr std::size_t kRadix = std::size_t{1} << kDigitBits;
  std::vector<std::uint64_t> keys(xs.size()), scratch(xs.size());
  std::vector<std::size_t> counts(kRadix * kNumDigits, 0);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &xs[i], sizeof bits);
    const std::uint64_t key = (bits >> 63) != 0 ? ~bits : bits | (std::uint64_t{1} << 63);
    keys[i] = key;
    for (int d = 0; d < kNumDigits; ++d)
      ++counts[static_cast<std::size_t>(d) * kRadix + static_cast<std::size_t>((key >> (d * kDigitBits)) & (kRadix - 1))];
  }
  for (int d = 0; d < kNumDigits; ++d) {
    std::size_t* count = counts.data() + static_cast<std::size_t>(d) * kRadix;
    const std::uint64_t shift = static_cast<std::uint64_t>(d * kDigitBits);
    const auto digit = [shift](std::uint64_t key) { return static_cast<std::size_t>((key >> shift) & (kRadix - 1)); };
    if (count[digit(keys[0])] == keys.size()) continue;  // every key has this digit
    std::size_t start = 0;
    for (std::size_t b = 0; b < kRadix; ++b) {
      const std::size_t c = count[b];
      count[b] = start;
      start += c;
    }
    for (const std::uint64_t key : keys) scratch[count[digit(key)]++] = key;  // stable
    keys.swap(scratch);
  }
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const std::uint64_t key = keys[i];
    const std::uint64_t bits = (key >> 63) != 0 ? key & ~(std::uint64_t{1} << 63) : ~key;
    std::memcpy(&xs[i], &bits, sizeof bits);
  }
}

double quantile_sorted(const std::vector<double>& sorted, double p) {
  SL_ASSERT(!sorted.empty() && p >= 0 && p <= 1);
  const double h = p * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

double quantile(std::vector<double> xs, double p) { return quantile_in_place(xs, p); }

double quantile_in_place(std::vector<double>& xs, double p) {
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
