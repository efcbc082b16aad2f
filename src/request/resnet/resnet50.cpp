#include "request/resnet/resnet50.h"

#include <algorithm>
#include <cmath>

namespace sl::request {
namespace {

constexpr std::int64_t kStemChannels = 64;
constexpr std::int64_t kExpansion = 4;
constexpr int kNumStages = 4;
constexpr std::int64_t kStageWidth[kNumStages] = {64, 128, 256, 512};
constexpr int kStageBlocks[kNumStages] = {3, 4, 6, 3};

kernels::Conv2dShape conv_shape(std::int64_t in_c, std::int64_t side, std::int64_t out_c, std::int64_t kernel,
                                std::int64_t stride) {
  kernels::Conv2dShape s;
  s.in_channels = in_c;
  s.height = s.width = side;
  s.out_channels = out_c;
  s.kernel_h = s.kernel_w = kernel;
  s.stride = stride;
  s.padding = kernel / 2;
  return s;
}

/// Appends one bottleneck reading `in_c` channels at `side` x `side`; returns the output side.
std::int64_t add_bottleneck(ResnetPlan& plan, int stage, int index, std::int64_t in_c, std::int64_t side,
                            std::int64_t width, std::int64_t stride) {
  const std::string prefix = "layer" + std::to_string(stage) + "." + std::to_string(index) + ".";
  auto add = [&](const std::string& name, kernels::Conv2dShape s) {
    plan.convs.push_back({prefix + name, stage, s});
    return static_cast<int>(plan.convs.size()) - 1;
  };
  Bottleneck b;
  b.conv1 = add("conv1", conv_shape(in_c, side, width, 1, 1));
  b.conv2 = add("conv2", conv_shape(width, side, width, 3, stride));
  const std::int64_t out_side = plan.convs[b.conv2].shape.out_height();
  b.conv3 = add("conv3", conv_shape(width, out_side, width * kExpansion, 1, 1));
  if (stride != 1 || in_c != width * kExpansion) b.downsample = add("downsample.0", conv_shape(in_c, side, width * kExpansion, 1, stride));
  plan.blocks.push_back(b);
  return out_side;
}

}  // namespace

std::int64_t ConvLayer::macs() const { return kernels::conv2d_flop(shape) / 2; }

std::int64_t ResnetPlan::conv_macs() const {
  std::int64_t sum = 0;
  for (const auto& c : convs) sum += c.macs();
  return sum;
}

std::int64_t ResnetPlan::conv_weight_params() const {
  std::int64_t sum = 0;
  for (const auto& c : convs) sum += c.weight_params();
  return sum;
}

std::int64_t ResnetPlan::bn_params() const {
  std::int64_t sum = 0;
  for (const auto& c : convs) sum += c.bn_params();
  return sum;
}

std::int64_t ResnetPlan::max_activation() const {
  std::int64_t m = 3 * config.resolution * config.resolution;
  for (const auto& c : convs) m = std::max({m, c.shape.input_size(), c.shape.output_size()});
  return m;
}

std::int64_t ResnetPlan::max_columns() const {
  std::int64_t m = 0;
  for (const auto& c : convs) {
    const auto& s = c.shape;
    if (!s.is_pointwise()) m = std::max(m, s.patch_size() * s.out_height() * s.out_width());
  }
  return m;
}

std::int64_t ResnetPlan::bn_output_floats() const {
  std::int64_t sum = 0;
  for (const auto& c : convs) sum += c.output_size();
  return sum;
}

std::int64_t scaled_channels(std::int64_t base, double width) {
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::floor(static_cast<double>(base) * width + 0.5)));
}

ResnetPlan resnet50_plan(const ResnetConfig& config) {
  ResnetPlan plan;
  plan.config = config;
  const std::int64_t stem_c = scaled_channels(kStemChannels, config.width);
  plan.convs.push_back({"conv1", 0, conv_shape(3, config.resolution, stem_c, 7, 2)});
  const std::int64_t stem_side = plan.convs[0].shape.out_height();
  plan.max_pool = {stem_c, stem_side, stem_side, 3, 2, 1};
  std::int64_t side = plan.max_pool.out_height();
  std::int64_t channels = stem_c;
  for (int st = 0; st < kNumStages; ++st) {
    const std::int64_t width = scaled_channels(kStageWidth[st], config.width);
    for (int i = 0; i < kStageBlocks[st]; ++i) {
      const std::int64_t stride = (st > 0 && i == 0) ? 2 : 1;
      side = add_bottleneck(plan, st + 1, i, channels, side, width, stride);
      channels = width * kExpansion;
    }
  }
  plan.final_side = side;
  plan.fc_in = channels;
  plan.fc_out = config.num_classes;
  return plan;
}

}  // namespace sl::request
