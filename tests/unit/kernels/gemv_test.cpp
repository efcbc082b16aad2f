#include <catch2/catch.hpp>

#include "kernel_test_util.h"
#include "kernels/gemm.h"
#include "kernels/gemv.h"

namespace SL_UNITY_ID {

using namespace sl::kernels;

namespace {

/// y = A x for an m x k matrix A of leading dimension lda, by gemv_f32 (first) and by the naive loop (second).
std::pair<std::vector<float>, std::vector<float>> gemv_and_naive(std::int64_t m, std::int64_t k, std::int64_t lda,
                                                                 const std::vector<float>& a,
                                                                 const std::vector<float>& x) {
  std::vector<float> y(static_cast<std::size_t>(m)), y_naive = y;
  gemv_f32(m, k, a.data(), lda, x.data(), y.data());
  gemv_f32_naive(m, k, a.data(), lda, x.data(), y_naive.data());
  return {y, y_naive};
}

}  // namespace

TEST_CASE("GEMV equals the naive loop exactly on small integers and within rounding on random data",
          "[kernels][gemv]") {
  const std::int64_t m = GENERATE(1, 3, 4, 7, 33);
  const std::int64_t k = GENERATE(1, 5, 8, 17, 300);
  const std::int64_t lda = k + 5;
  SECTION("small integers: exact") {
    const auto a = test::random_small_ints(1, m * lda);
    const auto x = test::random_small_ints(2, k);
    const auto [y, y_naive] = gemv_and_naive(m, k, lda, a, x);
    CHECK(y == y_naive);
  }
  SECTION("random floats: within gamma_k sum |a x|") {
    const auto a = test::random_floats(3, m * lda);
    const auto x = test::random_floats(4, k);
    const auto [y, y_naive] = gemv_and_naive(m, k, lda, a, x);
    for (std::int64_t i = 0; i < m; ++i) {
      double abs_sum = 0;
      for (std::int64_t p = 0; p < k; ++p) abs_sum += std::fabs(a[static_cast<std::size_t>(i * lda + p)] * x[static_cast<std::size_t>(p)]);
      CHECK(std::fabs(y[static_cast<std::size_t>(i)] - y_naive[static_cast<std::size_t>(i)]) <= test::dot_error_bound(k, abs_sum));
    }
  }
}

TEST_CASE("GEMV and a one-row GEMM against W^T give the same bits", "[kernels][gemv]") {
  // Both reduce through kernels/dot.h in the same lane order, so batch 1 of a dense layer is exactly gemv.
  const std::int64_t n = 37, k = 129;
  const auto w = test::random_floats(5, n * k);
  const auto x = test::random_floats(6, k);
  std::vector<float> y(static_cast<std::size_t>(n)), c = y;
  gemv_f32(n, k, w.data(), k, x.data(), y.data());
  gemm_f32({1, n, k, BLayout::Transposed}, x.data(), k, w.data(), k, c.data(), n);
  CHECK(y == c);
}

}  // namespace SL_UNITY_ID
