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

Error invalid(std::string param, std::string message, std::vector<std::pair<std::string, std::string>> args) {
  return Error{"invalid", std::move(param), std::move(message), std::move(args)};
}

Error too_large(std::string param, double got, double max, std::string unit, std::string what) {
  const std::string unit_text = unit.empty() ? "" : " " + unit;
  std::string message = (what.empty() ? param : what) + " must be at most " + format_number(max) + unit_text + ", got " +
                        format_number(got) + unit_text;
  if (!what.empty() && what != param) {
    // The amount is not the parameter's value (work or memory derived from several): it goes as "amount".
    message += "; lower " + param;
    return Error{"too_large", param, std::move(message),
                 {{"max", format_number(max)}, {"amount", format_number(got)}, {"unit", std::move(unit)}}};
  }
  return Error{"too_large", param, std::move(message),
               {{"max", format_number(max)}, {"got", format_number(got)}, {"unit", std::move(unit)}}};
}

Error out_of_memory(std::string param, double bytes) {
  const std::string mib = format_number(std::round(bytes / (1024.0 * 1024.0) * 10) / 10);
  return Error{"too_large", param, "could not allocate the " + mib + " MiB this run needs; lower " + param,
               {{"got", mib}, {"unit", "MiB"}, {"problem", "allocation"}, {"amount", mib}}};
}

}  // namespace sl
