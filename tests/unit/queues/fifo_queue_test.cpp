#include "queues/fifo_queue.h"

#include "matchers.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace SL_UNITY_ID {

using namespace sl::queues;

namespace {

std::vector<RequestRecord> records_of(const SingleServerParams& params, std::uint64_t seed, SingleServerRun* run = nullptr) {
  sl::RunControl ctl;
  std::vector<RequestRecord> records;
  const SingleServerRun r =
      simulate_single_server(params, seed, 0.1, ctl, [&](const RequestRecord& rec) { records.push_back(rec); });
  if (run) *run = r;
  return records;
}

}  // namespace

TEST_CASE("Every record obeys the Lindley recurrence: start = max(arrival, previous end)", "[queues][fifo]") {
  const SingleServerParams params{180, sl::Distribution::exponential(200), 20'000};
  const auto records = records_of(params, 5);
  REQUIRE(records.size() == 20'000);
  double previous_end_s = 0, previous_arrival_s = 0;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const RequestRecord& r = records[i];
    INFO("request " << i);
    REQUIRE(r.id == static_cast<std::int64_t>(i));  // arrival order
    REQUIRE(r.arrival_at_s > previous_arrival_s);
    REQUIRE(r.start_at_s == std::max(r.arrival_at_s, previous_end_s));
    REQUIRE(r.end_at_s > r.start_at_s);
    previous_end_s = r.end_at_s;
    previous_arrival_s = r.arrival_at_s;
  }
}

TEST_CASE("The integrated number in system equals the time requests spent inside the window", "[queues][fifo]") {
  // Area under N(t) over [0, last arrival] = sum over requests of min(end, window) - arrival, an identity
  // (Little's law on a finite window). Both sides sum 10^4 positive terms: 1e-9 relative covers rounding.
  SingleServerRun run;
  const auto records = records_of({150, sl::Distribution::exponential(200), 10'000}, 9, &run);
  REQUIRE(run.window_s == records.back().arrival_at_s);
  double inside = 0;
  for (const RequestRecord& r : records) inside += std::fmin(r.end_at_s, run.window_s) - r.arrival_at_s;
  CHECK_THAT(run.area_in_system, WithinRel(inside, 1e-9));
  CHECK_THAT(run.in_system.area(), WithinRel(run.area_in_system, 1e-12));
}

TEST_CASE("A fixed service time serves every request in exactly S, on the same arrivals as exponential service",
          "[queues][fifo]") {
  const double service_s = 0.004;
  const auto det = records_of({200, sl::Distribution::deterministic(service_s), 5'000}, 3);
  const auto exp = records_of({200, sl::Distribution::exponential(1 / service_s), 5'000}, 3);
  for (std::size_t i = 0; i < det.size(); ++i) {
    // end = start + S in floating point: exact up to one rounding of the sum (|end| < 100 s here).
    REQUIRE_THAT(det[i].end_at_s - det[i].start_at_s, WithinAbs(service_s, 1e-12));
    REQUIRE(det[i].arrival_at_s == exp[i].arrival_at_s);  // separate random streams per role
  }
}

}  // namespace SL_UNITY_ID
