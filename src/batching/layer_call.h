#pragma once
// One tiny dense layer (width -> width, batch 1, ReLU) behind a call: the browser probe `js_call` times
// calls of it from JavaScript, so cell batching/cpu-batch-measure can show what one call across the
// JS -> wasm boundary costs beside the same layer called inside wasm.
#include <cstdint>
#include <vector>

#include "kernels/dense.h"

namespace sl::batching {

class LayerCall {
 public:
  /// width in [1, 256] (the cell's range); weights from a fixed seed.
  explicit LayerCall(int width);
  /// One forward pass of a fixed input (values stay normal: no denormal slow-down); returns an output so
  /// the work cannot be optimised away.
  float call();
  /// Crosses the boundary and does nothing: the bare cost of a call.
  float empty() { return 0.0f; }

 private:
  kernels::DenseLayer layer_;
  std::vector<float> x_, y_;
};

}  // namespace sl::batching
