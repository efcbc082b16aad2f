#include "kernels/batch_norm.h"

#include <cmath>

namespace sl::kernels {

void batch_norm_scale_shift(const BatchNorm& bn, std::vector<float>& scale, std::vector<float>& shift) {
  const std::int64_t c = bn.channels();
  scale.resize(static_cast<std::size_t>(c));
  shift.resize(static_cast<std::size_t>(c));
  for (std::int64_t i = 0; i < c; ++i) {
    const double sigma = std::sqrt(static_cast<double>(bn.var[i]) + static_cast<double>(bn.eps));
    const double k = static_cast<double>(bn.gamma[i]) / sigma;
    scale[i] = static_cast<float>(k);
    shift[i] = static_cast<float>(static_cast<double>(bn.beta[i]) - k * static_cast<double>(bn.mean[i]));
  }
}

void batch_norm_nchw(const BatchNorm& bn, std::int64_t batch, std::int64_t plane, float* x, bool relu) {
  std::vector<float> scale, shift;
  batch_norm_scale_shift(bn, scale, shift);
  const std::int64_t channels = bn.channels();
  for (std::int64_t n = 0; n < batch; ++n)
    for (std::int64_t c = 0; c < channels; ++c) {
      float* p = x + (n * channels + c) * plane;
      const float a = scale[c];
      const float b = shift[c];
      for (std::int64_t q = 0; q < plane; ++q) {
        const float v = a * p[q] + b;
        p[q] = relu && v < 0.0f ? 0.0f : v;
      }
    }
}

void batch_norm_nhwc(const BatchNorm& bn, std::int64_t pixels, float* x, bool relu) {
  std::vector<float> scale, shift;
  batch_norm_scale_shift(bn, scale, shift);
  const std::int64_t channels = bn.channels();
  for (std::int64_t q = 0; q < pixels; ++q) {
    float* p = x + q * channels;
    for (std::int64_t c = 0; c < channels; ++c) {
      const float v = scale[c] * p[c] + shift[c];
      p[c] = relu && v < 0.0f ? 0.0f : v;
    }
  }
}

void batch_norm_nchw_naive(const BatchNorm& bn, std::int64_t batch, std::int64_t plane, float* x, bool relu) {
  const std::int64_t channels = bn.channels();
  for (std::int64_t n = 0; n < batch; ++n)
    for (std::int64_t c = 0; c < channels; ++c)
      for (std::int64_t q = 0; q < plane; ++q) {
        float& v = x[(n * channels + c) * plane + q];
        const double sigma = std::sqrt(static_cast<double>(bn.var[c]) + static_cast<double>(bn.eps));
        const double y = bn.gamma[c] * (v - static_cast<double>(bn.mean[c])) / sigma + bn.beta[c];
        v = static_cast<float>(relu && y < 0.0 ? 0.0 : y);
      }
}

}  // namespace sl::kernels
