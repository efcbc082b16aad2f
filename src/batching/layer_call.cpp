#include "batching/layer_call.h"

#include "core/error.h"
#include "core/rng.h"

namespace sl::batching {

LayerCall::LayerCall(int width) {
  SL_ASSERT(width >= 1 && width <= 256);
  Rng rng = Rng::stream(1, Stream::Misc);
  layer_ = kernels::make_dense_layer(rng, width, width);
  x_.assign(static_cast<std::size_t>(width), 0.5f);
  y_.assign(x_.size(), 0.0f);
}

float LayerCall::call() {
  kernels::dense_forward(layer_, 1, x_.data(), y_.data(), kernels::Activation::Relu);
  return y_[0];
}

}  // namespace sl::batching
