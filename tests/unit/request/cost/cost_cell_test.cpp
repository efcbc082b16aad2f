#include <catch2/catch.hpp>

#include "cell_runner.h"
#include "request/cost/fleet_cost.h"

namespace SL_UNITY_ID {

namespace lc = sl::request;

namespace {
const cell_test::Cell cell{"request/cost"};
const lc::Machine kCpu{0.17, 50}, kT4{0.53, 400}, kV100{3.06, 1200};

}  // namespace

TEST_CASE("Example 1.3: $4/h at 200 req/s is $5.56 per million, at 800 req/s $1.39: 4x, 300 % more",
          "[request][cost][book]") {
  const auto r = cell.run();
  CHECK_THAT(out(r, "a_per_s"), WithinRel(200.0, 1e-12));
  CHECK_THAT(out(r, "b_per_s"), WithinRel(800.0, 1e-12));
  // 4 / (200 x 3600 / 1e6) = 5.5556 and 4 / 2.88 = 1.3889: printed to the cent (half a cent: 0.005).
  CHECK_THAT(out(r, "a_usd_per_m"), WithinRel(4.0 / 0.72, 1e-12));
  cell.check_book(r, "a_usd_per_m");
  cell.check_book(r, "b_usd_per_m");
  CHECK_THAT(out(r, "a_over_b"), WithinRel(4.0, 1e-12));
  CHECK_THAT(out(r, "a_extra_frac"), WithinRel(3.0, 1e-12));
}

TEST_CASE("Table 22: $0.94, $0.37 and $0.71 per million images for CPU, T4 and V100", "[request][cost][book]") {
  const auto r = cell.run();
  for (const char* name : {"cpu_usd_per_m", "t4_usd_per_m", "v100_usd_per_m"})
    cell.check_book(r, name);
  CHECK_THAT(out(r, "v100_over_t4_price"), WithinRel(3.06 / 0.53, 1e-12));
  CHECK_THAT(out(r, "v100_over_t4_throughput"), WithinRel(3.0, 1e-12));
}

TEST_CASE("5,000 req/s at rho 0.54 takes 8 V100s or 24 T4s, as the book says", "[request][cost][book]") {
  const auto r = cell.run();
  CHECK(out(r, "v100_machines") == 8);   // ceil(5000 / 648) = ceil(7.72)
  CHECK(out(r, "t4_machines") == 24);    // ceil(5000 / 216) = ceil(23.1)
  CHECK(out(r, "cpu_machines") == 186);  // ceil(5000 / 27) = ceil(185.2)
  CHECK_THAT(out(r, "t4_fleet_usd_per_h"), WithinRel(24 * 0.53, 1e-12));
  CHECK_THAT(out(r, "v100_fleet_usd_per_h"), WithinRel(8 * 3.06, 1e-12));
}

TEST_CASE("The CPU/GPU crossover is 3 x 50 x rho: 81 req/s at 0.54, 120 at 0.8, 150 at 1.0",
          "[request][cost]") {
  // Three CPUs ($0.51/h) undercut one T4 ($0.53/h), four ($0.68/h) do not; V100 never wins.
  for (double rho : {0.54, 0.8, 1.0}) {
    const auto x = lc::cpu_cheaper_up_to_qps(kCpu, {kT4, kV100}, rho);
    REQUIRE(x.has_value());
    CHECK_THAT(*x, WithinRel(3 * 50 * rho, 1e-12));
  }
  CHECK_THAT(out(cell.run(), "crossover_qps"), WithinRel(81.0, 1e-12));
  const auto r = cell.run();
  const auto& rho = column(r, "crossover", "rho");
  const auto& q = column(r, "crossover", "crossover_qps");
  for (std::size_t i = 0; i < rho.size(); ++i) CHECK_THAT(q[i], WithinRel(150 * rho[i], 1e-9));
}

TEST_CASE("A CPU no dearer per request than any GPU has no crossover, and the cell says so", "[request][cost]") {
  CHECK_FALSE(lc::cpu_cheaper_up_to_qps({0.04, 50}, {kT4, kV100}, 0.54).has_value());
  const auto r = cell.run({{"cpu_usd_per_h", "0.04"}});
  CHECK(r.find_output("crossover_qps") == nullptr);
  REQUIRE(r.notices.size() == 1);
  CHECK(r.notices[0].code == "no_crossover");
  // A CPU dearer than a whole T4 is never cheaper: the crossover is at 0.
  CHECK(out(cell.run({{"cpu_usd_per_h", "0.6"}}), "crossover_qps") == 0);
}

TEST_CASE("Cost per image scales as 1 / utilization", "[request][cost]") {
  const auto r = cell.run();
  const auto& u = column(r, "cost_vs_util", "util_frac");
  const auto& t4 = column(r, "cost_vs_util", "t4_usd_per_m");
  REQUIRE(u.back() == Approx(1.0).epsilon(1e-12));
  CHECK_THAT(t4.back(), WithinRel(out(r, "t4_usd_per_m"), 1e-9));
  for (std::size_t i = 0; i < u.size(); ++i) CHECK_THAT(t4[i] * u[i], WithinRel(out(r, "t4_usd_per_m"), 1e-9));
}

TEST_CASE("The fleet-cost series is the step function of whole machines", "[request][cost]") {
  const auto r = cell.run();
  const auto& q = column(r, "fleet_cost", "qps");
  const auto& cpu = column(r, "fleet_cost", "cpu_usd_per_h");
  REQUIRE(q.size() == 257);
  CHECK(q.front() == 1.0);
  CHECK(q.back() == 10000.0);
  for (std::size_t i = 0; i < q.size(); ++i) CHECK_THAT(cpu[i], WithinRel(0.17 * std::ceil(q[i] / 27.0 - 1e-9), 1e-9));
}

TEST_CASE("Cost inputs are validated", "[request][cost]") {
  CHECK(cell.error({{"rho", "0"}}).code == "out_of_range");
  CHECK(cell.error({{"rho", "1.2"}}).param == "rho");
  CHECK(cell.error({{"t4_per_s", "-5"}}).param == "t4_per_s");
  CHECK(cell.error({{"a_batch", "0"}}).code == "out_of_range");
}

TEST_CASE("The load grid is geometric and ends exactly at its limits", "[request][cost]") {
  const auto r = cell.run({{"sweep_max_per_s", "5000"}});
  const auto& q = column(r, "fleet_cost", "qps");
  CHECK(q.front() == 1.0);
  CHECK(q.back() == 5000.0);
  const double ratio = std::pow(5000.0, 1.0 / static_cast<double>(q.size() - 1));
  for (std::size_t i = 1; i < q.size(); ++i) CHECK_THAT(q[i] / q[i - 1], WithinRel(ratio, 1e-12));
}

TEST_CASE("The old parameter ids qps and sweep_max_qps still work", "[request][cost]") {
  const auto renamed = cell.run({{"requests_per_s", "1000"}, {"sweep_max_per_s", "2000"}});
  const auto old = cell.run({{"qps", "1000"}, {"sweep_max_qps", "2000"}});
  CHECK(out(old, "t4_machines") == out(renamed, "t4_machines"));
  CHECK(column(old, "fleet_cost", "qps") == column(renamed, "fleet_cost", "qps"));
  CHECK(out(old, "t4_machines") != out(cell.run(), "t4_machines"));  // the value given was used, not the default
}

TEST_CASE("The instances table holds one row per instance: price, throughput, cost per million and the fleet",
          "[request][cost]") {
  const auto r = cell.run();
  CHECK(column(r, "instances", "instance") == std::vector<double>{0, 1, 2});
  CHECK(column(r, "instances", "usd_per_h") == std::vector<double>{0.17, 0.53, 3.06});
  CHECK(column(r, "instances", "per_s") == std::vector<double>{50, 400, 1200});
  CHECK(column(r, "instances", "machines") == std::vector<double>{186, 24, 8});
  const auto& usd_per_m = column(r, "instances", "usd_per_m");
  const auto& fleet = column(r, "instances", "fleet_usd_per_h");
  const char* names[] = {"cpu", "t4", "v100"};
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(usd_per_m[i] == out(r, std::string(names[i]) + "_usd_per_m"));
    CHECK(fleet[i] == out(r, std::string(names[i]) + "_fleet_usd_per_h"));
  }
  CHECK(column(r, "load", "qps") == std::vector<double>{5000});
}

TEST_CASE("The fleet-cost sweep reaches the load when the load is above the sweep's limit", "[request][cost]") {
  const auto r = cell.run({{"requests_per_s", "50000"}});
  CHECK(column(r, "fleet_cost", "qps").back() == 50000.0);
  CHECK(column(r, "load", "qps") == std::vector<double>{50000});
  CHECK(column(cell.run(), "fleet_cost", "qps").back() == 10000.0);  // the default load 5,000 is inside
}

}  // namespace SL_UNITY_ID
