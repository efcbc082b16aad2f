#include "request/digits/int8_mlp.h"

#include <algorithm>
#include <cmath>

#include "kernels/int8.h"

namespace sl::request {
namespace {

constexpr int kLevels = 255;  // 2^8 - 1 steps
constexpr int kZeroShift = 128;
constexpr float kMinRange = 1e-6f;

QuantizedLayer quantize_layer(const kernels::DenseLayer& layer) {
  QuantizedLayer q;
  q.in = layer.in;
  q.out = layer.out;
  q.weight.resize(layer.weight.size());
  q.scale.resize(static_cast<std::size_t>(layer.out));
  kernels::quantize_rows(layer.out, layer.in, layer.weight.data(), q.weight.data(), q.scale.data());
  for (std::int64_t r = 0; r < layer.out; ++r) {
    std::int32_t s = 0;
    for (std::int64_t p = 0; p < layer.in; ++p) s += q.weight[static_cast<std::size_t>(r * layer.in + p)];
    q.row_sum.push_back(s);
  }
  q.bias = layer.bias;
  return q;
}

/// y (n x out) = dequantized x (n x in, quantized by xq) times the layer, plus bias, optionally ReLU.
void int8_layer(const QuantizedLayer& layer, const AffineQuantizer& xq, const float* x, std::int64_t n, float* y,
                bool relu) {
  std::vector<std::int8_t> xs(static_cast<std::size_t>(n * layer.in));
  for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<std::int8_t>(xq.quantize(x[i]) - kZeroShift);
  std::vector<std::int32_t> acc(static_cast<std::size_t>(n * layer.out));
  kernels::gemm_i8(n, layer.out, layer.in, xs.data(), layer.in, layer.weight.data(), layer.in, acc.data(), layer.out);
  // x^ = zero + Delta (q - 128) with zero = alpha + 128 Delta, so W x^ = Delta (W q') + zero rowsum(W).
  const float zero = xq.alpha + static_cast<float>(kZeroShift) * xq.delta;
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t r = 0; r < layer.out; ++r) {
      const std::size_t k = static_cast<std::size_t>(i * layer.out + r);
      const float dot = xq.delta * static_cast<float>(acc[k]) + zero * static_cast<float>(layer.row_sum[r]);
      const float v = layer.scale[r] * dot + layer.bias[r];
      y[k] = relu && v < 0.0f ? 0.0f : v;
    }
}

}  // namespace

int AffineQuantizer::quantize(float x) const {
  const float q = std::floor((x - alpha) / delta + 0.5f);
  return static_cast<int>(std::clamp(q, 0.0f, static_cast<float>(kLevels)));
}

AffineQuantizer make_quantizer(float lo, float hi) {
  AffineQuantizer q;
  q.alpha = lo;
  q.beta = std::max(hi, lo + kMinRange);
  q.delta = (q.beta - q.alpha) / static_cast<float>(kLevels);
  return q;
}

std::vector<float> hidden_activations(const Mlp& mlp, const float* x, std::int64_t n) {
  std::vector<float> h(static_cast<std::size_t>(n * mlp.hidden.out));
  kernels::dense_forward(mlp.hidden, n, x, h.data(), kernels::Activation::Relu);
  return h;
}

ActivationRanges calibrate_ranges(const Mlp& mlp, const float* x, std::int64_t n) {
  ActivationRanges r;
  const auto in_end = x + n * mlp.hidden.in;
  r.input_lo = *std::min_element(x, in_end);
  r.input_hi = *std::max_element(x, in_end);
  const auto h = hidden_activations(mlp, x, n);
  r.hidden_lo = *std::min_element(h.begin(), h.end());
  r.hidden_hi = *std::max_element(h.begin(), h.end());
  return r;
}

Int8Mlp quantize_mlp(const Mlp& mlp, const ActivationRanges& ranges) {
  return {quantize_layer(mlp.hidden), quantize_layer(mlp.output), make_quantizer(ranges.input_lo, ranges.input_hi),
          make_quantizer(ranges.hidden_lo, ranges.hidden_hi)};
}

void int8_logits(const Int8Mlp& q, const float* x, std::int64_t n, float* logits) {
  std::vector<float> h(static_cast<std::size_t>(n * q.hidden.out));
  int8_layer(q.hidden, q.input_q, x, n, h.data(), true);
  int8_layer(q.output, q.hidden_q, h.data(), n, logits, false);
}

double int8_accuracy(const Int8Mlp& q, const float* x, const std::uint8_t* labels, std::int64_t n) {
  const std::int64_t classes = q.output.out;
  std::vector<float> logits(static_cast<std::size_t>(n * classes));
  int8_logits(q, x, n, logits.data());
  return logits_accuracy(logits, classes, labels, n);
}

QuantizerStats quantizer_stats(const AffineQuantizer& q, const std::vector<float>& values) {
  QuantizerStats s;
  std::int64_t clipped = 0;
  for (float x : values) {
    if (x < q.alpha || x > q.beta) {
      ++clipped;
      continue;
    }
    const double err = std::fabs(static_cast<double>(x) - static_cast<double>(q.dequantize(q.quantize(x))));
    s.worst_in_range_error = std::max(s.worst_in_range_error, err);
  }
  s.clipped_frac = values.empty() ? 0.0 : static_cast<double>(clipped) / static_cast<double>(values.size());
  return s;
}

}  // namespace sl::request
