#pragma once
// Ordinary least squares for a straight line, y = intercept + slope x: the fit T(B) = a + b B of a batch's
// time against its size (the book's service-time model is the line 5 ms + 0.6 ms B, Table 11), and the
// per-call cost as the slope of time against the number of layers.
#include <optional>
#include <vector>

namespace sl::batching {

struct LineFit {
  double intercept = 0;
  double slope = 0;
  double r2 = 0;  ///< coefficient of determination, 1 - SS_res / SS_tot (1 when every y is equal)
};

/// Least-squares line through (xs[i], ys[i]): slope = S_xy / S_xx, intercept = mean(y) - slope mean(x),
/// computed about the means. nullopt unless xs and ys have equal length and at least two distinct x.
std::optional<LineFit> fit_line(const std::vector<double>& xs, const std::vector<double>& ys);

/// Weighted least squares: minimises sum w_i (y_i - a - b x_i)^2, with weighted means and sums in the same
/// formulas (r2 weighted too). Weights 1 / y_i^2 minimise relative errors, so a batch-1 time of 0.1 ms
/// counts as much as a batch-256 time of 20 ms. nullopt also if a weight is negative or all are zero.
std::optional<LineFit> fit_line(const std::vector<double>& xs, const std::vector<double>& ys,
                                const std::vector<double>& weights);

}  // namespace sl::batching
