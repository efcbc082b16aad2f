#include "kernels/conv2d.h"

#include <vector>

#include "kernels/gemm.h"

namespace sl::kernels {
namespace {

void add_bias_and_activate(const Conv2dShape& s, const float* bias, bool relu, float* image_out) {
  const std::int64_t plane = s.out_height() * s.out_width();
  for (std::int64_t o = 0; o < s.out_channels; ++o) {
    float* out = image_out + o * plane;
    const float b = bias != nullptr ? bias[o] : 0.0f;
    for (std::int64_t q = 0; q < plane; ++q) {
      const float v = out[q] + b;
      out[q] = relu && v < 0.0f ? 0.0f : v;
    }
  }
}

}  // namespace

std::int64_t Conv2dShape::out_height() const { return (height + 2 * padding - kernel_h) / stride + 1; }
std::int64_t Conv2dShape::out_width() const { return (width + 2 * padding - kernel_w) / stride + 1; }

bool Conv2dShape::is_valid() const {
  return batch >= 1 && in_channels >= 1 && height >= 1 && width >= 1 && out_channels >= 1 && kernel_h >= 1 &&
         kernel_w >= 1 && stride >= 1 && padding >= 0 && height + 2 * padding >= kernel_h &&
         width + 2 * padding >= kernel_w;
}

std::int64_t conv2d_flop(const Conv2dShape& s) {
  return 2 * s.batch * s.out_channels * s.out_height() * s.out_width() * s.patch_size();
}

void im2col(const Conv2dShape& s, const float* image, float* columns) {
  const std::int64_t out_h = s.out_height();
  const std::int64_t out_w = s.out_width();
  for (std::int64_t c = 0; c < s.in_channels; ++c)
    for (std::int64_t u = 0; u < s.kernel_h; ++u)
      for (std::int64_t v = 0; v < s.kernel_w; ++v) {
        float* row = columns + ((c * s.kernel_h + u) * s.kernel_w + v) * out_h * out_w;
        for (std::int64_t y = 0; y < out_h; ++y) {
          const std::int64_t iy = y * s.stride - s.padding + u;
          for (std::int64_t x = 0; x < out_w; ++x) {
            const std::int64_t ix = x * s.stride - s.padding + v;
            const bool inside = iy >= 0 && iy < s.height && ix >= 0 && ix < s.width;
            row[y * out_w + x] = inside ? image[(c * s.height + iy) * s.width + ix] : 0.0f;
          }
        }
      }
}

void for_each_patch_matrix(const Conv2dShape& s, const float* input,
                           void (*unfold)(const Conv2dShape&, const float*, float*),
                           const std::function<void(std::int64_t n, const float* patches)>& multiply) {
  const std::int64_t positions = s.out_height() * s.out_width();
  const std::int64_t image_in = s.in_channels * s.height * s.width;
  std::vector<float> columns(s.is_pointwise() ? 0 : static_cast<std::size_t>(s.patch_size() * positions));
  for (std::int64_t n = 0; n < s.batch; ++n) {
    const float* patches = input + n * image_in;
    if (!s.is_pointwise()) {
      unfold(s, patches, columns.data());
      patches = columns.data();
    }
    multiply(n, patches);
  }
}

void conv2d_f32(const Conv2dShape& s, const float* input, const float* weight, const float* bias, float* output,
                bool relu) {
  const std::int64_t plane = s.out_height() * s.out_width();
  const std::int64_t image_out = s.out_channels * plane;
  for_each_patch_matrix(s, input, &im2col, [&](std::int64_t n, const float* patches) {
    // (C_out x C_in kh kw) * (C_in kh kw x H_out W_out), written straight into the NCHW output image.
    gemm_f32({s.out_channels, plane, s.patch_size(), BLayout::Normal}, weight, s.patch_size(), patches, plane,
             output + n * image_out, plane);
    add_bias_and_activate(s, bias, relu, output + n * image_out);
  });
}

void conv2d_f32_naive(const Conv2dShape& s, const float* input, const float* weight, const float* bias,
                      float* output, bool relu) {
  const std::int64_t out_h = s.out_height();
  const std::int64_t out_w = s.out_width();
  for (std::int64_t n = 0; n < s.batch; ++n)
    for (std::int64_t o = 0; o < s.out_channels; ++o)
      for (std::int64_t y = 0; y < out_h; ++y)
        for (std::int64_t x = 0; x < out_w; ++x) {
          float sum = 0.0f;
          for (std::int64_t c = 0; c < s.in_channels; ++c)
            for (std::int64_t u = 0; u < s.kernel_h; ++u)
              for (std::int64_t v = 0; v < s.kernel_w; ++v) {
                const std::int64_t iy = y * s.stride - s.padding + u;
                const std::int64_t ix = x * s.stride - s.padding + v;
                if (iy < 0 || iy >= s.height || ix < 0 || ix >= s.width) continue;
                sum += input[((n * s.in_channels + c) * s.height + iy) * s.width + ix] *
                       weight[((o * s.in_channels + c) * s.kernel_h + u) * s.kernel_w + v];
              }
          const float v = sum + (bias != nullptr ? bias[o] : 0.0f);
          output[((n * s.out_channels + o) * out_h + y) * out_w + x] = relu && v < 0.0f ? 0.0f : v;
        }
}

}  // namespace sl::kernels
