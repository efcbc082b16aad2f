#include "core/error.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace sl {

std::string format_number(double x) {
  if (std::isnan(x)) return "NaN";
  if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
  char buf[32];
  for (int precision = 6; precision <= 17; ++precision) {  // shortest form that reads back exactly
    std::snprintf(buf, sizeof buf, "%.*g", precision, x);
    if (std::strtod(buf, nullptr) == x) break;
  }
  return buf;
}

Error invalid(std::string param, std::string message) {
  return Error{"invalid", std::move(param), std::move(message), {}};
}

}  // namespace sl
