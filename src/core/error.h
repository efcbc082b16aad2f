#pragma once
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace sl {

/// A bad input or an impossible request, reported as a value (never thrown: em++ 3.1.6 aborts on throw).
/// `code` is stable and machine-readable ("out_of_range", "not_finite", "unstable", ...), `param` names the
/// offending parameter (empty if none), `message` is a complete English sentence with value, range and unit,
/// and `args` carries the pieces a translated message needs (min, max, unit, got).
struct Error {
  std::string code;
  std::string param;
  std::string message;
  std::vector<std::pair<std::string, std::string>> args;
};

/// Either a value or an Error.
template <class T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}        // NOLINT(google-explicit-constructor): implicit on purpose
  Result(Error error) : v_(std::move(error)) {}    // NOLINT(google-explicit-constructor)
  bool ok() const { return v_.index() == 0; }
  const T& value() const& { return std::get<0>(v_); }
  T& value() & { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

/// Formats a double the way messages show numbers: shortest round-trip-ish form ("0.8", "1e+07", "nan").
std::string format_number(double x);

/// A bad combination of inputs (code "invalid"); `args` carry its `problem` and numbers for a translated message.
Error invalid(std::string param, std::string message, std::vector<std::pair<std::string, std::string>> args = {});

/// A parameter asks for more work or memory than a run may have (code "too_large"): "<what> must be at most
/// <max> <unit>, got <got>; lower <param>". `what` defaults to the parameter's name; when it names something else
/// (a run's work or memory), the arguments carry the amount as "amount", not as the parameter's value "got".
Error too_large(std::string param, double got, double max, std::string unit, std::string what = "");

/// An allocation of `bytes` failed (code "too_large"), naming the parameter that sized it.
Error out_of_memory(std::string param, double bytes);

}  // namespace sl

/// Internal invariant check: on in tests and debug builds; a broken invariant is a bug, never user input.
#ifndef NDEBUG
#include <cstdio>
#include <cstdlib>
#define SL_ASSERT(cond)                                                               \
  do {                                                                                \
    if (!(cond)) {                                                                    \
      std::fprintf(stderr, "SL_ASSERT failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
      std::abort();                                                                   \
    }                                                                                 \
  } while (0)
#else
#define SL_ASSERT(cond) ((void)0)
#endif
