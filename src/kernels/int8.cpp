#include "kernels/int8.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "kernels/dot.h"

namespace sl::kernels {
namespace {

// A block of A rows, widened to int16, stays in cache while four W rows at a time stream past it:
// kRowBlock x kDepthBlock int16 (128 KiB) fits L2 anywhere, and the four W row pieces (4 KiB) stay in L1.
constexpr std::int64_t kRowBlock = 64;
constexpr std::int64_t kDepthBlock = 1024;

/// Copies A[i0 .. i0+mb) x [p0 .. p0+kb) into a dense mb x kb block of int16.
void widen_block(const std::int8_t* a, std::int64_t lda, std::int64_t i0, std::int64_t mb, std::int64_t p0,
                 std::int64_t kb, std::int16_t* a16) {
  for (std::int64_t i = 0; i < mb; ++i)
    for (std::int64_t p = 0; p < kb; ++p) a16[i * kb + p] = a[(i0 + i) * lda + p0 + p];
}

}  // namespace

void gemv_i8(std::int64_t m, std::int64_t k, const std::int8_t* w, std::int64_t ldw, const std::int8_t* x,
             std::int32_t* y) {
  const std::vector<std::int16_t> x16(x, x + k);  // widened once, reused by every row
  std::int64_t i = 0;
  for (; i + 4 <= m; i += 4) detail::dot_rows_i8<4>(x16.data(), w + i * ldw, ldw, k, y + i);
  for (; i < m; ++i) detail::dot_rows_i8<1>(x16.data(), w + i * ldw, ldw, k, y + i);
}

void gemm_i8(std::int64_t m, std::int64_t n, std::int64_t k, const std::int8_t* a, std::int64_t lda,
             const std::int8_t* w, std::int64_t ldw, std::int32_t* c, std::int64_t ldc) {
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) c[i * ldc + j] = 0;
  std::vector<std::int16_t> a16(static_cast<std::size_t>(std::min(kRowBlock, m) * std::min(kDepthBlock, k)));
  // Integer sums are exact, so splitting k into blocks changes nothing but the cache traffic.
  for (std::int64_t p0 = 0; p0 < k; p0 += kDepthBlock) {
    const std::int64_t kb = std::min(kDepthBlock, k - p0);
    for (std::int64_t i0 = 0; i0 < m; i0 += kRowBlock) {
      const std::int64_t mb = std::min(kRowBlock, m - i0);
      widen_block(a, lda, i0, mb, p0, kb, a16.data());
      std::int64_t j = 0;
      for (; j + 4 <= n; j += 4) {
        for (std::int64_t i = 0; i < mb; ++i) {
          std::int32_t out[4];
          detail::dot_rows_i8<4>(a16.data() + i * kb, w + j * ldw + p0, ldw, kb, out);
          for (int r = 0; r < 4; ++r) c[(i0 + i) * ldc + j + r] += out[r];
        }
      }
      for (; j < n; ++j)
        for (std::int64_t i = 0; i < mb; ++i) {
          std::int32_t out;
          detail::dot_rows_i8<1>(a16.data() + i * kb, w + j * ldw + p0, ldw, kb, &out);
          c[(i0 + i) * ldc + j] += out;
        }
    }
  }
}

void gemm_i8_naive(std::int64_t m, std::int64_t n, std::int64_t k, const std::int8_t* a, std::int64_t lda,
                   const std::int8_t* w, std::int64_t ldw, std::int32_t* c, std::int64_t ldc) {
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      std::int32_t sum = 0;
      for (std::int64_t p = 0; p < k; ++p) sum += std::int32_t{a[i * lda + p]} * std::int32_t{w[j * ldw + p]};
      c[i * ldc + j] = sum;
    }
}

void quantize_rows(std::int64_t rows, std::int64_t cols, const float* w, std::int8_t* q, float* scales) {
  for (std::int64_t r = 0; r < rows; ++r) {
    const float* wr = w + r * cols;
    float max_abs = 0.0f;
    for (std::int64_t j = 0; j < cols; ++j) max_abs = std::max(max_abs, std::fabs(wr[j]));
    const float scale = max_abs > 0.0f ? max_abs / 127.0f : 1.0f;
    scales[r] = scale;
    for (std::int64_t j = 0; j < cols; ++j) {
      const float v = std::round(wr[j] / scale);  // |v| <= 127 up to rounding of the division
      q[r * cols + j] = static_cast<std::int8_t>(std::max(-127.0f, std::min(127.0f, v)));
    }
  }
}

}  // namespace sl::kernels
