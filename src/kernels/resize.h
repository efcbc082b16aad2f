#pragma once
// Image resizing, the step where training and serving pipelines most often disagree. Pixel centres sit at
// i + 0.5 (align_corners = false) and each output pixel is a weighted sum of source pixels along x, then y:
// * Nearest: the source pixel under the output centre, floor((i + 0.5) scale).
// * Bilinear: the 2 nearest source pixels along each axis (OpenCV INTER_LINEAR, PyTorch antialias=False):
//   when shrinking by more than 2x it skips pixels and aliases.
// * BilinearAntialias: the triangle filter stretched by the shrink factor, so every source pixel counts
//   (PIL's BILINEAR, PyTorch antialias=True); identical to Bilinear when enlarging, except at the borders.
// Images are H x W x channels, interleaved (HWC).
#include <cstdint>

namespace sl::kernels {

enum class ResizeFilter { Nearest, Bilinear, BilinearAntialias };

struct ResizeShape {
  std::int64_t src_height = 1;
  std::int64_t src_width = 1;
  std::int64_t dst_height = 1;
  std::int64_t dst_width = 1;
  std::int64_t channels = 1;
};

/// Resizes a float image (values are not clamped).
void resize_f32(const ResizeShape& s, ResizeFilter filter, const float* src, float* dst);

/// Resizes an 8-bit image: the same weights, then rounded to nearest and clamped to 0..255.
void resize_u8(const ResizeShape& s, ResizeFilter filter, const std::uint8_t* src, std::uint8_t* dst);

}  // namespace sl::kernels
