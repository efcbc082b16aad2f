#pragma once
// First vs steady-state inference of a freshly built model (Table 8's warm-up phase), timed by C++ on this
// machine, natively and in the browser alike. The model is an MNIST-sized MLP, 784 -> 1024 -> 1024 -> 10
// (ReLU), batch 8: about 15 M multiply-adds and 7.4 MB of weights per pass. Like a serving runtime it
// allocates its activation buffers lazily, on the first call. Each trial builds the model anew (fresh
// weights from the seed), times its first forward pass, then `steady_calls` more.
#include <cstdint>
#include <vector>

namespace sl::request {

struct FirstInference {
  std::vector<double> first_s;   ///< one per trial: the first pass of a freshly built model
  std::vector<double> steady_s;  ///< every later pass of every trial
};

/// Runs `trials` trials of 1 + steady_calls passes.
FirstInference time_first_inference(int trials, int steady_calls, std::uint64_t seed);

/// Images per forward pass.
constexpr int kFirstInferenceBatch = 8;

}  // namespace sl::request
