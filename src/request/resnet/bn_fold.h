#pragma once
// Folding a batch norm into the convolution before it. BN computes gamma (z - mean) / sigma + beta on the
// conv output z = w * x, sigma = sqrt(var + eps); since the conv is linear, the same result comes from one
// conv with w' = w gamma / sigma (each output channel's weights scaled) and bias
// b' = beta - gamma mean / sigma (plus gamma b / sigma if the conv had a bias b). The folded network does the
// same arithmetic up to float rounding, without the BN layer's pass over each activation tensor.
#include "request/resnet/resnet50.h"
#include "request/resnet/resnet_weights.h"

namespace sl::request {

/// Scales one conv's weights (out_channels rows of `row_size` values, in either layout) and sets its bias:
/// w' = w k, b' = beta + k (b - mean), k = gamma / sigma, with k from kernels::batch_norm_scale_shift.
void fold_into_conv(const kernels::BatchNorm& bn, std::int64_t out_channels, std::int64_t row_size, float* weight,
                    std::vector<float>& bias);

/// Folds every BN of `w` into its conv, in place: afterwards w has no BN and every conv has a bias.
void fold_batch_norms(const ResnetPlan& plan, ResnetWeights& w);

}  // namespace sl::request
