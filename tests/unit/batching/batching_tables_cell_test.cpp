#include <catch2/catch.hpp>

#include <cmath>

#include "batching/batch_formulas.h"
#include "cell_runner.h"

namespace SL_UNITY_ID {

const cell_test::Cell cell{"batching/batching-tables"};

TEST_CASE("Table 11: T_svc = 5 + 0.6B gives 5.6 ... 24.2 ms, 179 ... 1,322 img/s, 7.4x", "[batching][tables][book]") {
  const auto r = cell.run({});
  CHECK_THAT(out(r, "t11_svc_b1_ms"), WithinRel(5.6, 1e-12));
  CHECK_THAT(out(r, "t11_svc_b32_ms"), WithinRel(24.2, 1e-12));
  CHECK_THAT(out(r, "t11_total_b16_ms"), WithinRel(24.6, 1e-12));
  CHECK_THAT(out(r, "t11_throughput_b8_per_s"), WithinRel(8 / 9.8e-3, 1e-12));
  cell.check_book(r, "t11_throughput_b32_per_s");  // printed to 1 img/s
  CHECK_THAT(out(r, "t11_gain_x"), WithinRel((32 / 24.2) / (1 / 5.6), 1e-12));
  cell.check_book(r, "t11_gain_x");
}

TEST_CASE("Example 1.7: compute share 10.7 % -> printed 10, 79.3 % -> 79; overhead reaches 10 % at batch 75",
          "[batching][tables][book]") {
  const auto r = cell.run({});
  CHECK_THAT(out(r, "eff_b1_frac"), WithinRel(0.6 / 5.6, 1e-12));
  CHECK(out(r, "eff_b1_pct_truncated") == 10);  // int(10.71): the book truncates
  CHECK_THAT(out(r, "eff_b32_frac"), WithinRel(19.2 / 24.2, 1e-12));
  CHECK(out(r, "eff_b32_pct_truncated") == 79);
  // 0.6B / (5 + 0.6B) >= 0.9  <=>  B >= 75 (equality at 75).
  CHECK(out(r, "batch_overhead_rule") == 75);
  // Eq. 12 with a 10 ms window and 50 ms SLO: 5 + 5 + 0.6B <= 50  <=>  B <= 66.7.
  CHECK(out(r, "batch_slo_limit") == 66);
}

TEST_CASE("The overhead rule batch is the first to meet the target, for other models too", "[batching][tables]") {
  const double fixed = GENERATE(0.5e-3, 5e-3, 12e-3);
  const double per_item = GENERATE(0.05e-3, 0.6e-3, 2e-3);
  const double f = GENERATE(0.05, 0.1, 0.3);
  const auto b = sl::batching::batch_for_overhead_below(fixed, per_item, f);
  CHECK(sl::batching::batch_efficiency_frac(fixed, per_item, b) >= 1 - f - 1e-12);
  if (b > 1) CHECK(sl::batching::batch_efficiency_frac(fixed, per_item, b - 1) < 1 - f);
}

TEST_CASE("Table 12: 2.5 vs 12.5 ms wait, 47.5 vs 37.5 ms budget, +12.3 % from the assumed capacities",
          "[batching][tables][book]") {
  const auto r = cell.run({});
  CHECK_THAT(out(r, "t12_small_wait_ms"), WithinRel(2.5, 1e-12));
  CHECK_THAT(out(r, "t12_large_wait_ms"), WithinRel(12.5, 1e-12));
  CHECK_THAT(out(r, "t12_small_budget_ms"), WithinRel(47.5, 1e-12));
  CHECK_THAT(out(r, "t12_large_budget_ms"), WithinRel(37.5, 1e-12));
  CHECK_THAT(out(r, "t12_gain_frac"), WithinRel(1280.0 / 1140 - 1, 1e-12));
  cell.check_book(r, "t12_gain_frac");
  CHECK(out(r, "t12_wait_increase_ms") == 10);
  CHECK(out(r, "t12_max_wait_increase_ms") == 20);
  // Eq. 12 on the model: 2.5 + 5 + 0.6B <= 50 -> 70; 12.5 + 5 + 0.6B <= 50 -> 54.
  const auto& bmax = cell_test::column(r, "table12_model", "bmax_eq12");
  REQUIRE(bmax.size() == 2);
  CHECK(bmax[0] == 70);
  CHECK(bmax[1] == 54);
  CHECK_THAT(cell_test::column(r, "table12_model", "model_capacity_per_s")[1], WithinRel(48 / 33.8e-3, 1e-12));
}

TEST_CASE("Table 12's batch caps keep their earlier names t12_small_cap and t12_large_cap", "[batching][tables]") {
  const auto renamed = cell.run({{"t12_large_max_batch", "64"}});
  const auto old_name = cell.run({{"t12_large_cap", "64"}});
  CHECK(cell_test::column(renamed, "table12_model", "max_batch")[1] == 64);
  CHECK(out(renamed, "t12_model_gain_frac") == out(old_name, "t12_model_gain_frac"));
  CHECK(out(renamed, "t12_model_gain_frac") != out(cell.run({}), "t12_model_gain_frac"));
}

TEST_CASE("Table 14: 15 ms budget, batch 7 / p99 13, envelope 24.8 ms, capacity 1,176.9 img/s, 500 served",
          "[batching][tables][book]") {
  const auto r = cell.run({});
  CHECK_THAT(out(r, "t14_budget_ms"), WithinRel(15.0, 1e-12));
  CHECK(out(r, "t14_seen_batch_mean") == 7);
  CHECK(out(r, "t14_seen_batch_p99") == 13);
  CHECK_THAT(out(r, "t14_envelope_ms"), WithinRel(24.8, 1e-12));
  CHECK_THAT(out(r, "t14_capacity_per_s"), WithinRel(32 / 24.2e-3 * 0.89, 1e-12));
  cell.check_book(r, "t14_capacity_per_s");
  CHECK(out(r, "t14_served_per_s") == 500);
  CHECK(r.notices.empty());
  // The cap binds when memory allows fewer than the p99 batch.
  const auto capped = cell.run({{"max_batch", "8"}});
  CHECK(out(capped, "t14_seen_batch_p99") == 8);
}

TEST_CASE("Table 15: eq. 15 windows 15.8 / 7.1 / 5 / 2.24 ms shrink while batches grow", "[batching][tables][book]") {
  const auto r = cell.run({});
  CHECK_THAT(out(r, "t15_window_100_ms"), WithinRel(1e3 * std::sqrt(0.025 / 100), 1e-12));
  CHECK_THAT(out(r, "t15_window_1000_ms"), WithinRel(5.0, 1e-12));
  cell.check_book(r, "t15_latency_500_ms");
  cell.check_book(r, "t15_batch_5000");
  CHECK(out(r, "t15_window_500_ms") < out(r, "t15_window_100_ms"));
  CHECK(out(r, "t15_window_5000_ms") < out(r, "t15_window_1000_ms"));
  CHECK(out(r, "t15_batch_500") > out(r, "t15_batch_100"));
  CHECK(out(r, "t15_batch_5000") > out(r, "t15_batch_1000"));
  // At low traffic the SLO caps the window: min(50 - 25, sqrt(0.025 / 0.01)) = 25 ms.
  CHECK_THAT(sl::batching::adaptive_window_s(0.05, 0.025, 0.01), WithinRel(0.025, 1e-12));
}

TEST_CASE("Editing the service model moves every table", "[batching][tables]") {
  const auto r = cell.run({{"svc_fixed_ms", "2"}, {"svc_per_item_ms", "1"}});
  CHECK_THAT(out(r, "t11_svc_b32_ms"), WithinRel(34.0, 1e-12));
  CHECK_THAT(out(r, "t11_gain_x"), WithinRel((32 / 34.0) / (1 / 3.0), 1e-12));
  CHECK_THAT(out(r, "t14_envelope_ms"), WithinRel(12 + 2 + 13.0, 1e-12));
  CHECK(out(r, "batch_overhead_rule") == 18);  // B >= 0.9 * 2 / (0.1 * 1) = 18
}

TEST_CASE("Batching tables reject a window twice the SLO, a service above the SLO and a zero model", "[batching][tables]") {
  cell_test::check_bad_inputs(cell, {
      {"a window twice the SLO", {{"t12_large_window_ms", "100"}}, "invalid", "t12_large_window_ms"},
      {"a service time above the SLO", {{"t15_svc_ms", "60"}}, "", "t15_svc_ms"},
      {"a service model that takes no time", {{"svc_fixed_ms", "0"}, {"svc_per_item_ms", "0"}}, "", "svc_fixed_ms"},
      {"1e11 requests in one window", {{"lambda", "1000000"}, {"t14_window_ms", "100000"}}, "too_large", "t14_window_ms"},
      {"an overhead share above 1", {{"overhead_frac", "1.5"}}, "out_of_range", ""},
  });
}

}  // namespace SL_UNITY_ID
