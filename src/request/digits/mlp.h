#pragma once
// A two-layer perceptron for 28 x 28 digits, 784 -> hidden (ReLU) -> 10, trained by plain minibatch SGD on
// softmax cross-entropy: for each batch, forward (two GEMMs), the gradient of the mean loss at the logits
// is (softmax - one-hot) / batch, and back-propagation through the two layers gives the weight gradients
// (two more GEMMs and one for the hidden gradient); then w -= learning_rate x gradient. The example order
// of each epoch is a seeded shuffle, so training is deterministic.
#include <cstdint>
#include <functional>
#include <vector>

#include "core/rng.h"
#include "kernels/dense.h"

namespace sl::request {

struct Mlp {
  kernels::DenseLayer hidden;  ///< in -> hidden, ReLU
  kernels::DenseLayer output;  ///< hidden -> classes
};

struct SgdConfig {
  std::int64_t epochs = 1;
  std::int64_t batch = 32;
  double learning_rate = 0.1;
};

/// He-uniform initial weights from `rng` (kernels::make_dense_layer).
Mlp make_mlp(Rng& rng, std::int64_t in, std::int64_t hidden, std::int64_t classes);

/// Trains on n examples (x: n x in floats, labels 0..classes-1); progress(done, total) after each batch.
void train_sgd(Mlp& mlp, const float* x, const std::uint8_t* labels, std::int64_t n, const SgdConfig& config,
               Rng& order_rng, const std::function<void(double, double)>& progress = {});

/// Logits (n x classes) of n examples.
void mlp_logits(const Mlp& mlp, const float* x, std::int64_t n, float* logits);

/// Index of the largest of `classes` values (lowest index on ties).
int argmax(const float* v, std::int64_t classes);
/// Share of the n rows of `logits` (n x classes) whose argmax is the row's label: the accuracy any of the
/// digit models (FP32 or INT8) reaches once it has written its logits.
double logits_accuracy(const std::vector<float>& logits, std::int64_t classes, const std::uint8_t* labels,
                       std::int64_t n);

/// Share of the n examples whose largest logit is their label.
double mlp_accuracy(const Mlp& mlp, const float* x, const std::uint8_t* labels, std::int64_t n);

}  // namespace sl::request
