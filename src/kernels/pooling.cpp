#include "kernels/pooling.h"

#include <algorithm>
#include <limits>
#include <vector>

namespace sl::kernels {
namespace {

/// The window of output index o along an axis of length n: [lo, hi) after clipping away the padding.
struct Window {
  std::int64_t lo;
  std::int64_t hi;
};

Window window(std::int64_t o, std::int64_t stride, std::int64_t padding, std::int64_t kernel, std::int64_t n) {
  const std::int64_t start = o * stride - padding;
  return {std::max<std::int64_t>(start, 0), std::min(start + kernel, n)};
}

}  // namespace

bool Pool2dShape::is_valid() const {
  return channels >= 1 && height >= 1 && width >= 1 && kernel >= 1 && stride >= 1 && padding >= 0 &&
         padding < kernel && out_height() >= 1 && out_width() >= 1;
}

void max_pool2d_nchw(const Pool2dShape& s, const float* x, float* y) {
  const std::int64_t oh = s.out_height();
  const std::int64_t ow = s.out_width();
  for (std::int64_t c = 0; c < s.channels; ++c) {
    const float* plane = x + c * s.height * s.width;
    for (std::int64_t oy = 0; oy < oh; ++oy) {
      const Window wy = window(oy, s.stride, s.padding, s.kernel, s.height);
      for (std::int64_t ox = 0; ox < ow; ++ox) {
        const Window wx = window(ox, s.stride, s.padding, s.kernel, s.width);
        float m = -std::numeric_limits<float>::infinity();
        for (std::int64_t iy = wy.lo; iy < wy.hi; ++iy)
          for (std::int64_t ix = wx.lo; ix < wx.hi; ++ix) m = std::max(m, plane[iy * s.width + ix]);
        y[(c * oh + oy) * ow + ox] = m;
      }
    }
  }
}

void max_pool2d_nhwc(const Pool2dShape& s, const float* x, float* y) {
  const std::int64_t oh = s.out_height();
  const std::int64_t ow = s.out_width();
  for (std::int64_t oy = 0; oy < oh; ++oy) {
    const Window wy = window(oy, s.stride, s.padding, s.kernel, s.height);
    for (std::int64_t ox = 0; ox < ow; ++ox) {
      const Window wx = window(ox, s.stride, s.padding, s.kernel, s.width);
      float* out = y + (oy * ow + ox) * s.channels;
      std::fill(out, out + s.channels, -std::numeric_limits<float>::infinity());
      for (std::int64_t iy = wy.lo; iy < wy.hi; ++iy)
        for (std::int64_t ix = wx.lo; ix < wx.hi; ++ix) {
          const float* in = x + (iy * s.width + ix) * s.channels;
          for (std::int64_t c = 0; c < s.channels; ++c) out[c] = std::max(out[c], in[c]);
        }
    }
  }
}

void global_avg_pool_nchw(std::int64_t channels, std::int64_t plane, const float* x, float* y) {
  for (std::int64_t c = 0; c < channels; ++c) {
    double sum = 0;
    for (std::int64_t q = 0; q < plane; ++q) sum += x[c * plane + q];
    y[c] = static_cast<float>(sum / static_cast<double>(plane));
  }
}

void global_avg_pool_nhwc(std::int64_t channels, std::int64_t plane, const float* x, float* y) {
  std::vector<double> sum(static_cast<std::size_t>(channels), 0.0);
  for (std::int64_t q = 0; q < plane; ++q)
    for (std::int64_t c = 0; c < channels; ++c) sum[c] += x[q * channels + c];
  for (std::int64_t c = 0; c < channels; ++c) y[c] = static_cast<float>(sum[c] / static_cast<double>(plane));
}

void add_relu(std::int64_t n, const float* a, const float* b, float* y) {
  for (std::int64_t i = 0; i < n; ++i) {
    const float v = a[i] + b[i];
    y[i] = v < 0.0f ? 0.0f : v;
  }
}

}  // namespace sl::kernels
