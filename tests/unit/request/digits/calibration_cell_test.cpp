#include <catch2/catch.hpp>

#include <cmath>

#include "cell_runner.h"

namespace SL_UNITY_ID {

const cell_test::Cell cell{"request/calibration"};

namespace {
// Rows of the sets table, in the cell's order.
enum { kRepresentative, kOneDigit, kDarkened };

double per_set(const sl::RunResult& r, const std::string& name, int set) {
  return column(r, "sets", name).at(static_cast<std::size_t>(set));
}
}  // namespace

TEST_CASE("The calibration cell: representative ranges keep INT8 within a point of FP32 and respect Delta / 2",
          "[request][calibration]") {
  const auto r = cell.run();
  CHECK(out(r, "fp32_accuracy_frac") > 0.88);
  CHECK(std::fabs(per_set(r, "drop_pp", kRepresentative)) < 1.0);
  // The eq. 17 bound, up to float rounding of alpha + q Delta (relative 1e-4 of Delta / 2 is ~1e-6 absolute).
  CHECK(out(r, "worst_error_over_half_delta") <= 1.0 + 1e-4);
  // Darkened calibration images (x 0.5) put the input range's top near half the real one: bright strokes clip.
  CHECK(per_set(r, "input_clipped_frac", kDarkened) > 0.05);
  CHECK(per_set(r, "input_clipped_frac", kDarkened) > 10 * per_set(r, "input_clipped_frac", kRepresentative));
  CHECK(per_set(r, "calib_n", kOneDigit) == 500);  // 500 ones among the 5,000 training digits
  CHECK_THAT(out(r, "book_drop_pp"), WithinAbs(76.1 - 72.9, 1e-12));  // the book's two numbers, not a book row
  const auto& beta = column(r, "calibration", "beta");
  CHECK(beta[4] < beta[0]);  // darkened input range (set 2, tensor 0) tops out below the representative one
}

TEST_CASE("Heavily darkened calibration clips enough to cost accuracy", "[request][calibration]") {
  const auto r = cell.run({{"darken", "0.1"}});
  CHECK(per_set(r, "drop_pp", kDarkened) > 10.0);
  CHECK(cell.error({{"darken", "0"}}).param == "darken");
}

TEST_CASE("The headline INT8 accuracies and the darkened set's clipped share are the sets table's rows",
          "[request][calibration]") {
  const auto r = cell.run({{"darken", "0.2"}});
  CHECK(out(r, "int8_representative_frac") == per_set(r, "int8_accuracy_frac", kRepresentative));
  CHECK(out(r, "int8_one_digit_frac") == per_set(r, "int8_accuracy_frac", kOneDigit));
  CHECK(out(r, "int8_darkened_frac") == per_set(r, "int8_accuracy_frac", kDarkened));
  CHECK(out(r, "darkened_input_clipped_frac") == per_set(r, "input_clipped_frac", kDarkened));
  for (double fp32 : column(r, "sets", "fp32_accuracy_frac")) CHECK(fp32 == out(r, "fp32_accuracy_frac"));
}

}  // namespace SL_UNITY_ID
