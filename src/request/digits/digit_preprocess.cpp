#include "request/digits/digit_preprocess.h"

#include <algorithm>
#include <cmath>

namespace sl::request {
namespace {

// ImageNet's per-channel statistics averaged over R, G, B for a grey image.
constexpr float kImagenetGreyMean = (0.485f + 0.456f + 0.406f) / 3.0f;
constexpr float kImagenetGreyStd = (0.229f + 0.224f + 0.225f) / 3.0f;

}  // namespace

DigitTransform training_transform() { return {}; }

DigitTransform serving_transform(ServingVariant v) {
  DigitTransform t = training_transform();
  switch (v) {
    case ServingVariant::Shared: break;
    case ServingVariant::BilinearNoAntialias: t.filter = kernels::ResizeFilter::Bilinear; break;
    case ServingVariant::Nearest: t.filter = kernels::ResizeFilter::Nearest; break;
    case ServingVariant::ImagenetStats:
      t.mean = kImagenetGreyMean;
      t.std = kImagenetGreyStd;
      break;
    case ServingVariant::NoScale: t.scale = 1.0f; break;
  }
  return t;
}

std::vector<std::uint8_t> raw_digit_images(const MnistDigits& digits, std::int64_t first, std::int64_t count) {
  std::vector<std::uint8_t> raw(static_cast<std::size_t>(count * kRawPixels));
  kernels::Resizer up({kMnistSide, kMnistSide, kRawSide, kRawSide, 1}, kernels::ResizeFilter::Bilinear);
  for (std::int64_t i = 0; i < count; ++i) up.run(digits.image(first + i), raw.data() + i * kRawPixels);
  return raw;
}

void preprocess_digits(const DigitTransform& t, const std::uint8_t* raw, std::int64_t count, float* out) {
  kernels::Resizer down({kRawSide, kRawSide, kMnistSide, kMnistSide, 1}, t.filter);
  std::vector<float> src(static_cast<std::size_t>(kRawPixels));
  for (std::int64_t i = 0; i < count; ++i) {
    std::copy(raw + i * kRawPixels, raw + (i + 1) * kRawPixels, src.begin());
    float* x = out + i * kMnistPixels;
    down.run(src.data(), x);
    for (std::int64_t p = 0; p < kMnistPixels; ++p) x[p] = (x[p] * t.scale - t.mean) / t.std;
  }
}

double parity_max_abs_diff(const DigitTransform& train, const DigitTransform& serve, const std::uint8_t* raw,
                           std::int64_t count) {
  std::vector<float> a(static_cast<std::size_t>(count * kMnistPixels)), b(a.size());
  preprocess_digits(train, raw, count, a.data());
  preprocess_digits(serve, raw, count, b.data());
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::fabs(static_cast<double>(a[i]) - b[i]));
  return worst;
}

}  // namespace sl::request
