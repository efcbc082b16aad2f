#include "request/budget/amdahl.h"

#include <limits>

namespace sl::request {

double amdahl_speedup(double f, double k) { return 1.0 / ((1.0 - f) + f / k); }

double amdahl_ceiling(double f) {
  return f < 1.0 ? 1.0 / (1.0 - f) : std::numeric_limits<double>::infinity();
}

}  // namespace sl::request
