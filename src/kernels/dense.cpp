#include "kernels/dense.h"

#include <cmath>

#include "kernels/fill.h"
#include "kernels/gemm.h"

namespace sl::kernels {
namespace {

constexpr float kBiasScale = 0.1f;

void add_bias_and_activate(const DenseLayer& layer, std::int64_t batch, float* y, Activation act) {
  for (std::int64_t i = 0; i < batch; ++i) {
    float* yi = y + i * layer.out;
    for (std::int64_t j = 0; j < layer.out; ++j) {
      const float v = yi[j] + layer.bias[static_cast<std::size_t>(j)];
      yi[j] = act == Activation::Relu && v < 0.0f ? 0.0f : v;
    }
  }
}

}  // namespace

DenseLayer make_dense_layer(Rng& rng, std::int64_t in, std::int64_t out) {
  DenseLayer layer{in, out, std::vector<float>(static_cast<std::size_t>(in * out)),
                   std::vector<float>(static_cast<std::size_t>(out))};
  fill_uniform(rng, layer.weight.data(), in * out, static_cast<float>(std::sqrt(6.0 / static_cast<double>(in))));
  fill_uniform(rng, layer.bias.data(), out, kBiasScale);
  return layer;
}

std::int64_t dense_flop(const DenseLayer& layer, std::int64_t batch) { return 2 * batch * layer.in * layer.out; }

void dense_forward(const DenseLayer& layer, std::int64_t batch, const float* x, float* y, Activation act) {
  gemm_f32({batch, layer.out, layer.in, BLayout::Transposed}, x, layer.in, layer.weight.data(), layer.in, y, layer.out);
  add_bias_and_activate(layer, batch, y, act);
}

void dense_forward_naive(const DenseLayer& layer, std::int64_t batch, const float* x, float* y, Activation act) {
  gemm_f32_naive({batch, layer.out, layer.in, BLayout::Transposed}, x, layer.in, layer.weight.data(), layer.in, y,
                 layer.out);
  add_bias_and_activate(layer, batch, y, act);
}

}  // namespace sl::kernels
