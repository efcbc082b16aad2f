#pragma once
// Helpers shared by the kernel tests: seeded random matrices and the rounding-error bound of a float sum.
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/rng.h"
#include "kernels/fill.h"

namespace sl::kernels::test {

inline std::vector<float> random_floats(std::uint64_t seed, std::int64_t n, float scale = 1.0f) {
  Rng rng(seed);
  std::vector<float> x(static_cast<std::size_t>(n));
  fill_uniform(rng, x.data(), n, scale);
  return x;
}

/// Small integers in [-3, 3]: their products and sums up to 2^24 are exact in float, so every summation
/// order gives the same bits and a blocked kernel must equal the naive one exactly.
inline std::vector<float> random_small_ints(std::uint64_t seed, std::int64_t n) {
  Rng rng(seed);
  std::vector<float> x(static_cast<std::size_t>(n));
  for (auto& v : x) v = static_cast<float>(static_cast<std::int64_t>(rng.below(7)) - 3);
  return x;
}

/// Bound on |computed - exact| for a float sum of k products: gamma_k sum |a_p b_p| with
/// gamma_k = k u / (1 - k u), u = 2^-24 (Higham, Accuracy and Stability, eq. 3.5). Two computations in
/// different orders differ by at most twice that.
inline double dot_error_bound(std::int64_t k, double sum_abs_products) {
  const double ku = static_cast<double>(k + 1) * 0x1.0p-24;
  return 2.0 * ku / (1.0 - ku) * sum_abs_products + 1e-30;
}

}  // namespace sl::kernels::test
