#include <catch2/catch.hpp>

#include <limits>

#include "core/budget.h"

namespace SL_UNITY_ID {

using sl::budget::Estimate;
using sl::budget::kMaxBytes;
using sl::budget::kMaxRunSeconds;
using sl::budget::kWasmSlowdown;

namespace {

Estimate tokens(double amount, double native_s, double bytes) {
  Estimate e;
  e.param_to_lower = "n";
  e.what = "the simulated tokens";
  e.unit = "tokens";
  e.amount = amount;
  e.per_unit = {native_s, bytes};
  return e;
}

}  // namespace

TEST_CASE("A run's limit is the smaller of the time and the memory budget, rounded down to 2 digits", "[core][budget]") {
  // 1 us natively is 2.5 us in the browser: 10 s holds 4e6 units; 1 KiB each: 1 GiB holds 1,048,576 units.
  CHECK(tokens(0, 1e-6, 0).max_amount() == Approx(kMaxRunSeconds / (1e-6 * kWasmSlowdown)).epsilon(1e-12));
  CHECK(tokens(0, 1e-6, 1024).max_amount() == Approx(1.0e6).epsilon(1e-12));  // 1,048,576 rounded down
  CHECK(tokens(0, 0, 1024).max_amount() == Approx(1.0e6).epsilon(1e-12));
  Estimate fixed = tokens(0, 1e-6, 0);
  fixed.fixed_native_s = 2;  // 5 s of the 10 in the browser are spent before the first unit
  CHECK(fixed.max_amount() == Approx(2e6).epsilon(1e-12));
}

TEST_CASE("A run within the budget passes; one over it is too_large, naming the parameter and the limit",
          "[core][budget]") {
  CHECK_FALSE(sl::budget::check(tokens(3.9e6, 1e-6, 0)).has_value());
  const auto e = sl::budget::check(tokens(5e6, 1e-6, 0));
  REQUIRE(e.has_value());
  CHECK(e->code == "too_large");
  CHECK(e->param == "n");
  CHECK(e->message == "the simulated tokens must be at most 4e+06 tokens, got 5e+06 tokens; lower n");
  const auto memory = sl::budget::check(tokens(2e6, 0, 1024));
  REQUIRE(memory.has_value());
  CHECK(memory->param == "n");
}

TEST_CASE("An estimate that is not a finite number is refused, never passed", "[core][budget]") {
  CHECK(sl::budget::check(tokens(std::numeric_limits<double>::infinity(), 1e-9, 0)).has_value());
  CHECK(sl::budget::check(tokens(std::numeric_limits<double>::quiet_NaN(), 1e-9, 0)).has_value());
  Estimate big = tokens(1, 1e-9, 0);
  big.fixed_bytes = 2 * kMaxBytes;
  CHECK(sl::budget::check(big).has_value());
}

TEST_CASE("A tally adds up the estimated seconds of the checks made while it lives; the innermost one counts",
          "[core][budget]") {
  sl::budget::check(tokens(1e6, 1e-6, 0));  // before any tally: counted nowhere
  sl::budget::Tally outer;
  sl::budget::check(tokens(1e6, 1e-6, 0));  // 1 s natively: 2.5 s in the browser
  {
    sl::budget::Tally inner;
    sl::budget::check(tokens(2e6, 1e-6, 0));
    sl::budget::check(tokens(5e6, 1e-6, 0));  // refused, but estimated all the same
    CHECK(inner.seconds() == Approx(7 * kWasmSlowdown).epsilon(1e-12));
  }
  sl::budget::check(tokens(std::numeric_limits<double>::quiet_NaN(), 1e-6, 0));  // no finite estimate: not added
  CHECK(outer.seconds() == Approx(kWasmSlowdown).epsilon(1e-12));
}

}  // namespace SL_UNITY_ID
