#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include "core/rng.h"
#include "kernels/fill.h"

namespace SL_UNITY_ID {

TEST_CASE("Uniform float fills stay in [-scale, scale) with mean 0 and variance scale^2 / 3", "[kernels][fill]") {
  sl::Rng rng(7);
  const std::int64_t n = 200'001;  // odd: the last value comes from a draw of its own
  std::vector<float> x(n);
  sl::kernels::fill_uniform(rng, x.data(), n, 0.5f);
  double sum = 0, sum2 = 0;
  for (float v : x) {
    REQUIRE(v >= -0.5f);
    REQUIRE(v < 0.5f);
    sum += v;
    sum2 += double(v) * v;
  }
  const double mean = sum / n, var = sum2 / n - mean * mean;
  // U(-a, a): mean 0, variance a^2/3 = 1/12; the sample mean's SE is sqrt(1/12 / n) = 6.5e-4, so 5 SE.
  CHECK(std::abs(mean) < 5 * std::sqrt(1.0 / 12 / n));
  // The sample variance's SE is about sqrt((E[x^4] - var^2) / n) = sqrt((a^4/5 - a^4/9) / n) = 1.5e-4.
  CHECK(std::abs(var - 1.0 / 12) < 5 * std::sqrt((0.0625 / 5 - 0.0625 / 9) / n));
}

TEST_CASE("Int8 fills cover -127..127, never -128, about evenly", "[kernels][fill]") {
  sl::Rng rng(3);
  const std::int64_t n = 255 * 4000 + 3;  // not a multiple of 8: the last draw is used in part
  std::vector<std::int8_t> x(n);
  sl::kernels::fill_uniform(rng, x.data(), n);
  std::vector<std::int64_t> counts(256, 0);
  for (std::int8_t v : x) ++counts[static_cast<std::size_t>(v + 128)];
  CHECK(counts[0] == 0);  // -128
  // (b * 255) >> 8 maps 256 byte values onto 255 levels: one level gets two bytes, the others one, so a
  // level's expected count is n/256 or 2n/256; each within 6 binomial SE (sqrt(n p)) of that.
  int doubled = 0;
  for (int level = -127; level <= 127; ++level) {
    const double c = static_cast<double>(counts[static_cast<std::size_t>(level + 128)]);
    const double one = n / 256.0;
    if (std::abs(c - 2 * one) < 6 * std::sqrt(2 * one)) ++doubled;
    else CHECK(std::abs(c - one) < 6 * std::sqrt(one));
  }
  CHECK(doubled == 1);
}

TEST_CASE("The same seed fills the same values", "[kernels][fill]") {
  std::vector<float> a(1000), b(1000);
  sl::Rng r1(11), r2(11);
  sl::kernels::fill_uniform(r1, a.data(), 1000, 1.0f);
  sl::kernels::fill_uniform(r2, b.data(), 1000, 1.0f);
  CHECK(a == b);
}

}  // namespace SL_UNITY_ID
