#include "matchers.h"

#include <algorithm>
#include <cmath>

#include "core/rng.h"
#include "request/digits/int8_mlp.h"

namespace SL_UNITY_ID {

using namespace sl::request;

TEST_CASE("Eq. 17: Delta = (beta - alpha) / 255 and in-range values err by at most Delta / 2", "[request][int8]") {
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

TEST_CASE("The INT8 path equals FP32 arithmetic on dequantized inputs and weights", "[request][int8]") {
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

TEST_CASE("An empty calibration range is widened so Delta stays positive and the value maps back to itself",
          "[request][int8]") {
  const AffineQuantizer q = make_quantizer(0.5f, 0.5f);
  CHECK(q.delta > 0);
  CHECK(q.beta > q.alpha);
  // The one value seen is inside the widened range: it comes back within Delta / 2 (~2e-9).
  CHECK(std::fabs(q.dequantize(q.quantize(0.5f)) - 0.5f) <= 0.5f * q.delta + 1e-7f);
}

TEST_CASE("Calibrated ranges cover every calibration value, so none of them is clipped", "[request][int8]") {
  sl::Rng rng(21);
  const Mlp m = make_mlp(rng, 16, 9, 4);
  std::vector<float> x(16 * 20);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 37) % 23) * 0.1f - 1.0f;
  const auto ranges = calibrate_ranges(m, x.data(), 20);
  CHECK(ranges.input_lo == *std::min_element(x.begin(), x.end()));
  CHECK(ranges.input_hi == *std::max_element(x.begin(), x.end()));
  const Int8Mlp q = quantize_mlp(m, ranges);
  CHECK(quantizer_stats(q.input_q, x).clipped_frac == 0.0);
  const auto hidden = hidden_activations(m, x.data(), 20);
  CHECK(ranges.hidden_lo >= 0.0f);  // after ReLU
  CHECK(quantizer_stats(q.hidden_q, hidden).clipped_frac == 0.0);
}

}  // namespace SL_UNITY_ID
