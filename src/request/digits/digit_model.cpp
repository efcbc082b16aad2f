#include "request/digits/digit_model.h"

#include <cmath>
#include <memory>

#include "request/digits/digit_preprocess.h"
#include "request/digits/mnist_digits.h"

namespace sl::request {

std::vector<ParamSpec> digit_training_param_specs() {
  return {count("train_n", "digits", 5000, 100, kMaxTrainDigits), count("hidden", "units", 256, 8, 512),
          explored(count("epochs", "", 1, 1, 10), 1, 4),  // 4: the most the budget allows at the defaults
          count("batch", "digits", 32, 1, 512), real("lr", "", 0.2, 1e-4, 2.0)};
}

Result<DigitTrainingParams> validate_digit_training(const Inputs& in) {
  auto digits = mnist_digits(in);
  if (!digits.ok()) return digits.error();
  DigitTrainingParams p;
  p.digits = digits.value();
  p.train_n = in.count("train_n");
  p.hidden = in.count("hidden");
  p.sgd.epochs = in.count("epochs");
  p.sgd.batch = in.count("batch");
  p.sgd.learning_rate = in.real("lr");
  return p;
}

// Native cost of one multiply-add of the MLP's GEMMs. Fitted on CPU times of request/skew-parity: 1.42 s at the
// defaults (5.3e9 units), 2.54 s at 3 epochs (1.15e10), 2.33 s with 512 hidden units (1.06e10, predicted 2.37):
// 0.18 ns a unit plus 0.46 s to build the digits. A weight update costs ~8 multiply-adds per weight (batch 1:
// 2.91 s, predicted 2.87 with that weight). Taken as 0.2 ns and 0.5 s: the limit is 1.7e10 units, 4 epochs at the
// defaults (10 epochs at batch 1 and 512 units, 47 s natively in issue 15, is 8.6e10).
constexpr budget::UnitCost kMacCost{0.2e-9, 0};
constexpr double kBuildDigitsS = 0.5;

budget::Estimate digit_training_estimate(const DigitTrainingParams& p, int evaluated_test_sets) {
  const double weights = static_cast<double>((kMnistPixels + kMnistClasses) * p.hidden);
  const auto n = static_cast<double>(p.train_n), epochs = static_cast<double>(p.sgd.epochs);
  const double batches = std::ceil(n / static_cast<double>(p.sgd.batch));
  budget::Estimate e;
  e.param_to_lower = p.sgd.epochs > 1 ? "epochs" : p.sgd.batch < 8 ? "batch" : "hidden";
  e.what = "the multiply-adds of training (epochs x (3 train_n + 8 train_n / batch) x 794 hidden) and evaluation";
  e.unit = "multiply-adds";
  e.amount =
      weights * (epochs * (3 * n + 8 * batches) + n + evaluated_test_sets * static_cast<double>(kNumTestDigits));
  e.per_unit = kMacCost;
  e.fixed_native_s = kBuildDigitsS;
  return e;
}

std::string describe_digit_training_budget() {
  return budget::describe("multiply-adds of training and evaluation (epochs x (3 train_n + 8 train_n / batch) x 794 "
                          "hidden)", "multiply-adds", kMacCost, 0, kBuildDigitsS) + ", after " + format_number(kBuildDigitsS) + " s to build the digits";
}

const TrainedDigits& trained_digits(const DigitTrainingParams& p, std::uint64_t seed, RunControl& ctl) {
  static std::unique_ptr<TrainedDigits> cached;
  if (cached && cached->params == p && cached->seed == seed) return *cached;
  const MnistDigits& digits = p.digits ? *p.digits : mnist_digits();
  auto t = std::make_unique<TrainedDigits>();
  t->params = p;
  t->seed = seed;
  const std::int64_t test_first = digits.count - kNumTestDigits;
  t->train_raw = raw_digit_images(digits, 0, p.train_n);
  t->test_raw = raw_digit_images(digits, test_first, kNumTestDigits);
  t->train_labels.assign(digits.labels.begin(), digits.labels.begin() + p.train_n);
  t->test_labels.assign(digits.labels.begin() + test_first, digits.labels.end());
  t->train_x.resize(static_cast<std::size_t>(p.train_n * kMnistPixels));
  t->test_x.resize(static_cast<std::size_t>(kNumTestDigits * kMnistPixels));
  preprocess_digits(training_transform(), t->train_raw.data(), p.train_n, t->train_x.data());
  preprocess_digits(training_transform(), t->test_raw.data(), kNumTestDigits, t->test_x.data());

  Rng init = Rng::stream(seed, Stream::Sizes);
  Rng order = Rng::stream(seed, Stream::Arrivals);
  t->mlp = make_mlp(init, kMnistPixels, p.hidden, kMnistClasses);
  train_sgd(t->mlp, t->train_x.data(), t->train_labels.data(), p.train_n, p.sgd, order,
            [&ctl](double done, double total) { ctl.report(done, total); });
  t->test_accuracy = mlp_accuracy(t->mlp, t->test_x.data(), t->test_labels.data(), kNumTestDigits);
  cached = std::move(t);
  return *cached;
}

}  // namespace sl::request
