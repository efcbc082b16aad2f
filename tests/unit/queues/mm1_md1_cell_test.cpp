#include <catch2/catch.hpp>

#include <cmath>

#include "cell_runner.h"
#include "queues/closed_forms.h"
#include "queues/confidence_intervals.h"
#include "queues/md1_tail.h"

namespace SL_UNITY_ID {

namespace {

const cell_test::Cell cell{"queues/mm1-md1"};
const std::string kSeed = "7";  // the seed these runs have always used

/// Row `row` of the table closing_rows (rho = 0.5, 0.8, 0.95): |simulated - closed| within 4 standard
/// errors; the table's 95 % half-width is t(31) = 2.04 SEs.
void check_within_4_se(const sl::RunResult& r, std::size_t row, const std::string& sim_ms,
                       const std::string& ci_ms, double closed_ms) {
  const double sim = column(r, "closing_rows", sim_ms).at(row);
  const double se = column(r, "closing_rows", ci_ms).at(row) / sl::queues::kStudentT31;
  INFO(sim_ms << " = " << sim << " ms at row " << row << ", closed form " << closed_ms << " ms, SE " << se << " ms");
  CHECK(std::fabs(sim - closed_ms) <= 4 * se);
}

/// The value of `name` in the closing_rows row at utilization `rho`.
double closing(const sl::RunResult& r, const std::string& name, double rho) {
  const auto& rhos = column(r, "closing_rows", "rho");
  for (std::size_t i = 0; i < rhos.size(); ++i)
    if (rhos[i] == rho) return column(r, "closing_rows", name)[i];
  FAIL("no closing row at rho = " << rho);
  return 0;
}

}  // namespace

TEST_CASE("Table 7: eq. 5 gives 2x/3.3x/5x/10x/20x and 10/17/25/50/100 ms at 5 ms", "[queues][mm1][book]") {
  const auto r = cell.run({}, kSeed);
  // Our values are the exact S / (1 - rho); the book's, and their printed rounding (abs 0.05 for 3.3, 0.5
  // for the integers, so 16.67 ms prints as 17), come from the lab file.
  struct Row {
    double rho;
    const char* multiple;
    const char* W_ms;
  };
  const Row rows[] = {{0.5, "eq5_multiple_50", "eq5_W_50_ms"}, {0.7, "eq5_multiple_70", "eq5_W_70_ms"},
                      {0.8, "eq5_multiple_80", "eq5_W_80_ms"}, {0.9, "eq5_multiple_90", "eq5_W_90_ms"},
                      {0.95, "eq5_multiple_95", "eq5_W_95_ms"}};
  for (const Row& row : rows) {
    INFO("rho = " << row.rho);
    CHECK_THAT(out(r, row.multiple), WithinRel(1 / (1 - row.rho), 1e-12));
    CHECK_THAT(out(r, row.W_ms), WithinRel(5 / (1 - row.rho), 1e-12));
    cell.check_book(r, row.W_ms);  // the multiples at fixed rho are constants: not book rows
  }
  // Eq. 6 rounds ln 100 = 4.605 to 4.6; at rho = 0.7 it is 4.6 / 0.3 = 15.3 service times.
  CHECK_THAT(out(r, "ln_100"), WithinRel(std::log(100.0), 1e-15));
  CHECK_THAT(out(r, "eq6_multiple_70"), WithinRel(4.6 / 0.3, 1e-12));
}

TEST_CASE("Simulated M/M/1 and M/D/1 means and p99s are within 4 SE of their closed forms", "[queues][mm1]") {
  // SEs by batch means (32 batches of one long run per load and model).
  const auto r = cell.run({}, kSeed);
  const double s = 0.005;
  const auto& rhos = column(r, "closing_rows", "rho");
  REQUIRE(rhos == std::vector<double>{0.5, 0.8, 0.95});
  for (std::size_t i = 0; i < rhos.size(); ++i) {
    const double lambda = rhos[i] / s;
    check_within_4_se(r, i, "mm1_W_ms", "mm1_W_ci_ms", 1e3 * sl::queues::mm1_mean_time_in_system_s(lambda, 1 / s));
    check_within_4_se(r, i, "mm1_p99_ms", "mm1_p99_ci_ms",
                      1e3 * sl::queues::mm1_time_in_system_quantile_s(lambda, 1 / s, 0.99));
    check_within_4_se(r, i, "md1_W_ms", "md1_W_ci_ms", 1e3 * sl::queues::md1_mean_time_in_system_s(lambda, 1 / s));
    if (const auto exact = sl::queues::md1_time_in_system_quantile_s(lambda, s, 0.99))
      check_within_4_se(r, i, "md1_p99_ms", "md1_p99_ci_ms", 1e3 * *exact);
  }
  // The exact M/D/1 p99 outputs are Erlang's formula at 0.5 and 0.8.
  CHECK(out(r, "md1_p99_exact_50_ms") == 1e3 * *sl::queues::md1_time_in_system_quantile_s(0.5 / s, s, 0.99));
  CHECK(out(r, "md1_p99_exact_80_ms") == 1e3 * *sl::queues::md1_time_in_system_quantile_s(0.8 / s, s, 0.99));
}

TEST_CASE("The 95 % intervals cover most of the closed forms across the whole sweep", "[queues][mm1]") {
  // 42 checks (M/M/1 mean and p99, M/D/1 mean at 11 loads; M/D/1 p99 at the 9 loads up to 0.85). With
  // correct 95 % intervals the count covered is about Binomial(42, 0.95): mean 39.9, sd 1.4; accept >= 35.
  const auto r = cell.run({}, "3");
  CHECK(out(r, "closed_forms_checked") == 42);
  CHECK(out(r, "closed_forms_inside_ci") >= 35);
}

TEST_CASE("M/D/1's simulated p99 sits clearly below eq. 6 at every load; M/M/1's straddles it", "[queues][mm1]") {
  const auto r = cell.run({}, kSeed);
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
  const auto a = cell.run({{"service_ms", "5"}, {"n", "500000"}}, kSeed);
  const auto b = cell.run({{"service_ms", "10"}, {"n", "500000"}}, kSeed);
  CHECK_THAT(closing(b, "mm1_W_ms", 0.8), WithinRel(2 * closing(a, "mm1_W_ms", 0.8), 1e-9));
  CHECK_THAT(closing(b, "md1_p99_ms", 0.95), WithinRel(2 * closing(a, "md1_p99_ms", 0.95), 1e-9));
  CHECK_THAT(out(b, "eq5_W_90_ms"), WithinRel(100.0, 1e-12));
}

TEST_CASE("mm1-md1: bad inputs are errors that name the parameter", "[queues][mm1]") {
  cell_test::check_bad_inputs(cell, {
      {"a negative service time", {{"service_ms", "-1"}}, "out_of_range", "service_ms"},
      {"too few requests", {{"n", "1000"}}, "out_of_range", "n"},
      {"too many requests", {{"n", "1e9"}}, "out_of_range", "n"},
      // Within the range but over the budget (1e7 requests, ~4 s natively): the sweep's old corner, 7.7 s here.
      {"the range's maximum, over the time budget", {{"n", "20000000"}}, "too_large", "n"},
  });
}

TEST_CASE("mm1-md1: the same seed gives the same sweep, another seed a different one", "[queues][mm1]") {
  const auto a = cell.run({{"n", "500000"}}, "4");
  const auto b = cell.run({{"n", "500000"}}, "4");
  const auto c = cell.run({{"n", "500000"}}, "5");
  CHECK(column(a, "sweep", "mm1_p99_ms") == column(b, "sweep", "mm1_p99_ms"));
  CHECK(column(a, "sweep", "md1_W_ms") == column(b, "sweep", "md1_W_ms"));
  CHECK(column(a, "sweep", "mm1_W_ms") != column(c, "sweep", "mm1_W_ms"));
}

TEST_CASE("The 90 % outputs are the sweep's row at rho = 0.9 in multiples of S", "[queues][mm1]") {
  const auto r = cell.run({{"service_ms", "4"}, {"n", "500000"}}, kSeed);
  const auto& rho = column(r, "sweep", "rho");
  std::size_t row = 0;
  while (row < rho.size() && std::fabs(rho[row] - 0.9) > 1e-9) ++row;
  REQUIRE(row < rho.size());
  CHECK_THAT(out(r, "mm1_W_90_x"), WithinRel(column(r, "sweep", "mm1_W_ms")[row] / 4, 1e-12));
  CHECK_THAT(out(r, "mm1_p99_90_x"), WithinRel(column(r, "sweep", "mm1_p99_ms")[row] / 4, 1e-12));
  CHECK_THAT(out(r, "md1_p99_90_x"), WithinRel(column(r, "sweep", "md1_p99_ms")[row] / 4, 1e-12));
}

}  // namespace SL_UNITY_ID
