#include "matchers.h"

#include <cmath>

#include "kernel_test_util.h"
#include "kernels/softmax.h"

namespace SL_UNITY_ID {

using namespace sl::kernels;

TEST_CASE("Softmax rows match exp(x) / sum exp(x) computed in double, and sum to 1", "[kernels][softmax]") {
  const std::int64_t rows = 3, cols = GENERATE(1, 7, 1001);
  const auto x = test::random_floats(8, rows * cols, 5.0f);
  std::vector<float> y(x.size());
  softmax_rows(rows, cols, x.data(), y.data());
  for (std::int64_t r = 0; r < rows; ++r) {
    double z = 0, sum_y = 0;
    for (std::int64_t j = 0; j < cols; ++j) z += std::exp(static_cast<double>(x[static_cast<std::size_t>(r * cols + j)]));
    for (std::int64_t j = 0; j < cols; ++j) {
      const auto at = static_cast<std::size_t>(r * cols + j);
      // float exp and the final scaling each add a few units of float rounding (2^-24 relative).
      CHECK_THAT(y[at], WithinAbs(std::exp(static_cast<double>(x[at])) / z, 1e-6 * y[at] + 1e-12));
      sum_y += y[at];
    }
    CHECK_THAT(sum_y, WithinAbs(1.0, 1e-5));
  }
}

TEST_CASE("Softmax is stable for large logits and unchanged by a shift", "[kernels][softmax]") {
  // exp(1000) overflows float; subtracting the row maximum keeps every term in (0, 1].
  std::vector<float> x = {1000.0f, 1001.0f, 999.0f}, y(3), shifted(3);
  softmax_rows(1, 3, x.data(), y.data());
  const std::vector<float> x0 = {1.0f, 2.0f, 0.0f};
  softmax_rows(1, 3, x0.data(), shifted.data());
  for (int j = 0; j < 3; ++j) {
    CHECK(std::isfinite(y[static_cast<std::size_t>(j)]));
    CHECK_THAT(y[static_cast<std::size_t>(j)], WithinAbs(shifted[static_cast<std::size_t>(j)], 1e-7));
  }
  // In place: y may alias x.
  softmax_rows(1, 3, x.data(), x.data());
  CHECK(x == y);
}

}  // namespace SL_UNITY_ID
