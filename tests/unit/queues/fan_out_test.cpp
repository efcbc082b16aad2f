#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "cell_runner.h"
#include "queues/confidence_intervals.h"
#include "queues/fan_out.h"

using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using cell_test::out;
using namespace sl::queues;

namespace {

const std::string kCell = "queues/fan-out";
sl::Result<sl::RunResult> try_run(std::map<std::string, std::string> raw, const std::string& seed = "7") {
  return cell_test::try_run(kCell, std::move(raw), seed);
}

sl::RunResult run(std::map<std::string, std::string> raw, const std::string& seed = "7") {
  return cell_test::run(kCell, std::move(raw), seed);
}

/// The closed form lies within twice the simulated 95 % interval's half-width (about 4 SE) of the estimate.
void check_near(const sl::RunResult& r, const std::string& sim, const std::string& unit, double closed) {
  const double value = out(r, sim + unit), lo = out(r, sim + "_lo" + unit), hi = out(r, sim + "_hi" + unit);
  INFO(sim << " = " << value << " [" << lo << ", " << hi << "], closed form " << closed);
  CHECK(closed >= value - 2 * (value - lo));
  CHECK(closed <= value + 2 * (hi - value));
}

}  // namespace

TEST_CASE("P(at least one of n leaves is slower than its p-quantile) is 1 - p^n", "[queues][fanout]") {
  CHECK_THAT(fan_out_slow_share(0.99, 1), WithinRel(0.01, 1e-12));
  CHECK_THAT(fan_out_slow_share(0.99, 10), WithinRel(1 - std::pow(0.99, 10), 1e-12));   // 0.0956
  CHECK_THAT(fan_out_slow_share(0.99, 100), WithinRel(0.6339676587267709, 1e-12));      // 1 - 0.99^100
  CHECK_THAT(fan_out_slow_share(0.999, 1000), WithinRel(1 - std::pow(0.999, 1000), 1e-12));
  const auto r = run({{"percentile", "99.9"}, {"leaves", "1000"}, {"requests", "2000"}});
  CHECK_THAT(out(r, "p_any_slow_frac"), WithinRel(1 - std::pow(0.999, 1000), 1e-12));  // 0.632
  check_near(r, "sim_p_any_slow", "_frac", out(r, "p_any_slow_frac"));
}

TEST_CASE("The slowest of n exponential leaves: simulated p50 and p99 match F^-1(p^(1/n))", "[queues][fanout]") {
  // Exponential leaves of mean m: request p-quantile = -m ln(1 - p^(1/n)). At n = 100, m = 10 ms:
  // p50 = 49.75 ms, p99 = 92.05 ms.
  const auto r = run({});
  const double m = 10;
  CHECK_THAT(out(r, "req_p50_ms"), WithinRel(-m * std::log1p(-std::pow(0.5, 0.01)), 1e-12));
  CHECK_THAT(out(r, "req_p99_ms"), WithinRel(-m * std::log1p(-std::pow(0.99, 0.01)), 1e-12));
  check_near(r, "sim_req_p50", "_ms", out(r, "req_p50_ms"));
  check_near(r, "sim_req_p99", "_ms", out(r, "req_p99_ms"));
  check_near(r, "sim_p_any_slow", "_frac", out(r, "p_any_slow_frac"));
}

TEST_CASE("Hedged exponential leaves: the closed form is (t - m ln(1 - G)) / 2 beyond the hedge point",
          "[queues][fanout]") {
  // Past t a hedged leaf is late only if both copies are: P(Y > y) = e^(-y/m) e^(-(y-t)/m), so its
  // G-quantile is (t - m ln(1 - G)) / 2, with G = p^(1/n) for the request p-quantile.
  const double m = 0.010, t = m * std::log(20.0);  // hedge after the leaf p95
  const LeafLaw leaf = LeafLaw::exponential(m);
  const double g = std::pow(0.99, 0.01);
  CHECK_THAT(hedged_request_quantile_s(leaf, t, 100, 0.99), WithinRel((t - m * std::log1p(-g)) / 2, 1e-10));
  const auto r = run({});
  CHECK_THAT(out(r, "hedge_after_ms"), WithinRel(1e3 * t, 1e-12));
  CHECK_THAT(out(r, "hedged_p99_ms"), WithinRel(1e3 * (t - m * std::log1p(-g)) / 2, 1e-10));
  check_near(r, "sim_hedged_p99", "_ms", out(r, "hedged_p99_ms"));
}

TEST_CASE("Hedging after the p95 costs about 5 % extra load and cuts the request p99", "[queues][fanout][book]") {
  // Book: backup after the p95 => about 5 % extra load ("5 %", abs 0.005). Exactly 1 - 0.95 for a law that
  // does not depend on load; the simulated share is within its Wilson interval of it.
  for (const std::string leaf : {"exp", "lognormal"}) {
    const auto r = run({{"leaf", leaf}});
    INFO("leaf law " << leaf);
    CHECK_THAT(out(r, "hedge_share_frac"), WithinRel(0.05, 1e-12));
    CHECK_THAT(out(r, "sim_hedge_share_frac"), WithinAbs(0.05, 0.005));
    check_near(r, "sim_hedge_share", "_frac", 0.05);
    CHECK(out(r, "sim_hedged_p99_hi_ms") < out(r, "sim_req_p99_lo_ms"));
    CHECK(out(r, "p99_cut_x") > 1.3);
  }
}

TEST_CASE("Lognormal leaves: cdf and quantile invert each other, and the mean is the one asked for",
          "[queues][fanout]") {
  // Error budget: Acklam's quantile 1.2e-9 relative, the erfc fit 1.2e-7 relative.
  const LeafLaw leaf = LeafLaw::lognormal(0.010, 1.5);
  CHECK_THAT(leaf.mean_s(), WithinRel(0.010, 1e-12));
  for (double p : {0.001, 0.05, 0.5, 0.95, 0.99, 0.9999}) CHECK_THAT(leaf.cdf(leaf.quantile(p)), WithinRel(p, 3e-7));
  const auto r = run({{"leaf", "lognormal"}});
  check_near(r, "sim_req_p99", "_ms", out(r, "req_p99_ms"));
  check_near(r, "sim_hedged_p99", "_ms", out(r, "hedged_p99_ms"));
}

TEST_CASE("M/M/1 leaves: backups raise the load, so hedging at p95 costs about 10 % at rho = 0.7", "[queues][fanout]") {
  // The share h solves h = 0.05 exp(a rho h), a = ln 20 / 0.3; at rho = 0.9 there is no solution.
  const auto h = mm1_hedge_share(0.7, 0.95);
  REQUIRE(h.has_value());
  CHECK_THAT(*h, WithinRel(0.05 * std::exp(std::log(20.0) / 0.3 * 0.7 * *h), 1e-12));
  CHECK(*h > 0.09);
  CHECK(*h < 0.11);
  CHECK_FALSE(mm1_hedge_share(0.9, 0.95).has_value());

  const auto r = run({{"leaf", "mm1"}});
  REQUIRE(r.notices.size() == 1);
  CHECK(r.notices[0].code == "hedge_load");
  CHECK_THAT(out(r, "hedge_share_frac"), WithinRel(*h, 1e-12));
  // Measured leaves come from one finite queue run, whose own error the resampling intervals do not include.
  // Over seeds (666,000 measured requests at rho = 0.7) the leaf 99.3th percentile behind the request p50 at
  // n = 100 scatters by about 2.5 % (1 sd) and the backup share by about 4 %: allow 4 sd of each.
  CHECK_THAT(out(r, "sim_req_p50_ms"), WithinRel(out(r, "req_p50_ms"), 0.10));
  CHECK_THAT(out(r, "sim_hedge_share_frac"), WithinRel(*h, 0.16));

  const auto unstable = run({{"leaf", "mm1"}, {"rho", "0.9"}, {"requests", "2000"}});
  REQUIRE(unstable.notices.size() == 1);
  CHECK(unstable.notices[0].code == "hedge_unstable");
  CHECK(unstable.find_output("sim_hedged_p99_ms") == nullptr);
  CHECK(unstable.find_output("sim_req_p99_ms") != nullptr);
}

TEST_CASE("Resampled leaves: the request quantile matches the measured sample's own quantile at p^(1/n)",
          "[queues][fanout]") {
  // A measured sample is an empirical law G; the slowest of n draws from it has p-quantile G^-1(p^(1/n)),
  // here within the order-statistic interval of 20,000 simulated requests.
  std::vector<double> measured;
  sl::Rng source(4);
  for (int i = 0; i < 100'000; ++i) measured.push_back(0.01 * std::exp(2 * source.uniform()));
  std::sort(measured.begin(), measured.end());
  const LeafSampler sampler(LeafLaw::exponential(0.01), measured);
  sl::Rng rng(8);
  const FanOutSample s = simulate_fan_out(sampler, 20, 20'000, sampler.quantile(0.99), std::nullopt, rng);
  for (double p : {0.5, 0.99}) {
    const sl::queues::Estimate q = iid_quantile_sorted(s.request_s, p);
    INFO("p = " << p << ": simulated " << q.value << " [" << q.lo << ", " << q.hi << "]");
    CHECK(q.covers(sampler.quantile(std::pow(p, 1.0 / 20))));
  }
}

TEST_CASE("fan-out: bad inputs are errors that name the parameter", "[queues][fanout]") {
  SECTION("no leaves") {
    const auto r = try_run({{"leaves", "0"}});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == "out_of_range");
    CHECK(r.error().param == "leaves");
  }
  SECTION("too many leaf draws") {
    const auto r = try_run({{"leaves", "10000"}, {"requests", "1000000"}});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == "too_large");
    CHECK(r.error().param == "requests");
  }
  SECTION("a percentile of 100") {
    const auto r = try_run({{"percentile", "100"}});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().param == "percentile");
  }
}
