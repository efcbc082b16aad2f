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

// Always inlined: the callers' loops get the products with R known, and a caller compiled for another target
// (llm/cpu/cpu_decode_probes.cpp's x86-64-v3 clones of the decode step, which uses dot_rows_i8) gets them in that
// target's vectors.
#define SL_DOT_INLINE inline __attribute__((always_inline))

namespace sl::kernels::detail {

constexpr std::int64_t kDotLanes = 8;

/// Folds 8 lane sums in the fixed order described above.
inline float fold_lanes(const float s[kDotLanes]) {
  return ((s[0] + s[4]) + (s[2] + s[6])) + ((s[1] + s[5]) + (s[3] + s[7]));
}

/// sum_p a[p] * b_r[p] for R rows b_r = b + r * ldb (one pass over a serves R rows).
template <int R>
SL_DOT_INLINE void dot_rows_f32(const float* a, const float* b, std::int64_t ldb, std::int64_t k, float out[R]) {
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

/// Integer inner products of R int8 weight rows b_r = b + r * ldb with one activation vector already
/// widened to int16 (a16), accumulated in int32. Widening the short activation vector once lets the int8
/// weights stream with one sign extension each: plain C++ compiles to pmaddwd (x86 SSE2), the SIMD128 path
/// to i32x4.dot_i16x8_s; both multiply pairs of int16 and add them into int32 lanes.
template <int R>
SL_DOT_INLINE void dot_rows_i8(const std::int16_t* a16, const std::int8_t* b, std::int64_t ldb, std::int64_t k,
                               std::int32_t out[R]) {
  std::int64_t p = 0;
#ifdef __wasm_simd128__
  v128_t acc[R];
  for (int r = 0; r < R; ++r) acc[r] = wasm_i32x4_splat(0);
  for (; p + 8 <= k; p += 8) {
    const v128_t a = wasm_v128_load(a16 + p);
    for (int r = 0; r < R; ++r)
      acc[r] = wasm_i32x4_add(acc[r], wasm_i32x4_dot_i16x8(a, wasm_i16x8_load8x8(b + r * ldb + p)));
  }
  for (int r = 0; r < R; ++r)
    out[r] = wasm_i32x4_extract_lane(acc[r], 0) + wasm_i32x4_extract_lane(acc[r], 1) +
             wasm_i32x4_extract_lane(acc[r], 2) + wasm_i32x4_extract_lane(acc[r], 3);
#else
  // One row at a time: a plain int32 reduction the compiler vectorises (integer sums reassociate exactly).
  for (int r = 0; r < R; ++r) {
    const std::int8_t* br = b + r * ldb;
    std::int32_t s = 0;
    for (std::int64_t q = 0; q < k; ++q) s += std::int32_t{static_cast<std::int16_t>(br[q])} * std::int32_t{a16[q]};
    out[r] = s;
  }
  p = k;
#endif
  for (int r = 0; r < R; ++r)
    for (std::int64_t q = p; q < k; ++q) out[r] += std::int32_t{b[r * ldb + q]} * std::int32_t{a16[q]};
}

}  // namespace sl::kernels::detail
