#include "batching/linear_fit.h"

namespace sl::batching {

std::optional<LineFit> fit_line(const std::vector<double>& xs, const std::vector<double>& ys) {
  if (xs.size() != ys.size() || xs.size() < 2) return std::nullopt;
  const double n = static_cast<double>(xs.size());
  double mean_x = 0, mean_y = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    mean_x += xs[i];
    mean_y += ys[i];
  }
  mean_x /= n;
  mean_y /= n;
  double sxx = 0, sxy = 0, syy = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double dx = xs[i] - mean_x;
    const double dy = ys[i] - mean_y;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  if (!(sxx > 0)) return std::nullopt;  // all x equal: no line is determined
  LineFit fit;
  fit.slope = sxy / sxx;
  fit.intercept = mean_y - fit.slope * mean_x;
  // SS_res = S_yy - S_xy^2 / S_xx for the least-squares line; clamp the rounding below 0.
  const double ss_res = syy - sxy * fit.slope;
  fit.r2 = syy > 0 ? 1.0 - (ss_res > 0 ? ss_res : 0.0) / syy : 1.0;
  return fit;
}

}  // namespace sl::batching
