#include <catch2/catch.hpp>
#include <utility>

#include "cell_runner.h"

namespace SL_UNITY_ID {

const cell_test::Cell cell{"batching/when-to-batch"};

TEST_CASE("When to batch: batching wins the p99 at a much lower rate than the mean", "[batching][when]") {
  const auto r = cell.run({{"n", "10000"}});
  const double p99_from = out(r, "batching_wins_p99_from_per_s");
  const double mean_from = out(r, "batching_wins_mean_from_per_s");
  CHECK(p99_from > 0);
  CHECK(mean_from > 0);
  CHECK(p99_from < mean_from);
  // Batch 1 serves in 5.6 ms; the batcher holds a lone request up to 5 ms, so at light load batch 1 must win
  // the mean (the sweep starts at 10 req/s, rho = 0.056).
  CHECK(mean_from > 10);
  CHECK_THAT(out(r, "batch1_capacity_per_s"), WithinRel(1 / 5.6e-3, 1e-12));
  CHECK(out(r, "top_dynamic_p99_ms") < out(r, "top_batch1_p99_ms"));
  REQUIRE(r.tables.size() == 3);
  CHECK(r.tables[0].columns[0].second.size() == 17);
}

TEST_CASE("When to batch: the result table by_rate keeps at most 12 swept rates, the highest among them",
          "[batching][when]") {
  // stride = ceil(rates / 12): 17 rates -> every 2nd, 9 rows; 100 rates -> every 9th, 12 rows.
  for (const auto& [num_rates, rows] : {std::pair{"1", 1}, std::pair{"12", 12}, std::pair{"17", 9}, std::pair{"100", 12}}) {
    const auto r = cell.run({{"n", "1000"}, {"num_rates", num_rates}});
    REQUIRE(r.tables[1].name == "by_rate");
    const auto& rates = r.tables[1].columns[0].second;
    CHECK(rates.size() == static_cast<std::size_t>(rows));
    CHECK(rates.back() == out(r, "top_rate_per_s"));
  }
}

TEST_CASE("When to batch: the batch-1 server is M/D/1 (mean within 5 % of S + rho S / (2 (1 - rho)))",
          "[batching][when]") {
  // The batcher itself is checked against M/D/1 to 4 batch-means SE in dynamic_batcher_test; this checks the
  // cell's wiring. At rho = 0.56 and 10^5 requests the SE of the mean is under 1 %.
  const auto r = cell.run({{"rate_min_per_s", "100"}, {"rate_max_per_s", "100"}, {"num_rates", "1"}, {"n", "100000"}});
  const double s = 5.6, rho = 0.56;
  const auto& t = r.tables[0];
  REQUIRE(t.columns[1].first == "batch1_mean_ms");
  CHECK_THAT(t.columns[1].second[0], WithinRel(s + rho * s / (2 * (1 - rho)), 0.05));
}

TEST_CASE("When to batch: a burst above batch-1 capacity builds a backlog batch 1 needs ~0.7 s to clear",
          "[batching][when]") {
  const auto r = cell.run({{"n", "2000"}, {"num_rates", "2"}});
  // Fluid model: (300 - 178.6) req/s for 1 s leaves ~121 requests, served at 5.6 ms each = 0.68 s. The burst
  // count is Poisson (sd 17 requests = 0.1 s of service), so allow 3 sd.
  CHECK_THAT(out(r, "burst_batch1_backlog_s"), WithinAbs((300 - 1 / 5.6e-3) * 5.6e-3, 0.3));
  CHECK(out(r, "burst_batch1_max_queue") > 60);
  CHECK(out(r, "burst_dynamic_max_queue") < 5);
  // The batcher never holds a request longer than its window plus one busy batch plus its own service.
  CHECK(out(r, "burst_dynamic_backlog_s") < 0.1);
  CHECK(out(r, "burst_dynamic_max_p99_ms") < 5 + 2 * (5 + 0.6 * 32));
  CHECK(out(r, "burst_batch1_max_p99_ms") > 10 * out(r, "burst_dynamic_max_p99_ms"));
}

TEST_CASE("When to batch rejects a reversed sweep and bad values", "[batching][when]") {
  cell_test::check_bad_inputs(cell, {
      {"a reversed rate sweep", {{"rate_min_per_s", "100"}, {"rate_max_per_s", "50"}}, "invalid", "rate_max_per_s"},
      {"a negative window", {{"window_ms", "-1"}}, "", "window_ms"},
      {"a zero batch cap", {{"max_batch", "0"}}, "out_of_range", ""},
  });
}

TEST_CASE("When to batch refuses sweeps and bursts beyond 2e7 simulated requests", "[batching][when]") {
  cell_test::check_bad_inputs(cell, {
      {"100 rates of 1e6 requests", {{"num_rates", "100"}, {"n", "1000000"}}, "too_large", "n"},
      {"a 1,000 s burst at 1e5 per s", {{"burst_per_s", "100000"}, {"burst_s", "1000"}}, "too_large", "burst_per_s"},
  });
}

TEST_CASE("When to batch: a silent burst experiment gives zeros, one with no time is rejected", "[batching][when]") {
  const auto silent = cell.run({{"burst_base_per_s", "0"}, {"burst_per_s", "0"}, {"num_rates", "2"}, {"n", "1000"}});
  CHECK(out(silent, "burst_batch1_max_queue") == 0);
  CHECK(out(silent, "burst_dynamic_max_p99_ms") == 0);
  const auto no_time = cell.error({{"burst_start_s", "0"}, {"burst_s", "0"}, {"burst_after_s", "0"}});
  CHECK(no_time.code == "invalid");
  CHECK(no_time.param == "burst_s");
}

TEST_CASE("When to batch still takes the rates under their earlier names", "[batching][when]") {
  const std::map<std::string, std::string> small = {{"num_rates", "2"}, {"n", "1000"}};
  auto renamed = small;
  renamed.insert({{"rate_max_per_s", "120"}, {"burst_per_s", "250"}, {"burst_base_per_s", "90"}});
  auto old = small;
  old.insert({{"rate_max", "120"}, {"burst_rate", "250"}, {"burst_base_rate", "90"}});
  const auto a = cell.run(renamed);
  const auto b = cell.run(old);
  CHECK(out(a, "top_rate_per_s") == 120);
  CHECK(out(b, "top_rate_per_s") == 120);
  CHECK(out(a, "burst_batch1_max_queue") == out(b, "burst_batch1_max_queue"));
  const auto both = cell.try_run({{"rate_max", "120"}, {"rate_max_per_s", "120"}});
  CHECK_FALSE(both.ok());
}

TEST_CASE("When to batch: batch 1 is M/D/1 with T_svc(1) = 5.6 ms, within 4 of its reported standard errors",
          "[batching][when]") {
  const auto r = cell.run({{"rate_min_per_s", "100"}, {"rate_max_per_s", "100"}, {"num_rates", "1"}, {"n", "100000"}});
  // M/D/1 at rho = 0.56: T = S + rho S / (2 (1 - rho)) = 5.6 + 3.5636 = 9.1636 ms.
  const double s = 5.6, rho = 100 * 5.6e-3;
  CHECK(out(r, "top_batch1_mean_se_ms") > 0);
  CHECK_THAT(out(r, "top_batch1_mean_ms"), WithinAbs(s + rho * s / (2 * (1 - rho)), 4 * out(r, "top_batch1_mean_se_ms")));
  CHECK(out(r, "top_batch1_p99_se_ms") > 0);
  CHECK(out(r, "top_batch1_p99_se_ms") < 0.05 * out(r, "top_batch1_p99_ms"));
  CHECK(out(r, "top_dynamic_mean_se_ms") > 0);
  CHECK(out(r, "top_dynamic_p99_se_ms") >= 0);
}

TEST_CASE("When to batch: the burst's on-time share, p99 and maximum, with SEs from replicas of the burst",
          "[batching][when]") {
  const std::map<std::string, std::string> small = {{"n", "2000"}, {"num_rates", "2"}};
  auto replicated = small;
  replicated["burst_replicas"] = "4";
  const auto one = cell.run(small);
  const auto four = cell.run(replicated);
  for (const char* name : {"burst_batch1_on_time_frac", "burst_dynamic_on_time_frac", "burst_batch1_p99_ms", "burst_dynamic_max_ms"}) {
    INFO(name);
    CHECK(out(one, name) == out(four, name));  // replicas add spread, not change the seed's run
  }
  CHECK(one.find_output("burst_batch1_on_time_se_frac") == nullptr);
  CHECK(out(four, "burst_batch1_on_time_se_frac") > 0);
  CHECK(out(four, "burst_batch1_p99_se_ms") > 0);
  CHECK(out(four, "burst_batch1_max_se_ms") > 0);
  // Batch 1's backlog (~0.7 s) makes many requests late; the batcher answers within window + two batches.
  CHECK(out(one, "burst_batch1_on_time_frac") < out(one, "burst_dynamic_on_time_frac"));
  CHECK(out(one, "burst_dynamic_on_time_frac") == 1);
  CHECK(out(one, "burst_batch1_p99_ms") <= out(one, "burst_batch1_max_ms"));
  CHECK(out(one, "burst_dynamic_max_ms") < 5 + 2 * (5 + 0.6 * 32));
  // With an unreachable deadline everything is on time.
  auto patient = small;
  patient["burst_deadline_ms"] = "1e6";
  CHECK(out(cell.run(patient), "burst_batch1_on_time_frac") == 1);
}

}  // namespace SL_UNITY_ID
