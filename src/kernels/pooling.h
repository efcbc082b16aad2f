#pragma once
// Pooling and the residual join of a CNN. Max pooling takes the largest value of each kernel window
// (padding never wins: padded positions are skipped), global average pooling reduces each channel to its
// mean, and add_relu joins a residual branch to its shortcut: y = max(a + b, 0). NCHW and NHWC variants.
#include <cstdint>

namespace sl::kernels {

/// A square pooling window over one image of `channels` planes of height x width.
struct Pool2dShape {
  std::int64_t channels = 1;
  std::int64_t height = 1;
  std::int64_t width = 1;
  std::int64_t kernel = 1;
  std::int64_t stride = 1;
  std::int64_t padding = 0;
  /// floor((H + 2 pad - kernel) / stride) + 1
  std::int64_t out_height() const { return (height + 2 * padding - kernel) / stride + 1; }
  std::int64_t out_width() const { return (width + 2 * padding - kernel) / stride + 1; }
  /// Positive sizes, padding < kernel (every window holds at least one real pixel), output >= 1 x 1.
  bool is_valid() const;
};

/// Max pooling of one NCHW image (C x H x W -> C x H_out x W_out).
void max_pool2d_nchw(const Pool2dShape& s, const float* x, float* y);

/// Max pooling of one NHWC image (H x W x C -> H_out x W_out x C).
void max_pool2d_nhwc(const Pool2dShape& s, const float* x, float* y);

/// y[c] = mean over the plane of channel c, NCHW (accumulated in double).
void global_avg_pool_nchw(std::int64_t channels, std::int64_t plane, const float* x, float* y);

/// y[c] = mean over the pixels of channel c, NHWC (accumulated in double, pixels in order).
void global_avg_pool_nhwc(std::int64_t channels, std::int64_t plane, const float* x, float* y);

/// y[i] = max(a[i] + b[i], 0) for i < n (y may alias a or b).
void add_relu(std::int64_t n, const float* a, const float* b, float* y);

}  // namespace sl::kernels
