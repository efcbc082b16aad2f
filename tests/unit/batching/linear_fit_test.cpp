#include "matchers.h"

#include "batching/linear_fit.h"

namespace SL_UNITY_ID {

using sl::batching::fit_line;

TEST_CASE("A line through exact points of the book's model 5 + 0.6 B is recovered exactly", "[batching][fit]") {
  // Table 11's service-time model at B = 1 ... 256: every point on the line, so a = 5 ms, b = 0.6 ms, r2 = 1.
  std::vector<double> b, t_ms;
  for (int batch = 1; batch <= 256; batch *= 2) {
    b.push_back(batch);
    t_ms.push_back(5.0 + 0.6 * batch);
  }
  const auto fit = fit_line(b, t_ms);
  REQUIRE(fit);
  CHECK_THAT(fit->intercept, WithinRel(5.0, 1e-12));
  CHECK_THAT(fit->slope, WithinRel(0.6, 1e-12));
  CHECK_THAT(fit->r2, WithinAbs(1.0, 1e-12));
}

TEST_CASE("The least-squares line of scattered points matches the hand computation", "[batching][fit]") {
  // x = 0..3, y = 1, 3, 2, 5: mean x 1.5, mean y 2.75, S_xx = 5, S_xy = 5.5 -> slope 1.1, intercept 1.1;
  // residuals -0.1, 0.8, -1.3, 0.6 -> SS_res 2.7; S_yy 8.75 -> r2 = 1 - 2.7 / 8.75 = 0.691428...
  const auto fit = fit_line({0, 1, 2, 3}, {1, 3, 2, 5});
  REQUIRE(fit);
  CHECK_THAT(fit->slope, WithinRel(1.1, 1e-12));
  CHECK_THAT(fit->intercept, WithinRel(1.1, 1e-12));
  CHECK_THAT(fit->r2, WithinRel(1.0 - 2.7 / 8.75, 1e-12));
}

TEST_CASE("A flat series fits with slope 0 and r2 1; too few or identical x give no fit", "[batching][fit]") {
  const auto flat = fit_line({1, 2, 3}, {4, 4, 4});
  REQUIRE(flat);
  CHECK(flat->slope == 0.0);
  CHECK(flat->intercept == 4.0);
  CHECK(flat->r2 == 1.0);
  CHECK_FALSE(fit_line({1}, {2}));
  CHECK_FALSE(fit_line({2, 2, 2}, {1, 2, 3}));
  CHECK_FALSE(fit_line({1, 2}, {1, 2, 3}));
}

TEST_CASE("Weighted least squares: exact on a line, and matching a hand computation with weights",
          "[batching][fit]") {
  // Exact points: any positive weights recover the line (here 1 / y^2, as the cell uses).
  std::vector<double> b = {1, 2, 4, 8, 16}, t, w;
  for (double x : b) {
    t.push_back(0.02 + 0.08 * x);
    w.push_back(1.0 / (t.back() * t.back()));
  }
  const auto exact = sl::batching::fit_line(b, t, w);
  REQUIRE(exact);
  CHECK_THAT(exact->intercept, WithinAbs(0.02, 1e-14));
  CHECK_THAT(exact->slope, WithinRel(0.08, 1e-12));
  // x = 0, 1, 2 with y = 0, 2, 1 and weights 2, 1, 1: W = 4, weighted mean x = 0.75, mean y = 0.75;
  // S_xx = 2(0.5625) + 0.0625 + 1.5625 = 2.75, S_xy = 2(0.5625) + 0.25(1.25) + 1.25(0.25) = 1.75
  // -> slope 7/11, intercept 0.75 - 0.75 x 7/11 = 3/11.
  const auto fit = sl::batching::fit_line({0, 1, 2}, {0, 2, 1}, {2, 1, 1});
  REQUIRE(fit);
  CHECK_THAT(fit->slope, WithinRel(7.0 / 11.0, 1e-12));
  CHECK_THAT(fit->intercept, WithinRel(3.0 / 11.0, 1e-12));
  // Unit weights give the unweighted fit.
  const auto unweighted = sl::batching::fit_line({0, 1, 2, 3}, {1, 3, 2, 5}, {1, 1, 1, 1});
  REQUIRE(unweighted);
  CHECK_THAT(unweighted->slope, WithinRel(1.1, 1e-12));
  // Negative or all-zero weights give no fit.
  CHECK_FALSE(sl::batching::fit_line({0, 1}, {0, 1}, {1, -1}));
  CHECK_FALSE(sl::batching::fit_line({0, 1}, {0, 1}, {0, 0}));
}

}  // namespace SL_UNITY_ID
