#pragma once
#include <cmath>

namespace sl::queues {

/// x rounded to `digits` significant digits, for numbers quoted in messages ("rho = 0.0016", not
/// "0.0016000000000000003").
inline double round_significant(double x, int digits) {
  if (x == 0 || !std::isfinite(x)) return x;
  const double scale = std::pow(10.0, digits - 1 - std::floor(std::log10(std::fabs(x))));
  return std::round(x * scale) / scale;
}

}  // namespace sl::queues
