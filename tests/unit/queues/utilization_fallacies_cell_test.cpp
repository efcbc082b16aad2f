#include <catch2/catch.hpp>

#include <cmath>

#include "cell_runner.h"
#include "queues/confidence_intervals.h"

namespace SL_UNITY_ID {

const cell_test::Cell cell{"queues/utilization-fallacies"};
const std::string kSeed = "7";  // the seed these runs have always used

TEST_CASE("Fallacy 'a faster model': 25 ms -> 2.94 ms, queueing 21.25x, system 8.5x, model 2.5x",
          "[queues][fallacies][book]") {
  const auto r = cell.run({}, kSeed);
  // Defaults: S = 5 ms at rho = 0.8, then S' = 2 ms at the same arrival rate, so rho' = 0.8 x 2 / 5 = 0.32.
  // Exact M/M/1 values (eq. 5), then the book's printed ones from the lab file.
  const double rho_after = 0.8 * 2 / 5;
  CHECK_THAT(out(r, "wait_at_rho_ms"), WithinRel(5 * 0.8 / 0.2, 1e-12));
  CHECK_THAT(out(r, "W_at_rho_ms"), WithinRel(5 / 0.2, 1e-12));
  CHECK_THAT(out(r, "rho_after"), WithinRel(rho_after, 1e-12));
  CHECK_THAT(out(r, "wait_after_ms"), WithinRel(2 * rho_after / (1 - rho_after), 1e-12));
  CHECK_THAT(out(r, "W_after_ms"), WithinRel(2 / (1 - rho_after), 1e-12));  // the 2.94 ms
  CHECK_THAT(out(r, "queue_gain_x"), WithinRel((5 * 0.8 / 0.2) / (2 * rho_after / (1 - rho_after)), 1e-12));
  CHECK_THAT(out(r, "system_speedup_x"), WithinRel((5 / 0.2) / (2 / (1 - rho_after)), 1e-12));
  CHECK_THAT(out(r, "model_speedup_x"), WithinRel(5.0 / 2.0, 1e-12));
  for (const char* output : {"wait_at_rho_ms", "W_at_rho_ms", "wait_after_ms", "W_after_ms", "queue_gain_x",
                             "system_speedup_x", "model_speedup_x"}) {
    INFO(output);
    cell.check_book(r, output);
  }
}

TEST_CASE("Pitfall 'high utilization': 90 % vs 70 % saves 22.2 %, costs 3x latency, p99 76.7 -> 230 ms",
          "[queues][fallacies][book]") {
  const auto r = cell.run({}, kSeed);
  // Defaults: rho_low = 0.7, rho_high = 0.9, S = 5 ms; eq. 6 is 4.6 S / (1 - rho).
  CHECK_THAT(out(r, "W_multiple_high"), WithinRel(1 / (1 - 0.9), 1e-12));
  CHECK_THAT(out(r, "wait_multiple_high"), WithinRel(0.9 / (1 - 0.9), 1e-12));
  CHECK_THAT(out(r, "cost_saving_frac"), WithinRel(1 - 0.7 / 0.9, 1e-12));
  CHECK_THAT(out(r, "latency_ratio_x"), WithinRel((1 - 0.7) / (1 - 0.9), 1e-12));
  CHECK_THAT(out(r, "p99_low_ms"), WithinRel(4.6 * 5 / (1 - 0.7), 1e-12));
  CHECK_THAT(out(r, "p99_high_ms"), WithinRel(4.6 * 5 / (1 - 0.9), 1e-12));
  for (const char* output : {"W_multiple_high", "wait_multiple_high", "cost_saving_frac", "latency_ratio_x",
                             "p99_low_ms", "p99_high_ms"}) {
    INFO(output);
    cell.check_book(r, output);
  }
}

TEST_CASE("Pitfall 'average latency': 16.7 ms mean vs 76.7 ms p99 at 70 %, a 4.6x gap", "[queues][fallacies][book]") {
  const auto r = cell.run({}, kSeed);
  CHECK_THAT(out(r, "W_low_ms"), WithinRel(5 / (1 - 0.7), 1e-12));
  CHECK_THAT(out(r, "p99_to_mean_x"), WithinRel(4.6, 1e-12));  // eq. 6 / eq. 5 = 4.6 at any load
  cell.check_book(r, "W_low_ms");
  cell.check_book(r, "sim_p99_to_mean_x");  // the simulated ratio, within 4 standard errors of the book's 4.6
}

TEST_CASE("Every fallacy number is confirmed by simulation within 4 standard errors", "[queues][fallacies]") {
  // The checks table holds each exact M/M/1 value beside its simulated estimate and 95 % interval (batch
  // means, t(31) = 2.04 SEs; delta method for ratios). 4 SE = 2 / 2.04 of the interval's full width.
  const auto r = cell.run({}, kSeed);
  const auto& exact = column(r, "checks", "exact");
  const auto& sim = column(r, "checks", "sim");
  const auto& lo = column(r, "checks", "sim_lo");
  const auto& hi = column(r, "checks", "sim_hi");
  REQUIRE(exact.size() == 12);
  for (std::size_t i = 0; i < exact.size(); ++i) {
    const double se = (hi[i] - lo[i]) / 2 / sl::queues::kStudentT31;
    INFO("check " << i << ": exact " << exact[i] << ", simulated " << sim[i] << ", SE " << se);
    CHECK(std::fabs(sim[i] - exact[i]) <= 4 * se);
    CHECK(se < 0.1 * exact[i]);  // and the interval is informative: SE under 10 %
  }
  CHECK(out(r, "checks_total") == 12);
}

TEST_CASE("The fallacy arithmetic follows other inputs", "[queues][fallacies]") {
  const auto r = cell.run({{"rho_low", "0.5"}, {"rho_high", "0.8"}, {"n", "400000"}}, kSeed);
  CHECK_THAT(out(r, "cost_saving_frac"), WithinRel(0.375, 1e-12));  // 1 - 0.5 / 0.8
  CHECK_THAT(out(r, "latency_ratio_x"), WithinRel(2.5, 1e-12));      // (1 - 0.5) / (1 - 0.8)
}

TEST_CASE("utilization-fallacies: bad inputs are errors that name the parameter", "[queues][fallacies]") {
  cell_test::check_bad_inputs(cell, {
      {"a 'faster' model so slow that the queue is unstable", {{"new_service_ms", "7"}}, "unstable", "new_service_ms"},  // rho' = 0.8 * 7 / 5 = 1.12
      {"a model so much faster that nothing queues any more", {{"new_service_ms", "0.01"}}, "invalid", "new_service_ms"},  // rho' = 0.8 * 0.01 / 5 = 0.0016
      {"rho_high not above rho_low", {{"rho_low", "0.9"}, {"rho_high", "0.7"}}, "invalid", "rho_high"},
      {"rho out of range", {{"rho", "1"}}, "out_of_range", "rho"},
  });
}

TEST_CASE("Utilization fallacies: the standard errors at rho_low and rho_high cover the exact M/M/1 figures",
          "[queues][fallacies]") {
  const auto r = cell.run();
  // Exact: W = S / (1 - rho), p99 = W ln(100), for S = 5 ms at 0.7 and 0.9.
  const std::pair<const char*, const char*> pairs[] = {{"sim_W_low_ms", "sim_W_low_se_ms"}, {"sim_W_high_ms", "sim_W_high_se_ms"},
                                                       {"sim_p99_low_ms", "sim_p99_low_se_ms"},
                                                       {"sim_p99_high_ms", "sim_p99_high_se_ms"}};
  const double exact[] = {5 / 0.3, 5 / 0.1, 5 / 0.3 * std::log(100.0), 5 / 0.1 * std::log(100.0)};
  for (int i = 0; i < 4; ++i) {
    INFO(pairs[i].first);
    const double se = out(r, pairs[i].second);
    CHECK(se > 0);
    CHECK_THAT(out(r, pairs[i].first), Catch::Matchers::WithinAbs(exact[i], 4 * se));
    CHECK_THAT(se, WithinRel(out(r, std::string(pairs[i].first).replace(std::string(pairs[i].first).size() - 3, 3, "_ci_ms")) /
                                 sl::queues::kStudentT31, 1e-12));
  }
}

}  // namespace SL_UNITY_ID
