#include "kernels/gemv.h"

#include "kernels/dot.h"

namespace sl::kernels {

void gemv_f32(std::int64_t m, std::int64_t k, const float* a, std::int64_t lda, const float* x, float* y) {
  std::int64_t i = 0;
  for (; i + 4 <= m; i += 4) detail::dot_rows_f32<4>(x, a + i * lda, lda, k, y + i);
  for (; i < m; ++i) detail::dot_rows_f32<1>(x, a + i * lda, lda, k, y + i);
}

void gemv_f32_naive(std::int64_t m, std::int64_t k, const float* a, std::int64_t lda, const float* x, float* y) {
  for (std::int64_t i = 0; i < m; ++i) {
    float sum = 0.0f;
    for (std::int64_t p = 0; p < k; ++p) sum += a[i * lda + p] * x[p];
    y[i] = sum;
  }
}

}  // namespace sl::kernels
