#include "request/resnet/resnet_weights.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "core/rng.h"
#include "kernels/conv2d_nhwc.h"
#include "kernels/fill.h"

namespace sl::request {
namespace {

constexpr float kFcScale = 0.05f;

std::vector<float> uniform_vector(Rng& rng, std::int64_t n, float lo, float hi) {
  std::vector<float> v(static_cast<std::size_t>(n));
  kernels::fill_uniform(rng, v.data(), n, 1.0f);  // [-1, 1)
  for (auto& x : v) x = lo + (hi - lo) * 0.5f * (x + 1.0f);
  return v;
}

kernels::BatchNorm random_batch_norm(Rng& rng, std::int64_t channels, bool is_last_in_block) {
  kernels::BatchNorm bn;
  bn.gamma = is_last_in_block ? uniform_vector(rng, channels, 0.1f, 0.3f) : uniform_vector(rng, channels, 0.5f, 1.5f);
  bn.beta = uniform_vector(rng, channels, -0.1f, 0.1f);
  bn.mean = uniform_vector(rng, channels, -0.1f, 0.1f);
  bn.var = uniform_vector(rng, channels, 0.5f, 1.5f);
  return bn;
}

std::vector<bool> last_in_block(const ResnetPlan& plan) {
  std::vector<bool> last(plan.convs.size(), false);
  for (const auto& b : plan.blocks) last[static_cast<std::size_t>(b.conv3)] = true;
  return last;
}

}  // namespace

const float* ResnetWeights::bias(int i) const {
  const auto& b = conv_bias[static_cast<std::size_t>(i)];
  return b.empty() ? nullptr : b.data();
}

std::int64_t ResnetWeights::bytes() const {
  std::int64_t floats = conv.size() + fc_weight.size() + static_cast<std::int64_t>(fc_bias.size());
  for (const auto& b : bn) floats += 4 * b.channels();
  for (const auto& b : conv_bias) floats += static_cast<std::int64_t>(b.size());
  return floats * static_cast<std::int64_t>(sizeof(float));
}

ResnetWeights make_resnet_weights(const ResnetPlan& plan, std::uint64_t seed) {
  Rng rng = Rng::stream(seed, Stream::Sizes);
  ResnetWeights w;
  std::int64_t total = 0;
  for (const auto& c : plan.convs) {
    w.conv_offset.push_back(total);
    total += c.weight_params();
  }
  w.conv = kernels::HeapArray<float>(total);
  w.fc_weight = kernels::HeapArray<float>(plan.fc_in * plan.fc_out);
  if (!w.ok()) return w;
  const auto last = last_in_block(plan);
  for (std::size_t i = 0; i < plan.convs.size(); ++i) {
    const auto& s = plan.convs[i].shape;
    const float bound = static_cast<float>(std::sqrt(6.0 / static_cast<double>(s.patch_size())));
    kernels::fill_uniform(rng, w.conv_weight(static_cast<int>(i)), s.weight_size(), bound);
    w.bn.push_back(random_batch_norm(rng, s.out_channels, last[i]));
    w.conv_bias.emplace_back();
  }
  kernels::fill_uniform(rng, w.fc_weight.data(), w.fc_weight.size(), kFcScale);
  w.fc_bias = uniform_vector(rng, plan.fc_out, -kFcScale, kFcScale);
  return w;
}

ResnetWeights copy_weights(const ResnetWeights& src) {
  ResnetWeights w;
  w.layout = src.layout;
  w.conv = kernels::HeapArray<float>(src.conv.size());
  w.fc_weight = kernels::HeapArray<float>(src.fc_weight.size());
  if (!w.ok()) return w;
  std::copy(src.conv.data(), src.conv.data() + src.conv.size(), w.conv.data());
  std::copy(src.fc_weight.data(), src.fc_weight.data() + src.fc_weight.size(), w.fc_weight.data());
  w.conv_offset = src.conv_offset;
  w.bn = src.bn;
  w.conv_bias = src.conv_bias;
  w.fc_bias = src.fc_bias;
  return w;
}

ResnetWeights to_ohwi(const ResnetPlan& plan, const ResnetWeights& src) {
  SL_ASSERT(src.layout == WeightLayout::Oihw);
  ResnetWeights w = copy_weights(src);
  if (!w.ok()) return w;
  w.layout = WeightLayout::Ohwi;
  for (std::size_t i = 0; i < plan.convs.size(); ++i)
    kernels::weights_oihw_to_ohwi(plan.convs[i].shape, src.conv_weight(static_cast<int>(i)),
                                  w.conv_weight(static_cast<int>(i)));
  return w;
}

}  // namespace sl::request
