#pragma once
// A fully connected layer, y = act(x W^T + b) with W stored [out][in] (PyTorch's nn.Linear layout): one
// GEMM over the batch, then bias and activation in place. Weights come from the seed (He-uniform).
#include <cstdint>
#include <vector>

#include "core/rng.h"

namespace sl::kernels {

enum class Activation { None, Relu };

struct DenseLayer {
  std::int64_t in = 0;
  std::int64_t out = 0;
  std::vector<float> weight;  ///< out x in, row-major
  std::vector<float> bias;    ///< out
};

/// A layer with W ~ U(-sqrt(6/in), sqrt(6/in)) (He-uniform, keeps ReLU activations O(1) through depth)
/// and b ~ U(-0.1, 0.1), drawn from `rng`.
DenseLayer make_dense_layer(Rng& rng, std::int64_t in, std::int64_t out);

/// Multiply-adds x2 of one forward pass: 2 batch in out (bias and activation not counted).
std::int64_t dense_flop(const DenseLayer& layer, std::int64_t batch);

/// y (batch x out) = act(x (batch x in) W^T + b), via gemm_f32.
void dense_forward(const DenseLayer& layer, std::int64_t batch, const float* x, float* y, Activation act);

/// Reference: gemm_f32_naive, then bias and activation.
void dense_forward_naive(const DenseLayer& layer, std::int64_t batch, const float* x, float* y, Activation act);

}  // namespace sl::kernels
