#include <catch2/catch.hpp>

#include "cell_runner.h"
#include "queues/closed_forms.h"

using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

sl::RunResult run(std::map<std::string, std::string> raw, const std::string& seed = "7") {
  return cell_test::run("queues/littles-law", std::move(raw), seed);
}

using cell_test::out;

}  // namespace

TEST_CASE("Little's law: L is within 1% of lambda W for N = 10^6 at rho = 0.8", "[queues][littles]") {
  const std::string service = GENERATE(as<std::string>{}, "exp", "det");
  const auto r = run({{"lambda", "160"}, {"mu", "200"}, {"service", service}, {"n", "1000000"}});
  CHECK(out(r, "littles_rel_diff") < 0.01);
  CHECK_THAT(out(r, "L"), WithinRel(out(r, "lambda_eff_W"), 0.01));
}

TEST_CASE("Little's law cell: simulated W agrees with the M/M/1 and M/D/1 closed forms", "[queues][littles]") {
  // Sojourn times in a queue are strongly correlated, so no i.i.d. SE applies; at rho = 0.8 and 10^6
  // requests the batch-means SE of W is about 0.6% (measured by the mm1 tests); allow 3%.
  SECTION("M/M/1: 1 / (mu - lambda) = 25 ms") {
    const auto r = run({{"lambda", "160"}, {"mu", "200"}, {"n", "1000000"}});
    CHECK_THAT(out(r, "W_ms"), WithinRel(25.0, 0.03));
    CHECK_THAT(out(r, "W_closed_form_ms"), WithinRel(25.0, 1e-12));
    // p99 of M/M/1 time in system: ln(100) / (mu - lambda) = 115.1 ms (P-square estimate, 5%).
    CHECK_THAT(out(r, "W_p99_ms"), WithinRel(1e3 * sl::queues::mm1_time_in_system_quantile_s(160, 200, 0.99), 0.05));
  }
  SECTION("M/D/1: S + rho S / (2 (1 - rho)) = 5 + 10 = 15 ms") {
    const auto r = run({{"lambda", "160"}, {"mu", "200"}, {"service", "det"}, {"n", "1000000"}});
    CHECK_THAT(out(r, "W_closed_form_ms"), WithinRel(15.0, 1e-12));
    CHECK_THAT(out(r, "W_ms"), WithinRel(15.0, 0.03));
  }
}

TEST_CASE("An unstable queue is simulated, flagged, and has no closed form", "[queues][littles]") {
  const auto r = run({{"lambda", "250"}, {"mu", "200"}, {"n", "100000"}});
  REQUIRE(r.notices.size() == 1);
  CHECK(r.notices[0].code == "unstable");
  CHECK(r.find_output("W_closed_form_ms") == nullptr);
  // Still Little's law on the finite run, within the edge effect (large here: the queue is never empty).
  CHECK(out(r, "L") > 1000);
  // W grows with N: doubling N roughly doubles the mean wait of a queue that drifts at lambda - mu.
  const auto r2 = run({{"lambda", "250"}, {"mu", "200"}, {"n", "200000"}});
  CHECK(out(r2, "W_ms") > 1.8 * out(r, "W_ms"));
}

TEST_CASE("Napkin math 1.2: 1,000 QPS x 50 ms = 50 in flight; 50 slots at 10 ms sustain 5,000 req/s",
          "[queues][littles][book]") {
  const auto r = run({{"n", "10"}});
  const std::string cell = "queues/littles-law";
  // 1000 /s x 0.05 s and 50 / 0.01 s, exact up to the rounding of 1e-3 (the lab file's tolerance, 1e-9).
  CHECK_THAT(out(r, "in_flight"), WithinRel(cell_test::book_value(cell, "in_flight"), 1e-12));
  CHECK_THAT(out(r, "qps_supported_per_s"), WithinRel(cell_test::book_value(cell, "qps_supported_per_s"), 1e-12));
}

TEST_CASE("Napkin math 1.2 scales with its inputs, also under the old parameter id qps", "[queues][littles]") {
  const auto by_new = run({{"n", "10"}, {"sizing_per_s", "300"}, {"latency_ms", "20"}});
  const auto by_old = run({{"n", "10"}, {"qps", "300"}, {"latency_ms", "20"}});
  CHECK_THAT(out(by_new, "in_flight"), WithinRel(6.0, 1e-12));  // 300 /s x 0.02 s
  CHECK(out(by_old, "in_flight") == out(by_new, "in_flight"));
}

TEST_CASE("The number-in-system series keeps the exact area: its mean equals L", "[queues][littles]") {
  const auto r = run({{"n", "50000"}});
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
  const auto a = run({{"n", "20000"}}, "3");
  const auto b = run({{"n", "20000"}}, "3");
  const auto c = run({{"n", "20000"}}, "4");
  CHECK(out(a, "W_ms") == out(b, "W_ms"));
  CHECK(out(a, "L") == out(b, "L"));
  CHECK(out(a, "W_ms") != out(c, "W_ms"));
}

TEST_CASE("Changing the service law keeps the arrival stream", "[queues][littles]") {
  // Separate random streams: the observation window (= last arrival time) is the same for both laws.
  const auto e = run({{"n", "20000"}, {"service", "exp"}});
  const auto d = run({{"n", "20000"}, {"service", "det"}});
  CHECK(out(e, "window_s") == out(d, "window_s"));
}
