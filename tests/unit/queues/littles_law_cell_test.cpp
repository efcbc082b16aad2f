#include <catch2/catch.hpp>

#include "cell_runner.h"
#include "queues/closed_forms.h"

namespace SL_UNITY_ID {

const cell_test::Cell cell{"queues/littles-law"};
const std::string kSeed = "7";  // the seed these runs have always used

TEST_CASE("Little's law: L is within 1% of lambda W for N = 10^6 at rho = 0.8", "[queues][littles]") {
  const std::string service = GENERATE(as<std::string>{}, "exp", "det");
  const auto r = cell.run({{"lambda", "160"}, {"mu", "200"}, {"service", service}, {"n", "1000000"}}, kSeed);
  CHECK(out(r, "littles_rel_diff") < 0.01);
  CHECK_THAT(out(r, "L"), WithinRel(out(r, "lambda_eff_W"), 0.01));
}

TEST_CASE("Little's law cell: simulated W agrees with the M/M/1 and M/D/1 closed forms", "[queues][littles]") {
  // Sojourn times in a queue are strongly correlated, so no i.i.d. SE applies; at rho = 0.8 and 10^6
  // requests the batch-means SE of W is about 0.6% (measured by the mm1 tests); allow 3%.
  SECTION("M/M/1: 1 / (mu - lambda) = 25 ms") {
    const auto r = cell.run({{"lambda", "160"}, {"mu", "200"}, {"n", "1000000"}}, kSeed);
    CHECK_THAT(out(r, "W_ms"), WithinRel(25.0, 0.03));
    CHECK_THAT(out(r, "W_closed_form_ms"), WithinRel(25.0, 1e-12));
    // p99 of M/M/1 time in system: ln(100) / (mu - lambda) = 115.1 ms (P-square estimate, 5%).
    CHECK_THAT(out(r, "W_p99_ms"), WithinRel(1e3 * sl::queues::mm1_time_in_system_quantile_s(160, 200, 0.99), 0.05));
  }
  SECTION("M/D/1: S + rho S / (2 (1 - rho)) = 5 + 10 = 15 ms") {
    const auto r = cell.run({{"lambda", "160"}, {"mu", "200"}, {"service", "det"}, {"n", "1000000"}}, kSeed);
    CHECK_THAT(out(r, "W_closed_form_ms"), WithinRel(15.0, 1e-12));
    CHECK_THAT(out(r, "W_ms"), WithinRel(15.0, 0.03));
  }
}

TEST_CASE("An unstable queue is simulated, flagged, and has no closed form", "[queues][littles]") {
  const auto r = cell.run({{"lambda", "250"}, {"mu", "200"}, {"n", "100000"}}, kSeed);
  REQUIRE(r.notices.size() == 1);
  CHECK(r.notices[0].code == "unstable");
  CHECK(r.find_output("W_closed_form_ms") == nullptr);
  // The queue is never empty: thousands in system on average.
  CHECK(out(r, "L") > 1000);
  // W grows with N: doubling N roughly doubles the mean wait of a queue that drifts at lambda - mu.
  const auto r2 = cell.run({{"lambda", "250"}, {"mu", "200"}, {"n", "200000"}}, kSeed);
  CHECK(out(r2, "W_ms") > 1.8 * out(r, "W_ms"));
}

TEST_CASE("Unstable queue: L and lambda W differ by about 1 - 1/rho, the stay of those queued at the end", "[queues][littles]") {
  // Fluid picture at rho = 1.25: the k-th request arrives at k/lambda and leaves at k/mu, so N (1 - 1/rho) =
  // 20 % of the N requests are still queued at the last arrival, and L / (lambda W) = 1/rho. The diffusion
  // around it is of order sqrt(N) requests, 1.5 % of the 20,000 at N = 10^5; allow 10 % and 0.02.
  const auto r = cell.run({{"lambda", "250"}, {"mu", "200"}, {"n", "100000"}}, kSeed);
  CHECK_THAT(out(r, "fluid_rel_diff"), WithinRel(0.2, 1e-12));
  CHECK_THAT(out(r, "littles_rel_diff"), Catch::Matchers::WithinAbs(0.2, 0.02));
  CHECK_THAT(out(r, "in_system_at_end"), WithinRel(20'000.0, 0.1));
  // A stable queue leaves only a few behind, and has no fluid gap.
  const auto s = cell.run({{"n", "100000"}}, kSeed);
  CHECK(out(s, "in_system_at_end") < 100);
  CHECK(s.find_output("fluid_rel_diff") == nullptr);
}

TEST_CASE("Napkin math 1.2: 1,000 QPS x 50 ms = 50 in flight; 50 slots at 10 ms sustain 5,000 req/s",
          "[queues][littles][book]") {
  const auto r = cell.run({{"n", "10"}}, kSeed);
  // 1000 /s x 0.05 s and 50 / 0.01 s, exact up to the rounding of 1e-3 (the lab file's tolerance, 1e-9).
  CHECK_THAT(out(r, "in_flight"), WithinRel(cell.book("in_flight"), 1e-12));
  CHECK_THAT(out(r, "qps_supported_per_s"), WithinRel(cell.book("qps_supported_per_s"), 1e-12));
}

TEST_CASE("Napkin math 1.2 scales with its inputs, also under the old parameter id qps", "[queues][littles]") {
  const auto by_new = cell.run({{"n", "10"}, {"sizing_per_s", "300"}, {"latency_ms", "20"}}, kSeed);
  const auto by_old = cell.run({{"n", "10"}, {"qps", "300"}, {"latency_ms", "20"}}, kSeed);
  CHECK_THAT(out(by_new, "in_flight"), WithinRel(6.0, 1e-12));  // 300 /s x 0.02 s
  CHECK(out(by_old, "in_flight") == out(by_new, "in_flight"));
}

TEST_CASE("The number-in-system series keeps the exact area: its mean equals L", "[queues][littles]") {
  const auto r = cell.run({{"n", "50000"}}, kSeed);
  const auto& table = r.tables.front();
  REQUIRE(table.name == "in_system");
  const auto& t = table.columns[0].second;
  const auto& n = table.columns[1].second;
  REQUIRE(t.size() <= 410);  // downsampled to about RunControl::max_points buckets
  const double bucket = t[1] - t[0];
  const double window = out(r, "window_s");
  double area = 0;
  for (std::size_t i = 0; i < n.size(); ++i) area += n[i] * std::fmin(bucket, window - t[i]);
  CHECK_THAT(area / window, WithinRel(out(r, "L"), 1e-9));
}

TEST_CASE("The same seed gives identical results; another seed different ones", "[queues][littles]") {
  const auto a = cell.run({{"n", "20000"}}, "3");
  const auto b = cell.run({{"n", "20000"}}, "3");
  const auto c = cell.run({{"n", "20000"}}, "4");
  CHECK(out(a, "W_ms") == out(b, "W_ms"));
  CHECK(out(a, "L") == out(b, "L"));
  CHECK(out(a, "W_ms") != out(c, "W_ms"));
}

TEST_CASE("Changing the service law keeps the arrival stream", "[queues][littles]") {
  // Separate random streams: the observation window (= last arrival time) is the same for both laws.
  const auto e = cell.run({{"n", "20000"}, {"service", "exp"}}, kSeed);
  const auto d = cell.run({{"n", "20000"}, {"service", "det"}}, kSeed);
  CHECK(out(e, "window_s") == out(d, "window_s"));
}

TEST_CASE("Little's law: W's batch-means standard error covers the M/M/1 mean, 1 / (mu - lambda)", "[queues][littles]") {
  const auto r = cell.run({{"lambda", "1000"}, {"mu", "1250"}, {"n", "200000"}});
  const double se = out(r, "W_se_ms");
  CHECK(se > 0);
  CHECK(se < 0.05 * out(r, "W_ms"));
  CHECK_THAT(out(r, "W_ms"), Catch::Matchers::WithinAbs(4.0, 4 * se));  // 1 / (1,250 - 1,000) s = 4 ms
  CHECK_THAT(out(r, "lambda_eff_W_se"), WithinRel(out(r, "lambda_eff_per_s") * se * 1e-3, 1e-12));
}

}  // namespace SL_UNITY_ID
