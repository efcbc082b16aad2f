#include "matchers.h"

#include <cmath>
#include <vector>

#include "request/digits/digit_preprocess.h"
#include "request/digits/mnist_digits.h"

namespace SL_UNITY_ID {

using namespace sl::request;

TEST_CASE("The parity check passes the shared transform exactly and catches every skewed variant",
          "[request][preprocess]") {
  const auto raw = raw_digit_images(mnist_digits(), 0, 50);
  CHECK(parity_max_abs_diff(training_transform(), serving_transform(ServingVariant::Shared), raw.data(), 50) == 0.0);
  // Each skew changes some model input by far more than the 1e-4 tolerance: a stroke pixel of 0.8 is
  // standardized to (0.8 - 0.1307) / 0.3081 = 2.17 by MNIST's statistics but to 1.55 by ImageNet's; without
  // /255 it becomes 663; nearest and non-antialiased bilinear move edge pixels by tenths.
  const ServingVariant skews[] = {ServingVariant::BilinearNoAntialias, ServingVariant::Nearest,
                                  ServingVariant::ImagenetStats, ServingVariant::NoScale};
  for (auto v : skews) {
    INFO("variant " << static_cast<int>(v));
    CHECK(parity_max_abs_diff(training_transform(), serving_transform(v), raw.data(), 50) > 0.1);
  }
}

TEST_CASE("A constant image standardizes to (v x scale - mean) / std under every transform", "[request][preprocess]") {
  // Resize weights sum to 1, so a constant image stays constant (up to float rounding, ~1e-7 relative).
  const std::vector<std::uint8_t> white(kRawPixels, 255), black(kRawPixels, 0);
  std::vector<float> x(kMnistPixels);
  for (int v = 0; v < kNumServingVariants; ++v) {
    const DigitTransform t = serving_transform(static_cast<ServingVariant>(v));
    INFO("variant " << v);
    preprocess_digits(t, white.data(), 1, x.data());
    const double expected_white = (255.0 * t.scale - t.mean) / t.std;  // 2.82 for MNIST's statistics, 827 without /255
    for (float xi : x) REQUIRE_THAT(xi, WithinAbs(expected_white, 1e-6 * std::fabs(expected_white) + 1e-6));
    preprocess_digits(t, black.data(), 1, x.data());
    for (float xi : x) REQUIRE_THAT(xi, WithinAbs(-t.mean / t.std, 1e-6));
  }
  CHECK(training_transform().mean == serving_transform(ServingVariant::Shared).mean);
}

}  // namespace SL_UNITY_ID
