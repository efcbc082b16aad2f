#include "queues/time_series.h"

#include "matchers.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/rng.h"

namespace SL_UNITY_ID {

using sl::queues::StepSeries;

namespace {

/// Sum of bucket mean x bucket width: the area the downsampled series carries.
double series_area(const StepSeries& s, double bucket_s) {
  const auto starts = s.bucket_starts_s();
  const auto means = s.bucket_means();
  double area = 0;
  for (std::size_t i = 0; i < means.size(); ++i) area += means[i] * std::fmin(bucket_s, s.end_s() - starts[i]);
  return area;
}

}  // namespace

TEST_CASE("A step series integrates a level exactly and its buckets keep that area", "[queues][time-series]") {
  StepSeries s(1.0);
  s.advance(0.5, 2);  // 2 on [0, 0.5)
  s.advance(2.5, 1);  // 1 on [0.5, 2.5): crosses two bucket edges
  s.advance(3.2, 4);  // 4 on [2.5, 3.2): ends inside bucket 3
  CHECK_THAT(s.area(), WithinRel(1.0 + 2.0 + 2.8, 1e-12));
  CHECK(s.end_s() == 3.2);
  const auto means = s.bucket_means();
  REQUIRE(means.size() == 4);
  CHECK_THAT(means[0], WithinRel(0.5 * 2 + 0.5 * 1, 1e-12));  // [0, 1)
  CHECK_THAT(means[1], WithinRel(1.0, 1e-12));                 // [1, 2)
  CHECK_THAT(means[2], WithinRel(0.5 * 1 + 0.5 * 4, 1e-12));   // [2, 3)
  CHECK_THAT(means[3], WithinRel(4.0, 1e-12));                 // [3, 3.2): a partial bucket averages over 0.2 s
  CHECK(s.bucket_starts_s() == std::vector<double>{0, 1, 2, 3});
}

TEST_CASE("A random step path keeps its area in the buckets, after every step", "[queues][time-series]") {
  // 2,000 steps of random length and level: each bucket sum adds a handful of products, so the two areas
  // agree to rounding (1e-9 relative is ~1e6 ulps of slack over 2,000 additions).
  sl::Rng rng = sl::Rng::stream(11, sl::Stream::Misc);
  const double bucket_s = 0.37;
  StepSeries s(bucket_s);
  double t = 0, area = 0;
  for (int i = 0; i < 2000; ++i) {
    const double level = std::floor(10 * rng.uniform());
    const double dt = 2 * rng.uniform();
    t += dt;
    area += level * dt;
    s.advance(t, level);
    CHECK_THAT(s.area(), WithinRel(area, 1e-9));
    if (i % 100 == 0) CHECK_THAT(series_area(s, bucket_s), WithinRel(s.area(), 1e-9));
  }
  const auto means = s.bucket_means();
  CHECK(*std::min_element(means.begin(), means.end()) >= 0);
  // An average never exceeds the highest level (9), up to the rounding of area / width.
  CHECK(*std::max_element(means.begin(), means.end()) <= 9 * (1 + 1e-12));
}

TEST_CASE("A step series that never advances has no buckets", "[queues][time-series]") {
  StepSeries s(0.5);
  CHECK(s.area() == 0);
  CHECK(s.bucket_means().empty());
  s.advance(0, 3);  // a zero-length step adds nothing
  CHECK(s.area() == 0);
}

}  // namespace SL_UNITY_ID
