#include <catch2/catch.hpp>

#include <algorithm>

#include "request/digits/digit_model.h"
#include "request/digits/digit_preprocess.h"
#include "request/digits/mnist_digits.h"

namespace SL_UNITY_ID {

using namespace sl::request;

namespace {
DigitTrainingParams small_training() {
  DigitTrainingParams p;
  p.train_n = 200;
  p.hidden = 16;
  return p;
}
}  // namespace

TEST_CASE("The trained digits hold the first train_n digits for training and the last 1,000 for testing",
          "[request][digit-model]") {
  sl::RunControl ctl;
  const auto p = small_training();
  const TrainedDigits& t = trained_digits(p, 5, ctl);
  const MnistDigits& d = mnist_digits();
  REQUIRE(t.train_labels.size() == 200u);
  REQUIRE(t.test_labels.size() == static_cast<std::size_t>(kNumTestDigits));
  CHECK(std::equal(t.train_labels.begin(), t.train_labels.end(), d.labels.begin()));
  CHECK(std::equal(t.test_labels.begin(), t.test_labels.end(), d.labels.end() - kNumTestDigits));
  CHECK(t.train_x.size() == 200u * kMnistPixels);
  CHECK(t.test_raw.size() == static_cast<std::size_t>(kNumTestDigits * kRawPixels));
  // The stored accuracy is the model's on the stored test inputs.
  CHECK(t.test_accuracy == mlp_accuracy(t.mlp, t.test_x.data(), t.test_labels.data(), kNumTestDigits));
  CHECK(t.mlp.hidden.out == 16);
}

TEST_CASE("A model is reused for the same parameters and seed and retrained for others", "[request][digit-model]") {
  sl::RunControl ctl;
  const auto p = small_training();
  const double first = trained_digits(p, 5, ctl).test_accuracy;
  const TrainedDigits* again = &trained_digits(p, 5, ctl);
  CHECK(again == &trained_digits(p, 5, ctl));  // cached: no second training
  CHECK(again->test_accuracy == first);
  auto q = p;
  q.sgd.learning_rate = 0.05;
  const TrainedDigits& other = trained_digits(q, 5, ctl);
  CHECK(other.params == q);
  CHECK(other.seed == 5u);
  const std::vector<float> w(other.mlp.hidden.weight.begin(), other.mlp.hidden.weight.end());
  const TrainedDigits& back = trained_digits(p, 5, ctl);  // retrained, deterministically
  CHECK(back.test_accuracy == first);
  CHECK_FALSE(std::equal(w.begin(), w.end(), back.mlp.hidden.weight.begin()));
}

}  // namespace SL_UNITY_ID
