#include "kernels/conv2d_nhwc.h"

#include <algorithm>

#include "kernels/gemm.h"

namespace sl::kernels {
namespace {

void add_bias_and_activate_rows(std::int64_t pixels, std::int64_t channels, const float* bias, bool relu,
                                float* out) {
  for (std::int64_t q = 0; q < pixels; ++q) {
    float* row = out + q * channels;
    for (std::int64_t c = 0; c < channels; ++c) {
      const float v = row[c] + (bias != nullptr ? bias[c] : 0.0f);
      row[c] = relu && v < 0.0f ? 0.0f : v;
    }
  }
}

}  // namespace

void weights_oihw_to_ohwi(const Conv2dShape& s, const float* oihw, float* ohwi) {
  for (std::int64_t o = 0; o < s.out_channels; ++o)
    for (std::int64_t c = 0; c < s.in_channels; ++c)
      for (std::int64_t u = 0; u < s.kernel_h; ++u)
        for (std::int64_t v = 0; v < s.kernel_w; ++v)
          ohwi[((o * s.kernel_h + u) * s.kernel_w + v) * s.in_channels + c] =
              oihw[((o * s.in_channels + c) * s.kernel_h + u) * s.kernel_w + v];
}

void im2col_nhwc(const Conv2dShape& s, const float* image, float* columns) {
  const std::int64_t out_h = s.out_height();
  const std::int64_t out_w = s.out_width();
  const std::int64_t c_in = s.in_channels;
  for (std::int64_t y = 0; y < out_h; ++y)
    for (std::int64_t x = 0; x < out_w; ++x) {
      float* row = columns + (y * out_w + x) * s.patch_size();
      for (std::int64_t u = 0; u < s.kernel_h; ++u) {
        const std::int64_t iy = y * s.stride - s.padding + u;
        for (std::int64_t v = 0; v < s.kernel_w; ++v, row += c_in) {
          const std::int64_t ix = x * s.stride - s.padding + v;
          if (iy < 0 || iy >= s.height || ix < 0 || ix >= s.width) {
            std::fill(row, row + c_in, 0.0f);
          } else {
            const float* src = image + (iy * s.width + ix) * c_in;
            std::copy(src, src + c_in, row);
          }
        }
      }
    }
}

void conv2d_nhwc_f32(const Conv2dShape& s, const float* input, const float* weight_ohwi, const float* bias,
                     float* output, bool relu) {
  const std::int64_t pixels = s.out_height() * s.out_width();
  const std::int64_t image_out = pixels * s.out_channels;
  for_each_patch_matrix(s, input, &im2col_nhwc, [&](std::int64_t n, const float* patches) {
    // (H_out W_out x C_in kh kw) * (C_out x C_in kh kw)^T, written straight into the NHWC output image.
    gemm_f32({pixels, s.out_channels, s.patch_size(), BLayout::Transposed}, patches, s.patch_size(), weight_ohwi,
             s.patch_size(), output + n * image_out, s.out_channels);
    add_bias_and_activate_rows(pixels, s.out_channels, bias, relu, output + n * image_out);
  });
}

}  // namespace sl::kernels
