#include "llm/engine/gap_histogram.h"

#include "matchers.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/rng.h"
#include "core/stats.h"

namespace SL_UNITY_ID {

using sl::llm::GapHistogram;

TEST_CASE("Token-gap quantiles are exact when a bin holds one value", "[llm][gap_histogram]") {
  GapHistogram h;
  CHECK(h.quantile(0.5) == 0.0);
  // 90 gaps of one decode step (1.5676 ms) and 10 stalls of 40 ms: p50 and p90 are the step, p99 the stall.
  for (int i = 0; i < 90; ++i) h.add(1.5676e-3);
  for (int i = 0; i < 10; ++i) h.add(40e-3);
  CHECK(h.count() == 100);
  CHECK(h.quantile(0.5) == 1.5676e-3);
  CHECK(h.quantile(0.89) == 1.5676e-3);
  CHECK(h.quantile(0.99) == 40e-3);
}

TEST_CASE("Token-gap quantiles of a continuous law are within a bin (0.8 %) of the exact ones", "[llm][gap_histogram]") {
  sl::Rng rng(11);
  GapHistogram h;
  std::vector<double> xs;
  for (int i = 0; i < 20'000; ++i) {
    const double x = 1e-3 * (1 + 9 * rng.uniform());  // 1..10 ms
    xs.push_back(x);
    h.add(x);
  }
  for (const double p : {0.5, 0.9, 0.99}) CHECK_THAT(h.quantile(p), WithinRel(sl::quantile(xs, p), 0.008));
}

TEST_CASE("Merged histograms hold the same bins as one histogram of every gap", "[llm][gap_histogram]") {
  sl::Rng rng(5);
  GapHistogram a, b, all;
  for (int i = 0; i < 5'000; ++i) {
    const double gap = 1e-3 * (1 + std::floor(rng.uniform() * 40));  // runs of equal gaps, and distinct ones
    (i % 3 == 0 ? a : b).add(gap);
    all.add(gap);
  }
  GapHistogram merged;
  merged.merge(a);
  merged.merge(b);
  merged.merge(GapHistogram{});  // an empty one adds nothing
  CHECK(merged.count() == all.count());
  for (const double p : {0.0, 0.1, 0.5, 0.9, 0.99, 1.0}) CHECK(merged.quantile(p) == all.quantile(p));
}

}  // namespace SL_UNITY_ID
