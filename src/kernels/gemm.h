#pragma once
// Dense FP32 matrix products, row-major. The blocked GEMM follows Goto's scheme: B is packed in kc x nc
// blocks of 8-wide strips, A in mc x kc blocks of 6-tall strips, and a 6x8 register tile accumulates over
// kc (wasm SIMD128 when built with -msimd128, plain C++ that the compiler vectorises otherwise; both add in
// the same order, so both give the same bits). Skinny products (few rows of A, as in decode at small batch)
// skip packing and stream B once; tiny ones use a direct loop. A naive triple loop is the reference.
#include <cstdint>

namespace sl::kernels {

/// How B is stored: K x N rows (Normal), or N x K rows (Transposed: the [out][in] layout of weights, so
/// C = A * W^T is a dense layer).
enum class BLayout { Normal, Transposed };

/// One GEMM problem: C (m x n) = A (m x k) * B, with row strides lda, ldb, ldc in elements.
struct GemmShape {
  std::int64_t m = 0;
  std::int64_t n = 0;
  std::int64_t k = 0;
  BLayout b_layout = BLayout::Normal;
};

/// Floating-point operations of one GEMM: 2 m n k (one multiply and one add per term).
std::int64_t gemm_flop(const GemmShape& s);

/// Blocked, vectorised C = A * B (C is overwritten). k = 0 gives C = 0.
void gemm_f32(const GemmShape& s, const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float* c,
              std::int64_t ldc);

/// Reference C = A * B: the textbook triple loop, summing p = 0..k-1 in order.
void gemm_f32_naive(const GemmShape& s, const float* a, std::int64_t lda, const float* b, std::int64_t ldb,
                    float* c, std::int64_t ldc);

}  // namespace sl::kernels
