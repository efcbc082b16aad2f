// portable_log (core/portable_log.h): the natural logarithm from + - * / alone, so that native and wasm agree to the
// bit; within 2 ulp of std::log over the doubles a calibration meets, and exact where ln is.
#include "core/portable_log.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "core/rng.h"

namespace SL_UNITY_ID {

TEST_CASE("portable_log is within 2 ulp of std::log from 1e-300 to 1e300, and exact at 1", "[core][portable-log]") {
  CHECK(sl::portable_log(1.0) == 0.0);
  CHECK(sl::portable_log(2.0) == Approx(0.69314718055994530942).epsilon(1e-16));
  CHECK(std::isinf(sl::portable_log(0.0)));
  CHECK(std::isnan(sl::portable_log(-1.0)));
  sl::Rng rng(7);
  for (int i = 0; i < 200'000; ++i) {
    // log-uniform over 600 decades, and near 1 where log-errors of a good fit live
    const double x = i % 2 == 0 ? std::pow(10.0, 600 * rng.uniform() - 300) : 1 + (rng.uniform() - 0.5) * 1e-3;
    const double want = std::log(x), got = sl::portable_log(x);
    const double ulp = std::nextafter(std::fabs(want), std::numeric_limits<double>::infinity()) - std::fabs(want);
    INFO(x);
    CHECK(std::fabs(got - want) <= 2 * ulp);
  }
}

}  // namespace SL_UNITY_ID
