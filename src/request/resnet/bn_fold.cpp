#include "request/resnet/bn_fold.h"

#include <cmath>

#include "core/error.h"

namespace sl::request {

void fold_into_conv(const kernels::BatchNorm& bn, std::int64_t out_channels, std::int64_t row_size, float* weight,
                    std::vector<float>& bias) {
  if (bias.empty()) bias.assign(static_cast<std::size_t>(out_channels), 0.0f);
  for (std::int64_t o = 0; o < out_channels; ++o) {
    const double sigma = std::sqrt(static_cast<double>(bn.var[o]) + static_cast<double>(bn.eps));
    const double k = static_cast<double>(bn.gamma[o]) / sigma;
    float* row = weight + o * row_size;
    for (std::int64_t p = 0; p < row_size; ++p) row[p] = static_cast<float>(k * static_cast<double>(row[p]));
    bias[o] = static_cast<float>(static_cast<double>(bn.beta[o]) +
                                 k * (static_cast<double>(bias[o]) - static_cast<double>(bn.mean[o])));
  }
}

void fold_batch_norms(const ResnetPlan& plan, ResnetWeights& w) {
  SL_ASSERT(!w.is_folded() && w.bn.size() == plan.convs.size());
  for (std::size_t i = 0; i < plan.convs.size(); ++i) {
    const auto& s = plan.convs[i].shape;
    // Both layouts keep each output channel's weights contiguous ([out][...]), so the fold is the same.
    fold_into_conv(w.bn[i], s.out_channels, s.patch_size(), w.conv_weight(static_cast<int>(i)), w.conv_bias[i]);
  }
  w.bn.clear();
}

}  // namespace sl::request
