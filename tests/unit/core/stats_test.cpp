#include "matchers.h"

#include <algorithm>
#include <cmath>

#include "core/distributions.h"
#include "core/rng.h"
#include "core/stats.h"

namespace SL_UNITY_ID {

TEST_CASE("RunningStats gives the textbook mean and sample variance", "[core][stats]") {
  sl::RunningStats s;
  for (double x : {2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0}) s.add(x);
  CHECK(s.mean() == 5.0);
  CHECK_THAT(s.variance(), WithinRel(32.0 / 7.0, 1e-15));  // sum of squared deviations 32, n - 1 = 7
  CHECK(s.min() == 2.0);
  CHECK(s.max() == 9.0);
}

TEST_CASE("quantile interpolates between order statistics like numpy's default", "[core][stats]") {
  const std::vector<double> xs{15, 20, 35, 40, 50};
  CHECK(sl::quantile(xs, 0.0) == 15);
  CHECK(sl::quantile(xs, 1.0) == 50);
  CHECK(sl::quantile(xs, 0.5) == 35);
  CHECK_THAT(sl::quantile(xs, 0.4), WithinRel(29.0, 1e-15));  // h = 1.6: 20 + 0.6 * 15
  CHECK_THAT(sl::quantile({3, 1, 2}, 0.25), WithinRel(1.5, 1e-15));
  std::vector<double> sorted = xs;
  CHECK(sl::quantile_sorted(sorted, 0.4) == sl::quantile(xs, 0.4));
}

TEST_CASE("The empirical p99 of exponential samples is within its binomial confidence band", "[core][stats]") {
  // For n samples, the p-quantile's rank has sd sqrt(n p (1 - p)); 5 sd of rank maps to a quantile band.
  const int n = 200'000;
  sl::Rng rng(5);
  const auto d = sl::Distribution::exponential(1.0);
  std::vector<double> xs(n);
  for (auto& x : xs) x = d.sample(rng);
  const double band = 5 * std::sqrt(n * 0.99 * 0.01) / n;
  const double q = sl::quantile(xs, 0.99);
  CHECK(q > d.quantile(0.99 - band));
  CHECK(q < d.quantile(0.99 + band));
}

TEST_CASE("sort_ascending orders any doubles as std::sort does, small and large samples", "[core][stats]") {
  const std::size_t n = GENERATE(std::size_t{0}, std::size_t{7}, std::size_t{511}, std::size_t{512}, std::size_t{20000});
  sl::Rng rng(11);
  std::vector<double> xs;
  for (std::size_t i = 0; i < n; ++i) {
    const double u = rng.uniform();
    // Negatives, exact duplicates, tiny and huge magnitudes, infinities: every digit of the keys varies.
    const double x = i % 5 == 0 ? -std::ldexp(u, static_cast<int>(i % 200) - 100)
                     : i % 7 == 0 ? 0.25
                     : i % 97 == 0 ? (i % 2 == 0 ? HUGE_VAL : -HUGE_VAL)
                     : std::ldexp(u, static_cast<int>(i % 2000) - 1000);
    xs.push_back(x);
  }
  std::vector<double> expected = xs;
  std::sort(expected.begin(), expected.end());
  sl::sort_ascending(xs);
  CHECK(xs == expected);
}

TEST_CASE("P-square streaming quantile agrees with the exact quantile on a long stream", "[core][stats]") {
  const double p = GENERATE(0.5, 0.9, 0.99);
  sl::Rng rng(9);
  const auto d = sl::Distribution::lognormal_mean_cv(1.0, 1.0);
  sl::P2Quantile stream(p);
  std::vector<double> xs;
  for (int i = 0; i < 100'000; ++i) {
    xs.push_back(d.sample(rng));
    stream.add(xs.back());
  }
  // P-square is an estimate; on smooth distributions it lands within a few percent of the exact value.
  CHECK_THAT(stream.value(), WithinRel(sl::quantile(xs, p), 0.03));
}

TEST_CASE("P-square is exact while it has five values or fewer", "[core][stats]") {
  sl::P2Quantile q(0.5);
  for (double x : {9.0, 1.0, 5.0}) q.add(x);
  CHECK(q.value() == 5.0);
}

TEST_CASE("Histogram density integrates to the share of values in range", "[core][stats]") {
  sl::Histogram h(0.0, 10.0, 5);
  for (double x : {-1.0, 0.0, 1.9, 2.0, 9.99, 10.0, 11.0}) h.add(x);
  CHECK(h.underflow() == 1);
  CHECK(h.overflow() == 2);
  CHECK(h.count(0) == 2);
  CHECK(h.count(1) == 1);
  CHECK(h.count(4) == 1);
  double integral = 0;
  for (int i = 0; i < h.num_bins(); ++i) integral += h.density(i) * h.bin_width();
  CHECK_THAT(integral, WithinRel(4.0 / 7.0, 1e-12));
}

TEST_CASE("Batch-means standard error exceeds the naive one on a positively correlated series", "[core][stats]") {
  // An AR(1) series x_t = 0.9 x_{t-1} + e_t: the true SE of the mean is about sqrt((1+phi)/(1-phi)) = 4.4
  // times the i.i.d. formula.
  sl::Rng rng(2);
  const auto noise = sl::Distribution::uniform(-1, 1);
  std::vector<double> xs;
  double x = 0;
  sl::RunningStats naive;
  for (int i = 0; i < 320'000; ++i) {
    x = 0.9 * x + noise.sample(rng);
    xs.push_back(x);
    naive.add(x);
  }
  const double ratio = sl::batch_means_se(xs) / naive.standard_error();
  CHECK(ratio > 3.0);
  CHECK(ratio < 6.5);
}

}  // namespace SL_UNITY_ID
