#include <catch2/catch.hpp>

#include <cmath>

#include "request/cold_start/first_inference.h"

namespace SL_UNITY_ID {

using namespace sl::request;

TEST_CASE("First vs steady inference: one first pass per trial, every later pass timed, all positive",
          "[request][first-inference]") {
  const auto r = time_first_inference(2, 3, 7);
  CHECK(r.first_s.size() == 2);
  CHECK(r.steady_s.size() == 6);
  for (double s : r.first_s) CHECK((std::isfinite(s) && s > 0));
  for (double s : r.steady_s) CHECK((std::isfinite(s) && s > 0));
}

TEST_CASE("More trials and steady calls give proportionally more samples", "[request][first-inference]") {
  const auto r = time_first_inference(1, 0, 3);
  CHECK(r.first_s.size() == 1);
  CHECK(r.steady_s.empty());
  CHECK(time_first_inference(3, 2, 3).steady_s.size() == 6);
}

}  // namespace SL_UNITY_ID
