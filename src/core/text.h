#pragma once
// Text a user typed, made safe to echo in a message (CLI line, JSON, the page): one line of valid UTF-8.
#include <cstddef>
#include <string>

#include "core/error.h"

namespace sl {

/// `text` as valid UTF-8 (an invalid byte becomes U+FFFD), cut at a code-point boundary after at most
/// `max_bytes` bytes of the input (then "…" is appended), control characters escaped ("\\n", "\\x00"), so
/// the echo is always one line of valid UTF-8. echo(text, -1) == text exactly when text is such a line.
std::string echo(const std::string& text, std::size_t max_bytes = 40);

/// Decimal notation only, as a person types it: [spaces] [+|-] digits [. digits] [e|E [+|-] digits] [spaces],
/// at least one digit before the exponent. No hex ("0x10", "0x1p-3"), no "inf"/"nan", no NUL, tab or
/// newline, nothing after the number: strtod alone accepts all of those.
bool is_decimal(const std::string& text);

/// "inf", "-Infinity", "NaN", "nan(0x7)"…: a spelling of a non-finite value (refused as not_finite).
bool names_non_finite(const std::string& text);

/// The same error with code, param, message and args each made one line of valid UTF-8 (echo without a
/// length limit): what every door may print as it is. run_cell returns only printable errors.
Error printable(Error error);

}  // namespace sl
