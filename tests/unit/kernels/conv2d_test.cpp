#include <catch2/catch.hpp>

#include <cmath>

#include "kernel_test_util.h"
#include "kernels/conv2d.h"

namespace SL_UNITY_ID {

using namespace sl::kernels;

namespace {

void check_against_naive(const Conv2dShape& s, bool relu) {
  REQUIRE(s.is_valid());
  // Small integers: every product and partial sum is exact in float, so im2col + GEMM must equal the
  // direct loop bit for bit.
  const auto input = test::random_small_ints(1, s.input_size());
  const auto weight = test::random_small_ints(2, s.weight_size());
  const auto bias = test::random_small_ints(3, s.out_channels);
  std::vector<float> out(static_cast<std::size_t>(s.output_size())), out_naive = out;
  conv2d_f32(s, input.data(), weight.data(), bias.data(), out.data(), relu);
  conv2d_f32_naive(s, input.data(), weight.data(), bias.data(), out_naive.data(), relu);
  INFO("N " << s.batch << " C " << s.in_channels << " H " << s.height << " W " << s.width << " O " << s.out_channels
            << " k " << s.kernel_h << "x" << s.kernel_w << " stride " << s.stride << " pad " << s.padding);
  CHECK(out == out_naive);
}

}  // namespace

TEST_CASE("Convolution by im2col + GEMM equals the direct loop on odd shapes, strides and padding",
          "[kernels][conv2d]") {
  check_against_naive({1, 1, 5, 5, 1, 3, 3, 1, 0}, false);
  check_against_naive({2, 3, 7, 9, 5, 3, 3, 1, 1}, true);    // "same" padding
  check_against_naive({3, 4, 11, 10, 7, 3, 3, 2, 1}, true);  // stride 2, as ResNet downsampling
  check_against_naive({1, 3, 13, 13, 9, 7, 7, 2, 3}, false); // ResNet's stem shape, scaled down
  check_against_naive({2, 6, 5, 7, 10, 1, 1, 1, 0}, true);   // pointwise 1x1 (no unfolding)
  check_against_naive({1, 5, 6, 6, 3, 1, 1, 2, 0}, false);   // 1x1 with stride 2 (unfolded)
  check_against_naive({1, 2, 4, 6, 3, 2, 5, 1, 2}, false);   // non-square kernel
  check_against_naive({2, 16, 14, 14, 33, 3, 3, 1, 1}, true); // large enough for the packed GEMM
}

TEST_CASE("Output size, FLOPs and validity follow the convolution formulas", "[kernels][conv2d]") {
  // ResNet-50's first layer: 224x224x3, 64 filters 7x7, stride 2, pad 3 -> 112x112;
  // FLOPs 2 x 64 x 112 x 112 x (3 x 7 x 7) = 236,027,904 (118 M multiply-adds).
  const Conv2dShape stem{1, 3, 224, 224, 64, 7, 7, 2, 3};
  CHECK(stem.out_height() == 112);
  CHECK(stem.out_width() == 112);
  CHECK(conv2d_flop(stem) == 236'027'904);
  CHECK_FALSE(Conv2dShape{1, 1, 2, 2, 1, 5, 5, 1, 1}.is_valid());  // 5x5 kernel over a padded 4x4 input
  CHECK_FALSE(Conv2dShape{1, 1, 8, 8, 1, 3, 3, 0, 0}.is_valid());  // stride 0
  CHECK(Conv2dShape{1, 1, 3, 3, 1, 5, 5, 1, 1}.is_valid());        // exactly fits: 1x1 output
}

TEST_CASE("im2col places each patch value in its row and column, with zeros in the padding",
          "[kernels][conv2d]") {
  // One 1-channel 3x3 image 1..9, a 2x2 kernel, padding 1, stride 2 -> 2x2 outputs.
  const Conv2dShape s{1, 1, 3, 3, 1, 2, 2, 2, 1};
  const std::vector<float> image = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  std::vector<float> cols(static_cast<std::size_t>(s.patch_size() * 4));
  im2col(s, image.data(), cols.data());
  // Output (y, x) reads input rows 2y-1+u, columns 2x-1+v.
  const std::vector<float> want = {0, 0, 0, 5,   // (u, v) = (0, 0)
                                   0, 0, 4, 6,   // (0, 1)
                                   0, 2, 0, 8,   // (1, 0)
                                   1, 3, 7, 9};  // (1, 1)
  CHECK(cols == want);
}

}  // namespace SL_UNITY_ID
