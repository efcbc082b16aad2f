#include "matchers.h"

#include <numeric>

#include "kernel_test_util.h"
#include "kernels/resize.h"

namespace SL_UNITY_ID {

using namespace sl::kernels;

TEST_CASE("Every filter keeps a constant image constant", "[kernels][resize]") {
  const auto filter = GENERATE(ResizeFilter::Nearest, ResizeFilter::Bilinear, ResizeFilter::BilinearAntialias);
  const ResizeShape s{13, 17, GENERATE(as<std::int64_t>{}, 5, 13, 40), 7, 2};
  std::vector<float> src(static_cast<std::size_t>(s.src_height * s.src_width * s.channels), 0.75f);
  std::vector<float> dst(static_cast<std::size_t>(s.dst_height * s.dst_width * s.channels));
  resize_f32(s, filter, src.data(), dst.data());
  for (float v : dst) CHECK_THAT(v, WithinAbs(0.75, 1e-6));
}

TEST_CASE("Bilinear resizing reproduces a linear ramp inside the image", "[kernels][resize]") {
  // src x = 0..15, one row; 16 -> 8: output i samples at (i + 0.5) 2 - 0.5 = 2i + 0.5, between pixels 2i
  // and 2i + 1, so the value is 2i + 0.5 exactly (both filters: antialias averages 4 pixels symmetrically).
  const ResizeShape s{1, 16, 1, 8, 1};
  std::vector<float> src(16);
  std::iota(src.begin(), src.end(), 0.0f);
  std::vector<float> plain(8), aa(8);
  resize_f32(s, ResizeFilter::Bilinear, src.data(), plain.data());
  resize_f32(s, ResizeFilter::BilinearAntialias, src.data(), aa.data());
  for (int i = 0; i < 8; ++i) CHECK_THAT(plain[i], WithinAbs(2 * i + 0.5, 1e-6));
  for (int i = 1; i < 7; ++i) CHECK_THAT(aa[i], WithinAbs(2 * i + 0.5, 1e-5));  // borders renormalise
}

TEST_CASE("Shrinking 4x: plain bilinear skips pixels, antialiased bilinear averages them",
          "[kernels][resize]") {
  // A 1-pixel-wide line at x = 0 (mod 4) over 16 columns, shrunk to 4: plain bilinear samples at
  // 4i + 1.5, between columns 4i + 1 and 4i + 2, and never sees the line; the antialiased filter
  // (triangle of radius 4 around 4i + 2) weighs column 4i by (1 - 1.5/4) over the total weight 4.
  const ResizeShape s{1, 16, 1, 4, 1};
  std::vector<float> src(16, 0.0f);
  for (int x = 0; x < 16; x += 4) src[x] = 1.0f;
  std::vector<float> plain(4), aa(4), nearest(4);
  resize_f32(s, ResizeFilter::Bilinear, src.data(), plain.data());
  resize_f32(s, ResizeFilter::BilinearAntialias, src.data(), aa.data());
  resize_f32(s, ResizeFilter::Nearest, src.data(), nearest.data());
  for (int i = 0; i < 4; ++i) CHECK(plain[i] == 0.0f);
  for (int i = 0; i < 4; ++i) CHECK(nearest[i] == 0.0f);  // samples column floor(4i + 2) = 4i + 2
  // Output 1 (centre 6): columns 2..9 weigh 1 - |j + 0.5 - 6| / 4 = 0.125, 0.375, ..., 0.875, ..., 0.125,
  // summing to 4; the lines at columns 4 and 8 weigh 0.625 + 0.375 = 1 of them: the line's mean, 1/4.
  CHECK_THAT(aa[1], WithinAbs(0.25, 1e-6));
  CHECK_THAT(aa[2], WithinAbs(0.25, 1e-6));
}

TEST_CASE("8-bit resizing rounds to nearest and matches the float path", "[kernels][resize]") {
  const ResizeShape s{9, 11, 4, 5, 3};
  std::vector<std::uint8_t> src(static_cast<std::size_t>(s.src_height * s.src_width * s.channels));
  sl::Rng rng(5);
  for (auto& v : src) v = static_cast<std::uint8_t>(rng.below(256));
  std::vector<float> src_f(src.begin(), src.end());
  std::vector<std::uint8_t> dst(static_cast<std::size_t>(s.dst_height * s.dst_width * s.channels));
  std::vector<float> dst_f(dst.size());
  resize_u8(s, ResizeFilter::BilinearAntialias, src.data(), dst.data());
  resize_f32(s, ResizeFilter::BilinearAntialias, src_f.data(), dst_f.data());
  for (std::size_t i = 0; i < dst.size(); ++i) CHECK(std::abs(static_cast<float>(dst[i]) - dst_f[i]) <= 0.5f);
}

}  // namespace SL_UNITY_ID
