#include "matchers.h"

#include "batching/cpu_batch_measure.h"
#include "core/budget.h"

namespace SL_UNITY_ID {

using namespace sl::batching;

TEST_CASE("The MLP's FLOPs per item: 2 (784 x 256 + 3 x 256^2 + 256 x 10) = 799,744", "[batching][workloads]") {
  CHECK(mlp_flop_per_item(MlpShape{}) == 799'744);
  CHECK(mlp_flop_per_item(MlpShape{10, 20, 1, 5}) == 2 * (10 * 20 + 20 * 5));  // one hidden layer: no hidden^2
}

TEST_CASE("Sweep FLOPs add one call at every batch 1, 2, 4, ... and the largest", "[batching][workloads]") {
  const CpuBatchParams p;  // MLP batches 1 ... 128 and 256: 255 + 256 items; conv 1 ... 8 and 16: 31 items
  CHECK(mlp_sweep_flop(p) == 511.0 * 799'744);
  CHECK(conv_sweep_flop(p) == 31.0 * static_cast<double>(sl::kernels::conv2d_flop(p.conv)));
}

TEST_CASE("Memory of the tiny layer stack: 4 B x (depth (w^2 + w) + 2 w)", "[batching][workloads]") {
  const CpuBatchParams p;  // width 16, depth 100
  const MeasureBytes m = cpu_batch_bytes(p);
  CHECK(m.stack == 4.0 * (100 * (16 * 16 + 16) + 2 * 16));
  CHECK(m.mlp_activations == 4.0 * 256 * (784 + 2 * 256));
  CHECK_THAT(m.total(), WithinRel(m.stack + m.mlp_weights + m.mlp_activations + m.conv, 1e-15));
  CHECK(m.total() < sl::budget::kMaxBytes);  // the defaults run
}

}  // namespace SL_UNITY_ID
