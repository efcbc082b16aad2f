#pragma once
// The digit classifier shared by the skew-parity and calibration cells: 784 -> hidden -> 10 trained by SGD
// on the first train_n MNIST digits, as the client sends them (64 x 64) after the training
// transform; the last 1,000 digits are the test set. Training is deterministic, so a model is kept after
// it is trained and reused by a later run with the same parameters and seed.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/budget.h"
#include "core/cell.h"
#include "request/digits/mlp.h"
#include "request/digits/mnist_digits.h"

namespace sl::request {

constexpr std::int64_t kNumTestDigits = 1000;
constexpr std::int64_t kMaxTrainDigits = 5000;

struct DigitTrainingParams {
  /// The digits (the data asset, or natively the compiled-in file); null: the compiled-in ones.
  std::shared_ptr<const MnistDigits> digits;
  std::int64_t train_n = 5000;
  std::int64_t hidden = 256;
  SgdConfig sgd;
  bool operator==(const DigitTrainingParams& o) const {
    return digits == o.digits && train_n == o.train_n && hidden == o.hidden && sgd.epochs == o.sgd.epochs && sgd.batch == o.sgd.batch &&
           sgd.learning_rate == o.sgd.learning_rate;
  }
};

struct TrainedDigits {
  DigitTrainingParams params;
  std::uint64_t seed = 0;
  Mlp mlp;
  std::vector<std::uint8_t> train_raw, test_raw;        ///< 64 x 64 client images
  std::vector<float> train_x, test_x;                   ///< after the training transform
  std::vector<std::uint8_t> train_labels, test_labels;
  double test_accuracy = 0;                             ///< FP32, training transform
};

/// The training parameters as cell parameters (train_n, hidden, epochs, batch, lr), declared once for both cells.
std::vector<ParamSpec> digit_training_param_specs();
/// Those parameters read from the inputs (their ranges say all there is to check), with the digits the
/// host passed in (asset "mnist-digits"); an error when they are missing or malformed.
Result<DigitTrainingParams> validate_digit_training(const Inputs& in);

/// Multiply-adds of one run: training (forward and two backward GEMMs per digit per epoch, one weight update per
/// batch, ~8 multiply-adds a weight) and the accuracy passes (the training digits and kEvaluatedTestSets x the test digits, forward only).
budget::Estimate digit_training_estimate(const DigitTrainingParams& p, int evaluated_test_sets);

/// The cost model in one line, for `serving-lab list`.
std::string describe_digit_training_budget();

/// The model trained with these parameters and seed (progress reported while training).
const TrainedDigits& trained_digits(const DigitTrainingParams& p, std::uint64_t seed, RunControl& ctl);

}  // namespace sl::request
