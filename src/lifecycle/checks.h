#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/cell.h"
#include "core/error.h"

namespace sl::lifecycle {

/// Cell rule shared by the calculators of this lab: a range given as two parameters must not be reversed.
/// Returns an "invalid" Error naming `hi_param` when lo > hi, with both values and the unit.
std::optional<Error> check_ordered(const Inputs& in, const std::string& lo_param, const std::string& hi_param,
                                   const std::string& unit);

/// log-spaced grid of `num_points` values from lo to hi inclusive (lo, hi > 0, num_points >= 2).
std::vector<double> log_grid(double lo, double hi, int num_points);

}  // namespace sl::lifecycle
