#pragma once
#include <array>
#include <utility>

namespace sl::request {

/// One printed row of Table 6 (resolution and modeled arithmetic intensity of ResNet-50).
struct Table6Row {
  double resolution;      ///< r, pixels per side
  double activation_mb;   ///< printed activation term A224 * s, MB (1e6 B)
  double ai_flop_per_byte;///< printed modeled intensity
  int ai_decimals;        ///< digits after the point the book prints for the intensity
};

/// The four rows as printed (224, 384, 512, 640).
const std::array<Table6Row, 4>& table6_rows();

/// The activation term at 224 x 224 that Table 6 prints for its first row, MB.
constexpr double kActivation224Mb = 12.5;

/// Pixel-count scale of Table 6 and eq. 1: s = (r / 224)^2.
double resolution_scale(double resolution);

/// Table 6's model: AI(r) = F s / (W + k A224 s). Only F/k and W/k can be recovered from the table, so the
/// model is written with those: ops_g = F/k in 1e9 operations, weights_mb = W/k in MB.
double modeled_ai(double ops_g, double weights_mb, double resolution);

/// F/k (G) and W/k (MB) from two rows (scale s, intensity AI) by Cramer's rule on
///   1000 s_a F' - AI_a W' = AI_a A224 s_a,   1000 s_b F' - AI_b W' = AI_b A224 s_b.   s_a != s_b.
std::pair<double, double> solve_two_rows(double s_a, double ai_a, double s_b, double ai_b);

/// The two hidden constants (F/k, W/k) and the box they can lie in given the printed rounding.
struct HiddenConstants {
  double ops_g = 0;
  double weights_mb = 0;
  double ops_lo_g = 0, ops_hi_g = 0;
  double weights_lo_mb = 0, weights_hi_mb = 0;
};

/// Solves the 2x2 linear system AI_i (W' + A224 s_i) = F' s_i for rows i = a, b (indices into table6_rows):
/// the point from the printed intensities, and the range over every printed intensity +- half a unit of its
/// last digit (the solution is monotone in each, so the extremes are at the corners). a != b.
HiddenConstants solve_hidden_constants(int a, int b);

/// True if `value` rounded to `decimals` digits after the point prints as `printed`.
bool prints_as(double value, double printed, int decimals);

}  // namespace sl::request
