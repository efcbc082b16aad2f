#include <catch2/catch.hpp>

#include <cmath>

#include "cell_runner.h"
#include "queues/closed_forms.h"
#include "queues/confidence_intervals.h"
#include "queues/md1_tail.h"

using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using cell_test::column;
using cell_test::out;

namespace {

sl::RunResult run(std::map<std::string, std::string> raw, const std::string& seed = "7") {
  return cell_test::run("queues/mm1-md1", std::move(raw), seed);
}

/// |simulated - closed| within 4 standard errors; the output's 95 % half-width is t(31) = 2.04 SEs.
void check_within_4_se(const sl::RunResult& r, const std::string& sim, double closed_ms) {
  const double se = out(r, sim + "_ci_ms") / sl::queues::kStudentT31;
  INFO(sim << " = " << out(r, sim + "_ms") << " ms, closed form " << closed_ms << " ms, SE " << se << " ms");
  CHECK(std::fabs(out(r, sim + "_ms") - closed_ms) <= 4 * se);
}

}  // namespace

TEST_CASE("Table 7: eq. 5 gives 2x/3.3x/5x/10x/20x and 10/17/25/50/100 ms at 5 ms", "[queues][mm1][book]") {
  const auto r = run({});
  // Printed rounding: multiples to 1 decimal for 3.3 (abs 0.05), integers elsewhere; ms to integers (abs 0.5),
  // so 16.67 ms prints as 17. Our values are the exact S / (1 - rho).
  const double rho[] = {0.5, 0.7, 0.8, 0.9, 0.95};
  const double book_multiple[] = {2, 3.3, 5, 10, 20};
  const double book_ms[] = {10, 17, 25, 50, 100};
  const char* tag[] = {"50", "70", "80", "90", "95"};
  for (int i = 0; i < 5; ++i) {
    CHECK_THAT(out(r, std::string("eq5_multiple_") + tag[i]), WithinRel(1 / (1 - rho[i]), 1e-12));
    CHECK_THAT(out(r, std::string("eq5_multiple_") + tag[i]), WithinAbs(book_multiple[i], i == 1 ? 0.05 : 0.5));
    CHECK_THAT(out(r, std::string("eq5_W_") + tag[i] + "_ms"), WithinAbs(book_ms[i], 0.5));
  }
  // Eq. 6 rounds ln 100 = 4.605 to 4.6 (abs 0.05); at rho = 0.7 it is 4.6 / 0.3 = 15.3 service times.
  CHECK_THAT(out(r, "ln_100"), WithinAbs(4.6, 0.05));
  CHECK_THAT(out(r, "eq6_multiple_70"), WithinAbs(15.3, 0.05));
}

TEST_CASE("Simulated M/M/1 and M/D/1 means and p99s are within 4 SE of their closed forms", "[queues][mm1]") {
  // SEs by batch means (32 batches of one long run per load and model).
  const auto r = run({});
  const double s = 0.005;
  for (const auto& [tag, rho] : std::vector<std::pair<std::string, double>>{{"50", 0.5}, {"80", 0.8}, {"95", 0.95}}) {
    const double lambda = rho / s;
    check_within_4_se(r, "mm1_W_" + tag, 1e3 * sl::queues::mm1_mean_time_in_system_s(lambda, 1 / s));
    check_within_4_se(r, "mm1_p99_" + tag, 1e3 * sl::queues::mm1_time_in_system_quantile_s(lambda, 1 / s, 0.99));
    check_within_4_se(r, "md1_W_" + tag, 1e3 * sl::queues::md1_mean_time_in_system_s(lambda, 1 / s));
    if (const auto exact = sl::queues::md1_time_in_system_quantile_s(lambda, s, 0.99))
      check_within_4_se(r, "md1_p99_" + tag, 1e3 * *exact);
  }
}

TEST_CASE("The 95 % intervals cover most of the closed forms across the whole sweep", "[queues][mm1]") {
  // 42 checks (M/M/1 mean and p99, M/D/1 mean at 11 loads; M/D/1 p99 at the 9 loads up to 0.85). With
  // correct 95 % intervals the count covered is about Binomial(42, 0.95): mean 39.9, sd 1.4; accept >= 35.
  const auto r = run({}, "3");
  CHECK(out(r, "closed_forms_checked") == 42);
  CHECK(out(r, "closed_forms_inside_ci") >= 35);
}

TEST_CASE("M/D/1's simulated p99 sits clearly below eq. 6 at every load; M/M/1's straddles it", "[queues][mm1]") {
  const auto r = run({});
  const auto& eq6 = column(r, "sweep", "eq6_p99_ms");
  const auto& md1_hi = column(r, "sweep", "md1_p99_hi_ms");
  const auto& mm1_ratio = column(r, "sweep", "mm1_p99_to_eq6");
  for (std::size_t i = 0; i < eq6.size(); ++i) {
    CHECK(md1_hi[i] < 0.65 * eq6[i]);
    CHECK_THAT(mm1_ratio[i], WithinAbs(1.0, 0.2));  // within the p99 CI of ~+-10 % at the highest load
  }
}

TEST_CASE("Times in system scale with the service time at fixed utilization", "[queues][mm1]") {
  // Same seed, S doubled: every arrival and service time doubles, so every time in system does too
  // (up to rounding in 1/S).
  const auto a = run({{"service_ms", "5"}, {"n", "500000"}});
  const auto b = run({{"service_ms", "10"}, {"n", "500000"}});
  CHECK_THAT(out(b, "mm1_W_80_ms"), WithinRel(2 * out(a, "mm1_W_80_ms"), 1e-9));
  CHECK_THAT(out(b, "md1_p99_95_ms"), WithinRel(2 * out(a, "md1_p99_95_ms"), 1e-9));
  CHECK_THAT(out(b, "eq5_W_90_ms"), WithinRel(100.0, 1e-12));
}

TEST_CASE("mm1-md1: bad inputs are errors that name the parameter", "[queues][mm1]") {
  sl::RunControl ctl;
  const auto neg = sl::run_cell("queues/mm1-md1", {{"service_ms", "-1"}}, "1", ctl);
  REQUIRE_FALSE(neg.ok());
  CHECK(neg.error().code == "out_of_range");
  CHECK(neg.error().param == "service_ms");
  const auto few = sl::run_cell("queues/mm1-md1", {{"n", "1000"}}, "1", ctl);
  REQUIRE_FALSE(few.ok());
  CHECK(few.error().param == "n");
  const auto huge = sl::run_cell("queues/mm1-md1", {{"n", "1e9"}}, "1", ctl);
  REQUIRE_FALSE(huge.ok());
  CHECK(huge.error().code == "out_of_range");
}

TEST_CASE("mm1-md1: the same seed gives the same sweep, another seed a different one", "[queues][mm1]") {
  const auto a = run({{"n", "500000"}}, "4");
  const auto b = run({{"n", "500000"}}, "4");
  const auto c = run({{"n", "500000"}}, "5");
  CHECK(column(a, "sweep", "mm1_p99_ms") == column(b, "sweep", "mm1_p99_ms"));
  CHECK(column(a, "sweep", "md1_W_ms") == column(b, "sweep", "md1_W_ms"));
  CHECK(column(a, "sweep", "mm1_W_ms") != column(c, "sweep", "mm1_W_ms"));
}
