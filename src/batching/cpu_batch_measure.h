#pragma once
// The workloads the cell batching/cpu-batch-measure times on this CPU, and their sizes by formula: a stack
// of tiny dense layers (the cost of one layer call), an MLP and a conv layer swept over the batch size.
// Weights come from the seed; the kernels are src/kernels (blocked GEMM, im2col convolution).
#include <cstdint>
#include <vector>

#include "core/cell.h"
#include "core/rng.h"
#include "core/units.h"
#include "kernels/conv2d.h"
#include "kernels/timing.h"

namespace sl::batching {

/// An MLP input -> hidden (x layers) -> output: `layers` hidden layers with ReLU, then a linear output
/// layer and a softmax. MNIST-sized by default: 784 -> 256 x 4 -> 10.
struct MlpShape {
  std::int64_t input = 784;
  std::int64_t hidden = 256;
  std::int64_t layers = 4;
  std::int64_t output = 10;
};

/// FLOPs of one item through the MLP: 2 (input hidden + (layers - 1) hidden^2 + hidden output);
/// 784 -> 256 x 4 -> 10: 2 (200,704 + 196,608 + 2,560) = 799,744.
std::int64_t mlp_flop_per_item(const MlpShape& s);

/// Checked inputs of the cell.
struct CpuBatchParams {
  std::int64_t width = 16;       ///< tiny layer width (width -> width)
  std::int64_t max_depth = 100;  ///< deepest tiny stack
  MlpShape mlp;
  std::int64_t max_batch = 256;
  kernels::Conv2dShape conv;     ///< batch field unused (swept)
  std::int64_t conv_max_batch = 16;
  double gpu_fixed_ms = 5;       ///< the book's GPU model, Table 11
  double gpu_per_item_ms = 0.6;
  double min_sample_s = 1e-3;
  int num_samples = 5;
};

/// Bytes the three workloads allocate (weights, activations, buffers at the largest batch), by part.
struct MeasureBytes {
  double stack = 0;        ///< the tiny layers
  double mlp_weights = 0;
  double mlp_activations = 0;
  double conv = 0;         ///< weights, input, output and the im2col buffer
  double total() const { return stack + mlp_weights + mlp_activations + conv; }
};
MeasureBytes cpu_batch_bytes(const CpuBatchParams& p);
/// FLOPs of one call at every batch size of the MLP sweep (1, 2, 4, ... max_batch).
double mlp_sweep_flop(const CpuBatchParams& p);
/// FLOPs of one call at every batch size of the conv sweep.
double conv_sweep_flop(const CpuBatchParams& p);

/// Forwards each finished sample to ctl.report(done, total).
struct SampleProgress {
  RunControl* ctl = nullptr;
  double done = 0;
  double total = 1;
  void tick() { ctl->report(++done, total); }
};

/// Time of a chain of `depth` dense layers width -> width (bias + ReLU, batch 1), for each depth.
std::vector<kernels::Timing> time_layer_stack(Rng& rng, std::int64_t width, const std::vector<std::int64_t>& depths,
                                              const kernels::TimingPlan& plan, SampleProgress& progress);

/// Time of one forward pass of the MLP at each batch size.
std::vector<kernels::Timing> time_mlp(Rng& rng, const MlpShape& shape, const std::vector<std::int64_t>& batches,
                                      const kernels::TimingPlan& plan, SampleProgress& progress);

/// Time of one conv layer (bias + ReLU) at each batch size.
std::vector<kernels::Timing> time_conv(Rng& rng, kernels::Conv2dShape shape, const std::vector<std::int64_t>& batches,
                                       const kernels::TimingPlan& plan, SampleProgress& progress);

/// T(B) = a + b B of this CPU, measured now: the cell's MLP at its default shape timed at B = 1, 2, 4, ...,
/// max_batch (medians of 5 samples of at least 1 ms, and 50 timer steps), fitted on relative errors as the
/// cell does. What the batching simulators use as the service model "cpu_fit".
struct CpuServiceFit {
  double a_ms = 0;
  double b_ms = 0;
  double r2 = 0;
};
CpuServiceFit measure_cpu_service_fit(std::int64_t max_batch, std::uint64_t seed);

/// Cell `batching/cpu-batch-measure` (Lab 2, cell 2).
CellSpec cpu_batch_measure_cell();

}  // namespace sl::batching
