#include "queues/sojourn_runs.h"

#include "matchers.h"

#include <algorithm>
#include <set>
#include <vector>

#include "queues/fifo_queue.h"

namespace SL_UNITY_ID {

using namespace sl::queues;

TEST_CASE("A FIFO run keeps num_kept requests after a warm-up of a tenth", "[queues][sojourn]") {
  CHECK(num_simulated(1'000) == 1'100);
  CHECK(num_simulated(15) == 16);  // the warm-up rounds down
  sl::RunControl ctl;
  const auto times = simulate_fifo_times(160, sl::Distribution::exponential(200), 2'000, 4, ctl, /*keep_waits=*/true);
  REQUIRE(times.time_in_system_s.size() == 2'000);
  REQUIRE(times.wait_s.size() == 2'000);
  const auto no_waits = simulate_fifo_times(160, sl::Distribution::exponential(200), 2'000, 4, ctl);
  CHECK(no_waits.wait_s.empty());
  CHECK(no_waits.time_in_system_s == times.time_in_system_s);
}

TEST_CASE("The kept times are the single server's records after the warm-up, in order", "[queues][sojourn]") {
  const std::int64_t kept = 3'000;
  const double service_s = 0.005;
  sl::RunControl ctl;
  const auto times = simulate_fifo_times(150, sl::Distribution::deterministic(service_s), kept, 8, ctl, true);
  std::vector<RequestRecord> records;
  simulate_single_server({150, sl::Distribution::deterministic(service_s), num_simulated(kept)}, 8, 1.0, ctl,
                         [&](const RequestRecord& r) { records.push_back(r); });
  const std::size_t warmup = records.size() - static_cast<std::size_t>(kept);
  for (std::size_t i = 0; i < times.time_in_system_s.size(); ++i) {
    REQUIRE(times.time_in_system_s[i] == records[warmup + i].time_in_system_s());
    // time in system = wait + S; the difference of two sums of times below 100 s: rounding under 1e-12 s.
    REQUIRE_THAT(times.time_in_system_s[i] - times.wait_s[i], WithinAbs(service_s, 1e-12));
  }
}

TEST_CASE("Scenario seeds are distinct, repeatable, and a longer list extends a shorter one", "[queues][sojourn]") {
  const auto five = scenario_seeds(42, 5);
  const auto eight = scenario_seeds(42, 8);
  CHECK(std::set<std::uint64_t>(eight.begin(), eight.end()).size() == 8);
  CHECK(std::equal(five.begin(), five.end(), eight.begin()));
  CHECK(scenario_seeds(42, 5) == five);
  CHECK(scenario_seeds(43, 5) != five);
}

TEST_CASE("A progress splitter maps a part's own 0..1 into its share of the run", "[queues][sojourn]") {
  std::vector<double> fracs;
  sl::RunControl parent([&](double frac) { fracs.push_back(frac); });
  ProgressSplitter progress(parent, 100);
  progress.next(30);                       // the first part: requests 0-30
  sl::RunControl second = progress.next(20);  // requests 30-50
  second.finish();                          // the part is done: 50 of 100 (the parent's first report passes)
  REQUIRE(fracs.size() == 1);
  CHECK(fracs[0] == 0.5);
}

}  // namespace SL_UNITY_ID
