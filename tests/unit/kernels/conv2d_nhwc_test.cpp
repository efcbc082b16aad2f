#include <catch2/catch.hpp>

#include "kernel_test_util.h"
#include "kernels/conv2d_nhwc.h"

namespace SL_UNITY_ID {

using namespace sl::kernels;

namespace {

/// NCHW (N x C x H x W) -> NHWC (N x H x W x C).
std::vector<float> to_nhwc(const std::vector<float>& x, std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t w) {
  std::vector<float> y(x.size());
  for (std::int64_t b = 0; b < n; ++b)
    for (std::int64_t k = 0; k < c; ++k)
      for (std::int64_t i = 0; i < h * w; ++i) y[(b * h * w + i) * c + k] = x[(b * c + k) * h * w + i];
  return y;
}

void check_nhwc_against_naive(const Conv2dShape& s, bool relu) {
  REQUIRE(s.is_valid());
  // Small integers: every sum is exact in float, so any summation order gives the same bits.
  const auto input = test::random_small_ints(11, s.input_size());
  const auto weight = test::random_small_ints(12, s.weight_size());
  const auto bias = test::random_small_ints(13, s.out_channels);
  std::vector<float> want(static_cast<std::size_t>(s.output_size()));
  conv2d_f32_naive(s, input.data(), weight.data(), bias.data(), want.data(), relu);
  std::vector<float> w_ohwi(weight.size()), got(want.size());
  weights_oihw_to_ohwi(s, weight.data(), w_ohwi.data());
  conv2d_nhwc_f32(s, to_nhwc(input, s.batch, s.in_channels, s.height, s.width).data(), w_ohwi.data(), bias.data(),
                  got.data(), relu);
  INFO("C " << s.in_channels << " H " << s.height << " W " << s.width << " O " << s.out_channels << " k "
            << s.kernel_h << "x" << s.kernel_w << " stride " << s.stride << " pad " << s.padding);
  CHECK(got == to_nhwc(want, s.batch, s.out_channels, s.out_height(), s.out_width()));
}

}  // namespace

TEST_CASE("NHWC convolution equals the direct NCHW loop, transposed, on odd shapes, strides and padding",
          "[kernels][conv2d]") {
  check_nhwc_against_naive({1, 1, 5, 5, 1, 3, 3, 1, 0}, false);
  check_nhwc_against_naive({2, 3, 7, 9, 5, 3, 3, 1, 1}, true);
  check_nhwc_against_naive({3, 4, 11, 10, 7, 3, 3, 2, 1}, true);   // stride 2
  check_nhwc_against_naive({1, 3, 13, 13, 9, 7, 7, 2, 3}, false);  // ResNet's stem, scaled down
  check_nhwc_against_naive({2, 6, 5, 7, 10, 1, 1, 1, 0}, true);    // pointwise: no unfolding
  check_nhwc_against_naive({1, 5, 6, 6, 3, 1, 1, 2, 0}, false);    // 1x1 stride 2 (ResNet's projection)
  check_nhwc_against_naive({1, 2, 4, 6, 3, 2, 5, 1, 2}, false);    // non-square kernel
  check_nhwc_against_naive({1, 16, 14, 14, 33, 3, 3, 1, 1}, true); // large enough for the packed GEMM
}

TEST_CASE("NHWC im2col puts each pixel's channels side by side, with zeros in the padding",
          "[kernels][conv2d]") {
  // A 2-channel 2x2 image (values 10 y + x + 100 c), 2x2 kernel, padding 1, stride 2: 2x2 outputs. Output
  // (0, 0) sees the top-left pixel at (u, v) = (1, 1) and padding elsewhere.
  const Conv2dShape s{1, 2, 2, 2, 1, 2, 2, 2, 1};
  const std::vector<float> image = {0, 100, 1, 101, 10, 110, 11, 111};  // H x W x C
  std::vector<float> cols(static_cast<std::size_t>(s.patch_size() * s.out_height() * s.out_width()));
  im2col_nhwc(s, image.data(), cols.data());
  const std::vector<float> first_row(cols.begin(), cols.begin() + s.patch_size());
  CHECK(first_row == std::vector<float>{0, 0, 0, 0, 0, 0, 0, 100});
  // Output (1, 1) reads rows 1..2 and columns 1..2: only (1, 1) is inside, at (u, v) = (0, 0).
  const std::vector<float> last_row(cols.end() - s.patch_size(), cols.end());
  CHECK(last_row == std::vector<float>{11, 111, 0, 0, 0, 0, 0, 0});
}

}  // namespace SL_UNITY_ID
