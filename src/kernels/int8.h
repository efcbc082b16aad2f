#pragma once
// INT8 products with int32 accumulation, as quantised inference runs them: weights are stored [out][in]
// (N x K rows), activations are int8 rows, and every product of two int8 values is summed exactly in
// int32 (exact while k * 127 * 128 < 2^31, so k <= kMaxInt8Depth). Scales are applied by the caller.
// Symmetric per-row quantisation turns FP32 weights into int8 plus one scale per row.
#include <cstdint>

namespace sl::kernels {

/// Largest inner dimension whose int8 x int8 sums cannot overflow int32: 2^31 / (128 x 128) = 131,072.
constexpr std::int64_t kMaxInt8Depth = 131'072;

/// y (m) = W (m x k int8, row stride ldw) * x (k int8), in int32.
void gemv_i8(std::int64_t m, std::int64_t k, const std::int8_t* w, std::int64_t ldw, const std::int8_t* x,
             std::int32_t* y);

/// C (m x n int32, row stride ldc) = A (m x k int8) * W^T, W stored as n x k int8 rows.
void gemm_i8(std::int64_t m, std::int64_t n, std::int64_t k, const std::int8_t* a, std::int64_t lda,
             const std::int8_t* w, std::int64_t ldw, std::int32_t* c, std::int64_t ldc);

/// Reference of gemm_i8 (and of gemv_i8 with m = 1 against rows of W): a triple loop in int32.
void gemm_i8_naive(std::int64_t m, std::int64_t n, std::int64_t k, const std::int8_t* a, std::int64_t lda,
                   const std::int8_t* w, std::int64_t ldw, std::int32_t* c, std::int64_t ldc);

/// Symmetric per-row quantisation: scale_r = max |w_r| / 127 (1 for an all-zero row), q = round(w / scale)
/// (ties away from zero), so |w - scale q| <= scale / 2.
void quantize_rows(std::int64_t rows, std::int64_t cols, const float* w, std::int8_t* q, float* scales);

}  // namespace sl::kernels
