#pragma once
// Inner products shared by the GEMV and the skinny-GEMM paths (internal to src/kernels).
// FP32 sums run in 8 interleaved lanes (lane l takes p = l mod 8), folded as (l, l+4) then (0,2)+(1,3),
// then the tail in order. The wasm SIMD128 path and the plain path (which gcc/clang vectorise into two
// 4-wide registers) add in exactly this order, so both give bit-identical results.
// INT8 products are widened to int16 and summed in int32: exact in any order while
// k * 127 * 128 < 2^31, i.e. k <= 131,072.
#include <cstdint>

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

namespace sl::kernels::detail {

constexpr std::int64_t kDotLanes = 8;

/// Folds 8 lane sums in the fixed order described above.
inline float fold_lanes(const float s[kDotLanes]) {
  return ((s[0] + s[4]) + (s[2] + s[6])) + ((s[1] + s[5]) + (s[3] + s[7]));
}

/// sum_p a[p] * b_r[p] for R rows b_r = b + r * ldb (one pass over a serves R rows).
template <int R>
inline void dot_rows_f32(const float* a, const float* b, std::int64_t ldb, std::int64_t k, float out[R]) {
  const std::int64_t k8 = k - k % kDotLanes;
#ifdef __wasm_simd128__
  v128_t lo[R], hi[R];
  for (int r = 0; r < R; ++r) lo[r] = hi[r] = wasm_f32x4_splat(0.0f);
  for (std::int64_t p = 0; p < k8; p += kDotLanes) {
    const v128_t a0 = wasm_v128_load(a + p);
    const v128_t a1 = wasm_v128_load(a + p + 4);
    for (int r = 0; r < R; ++r) {
      lo[r] = wasm_f32x4_add(lo[r], wasm_f32x4_mul(a0, wasm_v128_load(b + r * ldb + p)));
      hi[r] = wasm_f32x4_add(hi[r], wasm_f32x4_mul(a1, wasm_v128_load(b + r * ldb + p + 4)));
    }
  }
  for (int r = 0; r < R; ++r) {
    float s[kDotLanes];
    wasm_v128_store(s, lo[r]);
    wasm_v128_store(s + 4, hi[r]);
    out[r] = fold_lanes(s);
  }
#else
  float s[R][kDotLanes] = {};
  for (std::int64_t p = 0; p < k8; p += kDotLanes)
    for (int r = 0; r < R; ++r)
      for (std::int64_t l = 0; l < kDotLanes; ++l) s[r][l] += a[p + l] * b[r * ldb + p + l];
  for (int r = 0; r < R; ++r) out[r] = fold_lanes(s[r]);
#endif
  for (int r = 0; r < R; ++r)
    for (std::int64_t p = k8; p < k; ++p) out[r] += a[p] * b[r * ldb + p];
}

/// Integer inner products of R int8 rows with one int8 vector, accumulated in int32.
template <int R>
inline void dot_rows_i8(const std::int8_t* a, const std::int8_t* b, std::int64_t ldb, std::int64_t k,
                        std::int32_t out[R]) {
  std::int64_t p = 0;
#ifdef __wasm_simd128__
  v128_t acc[R];
  for (int r = 0; r < R; ++r) acc[r] = wasm_i32x4_splat(0);
  for (; p + 8 <= k; p += 8) {
    const v128_t a16 = wasm_i16x8_load8x8(a + p);  // 8 int8 sign-extended to int16
    for (int r = 0; r < R; ++r) acc[r] = wasm_i32x4_add(acc[r], wasm_i32x4_dot_i16x8(a16, wasm_i16x8_load8x8(b + r * ldb + p)));
  }
  for (int r = 0; r < R; ++r)
    out[r] = wasm_i32x4_extract_lane(acc[r], 0) + wasm_i32x4_extract_lane(acc[r], 1) +
             wasm_i32x4_extract_lane(acc[r], 2) + wasm_i32x4_extract_lane(acc[r], 3);
#else
  for (int r = 0; r < R; ++r) out[r] = 0;
  // One row at a time: a plain int32 reduction, which the compiler vectorises (integer sums reassociate).
  for (int r = 0; r < R; ++r) {
    std::int32_t s = 0;
    const std::int8_t* br = b + r * ldb;
    for (std::int64_t q = 0; q < k; ++q) s += static_cast<std::int32_t>(a[q]) * static_cast<std::int32_t>(br[q]);
    out[r] = s;
  }
  p = k;
#endif
  for (int r = 0; r < R; ++r)
    for (std::int64_t q = p; q < k; ++q) out[r] += static_cast<std::int32_t>(a[q]) * static_cast<std::int32_t>(b[r * ldb + q]);
}

}  // namespace sl::kernels::detail
