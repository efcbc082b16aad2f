#include <catch2/catch.hpp>

#include "batching/layer_call.h"

namespace SL_UNITY_ID {

TEST_CASE("A layer call is deterministic and its ReLU output is never negative", "[batching][layer-call]") {
  const int width = GENERATE(1, 16, 256);
  sl::batching::LayerCall a(width);
  sl::batching::LayerCall b(width);  // weights from the same fixed seed
  const float first = a.call();
  CHECK(first >= 0.0f);
  CHECK(a.call() == first);  // the same fixed input every call: no state carried over
  CHECK(b.call() == first);
  CHECK(a.empty() == 0.0f);
}

}  // namespace SL_UNITY_ID
