#include "request/resnet/image_pipeline.h"

#include <algorithm>
#include <numeric>

#include "core/rng.h"

namespace sl::request {
namespace {

constexpr float kImagenetMean[3] = {0.485f, 0.456f, 0.406f};
constexpr float kImagenetStd[3] = {0.229f, 0.224f, 0.225f};
constexpr int kNumDiscs = 6;
constexpr std::int64_t kCheckerCell = 24;

struct Disc {
  std::int64_t cy, cx, r2;
  std::uint8_t rgb[3];
};

}  // namespace

std::vector<std::uint8_t> synthetic_photo(std::int64_t height, std::int64_t width, std::uint64_t seed) {
  Rng rng = Rng::stream(seed, Stream::Misc);
  std::vector<Disc> discs;
  for (int i = 0; i < kNumDiscs; ++i) {
    const auto r = static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(std::min(height, width) / 4 + 1))) + 1;
    Disc d{static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(height))),
           static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(width))), r * r, {}};
    for (auto& c : d.rgb) c = static_cast<std::uint8_t>(rng.below(256));
    discs.push_back(d);
  }
  std::vector<std::uint8_t> img(static_cast<std::size_t>(height * width * 3));
  for (std::int64_t y = 0; y < height; ++y)
    for (std::int64_t x = 0; x < width; ++x) {
      std::uint8_t* p = &img[static_cast<std::size_t>((y * width + x) * 3)];
      const bool dark = ((x / kCheckerCell) + (y / kCheckerCell)) % 2 == 0;
      p[0] = static_cast<std::uint8_t>(x * 255 / std::max<std::int64_t>(width - 1, 1));
      p[1] = static_cast<std::uint8_t>(y * 255 / std::max<std::int64_t>(height - 1, 1));
      p[2] = static_cast<std::uint8_t>(dark ? 64 : 192);
      for (const auto& d : discs)
        if ((y - d.cy) * (y - d.cy) + (x - d.cx) * (x - d.cx) <= d.r2) std::copy(d.rgb, d.rgb + 3, p);
    }
  return img;
}

void normalize_imagenet(const std::uint8_t* hwc, std::int64_t height, std::int64_t width, Layout layout, float* out) {
  float scale[3], shift[3];
  for (int c = 0; c < 3; ++c) {
    scale[c] = 1.0f / (255.0f * kImagenetStd[c]);
    shift[c] = -kImagenetMean[c] / kImagenetStd[c];
  }
  const std::int64_t plane = height * width;
  if (layout == Layout::Nhwc) {
    for (std::int64_t q = 0; q < plane; ++q)
      for (int c = 0; c < 3; ++c) out[q * 3 + c] = static_cast<float>(hwc[q * 3 + c]) * scale[c] + shift[c];
    return;
  }
  for (int c = 0; c < 3; ++c)
    for (std::int64_t q = 0; q < plane; ++q) out[c * plane + q] = static_cast<float>(hwc[q * 3 + c]) * scale[c] + shift[c];
}

std::vector<std::int64_t> top_k(const float* x, std::int64_t n, int k) {
  std::vector<std::int64_t> idx(static_cast<std::size_t>(n));
  std::iota(idx.begin(), idx.end(), 0);
  const auto kk = static_cast<std::ptrdiff_t>(std::min<std::int64_t>(k, n));
  std::partial_sort(idx.begin(), idx.begin() + kk, idx.end(),
                    [x](std::int64_t a, std::int64_t b) { return x[a] > x[b] || (x[a] == x[b] && a < b); });
  idx.resize(static_cast<std::size_t>(kk));
  return idx;
}

}  // namespace sl::request
