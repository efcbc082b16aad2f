// First vs steady-state inference (see first_inference.h). The first pass pays what a warm-up request pays
// on a CPU: the activation buffers allocated and touched for the first time (page faults; in wasm, growing
// the memory), and caches and branch predictors that have not seen the code or the weights yet.
#include "request/cold_start/first_inference.h"

#include <vector>

#include "core/clock.h"
#include "core/rng.h"
#include "kernels/dense.h"

namespace sl::request {
namespace {

constexpr std::int64_t kInput = 784, kHidden = 1024, kClasses = 10;
volatile float g_sink = 0;  // every pass adds a logit here, so no pass is dead code

struct Model {
  std::vector<kernels::DenseLayer> layers;
  std::vector<std::vector<float>> activations;  ///< allocated by the first forward pass
};

Model build_model(Rng& rng) {
  Model m;
  m.layers.push_back(kernels::make_dense_layer(rng, kInput, kHidden));
  m.layers.push_back(kernels::make_dense_layer(rng, kHidden, kHidden));
  m.layers.push_back(kernels::make_dense_layer(rng, kHidden, kClasses));
  return m;
}

/// One forward pass of the batch; returns the first logit.
float forward(Model& m, const std::vector<float>& x) {
  if (m.activations.empty())  // lazy initialization, as a runtime does on its first request
    for (const auto& layer : m.layers)
      m.activations.emplace_back(static_cast<std::size_t>(kFirstInferenceBatch * layer.out));
  const float* in = x.data();
  for (std::size_t i = 0; i < m.layers.size(); ++i) {
    const bool last = i + 1 == m.layers.size();
    kernels::dense_forward(m.layers[i], kFirstInferenceBatch, in, m.activations[i].data(),
                           last ? kernels::Activation::None : kernels::Activation::Relu);
    in = m.activations[i].data();
  }
  return in[0];
}

double timed_pass(Model& m, const std::vector<float>& x) {
  const double start_s = wall_now_s();
  g_sink = g_sink + forward(m, x);
  return wall_now_s() - start_s;
}

}  // namespace

FirstInference time_first_inference(int trials, int steady_calls, std::uint64_t seed) {
  FirstInference r;
  Rng rng = Rng::stream(seed, Stream::Misc);
  std::vector<float> x(static_cast<std::size_t>(kFirstInferenceBatch * kInput));
  for (auto& v : x) v = static_cast<float>(rng.uniform());
  for (int t = 0; t < trials; ++t) {
    Model m = build_model(rng);
    r.first_s.push_back(timed_pass(m, x));
    for (int i = 0; i < steady_calls; ++i) {
      r.steady_s.push_back(timed_pass(m, x));
      }
  }
  return r;
}

}  // namespace sl::request
