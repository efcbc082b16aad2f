#include <catch2/catch.hpp>

#include "cell_runner.h"

namespace SL_UNITY_ID {

const cell_test::Cell cell{"batching/batch-sweep-table"};

TEST_CASE("Table 9: throughput B/T and per-image T/B from the five measured times", "[batching][table9][book]") {
  const auto r = cell.run({});
  // Exact quotients of the printed inputs (5.0, 7.2, 9.1, 14.0, 25.0 ms).
  CHECK_THAT(out(r, "throughput_b1_per_s"), WithinRel(200.0, 1e-12));
  CHECK_THAT(out(r, "throughput_b4_per_s"), WithinRel(4 / 7.2e-3, 1e-12));
  CHECK_THAT(out(r, "throughput_b32_per_s"), WithinRel(1280.0, 1e-12));
  CHECK_THAT(out(r, "per_image_b8_ms"), WithinRel(1.1375, 1e-12));
  CHECK_THAT(out(r, "per_image_b32_ms"), WithinRel(0.78125, 1e-12));
  // Printed to one decimal: 6.4x and 4.4x (879.1 / 200 = 4.3956) -> tolerance 0.05.
  cell.check_book(r, "speedup_b32_vs_b1");
  cell.check_book(r, "speedup_b8_vs_b1");
  CHECK_THAT(out(r, "latency_b32_window_ms"), WithinRel(35.0, 1e-12));
  CHECK_THAT(out(r, "latency_b8_small_window_ms"), WithinRel(14.1, 1e-12));  // book: "about 14 ms"
  CHECK(out(r, "latency_b8_small_window_ms") <= 20);
  // Batch 16 also fits the 20 ms SLO behind 5 ms (14 + 5 = 19 ms); batch 32 does not (30 ms).
  CHECK(out(r, "largest_batch_within_slo") == 16);
}

TEST_CASE("The knee: throughput bought per extra ms falls after batch 8", "[batching][table9]") {
  const auto r = cell.run({});
  const auto& sweep = r.tables.front();
  REQUIRE(sweep.name == "sweep");
  std::vector<double> gain;
  for (const auto& [name, col] : sweep.columns)
    if (name == "gain_per_extra_ms") gain = col;
  REQUIRE(gain.size() == 5);
  // (879.1 - 555.6) / 1.9 ms = 170.3 per ms before the knee; (1280 - 1142.9) / 11 ms = 12.5 after.
  CHECK_THAT(gain[2], WithinRel((8 / 9.1e-3 - 4 / 7.2e-3) / 1.9, 1e-9));
  CHECK_THAT(gain[4], WithinRel((1280 - 16 / 14e-3) / 11.0, 1e-9));
  CHECK(gain[3] < gain[2] / 2);
}

TEST_CASE("Edited times flow through every column", "[batching][table9]") {
  const auto r = cell.run({{"t_b32_ms", "32"}, {"window_ms", "0"}});
  CHECK_THAT(out(r, "throughput_b32_per_s"), WithinRel(1000.0, 1e-12));
  CHECK_THAT(out(r, "speedup_b32_vs_b1"), WithinRel(5.0, 1e-12));
  CHECK_THAT(out(r, "latency_b32_window_ms"), WithinRel(32.0, 1e-12));
}

TEST_CASE("A batch faster than a smaller one, or a non-positive time, is rejected", "[batching][table9]") {
  cell_test::check_bad_inputs(cell, {
      {"batch 16 faster than batch 8", {{"t_b16_ms", "8"}}, "invalid", "t_b16_ms"},
      {"a batch-1 time of 0", {{"t_b1_ms", "0"}}, "out_of_range", "t_b1_ms"},
  });
}

}  // namespace SL_UNITY_ID
