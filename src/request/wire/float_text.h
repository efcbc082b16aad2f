#pragma once
#include <cstdint>
#include <optional>

namespace sl::request {

/// Longest text write_float produces, with the terminating zero: "-1.23456789e-38" and positional forms
/// such as "-123456789000000000000".
constexpr int kMaxFloatText = 24;

/// How write_float chooses its digits.
enum class FloatDigits {
  Full,     ///< 9 significant digits, enough for any float32 (like printf "%.9g"), trailing zeros dropped
  Shortest  ///< the fewest significant digits that still read back as the same float32
};

/// Writes a finite float32 as JSON number text into `out` (at least kMaxFloatText chars); returns the
/// length. Positional notation for decimal exponents -6..20 and exponent notation outside, as JavaScript's
/// Number.prototype.toString does. Both modes read back exactly with parse_float (and with strtof).
int write_float(float x, FloatDigits mode, char* out);

/// Reads a JSON number starting at `text` (no leading '+', no whitespace) and rounds it correctly to float32.
/// Fast path: up to 19 significant digits and a power of ten within 1e+-22, computed in double with an error
/// bound, checked against the float32 rounding boundaries; otherwise (or close to a boundary) strtof.
/// Sets *end past the number. nullopt if the text is not a number.
std::optional<float> parse_float(const char* text, const char* limit, const char** end);

}  // namespace sl::request
