#include <catch2/catch.hpp>

#include "kernel_test_util.h"
#include "kernels/gemm.h"

namespace SL_UNITY_ID {

using namespace sl::kernels;
using sl::kernels::test::dot_error_bound;

namespace {

struct Problem {
  GemmShape shape;
  std::int64_t lda, ldb, ldc;  // strides larger than the rows, to catch stride mix-ups
  std::vector<float> a, b;
};

Problem make_problem(GemmShape s, bool small_ints, std::uint64_t seed) {
  const std::int64_t lda = s.k + 3;
  const std::int64_t ldb = (s.b_layout == BLayout::Normal ? s.n : s.k) + 2;
  const std::int64_t b_rows = s.b_layout == BLayout::Normal ? s.k : s.n;
  Problem p{s, lda, ldb, s.n + 1, {}, {}};
  p.a = small_ints ? test::random_small_ints(seed, s.m * lda) : test::random_floats(seed, s.m * lda);
  p.b = small_ints ? test::random_small_ints(seed + 1, b_rows * ldb) : test::random_floats(seed + 1, b_rows * ldb);
  return p;
}

float b_at(const Problem& p, std::int64_t q, std::int64_t j) {
  return p.shape.b_layout == BLayout::Normal ? p.b[static_cast<std::size_t>(q * p.ldb + j)]
                                             : p.b[static_cast<std::size_t>(j * p.ldb + q)];
}

// Shapes that reach every path of gemm_f32: tiny (direct loop), skinny (m < 40, no packing), packed with
// partial 6x8 tiles, several kc = 256 depth blocks and more than one nc = 1024 column block.
const std::vector<GemmShape> kShapes = {
    {1, 1, 1}, {1, 13, 7}, {3, 5, 2}, {2, 33, 40}, {7, 9, 300}, {13, 17, 19}, {50, 37, 263},
    {97, 103, 31}, {6, 8, 256}, {8, 1030, 5}, {101, 9, 513}, {19, 1025, 33}, {41, 1030, 20}};

}  // namespace

TEST_CASE("Blocked GEMM equals the naive triple loop exactly on small-integer matrices", "[kernels][gemm]") {
  const auto layout = GENERATE(BLayout::Normal, BLayout::Transposed);
  for (GemmShape s : kShapes) {
    s.b_layout = layout;
    const Problem p = make_problem(s, /*small_ints=*/true, 11);
    std::vector<float> fast(static_cast<std::size_t>(s.m * p.ldc), -99.0f), naive = fast;
    gemm_f32(s, p.a.data(), p.lda, p.b.data(), p.ldb, fast.data(), p.ldc);
    gemm_f32_naive(s, p.a.data(), p.lda, p.b.data(), p.ldb, naive.data(), p.ldc);
    INFO("m " << s.m << " n " << s.n << " k " << s.k << " transposed " << (layout == BLayout::Transposed));
    CHECK(fast == naive);  // includes the padding column ldc > n, which both must leave untouched
  }
}

TEST_CASE("Blocked GEMM is within the float rounding bound of the naive loop on random matrices",
          "[kernels][gemm]") {
  const auto layout = GENERATE(BLayout::Normal, BLayout::Transposed);
  for (GemmShape s : kShapes) {
    s.b_layout = layout;
    const Problem p = make_problem(s, /*small_ints=*/false, 23);
    std::vector<float> fast(static_cast<std::size_t>(s.m * p.ldc)), naive = fast;
    gemm_f32(s, p.a.data(), p.lda, p.b.data(), p.ldb, fast.data(), p.ldc);
    gemm_f32_naive(s, p.a.data(), p.lda, p.b.data(), p.ldb, naive.data(), p.ldc);
    for (std::int64_t i = 0; i < s.m; ++i)
      for (std::int64_t j = 0; j < s.n; ++j) {
        double abs_sum = 0;
        for (std::int64_t q = 0; q < s.k; ++q) abs_sum += std::fabs(p.a[static_cast<std::size_t>(i * p.lda + q)] * b_at(p, q, j));
        const auto at = static_cast<std::size_t>(i * p.ldc + j);
        INFO("m " << s.m << " n " << s.n << " k " << s.k << " at " << i << "," << j);
        REQUIRE(std::fabs(fast[at] - naive[at]) <= dot_error_bound(s.k, abs_sum));
      }
  }
}

TEST_CASE("GEMM with k = 0 writes zeros, and FLOPs are 2 m n k", "[kernels][gemm]") {
  std::vector<float> c(6, 5.0f);
  const float dummy = 1.0f;
  gemm_f32({2, 3, 0, BLayout::Normal}, &dummy, 1, &dummy, 3, c.data(), 3);
  CHECK(c == std::vector<float>(6, 0.0f));
  // A 784 -> 256 dense layer at batch 64: 2 x 64 x 256 x 784 = 25,690,112 FLOP.
  CHECK(gemm_flop({64, 256, 784, BLayout::Transposed}) == 25'690'112);
}

TEST_CASE("The two layouts of B agree: A B equals A (B^T)^T", "[kernels][gemm]") {
  const std::int64_t m = 9, n = 14, k = 45;
  const auto a = test::random_small_ints(3, m * k);
  const auto b = test::random_small_ints(4, k * n);
  std::vector<float> bt(static_cast<std::size_t>(n * k));
  for (std::int64_t q = 0; q < k; ++q)
    for (std::int64_t j = 0; j < n; ++j) bt[static_cast<std::size_t>(j * k + q)] = b[static_cast<std::size_t>(q * n + j)];
  std::vector<float> c1(static_cast<std::size_t>(m * n)), c2 = c1;
  gemm_f32({m, n, k, BLayout::Normal}, a.data(), k, b.data(), n, c1.data(), n);
  gemm_f32({m, n, k, BLayout::Transposed}, a.data(), k, bt.data(), k, c2.data(), n);
  CHECK(c1 == c2);
}

}  // namespace SL_UNITY_ID
