// Cell request/skew-parity. Training-serving skew on real digits: a 784 -> 256 -> 10 MLP is trained by our
// C++ on MNIST digits preprocessed by the training transform, then served through five preprocessing
// functions that each differ from it in one step (or not at all). Each serving variant's accuracy on the
// 1,000 test digits shows what the skew costs; the parity check runs the training and the serving
// transform on the same images and fails when their outputs differ by more than a tolerance, catching the
// skew before any accuracy is lost.
#include <algorithm>
#include <string>
#include <vector>

#include "core/checked_run.h"
#include "core/outputs.h"
#include "request/cells.h"
#include "request/digits/digit_model.h"
#include "request/digits/digit_preprocess.h"

namespace sl::request {
namespace {

// The book's fallacy "training accuracy = serving accuracy" (§13): 95 % offline, 90 % in production.
constexpr double kBookOfflineFrac = 0.95;
constexpr double kBookServedFrac = 0.90;

struct SkewParityParams {
  DigitTrainingParams training;
  std::int64_t parity_n;  ///< test digits the parity check compares
  double tolerance;       ///< largest |training - serving| model input that passes
};

Result<SkewParityParams> validate_skew_parity(const Inputs& in) {
  auto training = validate_digit_training(in);
  if (!training.ok()) return training.error();
  // Evaluated: the offline test set, then one pass per serving variant.
  if (auto e = budget::check(digit_training_estimate(training.value(), 1 + kNumServingVariants))) return *e;
  return SkewParityParams{training.value(), in.count("parity_n"), in.real("tolerance")};
}

/// One value per serving variant, as scalars named after the variant (the tests and the text quote them).
void variant_outputs(const std::vector<double>& accuracy, const std::vector<double>& parity, RunResult& result) {
  const auto at = [](const std::vector<double>& xs, ServingVariant v) { return xs[static_cast<std::size_t>(v)]; };
  result.output("accuracy_shared_frac", at(accuracy, ServingVariant::Shared));
  result.output("parity_shared", at(parity, ServingVariant::Shared));
  result.output("accuracy_bilinear_frac", at(accuracy, ServingVariant::BilinearNoAntialias));
  result.output("parity_bilinear", at(parity, ServingVariant::BilinearNoAntialias));
  result.output("accuracy_nearest_frac", at(accuracy, ServingVariant::Nearest));
  result.output("parity_nearest", at(parity, ServingVariant::Nearest));
  result.output("accuracy_imagenet_frac", at(accuracy, ServingVariant::ImagenetStats));
  result.output("parity_imagenet", at(parity, ServingVariant::ImagenetStats));
  result.output("accuracy_no_scale_frac", at(accuracy, ServingVariant::NoScale));
  result.output("parity_no_scale", at(parity, ServingVariant::NoScale));
}

Result<RunResult> run_skew_parity(const SkewParityParams& sp, std::uint64_t seed, RunControl& ctl) {
  const DigitTrainingParams& p = sp.training;
  const std::int64_t parity_n = sp.parity_n;
  const double tolerance = sp.tolerance;
  const TrainedDigits& t = trained_digits(p, seed, ctl);

  RunResult result;
  result.output("train_accuracy_frac", mlp_accuracy(t.mlp, t.train_x.data(), t.train_labels.data(), p.train_n));
  result.output("offline_accuracy_frac", t.test_accuracy);
  std::vector<double> variant, accuracy, drop, parity, passes;
  std::vector<float> x(static_cast<std::size_t>(kNumTestDigits * kMnistPixels));
  double worst_drop = 0;
  int num_failed = 0;
  for (int v = 0; v < kNumServingVariants; ++v) {
    const DigitTransform serve = serving_transform(static_cast<ServingVariant>(v));
    preprocess_digits(serve, t.test_raw.data(), kNumTestDigits, x.data());
    const double acc = mlp_accuracy(t.mlp, x.data(), t.test_labels.data(), kNumTestDigits);
    const double diff = parity_max_abs_diff(training_transform(), serve, t.test_raw.data(), parity_n);
    const bool pass = diff <= tolerance;
    num_failed += pass ? 0 : 1;
    worst_drop = std::max(worst_drop, t.test_accuracy - acc);
    variant.push_back(v);
    accuracy.push_back(acc);
    drop.push_back(100.0 * (t.test_accuracy - acc));
    parity.push_back(diff);
    passes.push_back(pass ? 1.0 : 0.0);
  }
  variant_outputs(accuracy, parity, result);
  result.output("worst_drop_pp", 100.0 * worst_drop);
  result.output("parity_failures", num_failed);
  result.output("book_drop_pp", 100.0 * (kBookOfflineFrac - kBookServedFrac));
  result.table("variants").column("variant", variant).column("accuracy_frac", accuracy).column("drop_pp", drop)
      .column("parity_max_diff", parity).column("parity_pass", passes)
      .column("tolerance", std::vector<double>(variant.size(), tolerance));  // the parity chart's rule
  result.table("book").column("case", {0, 1}).column("offline_frac", {kBookOfflineFrac, t.test_accuracy})
      .column("served_frac", {kBookServedFrac, t.test_accuracy - worst_drop});
  if (num_failed > 0)
    result.notice("parity_failed", std::to_string(num_failed) + " of " + std::to_string(kNumServingVariants) +
                                       " serving transforms differ from the training transform by more than " +
                                       format_number(tolerance) + " on the same images.");
  return result;
}

}  // namespace

CellSpec skew_parity_cell() {
  std::vector<ParamSpec> params = digit_training_param_specs();
  params.push_back(count("parity_n", "digits", 200, 1, kNumTestDigits));
  // The slider spans a millionth to 10 (log scale): the skews' differences here are 0.96 to 824.
  params.push_back(explored(real("tolerance", "", 1e-4, 0, 100), 1e-6, 10));
  CellSpec cell = checked_cell<&validate_skew_parity, &run_skew_parity>("request/skew-parity", params);
  cell.assets = {mnist_asset()};
  cell.outputs = outputs({"train_accuracy_frac", "offline_accuracy_frac", "accuracy_shared_frac", "accuracy_bilinear_frac",
                  "accuracy_nearest_frac", "accuracy_imagenet_frac", "accuracy_no_scale_frac", "parity_shared",
                  "parity_bilinear", "parity_nearest", "parity_imagenet", "parity_no_scale",
                  out("worst_drop_pp", "points"), "parity_failures", out("book_drop_pp", "points")});
  cell.tables = {table("variants"), table("book")};
  cell.budget = {describe_digit_training_budget()};
  return cell;
}

}  // namespace sl::request
