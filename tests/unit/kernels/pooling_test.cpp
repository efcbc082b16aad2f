#include "matchers.h"

#include <algorithm>

#include "kernel_test_util.h"
#include "kernels/pooling.h"

namespace SL_UNITY_ID {

using namespace sl::kernels;

TEST_CASE("3x3 stride-2 max pooling with padding 1 takes each window's maximum, ignoring padding",
          "[kernels][pooling]") {
  // One 4x4 channel holding -16..-1 (all negative, so a zero from the padding would win if counted).
  const Pool2dShape s{1, 4, 4, 3, 2, 1};
  REQUIRE(s.is_valid());
  REQUIRE(s.out_height() == 2);
  std::vector<float> x(16);
  for (int i = 0; i < 16; ++i) x[i] = static_cast<float>(i - 16);
  std::vector<float> y(4);
  max_pool2d_nchw(s, x.data(), y.data());
  // Output (oy, ox) covers rows 2oy-1..2oy+1 and columns 2ox-1..2ox+1: the largest value is the
  // bottom-right pixel inside the image.
  CHECK(y == std::vector<float>{x[1 * 4 + 1], x[1 * 4 + 3], x[3 * 4 + 1], x[3 * 4 + 3]});
}

TEST_CASE("Max pooling gives the same values in NCHW and NHWC", "[kernels][pooling]") {
  const Pool2dShape s{3, 9, 7, 3, 2, 1};
  const auto x = test::random_floats(41, s.channels * s.height * s.width);
  std::vector<float> x_nhwc(x.size());
  for (std::int64_t c = 0; c < s.channels; ++c)
    for (std::int64_t q = 0; q < s.height * s.width; ++q) x_nhwc[q * s.channels + c] = x[c * s.height * s.width + q];
  const std::int64_t out_plane = s.out_height() * s.out_width();
  std::vector<float> a(static_cast<std::size_t>(s.channels * out_plane)), b(a.size());
  max_pool2d_nchw(s, x.data(), a.data());
  max_pool2d_nhwc(s, x_nhwc.data(), b.data());
  for (std::int64_t c = 0; c < s.channels; ++c)
    for (std::int64_t q = 0; q < out_plane; ++q) CHECK(b[q * s.channels + c] == a[c * out_plane + q]);
}

TEST_CASE("Global average pooling returns each channel's mean in both layouts", "[kernels][pooling]") {
  // Channel c holds c + q for q = 0..4: mean c + 2.
  const std::int64_t channels = 3, plane = 5;
  std::vector<float> nchw(channels * plane), nhwc(channels * plane);
  for (std::int64_t c = 0; c < channels; ++c)
    for (std::int64_t q = 0; q < plane; ++q) nchw[c * plane + q] = nhwc[q * channels + c] = static_cast<float>(c + q);
  std::vector<float> a(channels), b(channels);
  global_avg_pool_nchw(channels, plane, nchw.data(), a.data());
  global_avg_pool_nhwc(channels, plane, nhwc.data(), b.data());
  CHECK(a == std::vector<float>{2, 3, 4});
  CHECK(b == a);
}

TEST_CASE("The residual join is max(a + b, 0) and may write in place", "[kernels][pooling]") {
  std::vector<float> a = {1, -2, 0.5f, -0.25f}, b = {-3, 1, 0.25f, 0.5f};
  add_relu(4, a.data(), b.data(), a.data());
  CHECK(a == std::vector<float>{0, 0, 0.75f, 0.25f});
  CHECK_FALSE(Pool2dShape{1, 4, 4, 3, 2, 3}.is_valid());  // padding >= kernel: a window of padding only
}

}  // namespace SL_UNITY_ID
