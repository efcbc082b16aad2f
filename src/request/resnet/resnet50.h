#pragma once
// ResNet-50 (He et al. 2016; torchvision's v1.5, which puts the stride on the 3x3 of each bottleneck), as a
// layer table computed from the architecture: a 7x7/2 stem with 64 channels and a 3x3/2 max pool, then
// stages of 3, 4, 6 and 3 bottlenecks (1x1 reduce, 3x3, 1x1 expand to 4x the width; widths 64, 128, 256,
// 512), with a 1x1 projection on the shortcut of each stage's first block, global average pooling and a
// 2048 -> 1000 classifier. 53 convolutions, each followed by a batch norm: 25.6 M parameters and 4.1 G
// multiply-accumulates at 224 x 224 (the book's "4.1 GMAC", §7). A width multiplier and the input
// resolution give smaller variants for quick runs.
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/conv2d.h"
#include "kernels/pooling.h"

namespace sl::request {

/// Which ResNet-50: input resolution and a multiplier on every layer's channel count (1 = the true one).
struct ResnetConfig {
  std::int64_t resolution = 224;
  double width = 1.0;
  std::int64_t num_classes = 1000;
};

/// One convolution and the batch norm after it.
struct ConvLayer {
  std::string name;  ///< torchvision's module name: "conv1", "layer2.0.conv2", "layer2.0.downsample.0"
  int stage = 0;     ///< 0 for the stem, 1..4 for layer1..layer4
  kernels::Conv2dShape shape;  ///< batch 1
  /// C_out H_out W_out C_in kh kw
  std::int64_t macs() const;
  std::int64_t weight_params() const { return shape.weight_size(); }
  /// gamma and beta (the running mean and variance are buffers, not trained parameters)
  std::int64_t bn_params() const { return 2 * shape.out_channels; }
  std::int64_t output_size() const { return shape.output_size(); }
};

/// One bottleneck: indices into ResnetPlan::convs; downsample is -1 when the shortcut is the identity.
struct Bottleneck {
  int conv1 = -1;
  int conv2 = -1;
  int conv3 = -1;
  int downsample = -1;
};

/// The whole network's shapes, in execution order.
struct ResnetPlan {
  ResnetConfig config;
  std::vector<ConvLayer> convs;
  std::vector<Bottleneck> blocks;
  kernels::Pool2dShape max_pool;
  std::int64_t fc_in = 0;
  std::int64_t fc_out = 0;
  /// Side of the last feature map (7 at 224).
  std::int64_t final_side = 0;

  std::int64_t conv_macs() const;
  std::int64_t fc_macs() const { return fc_in * fc_out; }
  std::int64_t total_macs() const { return conv_macs() + fc_macs(); }
  std::int64_t conv_weight_params() const;
  std::int64_t bn_params() const;
  std::int64_t fc_params() const { return fc_in * fc_out + fc_out; }
  /// Trainable parameters: conv weights, BN gamma and beta, fc weight and bias (torchvision's count).
  std::int64_t total_params() const { return conv_weight_params() + bn_params() + fc_params(); }
  /// Largest tensor a layer reads or writes, in floats (activation buffers are this size).
  std::int64_t max_activation() const;
  /// Largest im2col patch matrix, in floats (0 if every conv is pointwise).
  std::int64_t max_columns() const;
  /// Sum of every BN layer's output size, in floats: what a separate BN pass reads and writes once each.
  std::int64_t bn_output_floats() const;
};

/// Channels of a layer whose true width is `base`: round(base x width), at least 1.
std::int64_t scaled_channels(std::int64_t base, double width);

/// The layer table of ResNet-50 for `config` (resolution >= 32 so the last map is at least 1 x 1).
ResnetPlan resnet50_plan(const ResnetConfig& config);

}  // namespace sl::request
