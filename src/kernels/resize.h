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
#include <vector>

namespace sl::kernels {

enum class ResizeFilter { Nearest, Bilinear, BilinearAntialias };

struct ResizeShape {
  std::int64_t src_height = 1;
  std::int64_t src_width = 1;
  std::int64_t dst_height = 1;
  std::int64_t dst_width = 1;
  std::int64_t channels = 1;
};

/// One resize shape and filter, with its per-axis taps computed once, for resizing many images alike.
class Resizer {
 public:
  Resizer(const ResizeShape& s, ResizeFilter filter);
  void run(const float* src, float* dst);
  void run(const std::uint8_t* src, std::uint8_t* dst);

  /// The source pixels and weights of every output index along one axis: output i reads
  /// src[index[i * width + t]] with weight weight[i * width + t], t < width (weights sum to 1).
  struct AxisTaps {
    std::int64_t width = 0;
    std::vector<std::int64_t> index;
    std::vector<float> weight;
  };

 private:
  template <class T>
  void horizontal(const T* src);
  ResizeShape s_;
  AxisTaps x_, y_;
  std::vector<float> rows_;  ///< src_height x dst_width x channels, after the horizontal pass
};

/// Resizes a float image (values are not clamped).
void resize_f32(const ResizeShape& s, ResizeFilter filter, const float* src, float* dst);

/// Resizes an 8-bit image: the same weights, then rounded to nearest and clamped to 0..255.
void resize_u8(const ResizeShape& s, ResizeFilter filter, const std::uint8_t* src, std::uint8_t* dst);

}  // namespace sl::kernels
