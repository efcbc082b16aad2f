#include <catch2/catch.hpp>

#include <cmath>

#include "cell_runner.h"
#include "request/digits/int8_mlp.h"

using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using cell_test::column;
using cell_test::error_of;
using cell_test::out;
using namespace sl::request;

namespace {
// Rows of the sets table, in the cell's order.
enum { kRepresentative, kOneDigit, kDarkened };

double per_set(const sl::RunResult& r, const std::string& name, int set) {
  return column(r, "sets", name).at(static_cast<std::size_t>(set));
}
}  // namespace

TEST_CASE("Eq. 17: Delta = (beta - alpha) / 255 and in-range values err by at most Delta / 2", "[request][calibration]") {
  const AffineQuantizer q = make_quantizer(-0.4242f, 2.8215f);
  CHECK_THAT(q.delta, WithinRel((2.8215 + 0.4242) / 255.0, 1e-6));
  CHECK(q.quantize(-0.4242f) == 0);
  CHECK(q.quantize(2.8215f) == 255);
  CHECK(q.quantize(-5.0f) == 0);   // clipped below
  CHECK(q.quantize(50.0f) == 255); // clipped above
  double worst = 0;
  for (int i = 0; i <= 10000; ++i) {
    const float x = -0.4242f + (2.8215f + 0.4242f) * static_cast<float>(i) / 10000.0f;
    worst = std::max(worst, std::fabs(static_cast<double>(x) - q.dequantize(q.quantize(x))));
  }
  // Delta / 2 plus the float rounding of alpha + q Delta (a few ulps of 2.8, ~1e-6).
  CHECK(worst <= 0.5 * q.delta + 1e-6);
  CHECK(worst > 0.45 * q.delta);  // the bound is nearly reached: the rounding is really to Delta
  const std::vector<float> values = {-1.0f, 0.0f, 1.0f, 3.0f};
  CHECK_THAT(quantizer_stats(q, values).clipped_frac, WithinAbs(0.5, 1e-12));
}

TEST_CASE("The INT8 path equals FP32 arithmetic on dequantized inputs and weights", "[request][calibration]") {
  sl::Rng rng(8);
  const Mlp m = make_mlp(rng, 12, 7, 3);
  std::vector<float> x(24);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 5) * 0.4f - 0.6f;
  const auto ranges = calibrate_ranges(m, x.data(), 2);
  const Int8Mlp q = quantize_mlp(m, ranges);
  std::vector<float> got(6);
  int8_logits(q, x.data(), 2, got.data());
  // The same model in float: weights scale x int8, inputs alpha + Delta q, hidden quantized likewise.
  for (int i = 0; i < 2; ++i) {
    std::vector<double> h(7);
    for (int r = 0; r < 7; ++r) {
      double s = 0;
      for (int p = 0; p < 12; ++p)
        s += static_cast<double>(q.hidden.scale[r]) * q.hidden.weight[r * 12 + p] *
             q.input_q.dequantize(q.input_q.quantize(x[i * 12 + p]));
      h[r] = std::max(0.0, s + q.hidden.bias[r]);
    }
    for (int c = 0; c < 3; ++c) {
      double s = 0;
      for (int r = 0; r < 7; ++r)
        s += static_cast<double>(q.output.scale[c]) * q.output.weight[c * 7 + r] *
             q.hidden_q.dequantize(q.hidden_q.quantize(static_cast<float>(h[r])));
      CHECK_THAT(got[i * 3 + c], WithinAbs(s + q.output.bias[c], 1e-4));
    }
  }
}

TEST_CASE("The calibration cell: representative ranges keep INT8 within a point of FP32 and respect Delta / 2",
          "[request][calibration]") {
  const auto r = cell_test::run("request/calibration");
  CHECK(out(r, "fp32_accuracy_frac") > 0.88);
  CHECK(std::fabs(per_set(r, "drop_pp", kRepresentative)) < 1.0);
  // The eq. 17 bound, up to float rounding of alpha + q Delta (relative 1e-4 of Delta / 2 is ~1e-6 absolute).
  CHECK(out(r, "worst_error_over_half_delta") <= 1.0 + 1e-4);
  // Darkened calibration images (x 0.5) put the input range's top near half the real one: bright strokes clip.
  CHECK(per_set(r, "input_clipped_frac", kDarkened) > 0.05);
  CHECK(per_set(r, "input_clipped_frac", kDarkened) > 10 * per_set(r, "input_clipped_frac", kRepresentative));
  CHECK(per_set(r, "calib_n", kOneDigit) == 500);  // 500 ones among the 5,000 training digits
  CHECK_THAT(out(r, "book_drop_pp"), WithinAbs(cell_test::book_value("request/calibration", "book_drop_pp"), 1e-12));
  const auto& beta = column(r, "calibration", "beta");
  CHECK(beta[4] < beta[0]);  // darkened input range (set 2, tensor 0) tops out below the representative one
}

TEST_CASE("Heavily darkened calibration clips enough to cost accuracy", "[request][calibration]") {
  const auto r = cell_test::run("request/calibration", {{"darken", "0.1"}});
  CHECK(per_set(r, "drop_pp", kDarkened) > 10.0);
  CHECK(error_of("request/calibration", {{"darken", "0"}}).param == "darken");
}
