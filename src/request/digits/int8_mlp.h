#pragma once
// Post-training INT8 quantization of the digit MLP. Weights: symmetric, one scale per output row,
// max |w| / 127 (kernels::quantize_rows). Activations (the input pixels and the hidden layer): the affine
// quantizer of eq. 17 over a range [alpha, beta] measured on a calibration set, Delta = (beta - alpha) /
// (2^8 - 1), q = clamp(round((x - alpha) / Delta), 0, 255), x^ = alpha + q Delta, so |x - x^| <= Delta / 2
// inside the range and values outside are clipped to it. Products run in int8 x int8 with int32 sums
// (kernels::gemm_i8) on q - 128; the zero point alpha + 128 Delta comes back through each weight row's sum.
#include <cstdint>
#include <vector>

#include "request/digits/mlp.h"

namespace sl::request {

/// Eq. 17 with b = 8 bits over [alpha, beta].
struct AffineQuantizer {
  float alpha = 0;
  float beta = 1;
  float delta = 1.0f / 255.0f;
  /// 0..255
  int quantize(float x) const;
  float dequantize(int q) const { return alpha + static_cast<float>(q) * delta; }
};

/// The quantizer of range [lo, hi] (an empty range is widened to 1e-6 so Delta > 0).
AffineQuantizer make_quantizer(float lo, float hi);

/// Ranges seen on a calibration set: the model input and the hidden layer after ReLU.
struct ActivationRanges {
  float input_lo = 0, input_hi = 0;
  float hidden_lo = 0, hidden_hi = 0;
};
ActivationRanges calibrate_ranges(const Mlp& mlp, const float* x, std::int64_t n);

struct QuantizedLayer {
  std::int64_t in = 0, out = 0;
  std::vector<std::int8_t> weight;   ///< out x in
  std::vector<float> scale;          ///< per row
  std::vector<std::int32_t> row_sum; ///< sum of each int8 row (for the zero point)
  std::vector<float> bias;
};

struct Int8Mlp {
  QuantizedLayer hidden, output;
  AffineQuantizer input_q, hidden_q;
};

Int8Mlp quantize_mlp(const Mlp& mlp, const ActivationRanges& ranges);

/// Logits (n x classes) through the INT8 path.
void int8_logits(const Int8Mlp& q, const float* x, std::int64_t n, float* logits);
double int8_accuracy(const Int8Mlp& q, const float* x, const std::uint8_t* labels, std::int64_t n);

/// FP32 hidden activations (n x hidden, after ReLU): the values the hidden quantizer sees.
std::vector<float> hidden_activations(const Mlp& mlp, const float* x, std::int64_t n);

/// What a quantizer does to a set of values: the share outside [alpha, beta] (clipped) and the worst
/// |x - x^| among those inside (eq. 17 bounds it by Delta / 2).
struct QuantizerStats {
  double clipped_frac = 0;
  double worst_in_range_error = 0;
};
QuantizerStats quantizer_stats(const AffineQuantizer& q, const std::vector<float>& values);

}  // namespace sl::request
