#include <catch2/catch.hpp>

#include <cmath>

#include "cell_runner.h"
#include "queues/confidence_intervals.h"

using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using cell_test::column;
using cell_test::out;

namespace {

const std::string kCell = "queues/utilization-fallacies";
sl::Result<sl::RunResult> try_run(std::map<std::string, std::string> raw, const std::string& seed = "7") {
  return cell_test::try_run(kCell, std::move(raw), seed);
}

sl::RunResult run(std::map<std::string, std::string> raw, const std::string& seed = "7") {
  return cell_test::run(kCell, std::move(raw), seed);
}

}  // namespace

TEST_CASE("Fallacy 'a faster model': 25 ms -> 2.94 ms, queueing 21.25x, system 8.5x, model 2.5x",
          "[queues][fallacies][book]") {
  const auto r = run({});
  // Printed: wait 20 ms (integer), 0.9 ms and 2.9 ms (1 decimal, abs 0.05), 8.5x and 2.5x (1 decimal).
  CHECK_THAT(out(r, "wait_at_rho_ms"), WithinRel(20.0, 1e-12));  // 5 * 0.8 / 0.2
  CHECK_THAT(out(r, "W_at_rho_ms"), WithinRel(25.0, 1e-12));
  CHECK_THAT(out(r, "rho_after"), WithinRel(0.32, 1e-12));       // 0.8 * 2 / 5
  CHECK_THAT(out(r, "wait_after_ms"), WithinRel(2 * 0.32 / 0.68, 1e-12));
  CHECK_THAT(out(r, "wait_after_ms"), WithinAbs(0.9, 0.05));
  CHECK_THAT(out(r, "W_after_ms"), WithinAbs(2.9, 0.05));
  CHECK_THAT(out(r, "W_after_ms"), WithinAbs(2.94, 0.005));      // the 2.94 ms
  CHECK_THAT(out(r, "queue_gain_x"), WithinRel(21.25, 1e-12));   // printed "21.2x" (round half to even)
  CHECK_THAT(out(r, "system_speedup_x"), WithinRel(8.5, 1e-12));
  CHECK_THAT(out(r, "model_speedup_x"), WithinRel(2.5, 1e-12));
}

TEST_CASE("Pitfall 'high utilization': 90 % vs 70 % saves 22.2 %, costs 3x latency, p99 76.7 -> 230 ms",
          "[queues][fallacies][book]") {
  const auto r = run({});
  CHECK_THAT(out(r, "W_multiple_high"), WithinRel(10.0, 1e-12));
  CHECK_THAT(out(r, "wait_multiple_high"), WithinRel(9.0, 1e-12));
  CHECK_THAT(out(r, "cost_saving_frac"), WithinAbs(0.222, 0.0005));  // printed 22.2 %
  CHECK_THAT(out(r, "latency_ratio_x"), WithinRel(3.0, 1e-12));
  CHECK_THAT(out(r, "p99_low_ms"), WithinAbs(76.7, 0.05));           // 4.6 * 5 / 0.3 = 76.67
  CHECK_THAT(out(r, "p99_high_ms"), WithinRel(230.0, 1e-12));
}

TEST_CASE("Pitfall 'average latency': 16.7 ms mean vs 76.7 ms p99 at 70 %, a 4.6x gap", "[queues][fallacies][book]") {
  const auto r = run({});
  CHECK_THAT(out(r, "W_low_ms"), WithinAbs(16.7, 0.05));
  CHECK_THAT(out(r, "p99_to_mean_x"), WithinRel(4.6, 1e-12));
}

TEST_CASE("Every fallacy number is confirmed by simulation within 4 standard errors", "[queues][fallacies]") {
  // The checks table holds each exact M/M/1 value beside its simulated estimate and 95 % interval (batch
  // means, t(31) = 2.04 SEs; delta method for ratios). 4 SE = 2 / 2.04 of the interval's full width.
  const auto r = run({});
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
  const auto r = run({{"rho_low", "0.5"}, {"rho_high", "0.8"}, {"n", "400000"}});
  CHECK_THAT(out(r, "cost_saving_frac"), WithinRel(0.375, 1e-12));  // 1 - 0.5 / 0.8
  CHECK_THAT(out(r, "latency_ratio_x"), WithinRel(2.5, 1e-12));      // (1 - 0.5) / (1 - 0.8)
}

TEST_CASE("utilization-fallacies: bad inputs are errors that name the parameter", "[queues][fallacies]") {
  SECTION("a 'faster' model so slow that the queue is unstable") {
    const auto r = try_run({{"new_service_ms", "7"}});  // rho' = 0.8 * 7 / 5 = 1.12
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == "unstable");
    CHECK(r.error().param == "new_service_ms");
  }
  SECTION("a model so much faster that nothing queues any more") {
    const auto r = try_run({{"new_service_ms", "0.01"}});  // rho' = 0.8 * 0.01 / 5 = 0.0016
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == "invalid");
    CHECK(r.error().param == "new_service_ms");
  }
  SECTION("rho_high not above rho_low") {
    const auto r = try_run({{"rho_low", "0.9"}, {"rho_high", "0.7"}});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == "invalid");
    CHECK(r.error().param == "rho_high");
  }
  SECTION("rho out of range") {
    const auto r = try_run({{"rho", "1"}});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == "out_of_range");
    CHECK(r.error().param == "rho");
  }
}
