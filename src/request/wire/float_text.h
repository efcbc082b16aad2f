#pragma once
#include <cstdint>
#include <optional>

namespace sl::request {

/// Longest text write_float produces, with the terminating zero: "-1.23456789e-38" and positional forms
/// such as "-123456789000000000000"; in Float64 mode up to 17 digits, "-0.0000012345678901234567".
constexpr int kMaxFloatText = 26;

/// How write_float chooses its digits.
enum class FloatDigits {
  Full,     ///< 9 significant digits, enough for any float32 (like printf "%.9g"), trailing zeros dropped
  Shortest, ///< the fewest significant digits that still read back as the same float32
  /// The fewest significant digits that read back as the same float64: the float32 value widened to double and
  /// printed as a float64 sender does (Python's repr, JavaScript's Number#toString), 0.30471709370613098
  /// -> "0.304717093706131" where Shortest writes "0.3047171". Up to 17 digits.
  Float64
};

/// Writes a finite float32 as JSON number text into `out` (at least kMaxFloatText chars); returns the
/// length. Positional notation for decimal exponents -6..20 and exponent notation outside, as JavaScript's
/// Number.prototype.toString does. Every mode reads back exactly with parse_float (and with strtof).
int write_float(float x, FloatDigits mode, char* out);

/// Reads a JSON number starting at `text` (no leading '+', no whitespace) and rounds it correctly to float32.
/// Fast path: up to 19 significant digits and a power of ten within 1e+-22, computed in double with an error
/// bound, checked against the float32 rounding boundaries; otherwise (or close to a boundary) strtof.
/// Sets *end past the number. nullopt if the text is not a number.
std::optional<float> parse_float(const char* text, const char* limit, const char** end);

}  // namespace sl::request
