#include "batching/linear_fit.h"

namespace sl::batching {

std::optional<LineFit> fit_line(const std::vector<double>& xs, const std::vector<double>& ys) {
  return fit_line(xs, ys, std::vector<double>(xs.size(), 1.0));
}

std::optional<LineFit> fit_line(const std::vector<double>& xs, const std::vector<double>& ys,
                                const std::vector<double>& weights) {
  if (xs.size() != ys.size() || xs.size() != weights.size() || xs.size() < 2) return std::nullopt;
  double sum_w = 0, mean_x = 0, mean_y = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (!(weights[i] >= 0)) return std::nullopt;
    sum_w += weights[i];
    mean_x += weights[i] * xs[i];
    mean_y += weights[i] * ys[i];
  }
  if (!(sum_w > 0)) return std::nullopt;
  mean_x /= sum_w;
  mean_y /= sum_w;
  double sxx = 0, sxy = 0, syy = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double dx = xs[i] - mean_x;
    const double dy = ys[i] - mean_y;
    sxx += weights[i] * dx * dx;
    sxy += weights[i] * dx * dy;
    syy += weights[i] * dy * dy;
  }
  if (!(sxx > 0)) return std::nullopt;  // all (weighted) x equal: no line is determined
  LineFit fit;
  fit.slope = sxy / sxx;
  fit.intercept = mean_y - fit.slope * mean_x;
  // SS_res = S_yy - S_xy^2 / S_xx for the least-squares line; clamp the rounding below 0.
  const double ss_res = syy - sxy * fit.slope;
  fit.r2 = syy > 0 ? 1.0 - (ss_res > 0 ? ss_res : 0.0) / syy : 1.0;
  return fit;
}

}  // namespace sl::batching
