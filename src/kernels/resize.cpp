#include "kernels/resize.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace sl::kernels {
namespace {

/// The source taps of every output index along one axis: output i reads src[first[i] + t] with weight
/// weight[i * width + t], t < width (weights of one output sum to 1).
struct AxisTaps {
  std::int64_t width = 0;
  std::vector<std::int64_t> first;
  std::vector<float> weight;
};

AxisTaps nearest_taps(std::int64_t n_src, std::int64_t n_dst) {
  const double scale = static_cast<double>(n_src) / static_cast<double>(n_dst);
  AxisTaps taps{1, {}, {}};
  for (std::int64_t i = 0; i < n_dst; ++i) {
    const auto j = static_cast<std::int64_t>(std::floor((static_cast<double>(i) + 0.5) * scale));
    taps.first.push_back(std::min(j, n_src - 1));
    taps.weight.push_back(1.0f);
  }
  return taps;
}

/// Two taps at floor(c) and floor(c) + 1 for the source coordinate c = (i + 0.5) scale - 0.5, clamped to
/// the image (the edge pixel is repeated).
AxisTaps bilinear_taps(std::int64_t n_src, std::int64_t n_dst) {
  const double scale = static_cast<double>(n_src) / static_cast<double>(n_dst);
  AxisTaps taps{2, {}, {}};
  for (std::int64_t i = 0; i < n_dst; ++i) {
    const double c = std::clamp((static_cast<double>(i) + 0.5) * scale - 0.5, 0.0, static_cast<double>(n_src - 1));
    std::int64_t j = static_cast<std::int64_t>(std::floor(c));
    double frac = c - static_cast<double>(j);
    if (j >= n_src - 1) {  // at the last pixel: all weight on it (a 1-pixel source gives weights 1, 0)
      j = std::max<std::int64_t>(n_src - 2, 0);
      frac = n_src >= 2 ? 1.0 : 0.0;
    }
    taps.first.push_back(j);
    taps.weight.push_back(static_cast<float>(1.0 - frac));
    taps.weight.push_back(static_cast<float>(frac));
  }
  return taps;
}

/// Triangle filter of radius support = max(scale, 1) around the centre (i + 0.5) scale, weights
/// normalised to sum to 1 over the pixels inside the image (PIL's ImagingResample).
AxisTaps antialias_taps(std::int64_t n_src, std::int64_t n_dst) {
  const double scale = static_cast<double>(n_src) / static_cast<double>(n_dst);
  const double support = std::max(scale, 1.0);
  AxisTaps taps;
  taps.width = static_cast<std::int64_t>(std::ceil(support)) * 2 + 1;
  for (std::int64_t i = 0; i < n_dst; ++i) {
    const double centre = (static_cast<double>(i) + 0.5) * scale;
    const std::int64_t lo = std::max<std::int64_t>(static_cast<std::int64_t>(std::floor(centre - support + 0.5)), 0);
    const std::int64_t hi = std::min<std::int64_t>(static_cast<std::int64_t>(std::floor(centre + support + 0.5)), n_src);
    std::vector<double> w(static_cast<std::size_t>(taps.width), 0.0);
    double total = 0;
    for (std::int64_t j = lo; j < hi && j - lo < taps.width; ++j) {
      const double d = std::fabs((static_cast<double>(j) + 0.5 - centre) / support);
      w[j - lo] = d < 1.0 ? 1.0 - d : 0.0;
      total += w[j - lo];
    }
    taps.first.push_back(lo);
    for (double v : w) taps.weight.push_back(static_cast<float>(total > 0 ? v / total : 0.0));
  }
  return taps;
}

AxisTaps make_taps(ResizeFilter filter, std::int64_t n_src, std::int64_t n_dst) {
  switch (filter) {
    case ResizeFilter::Nearest: return nearest_taps(n_src, n_dst);
    case ResizeFilter::Bilinear: return bilinear_taps(n_src, n_dst);
    case ResizeFilter::BilinearAntialias: break;
  }
  return antialias_taps(n_src, n_dst);
}

/// Horizontal pass into a float buffer (src_height x dst_width x channels), then the vertical pass; each
/// output value goes through `store`.
template <class T, class Store>
void resize_separable(const ResizeShape& s, ResizeFilter filter, const T* src, Store store) {
  const AxisTaps tx = make_taps(filter, s.src_width, s.dst_width);
  const AxisTaps ty = make_taps(filter, s.src_height, s.dst_height);
  const std::int64_t ch = s.channels;
  std::vector<float> rows(static_cast<std::size_t>(s.src_height * s.dst_width * ch));
  for (std::int64_t y = 0; y < s.src_height; ++y)
    for (std::int64_t x = 0; x < s.dst_width; ++x)
      for (std::int64_t c = 0; c < ch; ++c) {
        float acc = 0.0f;
        for (std::int64_t t = 0; t < tx.width; ++t) {
          const std::int64_t j = std::min(tx.first[x] + t, s.src_width - 1);
          acc += tx.weight[x * tx.width + t] * static_cast<float>(src[(y * s.src_width + j) * ch + c]);
        }
        rows[(y * s.dst_width + x) * ch + c] = acc;
      }
  const std::int64_t row_len = s.dst_width * ch;
  for (std::int64_t y = 0; y < s.dst_height; ++y)
    for (std::int64_t q = 0; q < row_len; ++q) {
      float acc = 0.0f;
      for (std::int64_t t = 0; t < ty.width; ++t) {
        const std::int64_t j = std::min(ty.first[y] + t, s.src_height - 1);
        acc += ty.weight[y * ty.width + t] * rows[j * row_len + q];
      }
      store(y * row_len + q, acc);
    }
}

}  // namespace

void resize_f32(const ResizeShape& s, ResizeFilter filter, const float* src, float* dst) {
  resize_separable(s, filter, src, [dst](std::int64_t i, float v) { dst[i] = v; });
}

void resize_u8(const ResizeShape& s, ResizeFilter filter, const std::uint8_t* src, std::uint8_t* dst) {
  resize_separable(s, filter, src, [dst](std::int64_t i, float v) {
    dst[i] = static_cast<std::uint8_t>(std::clamp(std::floor(v + 0.5f), 0.0f, 255.0f));
  });
}

}  // namespace sl::kernels
