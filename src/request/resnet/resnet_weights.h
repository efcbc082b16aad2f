#pragma once
// Weights of a ResNet-50 plan, generated from a seed (no downloads): He-uniform convolution weights
// (variance 2 / fan_in, which keeps ReLU activations O(1) through depth), a small uniform classifier, and
// batch-norm statistics drawn at random so that folding them is not the identity. The last BN of every
// bottleneck gets a small gamma, as zero-init-residual training leaves it, so the residual sum stays O(1)
// over 16 blocks. Convolution weights live in one buffer, [out][in][kh][kw] per layer (or [out][kh][kw][in]
// for the NHWC copy); they are 25.6 M floats = 102 MB for the true network, so allocation may fail in a
// browser and is checked.
#include <cstdint>
#include <vector>

#include "kernels/batch_norm.h"
#include "kernels/heap_array.h"
#include "request/resnet/resnet50.h"

namespace sl::request {

enum class WeightLayout { Oihw, Ohwi };

struct ResnetWeights {
  WeightLayout layout = WeightLayout::Oihw;
  kernels::HeapArray<float> conv;           ///< every conv's weights, back to back in plan order
  std::vector<std::int64_t> conv_offset;    ///< start of conv i in `conv`
  std::vector<kernels::BatchNorm> bn;       ///< one per conv; empty once folded
  std::vector<std::vector<float>> conv_bias;  ///< one per conv; empty (no bias) until folded
  kernels::HeapArray<float> fc_weight;      ///< fc_out x fc_in
  std::vector<float> fc_bias;

  bool ok() const { return conv.ok() && fc_weight.ok(); }
  bool is_folded() const { return bn.empty(); }
  const float* conv_weight(int i) const { return conv.data() + conv_offset[static_cast<std::size_t>(i)]; }
  float* conv_weight(int i) { return conv.data() + conv_offset[static_cast<std::size_t>(i)]; }
  /// Bias of conv i, or null when it has none.
  const float* bias(int i) const;
  /// Bytes of every array: conv and fc weights, BN statistics and biases.
  std::int64_t bytes() const;
};

/// Seeded weights for `plan` with BN statistics: gamma ~ U[0.5, 1.5] (U[0.1, 0.3] on each block's last
/// BN), beta, mean ~ U[-0.1, 0.1], var ~ U[0.5, 1.5]. ok() is false when the buffers could not be allocated.
ResnetWeights make_resnet_weights(const ResnetPlan& plan, std::uint64_t seed);

/// A deep copy (ok() is false when it could not be allocated).
ResnetWeights copy_weights(const ResnetWeights& w);

/// The same network with convolution weights reordered for NHWC execution (BN and biases copied).
ResnetWeights to_ohwi(const ResnetPlan& plan, const ResnetWeights& w);

}  // namespace sl::request
