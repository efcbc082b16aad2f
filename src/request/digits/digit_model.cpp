#include "request/digits/digit_model.h"

#include <memory>

#include "request/digits/digit_preprocess.h"
#include "request/digits/mnist_digits.h"

namespace sl::request {

std::vector<ParamSpec> digit_training_param_specs() {
  return {count("train_n", "digits", 5000, 100, kMaxTrainDigits), count("hidden", "units", 256, 8, 512),
          count("epochs", "", 1, 1, 10), count("batch", "digits", 32, 1, 512), real("lr", "", 0.2, 1e-4, 2.0)};
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
