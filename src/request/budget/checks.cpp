#include "request/budget/checks.h"

#include <cmath>
#include <optional>
#include <vector>

namespace sl::request {

std::optional<Error> check_ordered(const std::string& lo_param, double lo, const std::string& hi_param, double hi,
                                   const std::string& unit) {
  if (lo <= hi) return std::nullopt;
  return Error{"invalid", hi_param,
               hi_param + " must be at least " + lo_param + " (" + format_number(lo) + " " + unit + "), got " +
                   format_number(hi) + " " + unit,
               {{"min", format_number(lo)}, {"got", format_number(hi)}, {"unit", unit}, {"problem", "at_least_other"}, {"other", lo_param}}};
}

std::vector<double> log_grid(double lo, double hi, int levels) {
  const std::size_t n = std::size_t{1} << levels;
  std::vector<double> xs(n + 1);
  xs[0] = lo;
  xs[n] = hi;
  for (std::size_t step = n / 2; step >= 1; step /= 2)
    for (std::size_t i = step; i < n; i += 2 * step) xs[i] = std::sqrt(xs[i - step] * xs[i + step]);
  return xs;
}

}  // namespace sl::request
