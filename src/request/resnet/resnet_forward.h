#pragma once
// One image through ResNet-50 on this CPU, in NCHW (channels-first, PyTorch's default) or NHWC
// (channels-last) layout: stem conv + BN + ReLU, 3x3/2 max pool, 16 bottlenecks
// (relu(bn3(conv3(relu(bn2(conv2(relu(bn1(conv1 x)))))) + shortcut)), global average pool, classifier.
// A BN still present in the weights runs as its own pass over the conv output; folded weights carry a bias
// and the conv's epilogue applies it. Five activation buffers of the largest tensor are reused layer after
// layer, so memory is the weights plus a few MB.
#include <cstdint>
#include <functional>

#include "kernels/heap_array.h"
#include "request/resnet/resnet50.h"
#include "request/resnet/resnet_weights.h"

namespace sl::request {

enum class Layout { Nchw, Nhwc };

/// The activation buffers of a forward pass; ok() is false when allocation failed.
struct ResnetWorkspace {
  static constexpr int kNumBuffers = 5;
  kernels::HeapArray<float> buffers[kNumBuffers];
  kernels::HeapArray<float> pooled;  ///< fc_in floats
  explicit ResnetWorkspace(const ResnetPlan& plan);
  bool ok() const;
  std::int64_t bytes() const;
};

/// Peak bytes of one forward pass besides the weights: the workspace plus the largest im2col matrix the
/// conv kernels allocate for one layer.
std::int64_t forward_scratch_bytes(const ResnetPlan& plan);

/// Called after each convolution with the multiply-accumulates done so far in this pass.
using LayerProgress = std::function<void(std::int64_t macs_done)>;

/// Logits (plan.fc_out floats) of `image` (3 x R x R for Nchw, R x R x 3 for Nhwc, R = resolution).
/// The weights' layout must match: Oihw for Nchw, Ohwi for Nhwc.
void resnet_forward(const ResnetPlan& plan, const ResnetWeights& w, Layout layout, const float* image,
                    ResnetWorkspace& ws, float* logits, const LayerProgress& on_layer = {});

}  // namespace sl::request
