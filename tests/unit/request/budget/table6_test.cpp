// Tests of request/budget/table6.cpp: Table 6's model AI(r) = F s / (W + k A224 s) and the 2x2 solve for F/k, W/k.
#include "matchers.h"

#include <cmath>

#include "request/budget/table6.h"

namespace SL_UNITY_ID {

namespace lc = sl::request;

TEST_CASE("The 2x2 solve recovers F/k and W/k exactly from unrounded intensities, from any two rows",
          "[request][table6]") {
  const double ops = 4.1, weights = 51.2;
  const auto& rows = lc::table6_rows();
  for (std::size_t a = 0; a < rows.size(); ++a) {
    for (std::size_t b = 0; b < rows.size(); ++b) {
      if (a == b) continue;
      const double ra = rows[a].resolution, rb = rows[b].resolution;
      const auto [f, w] = lc::solve_two_rows(lc::resolution_scale(ra), lc::modeled_ai(ops, weights, ra),
                                             lc::resolution_scale(rb), lc::modeled_ai(ops, weights, rb));
      CHECK_THAT(f, WithinRel(ops, 1e-10));
      CHECK_THAT(w, WithinRel(weights, 1e-10));
    }
  }
}

TEST_CASE("The box from the corners contains every solution with intensities inside the printed rounding",
          "[request][table6]") {
  const auto& rows = lc::table6_rows();
  const int a = GENERATE(0, 1, 2), b = 3;
  const auto box = lc::solve_hidden_constants(a, b);
  const auto& ra = rows[static_cast<std::size_t>(a)];
  const auto& rb = rows[static_cast<std::size_t>(b)];
  const double ha = 0.5 * std::pow(10.0, -ra.ai_decimals), hb = 0.5 * std::pow(10.0, -rb.ai_decimals);
  for (int i = 0; i <= 8; ++i) {
    for (int j = 0; j <= 8; ++j) {
      const auto [f, w] = lc::solve_two_rows(lc::resolution_scale(ra.resolution), ra.ai_flop_per_byte + ha * (i / 4.0 - 1),
                                             lc::resolution_scale(rb.resolution), rb.ai_flop_per_byte + hb * (j / 4.0 - 1));
      CHECK(f >= box.ops_lo_g - 1e-12);
      CHECK(f <= box.ops_hi_g + 1e-12);
      CHECK(w >= box.weights_lo_mb - 1e-12);
      CHECK(w <= box.weights_hi_mb + 1e-12);
    }
  }
}

TEST_CASE("The pixel-count scale is (r / 224)^2: 1 at 224, 4 at 448", "[request][table6]") {
  CHECK(lc::resolution_scale(224) == 1.0);
  CHECK(lc::resolution_scale(448) == 4.0);
  CHECK(lc::resolution_scale(112) == 0.25);
  // The printed activation terms are A224 s for each row, to the printed 0.1 MB (half a unit: 0.05).
  for (const auto& row : lc::table6_rows())
    CHECK(std::fabs(lc::kActivation224Mb * lc::resolution_scale(row.resolution) - row.activation_mb) <= 0.05);
}

TEST_CASE("The modeled intensity grows with resolution towards 1000 F / A224", "[request][table6]") {
  // AI(r) = 1000 F s / (W + A224 s) rises in s and tends to 1000 F / A224 (weights amortized away).
  const double ops = 4.1, weights = 51.2;
  double previous = 0;
  for (double r = 32; r <= 32768; r *= 2) {
    const double ai = lc::modeled_ai(ops, weights, r);
    CHECK(ai > previous);
    previous = ai;
  }
  const double limit = 1000 * ops / lc::kActivation224Mb;
  CHECK(previous < limit);
  // At r = 32768, s = 21399: W / (A224 s) = 51.2 / 267490 = 1.9e-4 is the relative gap left.
  CHECK_THAT(previous, WithinRel(limit, 2e-4));
}

TEST_CASE("A value prints as the book's number when it rounds to the same digits", "[request][table6]") {
  CHECK(lc::prints_as(64.36, 64.4, 1));
  CHECK(lc::prints_as(137.4, 137, 0));
  CHECK_FALSE(lc::prints_as(137.6, 137, 0));
  CHECK_FALSE(lc::prints_as(64.34, 64.4, 1));
}

}  // namespace SL_UNITY_ID
