#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <limits>

#include "core/error.h"

namespace SL_UNITY_ID {

TEST_CASE("format_number prints the shortest text that reads back as the same double", "[core][error]") {
  for (double x : {0.8, 0.1, 1.0 / 3.0, 1e-320, 123456789.0, -2.5e-7, 1e300, 0.0}) {
    INFO(x);
    CHECK(std::strtod(sl::format_number(x).c_str(), nullptr) == x);
  }
  CHECK(sl::format_number(0.8) == "0.8");
  CHECK(sl::format_number(1e7) == "1e+07");
  CHECK(sl::format_number(std::nan("")) == "NaN");
  CHECK(sl::format_number(-std::numeric_limits<double>::infinity()) == "-Infinity");
}

TEST_CASE("The error builders name the parameter, the limit and the value", "[core][error]") {
  const auto e = sl::too_large("n", 2e7, 1e7, "requests");
  CHECK(e.code == "too_large");
  CHECK(e.param == "n");
  CHECK(e.message == "n must be at most 1e+07 requests, got 2e+07 requests");
  const auto w = sl::too_large("hidden", 3e9, 1e9, "B", "the weights");
  CHECK(w.message == "the weights must be at most 1e+09 B, got 3e+09 B; lower hidden");
  const auto m = sl::out_of_memory("width", 3 * 1048576.0);
  CHECK(m.code == "too_large");
  CHECK(m.param == "width");
  CHECK(m.message == "could not allocate the 3 MiB this run needs; lower width");
  const auto i = sl::invalid("lo", "lo must not exceed hi");
  CHECK(i.code == "invalid");
  CHECK(i.param == "lo");
}

TEST_CASE("A Result holds either its value or its error", "[core][error]") {
  sl::Result<int> good = 3;
  REQUIRE(good.ok());
  CHECK(good.value() == 3);
  sl::Result<int> bad = sl::invalid("x", "bad x");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().param == "x");
}

}  // namespace SL_UNITY_ID
