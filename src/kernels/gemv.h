#pragma once
// Matrix-vector products y = A x (A row-major m x k, each row a weight row of an [out][in] matrix): the
// batch-1 decode step. Each y[i] is one inner product; four rows share one pass over x, and the matrix is
// read once, front to back, so the kernel runs at memory bandwidth once A is larger than the caches.
#include <cstdint>

namespace sl::kernels {

/// y (m) = A (m x k, row stride lda) * x (k). Lanes summed in the fixed order of kernels/dot.h.
void gemv_f32(std::int64_t m, std::int64_t k, const float* a, std::int64_t lda, const float* x, float* y);

/// Reference: y[i] = sum over p in order of a[i][p] x[p].
void gemv_f32_naive(std::int64_t m, std::int64_t k, const float* a, std::int64_t lda, const float* x, float* y);

}  // namespace sl::kernels
