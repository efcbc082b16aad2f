#include "llm/engine/gap_histogram.h"

#include <cstring>

namespace sl::llm {

int GapHistogram::bin_of(double gap_s) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &gap_s, sizeof bits);
  const int exponent = static_cast<int>((bits >> 52) & 0x7ff) - 1023;
  if (!(gap_s > 0) || exponent < kMinExponent) return 0;
  if (exponent >= kMaxExponent) return kNumBins - 1;
  return ((exponent - kMinExponent) << kMantissaBits) |
         static_cast<int>((bits >> (52 - kMantissaBits)) & ((1u << kMantissaBits) - 1));
}

void GapHistogram::flush() const {
  if (run_count_ == 0) return;
  if (bins_.empty()) bins_.resize(kNumBins);
  Bin& b = bins_[static_cast<std::size_t>(bin_of(run_value_))];
  if (b.count == 0 || run_value_ < b.min) b.min = run_value_;
  if (b.count == 0 || run_value_ > b.max) b.max = run_value_;
  b.count += run_count_;
  b.sum += run_value_ * static_cast<double>(run_count_);
  count_ += run_count_;
  run_count_ = 0;
}

void GapHistogram::merge(const GapHistogram& other) {
  other.flush();
  flush();
  if (other.count_ == 0) return;
  if (bins_.empty()) bins_.resize(kNumBins);
  for (std::size_t i = 0; i < other.bins_.size(); ++i) {
    const Bin& o = other.bins_[i];
    if (o.count == 0) continue;
    Bin& b = bins_[i];
    if (b.count == 0 || o.min < b.min) b.min = o.min;
    if (b.count == 0 || o.max > b.max) b.max = o.max;
    b.count += o.count;
    b.sum += o.sum;
  }
  count_ += other.count_;
}

double GapHistogram::quantile(double p) const {
  flush();
  if (count_ == 0) return 0.0;
  const auto rank = static_cast<std::int64_t>(p * static_cast<double>(count_ - 1));
  std::int64_t seen = 0;
  std::size_t i = 0;
  for (; i + 1 < bins_.size(); ++i) {
    seen += bins_[i].count;
    if (seen > rank) break;
  }
  const Bin& b = bins_[i];
  if (b.min == b.max) return b.min;
  const double mean = b.sum / static_cast<double>(b.count);
  return mean < b.min ? b.min : (mean > b.max ? b.max : mean);
}

}  // namespace sl::llm
