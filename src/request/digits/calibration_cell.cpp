// Cell request/calibration. Post-training INT8 quantization of the digit MLP, with activation ranges taken
// from three calibration sets: representative (random training digits), unrepresentative by content (one
// digit class only) and by exposure (the same random digits darkened). For each set and each quantized
// activation (model input, hidden layer) the cell reports eq. 17's range [alpha, beta] and Delta, the
// share of test values that fall outside the range and are clipped, and the worst error among those
// inside (at most Delta / 2); then INT8 accuracy against FP32 on the 1,000 test digits.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/checked_run.h"
#include "core/outputs.h"
#include "request/cells.h"
#include "request/digits/digit_model.h"
#include "request/digits/digit_preprocess.h"
#include "request/digits/int8_mlp.h"

namespace sl::request {
namespace {

// The book's calibration pitfall (§13): 76.1 % FP32 top-1 falls to 72.9 % with an unrepresentative set.
constexpr double kBookFp32Frac = 0.761;
constexpr double kBookInt8Frac = 0.729;
enum CalibrationSet { kRepresentative, kOneDigit, kDarkened, kNumSets };

struct CalibrationParams {
  DigitTrainingParams training;
  std::int64_t calib_n;  ///< images per calibration set
  std::int64_t digit;    ///< the class of the one-class set
  double darken;         ///< pixel factor of the darkened set
};

Result<CalibrationParams> validate_calibration(const Inputs& in) {
  auto training = validate_digit_training(in);
  if (!training.ok()) return training.error();
  // Evaluated: the offline test set, its hidden activations, then one INT8 pass per calibration set.
  if (auto e = budget::check(digit_training_estimate(training.value(), 2 + kNumSets))) return *e;
  return CalibrationParams{training.value(), in.count("calib_n"), in.count("digit"), in.real("darken")};
}

/// Indices of calib_n distinct training digits chosen at random (partial Fisher-Yates).
std::vector<std::int64_t> random_subset(std::int64_t n, std::int64_t k, std::uint64_t seed) {
  Rng rng = Rng::stream(seed, Stream::Routing);
  std::vector<std::int64_t> idx(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) idx[static_cast<std::size_t>(i)] = i;
  for (std::int64_t i = 0; i < k; ++i)
    std::swap(idx[static_cast<std::size_t>(i)], idx[static_cast<std::size_t>(i) + rng.below(static_cast<std::uint64_t>(n - i))]);
  idx.resize(static_cast<std::size_t>(k));
  return idx;
}

/// The calibration images of one set, after the training transform (the raw pixels darkened first for kDarkened).
std::vector<float> calibration_inputs(const TrainedDigits& t, CalibrationSet set, const CalibrationParams& c,
                                      std::uint64_t seed) {
  std::vector<std::int64_t> idx;
  if (set == kOneDigit) {
    for (std::int64_t i = 0; i < t.params.train_n && static_cast<std::int64_t>(idx.size()) < c.calib_n; ++i)
      if (t.train_labels[static_cast<std::size_t>(i)] == c.digit) idx.push_back(i);
  } else {
    idx = random_subset(t.params.train_n, std::min(c.calib_n, t.params.train_n), seed);
  }
  std::vector<std::uint8_t> raw;
  for (std::int64_t i : idx) {
    const std::uint8_t* img = t.train_raw.data() + i * kRawPixels;
    for (std::int64_t p = 0; p < kRawPixels; ++p)
      raw.push_back(set == kDarkened ? static_cast<std::uint8_t>(std::floor(img[p] * c.darken + 0.5)) : img[p]);
  }
  const auto n = static_cast<std::int64_t>(idx.size());
  std::vector<float> x(static_cast<std::size_t>(n * kMnistPixels));
  preprocess_digits(training_transform(), raw.data(), n, x.data());
  return x;
}

struct TableColumns {
  std::vector<double> set, tensor, alpha, beta, delta, clipped, worst, half_delta, accuracy;
};

/// One row per calibration set: its size, INT8 accuracy, loss against FP32 and the test values clipped.
struct SetColumns {
  std::vector<double> set, calib_n, accuracy, drop_pp, input_clipped, hidden_clipped;
};

void add_row(TableColumns& t, int set, int tensor, const AffineQuantizer& q, const QuantizerStats& s, double acc) {
  t.set.push_back(set);
  t.tensor.push_back(tensor);
  t.alpha.push_back(q.alpha);
  t.beta.push_back(q.beta);
  t.delta.push_back(q.delta);
  t.clipped.push_back(s.clipped_frac);
  t.worst.push_back(s.worst_in_range_error);
  t.half_delta.push_back(0.5 * q.delta);
  t.accuracy.push_back(acc);
}

Result<RunResult> run_calibration(const CalibrationParams& c, std::uint64_t seed, RunControl& ctl) {
  const TrainedDigits& t = trained_digits(c.training, seed, ctl);
  const std::vector<float>& test_inputs = t.test_x;
  const std::vector<float> test_hidden = hidden_activations(t.mlp, t.test_x.data(), kNumTestDigits);

  RunResult result;
  result.output("fp32_accuracy_frac", t.test_accuracy);
  TableColumns rows;
  SetColumns sets;
  double worst_ratio = 0;
  for (int s = 0; s < kNumSets; ++s) {
    const auto x = calibration_inputs(t, static_cast<CalibrationSet>(s), c, seed);
    const auto n = static_cast<std::int64_t>(x.size()) / kMnistPixels;
    const Int8Mlp q = quantize_mlp(t.mlp, calibrate_ranges(t.mlp, x.data(), n));
    const double acc = int8_accuracy(q, t.test_x.data(), t.test_labels.data(), kNumTestDigits);
    const QuantizerStats in_stats = quantizer_stats(q.input_q, test_inputs);
    const QuantizerStats hid_stats = quantizer_stats(q.hidden_q, test_hidden);
    add_row(rows, s, 0, q.input_q, in_stats, acc);
    add_row(rows, s, 1, q.hidden_q, hid_stats, acc);
    worst_ratio = std::max({worst_ratio, in_stats.worst_in_range_error / (0.5 * q.input_q.delta),
                            hid_stats.worst_in_range_error / (0.5 * q.hidden_q.delta)});
    sets.set.push_back(s);
    sets.calib_n.push_back(static_cast<double>(n));
    sets.accuracy.push_back(acc);
    sets.drop_pp.push_back(100.0 * (t.test_accuracy - acc));
    sets.input_clipped.push_back(in_stats.clipped_frac);
    sets.hidden_clipped.push_back(hid_stats.clipped_frac);
  }
  result.output("int8_representative_frac", sets.accuracy[kRepresentative]);
  result.output("int8_one_digit_frac", sets.accuracy[kOneDigit]);
  result.output("int8_darkened_frac", sets.accuracy[kDarkened]);
  result.output("darkened_input_clipped_frac", sets.input_clipped[kDarkened]);
  result.output("worst_error_over_half_delta", worst_ratio);
  result.output("book_drop_pp", 100.0 * (kBookFp32Frac - kBookInt8Frac));
  result.table("calibration").column("set", rows.set).column("tensor", rows.tensor).column("alpha", rows.alpha)
      .column("beta", rows.beta).column("delta", rows.delta).column("clipped_frac", rows.clipped)
      .column("worst_error", rows.worst).column("half_delta", rows.half_delta).column("int8_accuracy_frac", rows.accuracy);
  result.table("sets").column("set", sets.set).column("calib_n", sets.calib_n)
      .column("int8_accuracy_frac", sets.accuracy).column("drop_pp", sets.drop_pp)
      .column("input_clipped_frac", sets.input_clipped).column("hidden_clipped_frac", sets.hidden_clipped)
      .column("fp32_accuracy_frac", std::vector<double>(sets.set.size(), t.test_accuracy));  // the chart's rule
  const double rep = sets.accuracy[kRepresentative];
  const double bad = std::min(sets.accuracy[kOneDigit], sets.accuracy[kDarkened]);
  result.table("book_vs_ours").column("who", {0, 0, 1, 1, 1}).column("case", {0, 2, 0, 1, 2})
      .column("accuracy_frac", {kBookFp32Frac, kBookInt8Frac, t.test_accuracy, rep, bad});
  return result;
}

}  // namespace

CellSpec calibration_cell() {
  std::vector<ParamSpec> params = digit_training_param_specs();
  params.push_back(count("calib_n", "digits", 512, 1, kMaxTrainDigits));
  params.push_back(count("digit", "", 1, 0, 9));
  params.push_back(real("darken", "x", 0.5, 0.05, 1.0));
  CellSpec cell = checked_cell<&validate_calibration, &run_calibration>("request/calibration", params);
  cell.assets = {mnist_asset()};
  cell.outputs = outputs({"fp32_accuracy_frac", "int8_representative_frac", "int8_one_digit_frac", "int8_darkened_frac",
                  "darkened_input_clipped_frac", "worst_error_over_half_delta", out("book_drop_pp", "points")});
  cell.tables = {table("calibration"), table("sets"), table("book_vs_ours")};
  cell.budget = {describe_digit_training_budget()};
  return cell;
}

}  // namespace sl::request
