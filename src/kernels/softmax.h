#pragma once
// Row-wise softmax, numerically stable: subtract the row maximum before exp, so no exp overflows and the
// largest term is exactly 1.
#include <cstdint>

namespace sl::kernels {

/// y[r][j] = exp(x[r][j] - max_r) / sum_j exp(x[r][j] - max_r) for each of `rows` rows of `cols` values.
/// y may alias x. cols >= 1.
void softmax_rows(std::int64_t rows, std::int64_t cols, const float* x, float* y);

}  // namespace sl::kernels
