#pragma once
// 2-D convolution in NCHW layout by im2col + GEMM: each image is unfolded into a (C_in kh kw) x (H_out W_out)
// matrix of input patches, and the weights (C_out x C_in kh kw, i.e. [out][in][kh][kw]) multiply it into
// the C_out x (H_out W_out) output image. Zero padding and a stride, as ResNet-style layers need; a direct
// seven-loop convolution is the reference.
#include <cstdint>
#include <functional>

namespace sl::kernels {

struct Conv2dShape {
  std::int64_t batch = 1;
  std::int64_t in_channels = 1;
  std::int64_t height = 1;
  std::int64_t width = 1;
  std::int64_t out_channels = 1;
  std::int64_t kernel_h = 1;
  std::int64_t kernel_w = 1;
  std::int64_t stride = 1;
  std::int64_t padding = 0;

  /// floor((H + 2 pad - kh) / stride) + 1; below 1 when the kernel does not fit the padded input.
  std::int64_t out_height() const;
  std::int64_t out_width() const;
  /// Rows of the unfolded patch matrix: C_in kh kw.
  std::int64_t patch_size() const { return in_channels * kernel_h * kernel_w; }
  std::int64_t input_size() const { return batch * in_channels * height * width; }
  std::int64_t weight_size() const { return out_channels * patch_size(); }
  std::int64_t output_size() const { return batch * out_channels * out_height() * out_width(); }
  /// A 1x1 kernel with stride 1 and no padding needs no unfolding: the image already is its patch matrix.
  bool is_pointwise() const { return kernel_h == 1 && kernel_w == 1 && stride == 1 && padding == 0; }
  /// Positive sizes, stride >= 1, 0 <= padding, and an output of at least 1 x 1.
  bool is_valid() const;
};

/// FLOPs of one forward pass: 2 batch C_out H_out W_out C_in kh kw (bias and activation not counted).
std::int64_t conv2d_flop(const Conv2dShape& s);

/// Unfolds one C_in x H x W image into patches: row (c, u, v), column (y, x) holds
/// image[c][y stride - pad + u][x stride - pad + v], or 0 outside the image.
void im2col(const Conv2dShape& s, const float* image, float* columns);

/// Calls multiply(n, patches) for each image n of `input` (NCHW or NHWC, C_in H W values an image) with its patch
/// matrix: the image itself when the kernel is pointwise, else the image unfolded by `unfold` (im2col or
/// im2col_nhwc) into one buffer that every image reuses.
void for_each_patch_matrix(const Conv2dShape& s, const float* input,
                           void (*unfold)(const Conv2dShape&, const float*, float*),
                           const std::function<void(std::int64_t n, const float* patches)>& multiply);

/// output = conv(input, weight) + bias (bias may be null), optionally ReLU; shapes as in Conv2dShape.
void conv2d_f32(const Conv2dShape& s, const float* input, const float* weight, const float* bias, float* output,
                bool relu);

/// Reference: the direct sum over (c, u, v) for every output element, same bias and ReLU.
void conv2d_f32_naive(const Conv2dShape& s, const float* input, const float* weight, const float* bias,
                      float* output, bool relu);

}  // namespace sl::kernels
