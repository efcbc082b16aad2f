#include "kernels/resize.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace sl::kernels {
namespace {

using AxisTaps = Resizer::AxisTaps;

AxisTaps nearest_taps(std::int64_t n_src, std::int64_t n_dst) {
  const double scale = static_cast<double>(n_src) / static_cast<double>(n_dst);
  AxisTaps taps{1, {}, {}};
  for (std::int64_t i = 0; i < n_dst; ++i) {
    const auto j = static_cast<std::int64_t>(std::floor((static_cast<double>(i) + 0.5) * scale));
    taps.index.push_back(std::min(j, n_src - 1));
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
    taps.index.push_back(j);
    taps.index.push_back(std::min(j + 1, n_src - 1));
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
    for (std::int64_t t = 0; t < taps.width; ++t) {
      taps.index.push_back(std::min(lo + t, n_src - 1));
      taps.weight.push_back(static_cast<float>(total > 0 ? w[t] / total : 0.0));
    }
  }
  return taps;
}

/// The vertical pass over the rows of the horizontal pass; each output value goes through `store`.
template <class Store>
void vertical(const AxisTaps& ty, const ResizeShape& s, const std::vector<float>& rows, Store store) {
  const std::int64_t row_len = s.dst_width * s.channels;
  for (std::int64_t y = 0; y < s.dst_height; ++y) {
    const std::int64_t* idx = ty.index.data() + y * ty.width;
    const float* w = ty.weight.data() + y * ty.width;
    for (std::int64_t q = 0; q < row_len; ++q) {
      float acc = 0.0f;
      for (std::int64_t t = 0; t < ty.width; ++t) acc += w[t] * rows[static_cast<std::size_t>(idx[t] * row_len + q)];
      store(y * row_len + q, acc);
    }
  }
}

AxisTaps make_taps(ResizeFilter filter, std::int64_t n_src, std::int64_t n_dst) {
  switch (filter) {
    case ResizeFilter::Nearest: return nearest_taps(n_src, n_dst);
    case ResizeFilter::Bilinear: return bilinear_taps(n_src, n_dst);
    case ResizeFilter::BilinearAntialias: break;
  }
  return antialias_taps(n_src, n_dst);
}

}  // namespace

Resizer::Resizer(const ResizeShape& s, ResizeFilter filter)
    : s_(s), x_(make_taps(filter, s.src_width, s.dst_width)), y_(make_taps(filter, s.src_height, s.dst_height)),
      rows_(static_cast<std::size_t>(s.src_height * s.dst_width * s.channels)) {}

template <class T>
void Resizer::horizontal(const T* src) {
  const std::int64_t ch = s_.channels;
  for (std::int64_t y = 0; y < s_.src_height; ++y) {
    const T* row = src + y * s_.src_width * ch;
    float* out = rows_.data() + y * s_.dst_width * ch;
    for (std::int64_t x = 0; x < s_.dst_width; ++x) {
      const std::int64_t* idx = x_.index.data() + x * x_.width;
      const float* w = x_.weight.data() + x * x_.width;
      for (std::int64_t c = 0; c < ch; ++c) {
        float acc = 0.0f;
        for (std::int64_t t = 0; t < x_.width; ++t) acc += w[t] * static_cast<float>(row[idx[t] * ch + c]);
        out[x * ch + c] = acc;
      }
    }
  }
}

void Resizer::run(const float* src, float* dst) {
  horizontal(src);
  vertical(y_, s_, rows_, [dst](std::int64_t i, float v) { dst[i] = v; });
}

void Resizer::run(const std::uint8_t* src, std::uint8_t* dst) {
  horizontal(src);
  vertical(y_, s_, rows_, [dst](std::int64_t i, float v) {
    dst[i] = static_cast<std::uint8_t>(std::clamp(std::floor(v + 0.5f), 0.0f, 255.0f));
  });
}

void resize_f32(const ResizeShape& s, ResizeFilter filter, const float* src, float* dst) {
  Resizer(s, filter).run(src, dst);
}

void resize_u8(const ResizeShape& s, ResizeFilter filter, const std::uint8_t* src, std::uint8_t* dst) {
  Resizer(s, filter).run(src, dst);
}

}  // namespace sl::kernels
