#include "kernels/softmax.h"

#include <algorithm>
#include <cmath>

namespace sl::kernels {

void softmax_rows(std::int64_t rows, std::int64_t cols, const float* x, float* y) {
  for (std::int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    float* yr = y + r * cols;
    const float max_x = *std::max_element(xr, xr + cols);
    double sum = 0.0;  // a double sum keeps long rows accurate
    for (std::int64_t j = 0; j < cols; ++j) {
      yr[j] = std::exp(xr[j] - max_x);
      sum += yr[j];
    }
    const float inv = static_cast<float>(1.0 / sum);
    for (std::int64_t j = 0; j < cols; ++j) yr[j] *= inv;
  }
}

}  // namespace sl::kernels
