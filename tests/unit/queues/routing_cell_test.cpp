#include <catch2/catch.hpp>

#include "cell_runner.h"
#include "queues/erlang_c.h"

namespace SL_UNITY_ID {

const cell_test::Cell cell{"queues/routing"};
const std::string kSeed = "7";  // the seed these runs have always used

TEST_CASE("Routing cell: the shared queue's mean wait agrees with Erlang C within 4 batch-means SE",
          "[queues][multiserver][routing]") {
  const auto r = cell.try_run({{"rho_min", "0.9"}, {"rho_max", "0.9"}, {"points", "1"}, {"n", "1000000"}, {"growth_max", "1"}}, kSeed);
  REQUIRE(r.ok());
  const auto& v = r.value();
  // 8 servers of 5 ms at rho 0.9: lambda = 1,440/s, Erlang C wait = C / (1,600 - 1,440).
  CHECK_THAT(out(v, "wait_shared_closed_ms"), WithinRel(1e3 * sl::queues::mmc_mean_wait_s(8, 1440, 200), 1e-12));
  CHECK_THAT(out(v, "wait_shared_ms"), WithinAbs(out(v, "wait_shared_closed_ms"), 4 * out(v, "wait_shared_se_ms")));
  CHECK_THAT(out(v, "mean_random_closed_ms"), WithinRel(50.0, 1e-12));  // eq. 5: 5 ms / (1 - 0.9)
  // Load-aware routing recovers most of the pooling gain, JSQ more than two choices.
  CHECK(out(v, "recovered_p2_frac") > 0.5);
  CHECK(out(v, "recovered_jsq_frac") > out(v, "recovered_p2_frac"));
  CHECK(out(v, "recovered_jsq_frac") < 1);
}

TEST_CASE("Routing cell: one row per load point, ordered policies at every load", "[queues][multiserver][routing]") {
  const auto r = cell.try_run({{"points", "4"}, {"n", "100000"}}, kSeed);
  REQUIRE(r.ok());
  const auto& v = r.value();
  const auto& rho = column(v, "sweep", "rho");
  REQUIRE(rho.size() == 4);
  CHECK_THAT(rho.front(), WithinRel(0.5, 1e-12));
  CHECK_THAT(rho.back(), WithinRel(0.9, 1e-12));
  CHECK(out(v, "rho") == rho.back());
  const auto& shared = column(v, "sweep", "mean_shared_ms");
  const auto& random = column(v, "sweep", "mean_random_ms");
  const auto& closed = column(v, "sweep", "mean_shared_closed_ms");
  for (std::size_t i = 0; i < rho.size(); ++i) {
    CHECK(shared[i] < random[i]);
    CHECK(closed[i] > 5.0);  // the time in system is at least the 5 ms service
  }
}

TEST_CASE("Routing cell with fixed service: no M/M/c closed form, the M/D/1 mean for random routing",
          "[queues][multiserver][routing]") {
  const auto r = cell.try_run({{"service", "det"}, {"points", "2"}, {"n", "20000"}}, kSeed);
  REQUIRE(r.ok());
  const auto& v = r.value();
  CHECK(v.find_output("mean_shared_closed_ms") == nullptr);
  CHECK(v.find_output("p99_random_closed_ms") == nullptr);
  // M/D/1 at 0.9: 5 + 0.9 x 5 / (2 x 0.1) = 27.5 ms.
  CHECK_THAT(out(v, "mean_random_closed_ms"), WithinRel(27.5, 1e-12));
}

TEST_CASE("Routing cell: bad inputs give errors that name the parameter", "[queues][multiserver][routing]") {
  cell_test::check_bad_inputs(cell, {
      {"rho_min above rho_max", {{"rho_min", "0.9"}, {"rho_max", "0.5"}}, "invalid", "rho_min"},
      {"a load at or above 1 has no steady state and is out of range", {{"rho_max", "1"}}, "out_of_range", "rho_max"},
      {"too many requests in all", {{"points", "12"}, {"n", "2000000"}}, "too_large", "n"},
      {"zero servers", {{"servers", "0"}}, "out_of_range", "servers"},
      {"too many headroom multipliers", {{"growth_step", "0.001"}, {"growth_max", "2"}}, "too_large", "growth_max"},
      {"too many headroom requests", {{"points", "1"}, {"n", "1000000"}}, "too_large", "growth_max"},
  });
}

TEST_CASE("Routing cell: the same seed gives the same curves", "[queues][multiserver][routing]") {
  const auto a = cell.try_run({{"points", "2"}, {"n", "10000"}}, "5");
  const auto b = cell.try_run({{"points", "2"}, {"n", "10000"}}, "5");
  REQUIRE((a.ok() && b.ok()));
  CHECK(out(a.value(), "p99_jsq_ms") == out(b.value(), "p99_jsq_ms"));
  CHECK(out(a.value(), "mean_p2_ms") == out(b.value(), "mean_p2_ms"));
}

TEST_CASE("Routing: the p99 standard errors are honest: the M/M/1 and M/M/c closed forms lie within 4 SE",
          "[queues][routing]") {
  // One server at rho = 0.8 (the notebook's random routing runs one M/M/1 per GPU): exact p99 = 5 ms x ln(100) / 0.2.
  const auto one = cell.run({{"servers", "1"}, {"rho_min", "0.8"}, {"rho_max", "0.8"}, {"points", "1"}, {"n", "200000"}});
  CHECK(out(one, "p99_random_se_ms") > 0);
  CHECK_THAT(out(one, "p99_random_ms"), WithinAbs(out(one, "p99_random_closed_ms"), 4 * out(one, "p99_random_se_ms")));
  const auto pooled = cell.run({{"servers", "27"}, {"rho_min", "0.925926"}, {"rho_max", "0.925926"}, {"points", "1"},
                                {"n", "200000"}});
  CHECK(out(pooled, "p99_shared_se_ms") > 0);
  CHECK_THAT(out(pooled, "p99_shared_ms"), WithinAbs(out(pooled, "p99_shared_closed_ms"), 4 * out(pooled, "p99_shared_se_ms")));
}

TEST_CASE("Routing headroom: each fleet breaks its SLO at the first traffic multiplier where p99 > SLO or load >= 1",
          "[queues][multiserver][routing]") {
  // The notebook's fleets at 5,000 req/s of 5 ms requests, SLO 50 ms, multipliers 1, 1.05, ... 1.4.
  const auto fleet = [](int gpus, const char* n) {
    const std::string rho = std::to_string(5000.0 / (200.0 * gpus));
    return cell.run({{"servers", std::to_string(gpus)}, {"rho_min", rho}, {"rho_max", rho}, {"points", "1"}, {"n", n}}, kSeed);
  };
  // Eq. 6 for random routing (M/M/1 per server): p99 = ln(100) x 5 ms / (1 - rho m).
  const auto eq6_ms = [](int gpus, double m) { return std::log(100.0) * 5 / (1 - 5000.0 * m / (200.0 * gpus)); };
  for (const int gpus : {47, 62}) {
    const auto r = fleet(gpus, "2000");
    const double m = out(r, "break_random_closed_x");
    INFO(gpus << " GPUs break at x" << m);
    CHECK(eq6_ms(gpus, m) > 50);
    CHECK(eq6_ms(gpus, m - 0.05) <= 50);
  }
  // 26 GPUs behind one queue: p99 far below the SLO at x1 (about 29 ms), and x1.05 is 5,250 req/s > 26 x 200,
  // an unstable queue. Both calls are sure, so the simulated break has no uncertainty.
  const auto shared = fleet(26, "200000");
  CHECK(out(shared, "p99_shared_ms") < 50 - 4 * out(shared, "p99_shared_se_ms"));
  CHECK_THAT(out(shared, "break_shared_x"), WithinAbs(1.05, 1e-12));
  CHECK(out(shared, "break_shared_se_x") == 0);
  CHECK_THAT(out(shared, "break_shared_closed_x"), WithinAbs(1.05, 1e-12));
  // Random routing at 96 % load is already far past the SLO at x1.
  CHECK(out(shared, "break_random_x") == 1);
}

TEST_CASE("Routing headroom: a fleet that holds to the largest multiplier has no break and says so",
          "[queues][multiserver][routing]") {
  const auto r = cell.run({{"rho_min", "0.2"}, {"rho_max", "0.2"}, {"points", "1"}, {"n", "2000"}, {"slo_ms", "1000"}}, kSeed);
  CHECK(r.find_output("break_shared_x") == nullptr);
  CHECK(r.find_output("break_random_closed_x") == nullptr);
  bool notice = false;
  for (const auto& n : r.notices) notice = notice || n.code == "slo_holds";
  CHECK(notice);
  // A close call is a step of uncertainty: an SLO at the simulated p99 itself.
  const auto at = cell.run({{"rho_min", "0.5"}, {"rho_max", "0.5"}, {"points", "1"}, {"n", "20000"}}, kSeed);
  const auto close = cell.run({{"rho_min", "0.5"}, {"rho_max", "0.5"}, {"points", "1"}, {"n", "20000"},
                               {"slo_ms", std::to_string(out(at, "p99_shared_ms") * 0.999)}}, kSeed);
  CHECK(out(close, "break_shared_x") == 1);
  CHECK_THAT(out(close, "break_shared_se_x"), WithinAbs(0.05, 1e-12));
}

}  // namespace SL_UNITY_ID
