#pragma once
// Inference-time batch normalization: every channel c of a tensor is mapped to
// gamma_c (x - mean_c) / sigma_c + beta_c with sigma_c = sqrt(var_c + eps), using the running statistics of
// training. It is one multiply-add per element, y = scale_c x + shift_c, but as a separate layer it costs a
// full read and write of the tensor; folded into the convolution before it, it costs nothing.
#include <cstdint>
#include <vector>

namespace sl::kernels {

/// The parameters of one batch-norm layer (one entry per channel).
struct BatchNorm {
  std::vector<float> gamma;
  std::vector<float> beta;
  std::vector<float> mean;
  std::vector<float> var;
  float eps = 1e-5f;
  std::int64_t channels() const { return static_cast<std::int64_t>(gamma.size()); }
};

/// Per-channel scale gamma / sigma and shift beta - gamma mean / sigma, computed in double and rounded to
/// float once (the same numbers the folding uses).
void batch_norm_scale_shift(const BatchNorm& bn, std::vector<float>& scale, std::vector<float>& shift);

/// In place on an NCHW tensor (batch images of channels planes of `plane` values): x = scale_c x + shift_c,
/// then max(x, 0) if relu.
void batch_norm_nchw(const BatchNorm& bn, std::int64_t batch, std::int64_t plane, float* x, bool relu);

/// In place on an NHWC tensor: `pixels` rows of bn.channels() values.
void batch_norm_nhwc(const BatchNorm& bn, std::int64_t pixels, float* x, bool relu);

/// Reference for NCHW: the textbook formula per element, in double.
void batch_norm_nchw_naive(const BatchNorm& bn, std::int64_t batch, std::int64_t plane, float* x, bool relu);

}  // namespace sl::kernels
