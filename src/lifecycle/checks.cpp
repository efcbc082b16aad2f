#include "lifecycle/checks.h"

#include <cmath>
#include <optional>
#include <vector>

namespace sl::lifecycle {

std::optional<Error> check_ordered(const Inputs& in, const std::string& lo_param, const std::string& hi_param,
                                   const std::string& unit) {
  const double lo = in.real(lo_param);
  const double hi = in.real(hi_param);
  if (lo <= hi) return std::nullopt;
  return Error{"invalid", hi_param,
               hi_param + " must be at least " + lo_param + " (" + format_number(lo) + " " + unit + "), got " +
                   format_number(hi) + " " + unit,
               {{"min", format_number(lo)}, {"got", format_number(hi)}, {"unit", unit}}};
}

std::vector<double> log_grid(double lo, double hi, int num_points) {
  std::vector<double> xs;
  const double step = std::log(hi / lo) / (num_points - 1);
  for (int i = 0; i < num_points; ++i) xs.push_back(i + 1 == num_points ? hi : lo * std::exp(step * i));
  return xs;
}

}  // namespace sl::lifecycle
