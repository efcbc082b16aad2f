#include <catch2/catch.hpp>

#include <array>
#include <cmath>

#include "kernel_test_util.h"
#include "kernels/int8.h"

namespace SL_UNITY_ID {

using namespace sl::kernels;

namespace {

std::vector<std::int8_t> random_i8(std::uint64_t seed, std::int64_t n) {
  sl::Rng rng(seed);
  std::vector<std::int8_t> x(static_cast<std::size_t>(n));
  fill_uniform(rng, x.data(), n);
  return x;
}

}  // namespace

TEST_CASE("INT8 GEMM with int32 accumulation equals the naive loop exactly", "[kernels][int8]") {
  // Integer sums are exact, so any blocking must reproduce the reference bit for bit. Shapes cross the
  // 64-row and 1024-deep blocks and leave remainders of the four-row W groups.
  const std::vector<std::array<std::int64_t, 3>> shapes = {{1, 1, 1}, {1, 9, 15}, {3, 5, 8}, {5, 7, 33},
                                                           {65, 6, 17}, {7, 13, 1030}, {70, 11, 2051}};
  for (const auto& [m, n, k] : shapes) {
    const std::int64_t lda = k + 1, ldw = k + 3, ldc = n + 2;
    const auto a = random_i8(1, m * lda);
    const auto w = random_i8(2, n * ldw);
    std::vector<std::int32_t> c(static_cast<std::size_t>(m * ldc), -7), c_naive = c;
    gemm_i8(m, n, k, a.data(), lda, w.data(), ldw, c.data(), ldc);
    gemm_i8_naive(m, n, k, a.data(), lda, w.data(), ldw, c_naive.data(), ldc);
    INFO("m " << m << " n " << n << " k " << k);
    CHECK(c == c_naive);
  }
}

TEST_CASE("INT8 GEMV equals one row of the naive INT8 GEMM", "[kernels][int8]") {
  const std::int64_t m = GENERATE(1, 4, 6, 41);
  const std::int64_t k = GENERATE(1, 7, 8, 9, 1000);
  const auto w = random_i8(3, m * k);
  const auto x = random_i8(4, k);
  std::vector<std::int32_t> y(static_cast<std::size_t>(m)), y_naive = y;
  gemv_i8(m, k, w.data(), k, x.data(), y.data());
  gemm_i8_naive(1, m, k, x.data(), k, w.data(), k, y_naive.data(), m);
  CHECK(y == y_naive);
}

TEST_CASE("INT8 extremes do not overflow at the largest safe depth", "[kernels][int8]") {
  // All -127 x -127 over k = 131,072: 16,129 x 131,072 = 2,114,060,288 < 2^31 - 1.
  const std::int64_t k = kMaxInt8Depth;
  std::vector<std::int8_t> a(static_cast<std::size_t>(k), -127), w = a;
  std::int32_t y = 0;
  gemv_i8(1, k, w.data(), k, a.data(), &y);
  CHECK(y == 2'114'060'288);
}

TEST_CASE("Symmetric per-row quantisation keeps every weight within half a step", "[kernels][int8]") {
  const std::int64_t rows = 5, cols = 23;
  auto w = test::random_floats(9, rows * cols, 0.3f);
  for (std::int64_t j = 0; j < cols; ++j) w[static_cast<std::size_t>(2 * cols + j)] = 0.0f;  // an all-zero row
  std::vector<std::int8_t> q(static_cast<std::size_t>(rows * cols));
  std::vector<float> scales(static_cast<std::size_t>(rows));
  quantize_rows(rows, cols, w.data(), q.data(), scales.data());
  CHECK(scales[2] == 1.0f);
  for (std::int64_t r = 0; r < rows; ++r) {
    int max_abs_q = 0;
    for (std::int64_t j = 0; j < cols; ++j) {
      const auto at = static_cast<std::size_t>(r * cols + j);
      CHECK(std::fabs(w[at] - scales[static_cast<std::size_t>(r)] * q[at]) <= 0.5f * scales[static_cast<std::size_t>(r)] * 1.0001f);
      max_abs_q = std::max(max_abs_q, std::abs(static_cast<int>(q[at])));
    }
    if (r != 2) CHECK(max_abs_q == 127);  // the largest weight maps to +-127
  }
}

}  // namespace SL_UNITY_ID
