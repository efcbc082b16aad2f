#include "request/resnet/resnet_forward.h"

#include <algorithm>
#include <utility>

#include "core/error.h"
#include "kernels/conv2d_nhwc.h"
#include "kernels/gemv.h"

namespace sl::request {
namespace {

/// Runs conv i of the plan: the conv (with its bias, if folded), then the BN pass if BN is still separate.
class ConvRunner {
 public:
  ConvRunner(const ResnetPlan& plan, const ResnetWeights& w, Layout layout, const LayerProgress& on_layer)
      : plan_(plan), w_(w), layout_(layout), on_layer_(on_layer) {}

  void operator()(int i, const float* in, float* out, bool relu) {
    const auto& layer = plan_.convs[static_cast<std::size_t>(i)];
    const bool separate_bn = !w_.is_folded();
    const bool conv_relu = relu && !separate_bn;
    if (layout_ == Layout::Nchw) {
      kernels::conv2d_f32(layer.shape, in, w_.conv_weight(i), w_.bias(i), out, conv_relu);
    } else {
      kernels::conv2d_nhwc_f32(layer.shape, in, w_.conv_weight(i), w_.bias(i), out, conv_relu);
    }
    if (separate_bn) {
      const auto& bn = w_.bn[static_cast<std::size_t>(i)];
      const std::int64_t plane = layer.shape.out_height() * layer.shape.out_width();
      if (layout_ == Layout::Nchw) {
        kernels::batch_norm_nchw(bn, 1, plane, out, relu);
      } else {
        kernels::batch_norm_nhwc(bn, plane, out, relu);
      }
    }
    macs_done_ += layer.macs();
    if (on_layer_) on_layer_(macs_done_);
  }

 private:
  const ResnetPlan& plan_;
  const ResnetWeights& w_;
  Layout layout_;
  const LayerProgress& on_layer_;
  std::int64_t macs_done_ = 0;
};

}  // namespace

ResnetWorkspace::ResnetWorkspace(const ResnetPlan& plan) : pooled(plan.fc_in) {
  for (auto& b : buffers) b = kernels::HeapArray<float>(plan.max_activation());
}

bool ResnetWorkspace::ok() const {
  return pooled.ok() && std::all_of(std::begin(buffers), std::end(buffers), [](const auto& b) { return b.ok(); });
}

std::int64_t ResnetWorkspace::bytes() const {
  std::int64_t sum = pooled.bytes();
  for (const auto& b : buffers) sum += b.bytes();
  return sum;
}

std::int64_t forward_scratch_bytes(const ResnetPlan& plan) {
  const auto f = static_cast<std::int64_t>(sizeof(float));
  return (ResnetWorkspace::kNumBuffers * plan.max_activation() + plan.fc_in + plan.max_columns()) * f;
}

void resnet_forward(const ResnetPlan& plan, const ResnetWeights& w, Layout layout, const float* image,
                    ResnetWorkspace& ws, float* logits, const LayerProgress& on_layer) {
  SL_ASSERT(ws.ok() && w.ok());
  SL_ASSERT((layout == Layout::Nchw) == (w.layout == WeightLayout::Oihw));
  ConvRunner conv(plan, w, layout, on_layer);
  float* x = ws.buffers[0].data();
  float* t1 = ws.buffers[1].data();
  float* t2 = ws.buffers[2].data();
  float* t3 = ws.buffers[3].data();
  float* shortcut = ws.buffers[4].data();

  conv(0, image, t1, true);
  if (layout == Layout::Nchw) {
    kernels::max_pool2d_nchw(plan.max_pool, t1, x);
  } else {
    kernels::max_pool2d_nhwc(plan.max_pool, t1, x);
  }
  for (const auto& b : plan.blocks) {
    conv(b.conv1, x, t1, true);
    conv(b.conv2, t1, t2, true);
    conv(b.conv3, t2, t3, false);
    const float* identity = x;
    if (b.downsample >= 0) {
      conv(b.downsample, x, shortcut, false);
      identity = shortcut;
    }
    kernels::add_relu(plan.convs[static_cast<std::size_t>(b.conv3)].output_size(), t3, identity, t1);
    std::swap(x, t1);
  }
  const std::int64_t plane = plan.final_side * plan.final_side;
  if (layout == Layout::Nchw) {
    kernels::global_avg_pool_nchw(plan.fc_in, plane, x, ws.pooled.data());
  } else {
    kernels::global_avg_pool_nhwc(plan.fc_in, plane, x, ws.pooled.data());
  }
  kernels::gemv_f32(plan.fc_out, plan.fc_in, w.fc_weight.data(), plan.fc_in, ws.pooled.data(), logits);
  for (std::int64_t j = 0; j < plan.fc_out; ++j) logits[j] += w.fc_bias[static_cast<std::size_t>(j)];
}

}  // namespace sl::request
