// The three workloads of batching/cpu-batch-measure, built from seeded weights and timed with
// kernels::time_per_call. Buffers are allocated once per workload at its largest batch, outside the timing.
#include <algorithm>
#include <cmath>

#include "batching/cpu_batch_measure.h"
#include "kernels/dense.h"
#include "kernels/fill.h"
#include "kernels/softmax.h"

namespace sl::batching {
namespace {

using kernels::DenseLayer;

std::vector<DenseLayer> make_mlp(Rng& rng, const MlpShape& s) {
  std::vector<DenseLayer> layers;
  layers.push_back(kernels::make_dense_layer(rng, s.input, s.hidden));
  for (std::int64_t i = 1; i < s.layers; ++i) layers.push_back(kernels::make_dense_layer(rng, s.hidden, s.hidden));
  layers.push_back(kernels::make_dense_layer(rng, s.hidden, s.output));
  return layers;
}

std::vector<float> random_input(Rng& rng, std::int64_t n) {
  std::vector<float> x(static_cast<std::size_t>(n));
  kernels::fill_uniform(rng, x.data(), n, 1.0f);
  return x;
}

std::size_t as_size(std::int64_t n) { return static_cast<std::size_t>(n); }

}  // namespace

std::int64_t mlp_flop_per_item(const MlpShape& s) {
  return 2 * (s.input * s.hidden + (s.layers - 1) * s.hidden * s.hidden + s.hidden * s.output);
}

MeasureBytes cpu_batch_bytes(const CpuBatchParams& p) {
  constexpr double kFloat = 4;
  MeasureBytes m;
  const auto w = static_cast<double>(p.width);
  m.stack = kFloat * (static_cast<double>(p.max_depth) * (w * w + w) + 2 * w);
  const MlpShape& s = p.mlp;
  m.mlp_weights = kFloat * (static_cast<double>(mlp_flop_per_item(s)) / 2 + static_cast<double>(s.layers * s.hidden + s.output));
  m.mlp_activations = kFloat * static_cast<double>(p.max_batch) * static_cast<double>(s.input + 2 * std::max(s.hidden, s.output));
  const kernels::Conv2dShape& c = p.conv;
  const auto plane_out = static_cast<double>(c.out_height() * c.out_width());
  const double per_image = static_cast<double>(c.in_channels * c.height * c.width) + static_cast<double>(c.out_channels) * plane_out;
  m.conv = kFloat * (static_cast<double>(c.weight_size() + c.out_channels) + static_cast<double>(p.conv_max_batch) * per_image +
                     static_cast<double>(c.patch_size()) * plane_out);
  return m;
}

double mlp_sweep_flop(const CpuBatchParams& p) {
  double items = 0;
  for (std::int64_t b = 1; b < p.max_batch; b *= 2) items += static_cast<double>(b);
  return (items + static_cast<double>(p.max_batch)) * static_cast<double>(mlp_flop_per_item(p.mlp));
}

double conv_sweep_flop(const CpuBatchParams& p) {
  double items = 0;
  for (std::int64_t b = 1; b < p.conv_max_batch; b *= 2) items += static_cast<double>(b);
  return (items + static_cast<double>(p.conv_max_batch)) * static_cast<double>(kernels::conv2d_flop(p.conv));
}

std::vector<kernels::Timing> time_layer_stack(Rng& rng, std::int64_t width, const std::vector<std::int64_t>& depths,
                                              const kernels::TimingPlan& plan, SampleProgress& progress) {
  std::vector<DenseLayer> stack;
  for (std::int64_t i = 0; i < depths.back(); ++i) stack.push_back(kernels::make_dense_layer(rng, width, width));
  std::vector<float> x = random_input(rng, width), y(as_size(width));
  std::vector<kernels::Timing> out;
  for (const std::int64_t depth : depths) {
    out.push_back(kernels::time_per_call(
        [&] {
          // Each layer reads the previous one's output: a chain of dependent calls, as in a network.
          float* in = x.data();
          float* next = y.data();
          for (std::int64_t i = 0; i < depth; ++i) {
            kernels::dense_forward(stack[as_size(i)], 1, in, next, kernels::Activation::Relu);
            std::swap(in, next);
          }
        },
        plan, [&](int) { progress.tick(); }));
  }
  return out;
}

std::vector<kernels::Timing> time_mlp(Rng& rng, const MlpShape& shape, const std::vector<std::int64_t>& batches,
                                      const kernels::TimingPlan& plan, SampleProgress& progress) {
  const std::vector<DenseLayer> layers = make_mlp(rng, shape);
  const std::int64_t max_batch = batches.back();
  const std::vector<float> input = random_input(rng, max_batch * shape.input);
  const std::int64_t widest = std::max(shape.hidden, shape.output);
  std::vector<float> a(as_size(max_batch * widest)), b(a.size());
  std::vector<kernels::Timing> out;
  for (const std::int64_t batch : batches) {
    out.push_back(kernels::time_per_call(
        [&] {
          const float* in = input.data();
          float* next = a.data();
          float* spare = b.data();
          for (std::size_t i = 0; i < layers.size(); ++i) {
            const bool last = i + 1 == layers.size();
            kernels::dense_forward(layers[i], batch, in, next, last ? kernels::Activation::None : kernels::Activation::Relu);
            in = next;
            if (!last) std::swap(next, spare);
          }
          kernels::softmax_rows(batch, shape.output, next, next);  // logits -> class probabilities, in place
        },
        plan, [&](int) { progress.tick(); }));
  }
  return out;
}

std::vector<kernels::Timing> time_conv(Rng& rng, kernels::Conv2dShape shape, const std::vector<std::int64_t>& batches,
                                       const kernels::TimingPlan& plan, SampleProgress& progress) {
  shape.batch = batches.back();
  std::vector<float> weight(as_size(shape.weight_size())), bias(as_size(shape.out_channels));
  kernels::fill_uniform(rng, weight.data(), shape.weight_size(),
                        static_cast<float>(std::sqrt(6.0 / static_cast<double>(shape.patch_size()))));
  kernels::fill_uniform(rng, bias.data(), shape.out_channels, 0.1f);
  const std::vector<float> input = random_input(rng, shape.input_size());
  std::vector<float> output(as_size(shape.output_size()));
  std::vector<kernels::Timing> out;
  for (const std::int64_t batch : batches) {
    kernels::Conv2dShape s = shape;
    s.batch = batch;
    out.push_back(kernels::time_per_call(
        [&] { kernels::conv2d_f32(s, input.data(), weight.data(), bias.data(), output.data(), /*relu=*/true); }, plan,
        [&](int) { progress.tick(); }));
  }
  return out;
}

}  // namespace sl::batching
