#include "kernels/gemm.h"

#include <algorithm>
#include <vector>

#include "kernels/dot.h"

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

namespace sl::kernels {
namespace {

// Register tile kMr x kNr (12 four-wide accumulators: fits 16 vector registers with the B and A loads).
constexpr std::int64_t kMr = 6;
constexpr std::int64_t kNr = 8;
// Cache blocks: a kc x kNr strip of B (8 KiB) stays in L1, an mc x kc block of A (96 KiB) in L2, and a
// kc x nc block of B (1 MiB) in L2/L3.
constexpr std::int64_t kKc = 256;
constexpr std::int64_t kMc = 96;
constexpr std::int64_t kNc = 1024;
// Below this many multiply-adds packing costs more than it saves.
constexpr std::int64_t kSmallWork = 32 * 32 * 32;
// Products with fewer rows of A than this stream B without packing (B is read once either way; packing
// would add a write and a read of B). Measured on 1024 x 1024 weights: skinny beats packed up to m = 32.
constexpr std::int64_t kSkinnyRows = 40;

float b_at(const float* b, std::int64_t ldb, BLayout layout, std::int64_t p, std::int64_t j) {
  return layout == BLayout::Normal ? b[p * ldb + j] : b[j * ldb + p];
}

/// Packs B[p0 .. p0+kc) x [j0 .. j0+nc) into strips of kNr columns: strip s, row p holds kNr values,
/// zero-padded past column nc. Each source row is read front to back, whichever the layout.
void pack_b(const float* b, std::int64_t ldb, BLayout layout, std::int64_t p0, std::int64_t kc, std::int64_t j0,
            std::int64_t nc, float* packed) {
  for (std::int64_t js = 0; js < nc; js += kNr, packed += kc * kNr) {
    const std::int64_t width = std::min(kNr, nc - js);
    if (layout == BLayout::Normal) {
      for (std::int64_t p = 0; p < kc; ++p) {
        const float* src = b + (p0 + p) * ldb + j0 + js;
        for (std::int64_t j = 0; j < width; ++j) packed[p * kNr + j] = src[j];
        for (std::int64_t j = width; j < kNr; ++j) packed[p * kNr + j] = 0.0f;
      }
    } else {
      for (std::int64_t j = 0; j < width; ++j) {
        const float* src = b + (j0 + js + j) * ldb + p0;
        for (std::int64_t p = 0; p < kc; ++p) packed[p * kNr + j] = src[p];
      }
      for (std::int64_t j = width; j < kNr; ++j)
        for (std::int64_t p = 0; p < kc; ++p) packed[p * kNr + j] = 0.0f;
    }
  }
}

/// Packs A[i0 .. i0+mc) x [p0 .. p0+kc) into strips of kMr rows: strip s, column p holds kMr values.
void pack_a(const float* a, std::int64_t lda, std::int64_t i0, std::int64_t mc, std::int64_t p0, std::int64_t kc,
            float* packed) {
  for (std::int64_t is = 0; is < mc; is += kMr) {
    const std::int64_t height = std::min(kMr, mc - is);
    for (std::int64_t p = 0; p < kc; ++p, packed += kMr) {
      for (std::int64_t i = 0; i < height; ++i) packed[i] = a[(i0 + is + i) * lda + p0 + p];
      for (std::int64_t i = height; i < kMr; ++i) packed[i] = 0.0f;
    }
  }
}

/// tile = sum over p < kc of (column p of the A strip) x (row p of the B strip).
void micro_kernel(std::int64_t kc, const float* ap, const float* bp, float tile[kMr][kNr]) {
#ifdef __wasm_simd128__
  v128_t acc[kMr][2];
  for (std::int64_t i = 0; i < kMr; ++i) acc[i][0] = acc[i][1] = wasm_f32x4_splat(0.0f);
  for (std::int64_t p = 0; p < kc; ++p, ap += kMr, bp += kNr) {
    const v128_t b0 = wasm_v128_load(bp);
    const v128_t b1 = wasm_v128_load(bp + 4);
    for (std::int64_t i = 0; i < kMr; ++i) {
      const v128_t ai = wasm_f32x4_splat(ap[i]);
      acc[i][0] = wasm_f32x4_add(acc[i][0], wasm_f32x4_mul(ai, b0));
      acc[i][1] = wasm_f32x4_add(acc[i][1], wasm_f32x4_mul(ai, b1));
    }
  }
  for (std::int64_t i = 0; i < kMr; ++i) {
    wasm_v128_store(tile[i], acc[i][0]);
    wasm_v128_store(tile[i] + 4, acc[i][1]);
  }
#else
  float acc[kMr][kNr] = {};
  for (std::int64_t p = 0; p < kc; ++p, ap += kMr, bp += kNr)
    for (std::int64_t i = 0; i < kMr; ++i)
      for (std::int64_t j = 0; j < kNr; ++j) acc[i][j] += ap[i] * bp[j];
  for (std::int64_t i = 0; i < kMr; ++i)
    for (std::int64_t j = 0; j < kNr; ++j) tile[i][j] = acc[i][j];
#endif
}

/// Adds (or, for the first k block, stores) the valid mr x nr corner of a tile into C.
void store_tile(const float tile[kMr][kNr], std::int64_t mr, std::int64_t nr, bool accumulate, float* c,
                std::int64_t ldc) {
  for (std::int64_t i = 0; i < mr; ++i)
    for (std::int64_t j = 0; j < nr; ++j) c[i * ldc + j] = accumulate ? c[i * ldc + j] + tile[i][j] : tile[i][j];
}

void gemm_packed(const GemmShape& s, const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float* c,
                 std::int64_t ldc) {
  std::vector<float> packed_b(static_cast<std::size_t>(kKc * ((std::min(kNc, s.n) + kNr - 1) / kNr * kNr)));
  std::vector<float> packed_a(static_cast<std::size_t>(kKc * ((std::min(kMc, s.m) + kMr - 1) / kMr * kMr)));
  float tile[kMr][kNr];
  for (std::int64_t jc = 0; jc < s.n; jc += kNc) {
    const std::int64_t nc = std::min(kNc, s.n - jc);
    for (std::int64_t pc = 0; pc < s.k; pc += kKc) {
      const std::int64_t kc = std::min(kKc, s.k - pc);
      pack_b(b, ldb, s.b_layout, pc, kc, jc, nc, packed_b.data());
      for (std::int64_t ic = 0; ic < s.m; ic += kMc) {
        const std::int64_t mc = std::min(kMc, s.m - ic);
        pack_a(a, lda, ic, mc, pc, kc, packed_a.data());
        for (std::int64_t jr = 0; jr < nc; jr += kNr) {
          for (std::int64_t ir = 0; ir < mc; ir += kMr) {
            micro_kernel(kc, packed_a.data() + ir * kc, packed_b.data() + jr * kc, tile);
            store_tile(tile, std::min(kMr, mc - ir), std::min(kNr, nc - jr), pc > 0, c + (ic + ir) * ldc + jc + jr, ldc);
          }
        }
      }
    }
  }
}

/// Few rows of A against B^T (rows of B are the k-long rows of weights): four B rows per pass over an A row,
/// so B streams from memory once while A stays in cache.
void gemm_skinny_transposed(const GemmShape& s, const float* a, std::int64_t lda, const float* b, std::int64_t ldb,
                            float* c, std::int64_t ldc) {
  std::int64_t j = 0;
  for (; j + 4 <= s.n; j += 4) {
    for (std::int64_t i = 0; i < s.m; ++i) {
      float out[4];
      detail::dot_rows_f32<4>(a + i * lda, b + j * ldb, ldb, s.k, out);
      for (int r = 0; r < 4; ++r) c[i * ldc + j + r] = out[r];
    }
  }
  for (; j < s.n; ++j)
    for (std::int64_t i = 0; i < s.m; ++i) detail::dot_rows_f32<1>(a + i * lda, b + j * ldb, ldb, s.k, &c[i * ldc + j]);
}

/// Few rows of A against a K x N matrix B: each row of C is a sum of rows of B scaled by A's entries (an
/// "axpy" loop the compiler vectorises along j), so B streams once per row of A.
void gemm_rows_normal(const GemmShape& s, const float* a, std::int64_t lda, const float* b, std::int64_t ldb,
                      float* c, std::int64_t ldc) {
  for (std::int64_t i = 0; i < s.m; ++i) {
    float* ci = c + i * ldc;
    for (std::int64_t j = 0; j < s.n; ++j) ci[j] = 0.0f;
    for (std::int64_t p = 0; p < s.k; ++p) {
      const float aip = a[i * lda + p];
      const float* bp = b + p * ldb;
      for (std::int64_t j = 0; j < s.n; ++j) ci[j] += aip * bp[j];
    }
  }
}

}  // namespace

std::int64_t gemm_flop(const GemmShape& s) { return 2 * s.m * s.n * s.k; }

void gemm_f32(const GemmShape& s, const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float* c,
              std::int64_t ldc) {
  if (s.m <= 0 || s.n <= 0) return;
  const bool small = s.m * s.n * s.k <= kSmallWork;
  if (s.k == 0 || small || s.m < kSkinnyRows) {
    if (s.b_layout == BLayout::Transposed) {
      gemm_skinny_transposed(s, a, lda, b, ldb, c, ldc);
    } else {
      gemm_rows_normal(s, a, lda, b, ldb, c, ldc);
    }
    return;
  }
  gemm_packed(s, a, lda, b, ldb, c, ldc);
}

void gemm_f32_naive(const GemmShape& s, const float* a, std::int64_t lda, const float* b, std::int64_t ldb,
                    float* c, std::int64_t ldc) {
  for (std::int64_t i = 0; i < s.m; ++i)
    for (std::int64_t j = 0; j < s.n; ++j) {
      float sum = 0.0f;
      for (std::int64_t p = 0; p < s.k; ++p) sum += a[i * lda + p] * b_at(b, ldb, s.b_layout, p, j);
      c[i * ldc + j] = sum;
    }
}

}  // namespace sl::kernels
