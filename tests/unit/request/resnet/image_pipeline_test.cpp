#include "matchers.h"

#include <array>
#include <cmath>
#include <set>

#include "request/resnet/image_pipeline.h"

namespace SL_UNITY_ID {

using namespace sl::request;

TEST_CASE("top_k returns the largest values first, lower index on ties", "[request][image-pipeline]") {
  const std::vector<float> x = {0.1f, 0.7f, 0.3f, 0.7f, 0.05f, 0.9f};
  CHECK(top_k(x.data(), 6, 3) == std::vector<std::int64_t>{5, 1, 3});
  CHECK(top_k(x.data(), 6, 10).size() == 6);
}

TEST_CASE("ImageNet normalization: (v / 255 - mean_c) / std_c per channel, the same values in both layouts",
          "[request][image-pipeline]") {
  // Two pixels, HWC: (255, 0, 128) and (0, 255, 64).
  const std::uint8_t hwc[6] = {255, 0, 128, 0, 255, 64};
  const double mean[3] = {0.485, 0.456, 0.406}, stddev[3] = {0.229, 0.224, 0.225};
  float nchw[6], nhwc[6];
  normalize_imagenet(hwc, 1, 2, Layout::Nchw, nchw);
  normalize_imagenet(hwc, 1, 2, Layout::Nhwc, nhwc);
  for (int q = 0; q < 2; ++q)
    for (int c = 0; c < 3; ++c) {
      const double expected = (hwc[q * 3 + c] / 255.0 - mean[c]) / stddev[c];
      // Float arithmetic on values below 2.7 in magnitude: a few ulps of 2^-22, well under 1e-5.
      CHECK_THAT(nchw[c * 2 + q], WithinAbs(expected, 1e-5));
      CHECK(nhwc[q * 3 + c] == nchw[c * 2 + q]);
    }
}

TEST_CASE("The synthetic photo is a function of its seed: a gradient and checkerboard under at most six discs",
          "[request][image-pipeline]") {
  const std::int64_t h = 48, w = 64;
  const auto a = synthetic_photo(h, w, 1), b = synthetic_photo(h, w, 1), c = synthetic_photo(h, w, 2);
  REQUIRE(a.size() == static_cast<std::size_t>(h * w * 3));
  CHECK(a == b);
  CHECK(a != c);
  // Every pixel is the background (red x 255 / (W - 1), green y 255 / (H - 1), blue 64 or 192 by 24-pixel
  // checker cell) or the colour of one of the six discs drawn over it.
  std::set<std::array<std::uint8_t, 3>> disc_colours;
  std::int64_t background = 0;
  for (std::int64_t y = 0; y < h; ++y)
    for (std::int64_t x = 0; x < w; ++x) {
      const std::uint8_t* p = &a[static_cast<std::size_t>((y * w + x) * 3)];
      const std::array<std::uint8_t, 3> bg = {static_cast<std::uint8_t>(x * 255 / (w - 1)),
                                              static_cast<std::uint8_t>(y * 255 / (h - 1)),
                                              static_cast<std::uint8_t>((x / 24 + y / 24) % 2 == 0 ? 64 : 192)};
      const std::array<std::uint8_t, 3> px = {p[0], p[1], p[2]};
      if (px == bg) ++background;
      else disc_colours.insert(px);
    }
  CHECK(disc_colours.size() <= 6);
  CHECK(background > 0);
}

}  // namespace SL_UNITY_ID
