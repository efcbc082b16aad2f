#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"

namespace sl::request {

/// Cell rule shared by the calculators of this lab: a range given as two parameters must not be reversed.
/// Returns an "invalid" Error naming `hi_param` when lo > hi, with both values and the unit. Called from the
/// cells' validate_* functions with the values they read.
std::optional<Error> check_ordered(const std::string& lo_param, double lo, const std::string& hi_param, double hi,
                                   const std::string& unit);

/// Log-spaced grid of 2^levels + 1 values from lo to hi inclusive (lo, hi > 0), filled by geometric
/// midpoints sqrt(a b): only correctly rounded operations, so the grid is bit-identical natively and in wasm
/// (exp and pow may differ in the last bit between C libraries).
std::vector<double> log_grid(double lo, double hi, int levels);

}  // namespace sl::request
