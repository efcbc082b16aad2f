#include "request/budget/table6.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>

#include "core/error.h"

namespace sl::request {
namespace {

constexpr double kBaseResolution = 224.0;
constexpr double kMbPerG = 1e3;  // 1e9 operations / 1e6 bytes

}  // namespace

std::pair<double, double> solve_two_rows(double s_a, double ai_a, double s_b, double ai_b) {
  const double a_a = kActivation224Mb * s_a, a_b = kActivation224Mb * s_b;
  const double m11 = kMbPerG * s_a, m12 = -ai_a, m21 = kMbPerG * s_b, m22 = -ai_b;
  const double r1 = ai_a * a_a, r2 = ai_b * a_b;
  const double det = m11 * m22 - m12 * m21;
  SL_ASSERT(det != 0);
  return {(r1 * m22 - m12 * r2) / det, (m11 * r2 - r1 * m21) / det};
}

const std::array<Table6Row, 4>& table6_rows() {
  static const std::array<Table6Row, 4> rows{{{224, 12.5, 64.4, 1}, {384, 36.7, 137, 0}, {512, 65.3, 183.9, 1},
                                              {640, 102.0, 218.4, 1}}};
  return rows;
}

double resolution_scale(double resolution) {
  const double ratio = resolution / kBaseResolution;
  return ratio * ratio;
}

double modeled_ai(double ops_g, double weights_mb, double resolution) {
  const double s = resolution_scale(resolution);
  return kMbPerG * ops_g * s / (weights_mb + kActivation224Mb * s);
}

HiddenConstants solve_hidden_constants(int a, int b) {
  SL_ASSERT(a != b);
  const Table6Row& ra = table6_rows()[static_cast<std::size_t>(a)];
  const Table6Row& rb = table6_rows()[static_cast<std::size_t>(b)];
  const double s_a = resolution_scale(ra.resolution), s_b = resolution_scale(rb.resolution);
  HiddenConstants h;
  std::tie(h.ops_g, h.weights_mb) = solve_two_rows(s_a, ra.ai_flop_per_byte, s_b, rb.ai_flop_per_byte);
  h.ops_lo_g = h.ops_hi_g = h.ops_g;
  h.weights_lo_mb = h.weights_hi_mb = h.weights_mb;
  const double half_a = 0.5 * std::pow(10.0, -ra.ai_decimals), half_b = 0.5 * std::pow(10.0, -rb.ai_decimals);
  for (double da : {-half_a, half_a}) {
    for (double db : {-half_b, half_b}) {
      const auto [ops, weights] = solve_two_rows(s_a, ra.ai_flop_per_byte + da, s_b, rb.ai_flop_per_byte + db);
      h.ops_lo_g = std::min(h.ops_lo_g, ops);
      h.ops_hi_g = std::max(h.ops_hi_g, ops);
      h.weights_lo_mb = std::min(h.weights_lo_mb, weights);
      h.weights_hi_mb = std::max(h.weights_hi_mb, weights);
    }
  }
  return h;
}

bool prints_as(double value, double printed, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::round(value * scale) == std::round(printed * scale);
}

}  // namespace sl::request
