#pragma once
// 2-D convolution in NHWC (channels-last) layout by im2col + GEMM: each output pixel (y, x) gets one row of
// patch values ordered (u, v, c), and the weights, reordered to [out][kh][kw][in], are the rows of B^T, so
// the GEMM H_out W_out x C_out writes the NHWC output directly. A 1x1 stride-1 kernel needs no unfolding:
// the image already is its patch matrix. Same shapes (Conv2dShape) and zero padding as conv2d.h.
#include <cstdint>

#include "kernels/conv2d.h"

namespace sl::kernels {

/// Reorders weights from [out][in][kh][kw] (PyTorch's, conv2d.h's) to [out][kh][kw][in].
void weights_oihw_to_ohwi(const Conv2dShape& s, const float* oihw, float* ohwi);

/// Unfolds one H x W x C_in image: row (y, x), column (u, v, c) holds image[y stride - pad + u]
/// [x stride - pad + v][c], or 0 outside the image.
void im2col_nhwc(const Conv2dShape& s, const float* image, float* columns);

/// output (N x H_out x W_out x C_out) = conv(input N x H x W x C_in, weights [out][kh][kw][in]) + bias
/// (may be null), optionally ReLU.
void conv2d_nhwc_f32(const Conv2dShape& s, const float* input, const float* weight_ohwi, const float* bias,
                     float* output, bool relu);

}  // namespace sl::kernels
