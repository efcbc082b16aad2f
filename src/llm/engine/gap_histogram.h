#pragma once
// Inter-token latency over every token gap of a run, in O(1) memory: a histogram whose bins are the leading bits of
// the gap's double (its exponent and 7 mantissa bits, so a bin spans under 0.8 % of its values), each holding a
// count, a sum, a minimum and a maximum. A quantile is the value of the bin where its rank falls when the bin
// holds one distinct value (gaps are sums of step times, so many are equal), else the mean of its values, within
// the bin's 0.8 %. Only integer bit operations, comparisons and additions: the same bins natively and in wasm.
// Equal gaps in a row (every sequence decoding in one step has the same gap) are counted as one run, so the
// engine's hot loop pays one comparison per token.
#include <cstdint>
#include <vector>

namespace sl::llm {

class GapHistogram {
 public:
  /// Adds one gap (seconds); gaps outside [2^-30, 2^18] s fall into the first or last bin.
  void add(double gap_s) {
    if (gap_s == run_value_ && run_count_ > 0) {
      ++run_count_;
      return;
    }
    flush();
    run_value_ = gap_s;
    run_count_ = 1;
  }
  std::int64_t count() const { return count_ + run_count_; }
  /// Adds every gap of `other` (a fleet's replicas into one histogram): the same bins as adding them one by one.
  void merge(const GapHistogram& other);
  /// The p-quantile (p in [0, 1]) as described above, by rank floor(p x (count - 1)); 0 when empty.
  double quantile(double p) const;

 private:
  struct Bin {
    std::int64_t count = 0;
    double sum = 0, min = 0, max = 0;
  };
  static constexpr int kMantissaBits = 7;
  static constexpr int kMinExponent = -30, kMaxExponent = 18;
  static constexpr int kNumBins = (kMaxExponent - kMinExponent) << kMantissaBits;
  static int bin_of(double gap_s);
  /// Moves the current run of equal gaps into its bin.
  void flush() const;
  mutable std::vector<Bin> bins_;
  mutable std::int64_t count_ = 0;
  mutable double run_value_ = 0;
  mutable std::int64_t run_count_ = 0;
};

}  // namespace sl::llm
