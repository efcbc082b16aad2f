#include "llm/gap_histogram.h"

#include <cstring>

namespace sl::llm {

void GapHistogram::add(double gap_s) {
  if (counts_.empty()) {
    counts_.assign(kNumBins, 0);
    sums_.assign(kNumBins, 0.0);
    mins_.assign(kNumBins, 0.0);
    maxs_.assign(kNumBins, 0.0);
  }
  std::uint64_t bits = 0;
  std::memcpy(&bits, &gap_s, sizeof bits);
  const int exponent = static_cast<int>((bits >> 52) & 0x7ff) - 1023;
  int bin = 0;
  if (gap_s > 0 && exponent >= kMinExponent) {
    bin = exponent >= kMaxExponent ? kNumBins - 1
                                   : ((exponent - kMinExponent) << kMantissaBits) |
                                         static_cast<int>((bits >> (52 - kMantissaBits)) & ((1u << kMantissaBits) - 1));
  }
  const auto b = static_cast<std::size_t>(bin);
  if (counts_[b] == 0 || gap_s < mins_[b]) mins_[b] = gap_s;
  if (counts_[b] == 0 || gap_s > maxs_[b]) maxs_[b] = gap_s;
  counts_[b] += 1;
  sums_[b] += gap_s;
  ++count_;
}

double GapHistogram::quantile(double p) const {
  if (count_ == 0) return 0.0;
  const auto rank = static_cast<std::int64_t>(p * static_cast<double>(count_ - 1));
  std::int64_t seen = 0;
  std::size_t b = 0;
  for (; b + 1 < counts_.size(); ++b) {
    seen += counts_[b];
    if (seen > rank) break;
  }
  if (mins_[b] == maxs_[b]) return mins_[b];
  const double mean = sums_[b] / static_cast<double>(counts_[b]);
  return mean < mins_[b] ? mins_[b] : (mean > maxs_[b] ? maxs_[b] : mean);
}

}  // namespace sl::llm
