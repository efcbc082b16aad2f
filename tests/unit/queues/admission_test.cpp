#include "queues/admission.h"

#include "matchers.h"

#include <algorithm>
#include <vector>

namespace SL_UNITY_ID {

using namespace sl::queues;

namespace {

std::vector<AdmissionRecord> records_of(const AdmissionParams& params, std::uint64_t seed, AdmissionRun* run = nullptr) {
  sl::RunControl ctl;
  RunProgress progress(ctl, params.arrivals.expected_arrivals());
  std::vector<AdmissionRecord> records;
  const AdmissionRun r =
      simulate_admission(params, seed, 0.5, progress, [&](const AdmissionRecord& rec) { records.push_back(rec); });
  if (run) *run = r;
  return records;
}

/// A small spike: 4 workers of 50 ms (80 req/s) see 40 req/s, then 400 req/s for 2 s, then 40 again.
AdmissionParams small_spike() {
  AdmissionParams p;
  p.arrivals = SpikeProfile{40, 400, 2, 2, 6};
  p.num_workers = 4;
  p.service = sl::Distribution::exponential(20);
  p.timeout_s = 1.0;
  return p;
}

}  // namespace

TEST_CASE("A spike profile steps its rate at the spike's edges", "[queues][admission]") {
  const SpikeProfile a{1000, 10000, 5, 2.5, 25};
  CHECK(a.rate_at(4.9) == 1000);
  CHECK(a.rate_at(5) == 10000);
  CHECK(a.rate_at(7.5) == 1000);
  CHECK(a.next_change_after(0) == 5);
  CHECK(a.next_change_after(6) == 7.5);
  CHECK(a.next_change_after(8) == 32.5);
  CHECK(a.expected_arrivals() == 1000 * 30 + 10000 * 2.5);  // the book's 25,000 spike requests
}

TEST_CASE("Every admission record is consistent with its outcome, and at most c requests are in service",
          "[queues][admission]") {
  AdmissionParams p = small_spike();
  p.max_waiting = 8;
  p.drop_expired = true;
  AdmissionRun run;
  const auto records = records_of(p, 3, &run);
  REQUIRE(records.size() > 500);  // 40 x 8 + 400 x 2 = 1,120 expected
  std::vector<std::pair<double, int>> events;  // service starts (+1) and ends (-1)
  for (std::size_t i = 0; i < records.size(); ++i) {
    const AdmissionRecord& r = records[i];
    INFO("request " << i);
    REQUIRE(r.id == static_cast<std::int64_t>(i));
    REQUIRE(r.arrival_at_s >= 0);
    REQUIRE(r.arrival_at_s < p.arrivals.end_at_s());
    if (i > 0) REQUIRE(r.arrival_at_s >= records[i - 1].arrival_at_s);
    switch (r.outcome) {
      case Outcome::Rejected: REQUIRE((r.start_at_s == r.arrival_at_s && r.end_at_s == r.arrival_at_s)); break;
      case Outcome::Dropped:
        REQUIRE(r.start_at_s == r.end_at_s);
        REQUIRE(r.start_at_s - r.arrival_at_s > p.timeout_s);
        break;
      case Outcome::Good: REQUIRE(r.time_in_system_s() <= p.timeout_s); break;
      case Outcome::Late: REQUIRE(r.time_in_system_s() > p.timeout_s); break;
    }
    if (r.outcome == Outcome::Good || r.outcome == Outcome::Late) {
      REQUIRE(r.start_at_s >= r.arrival_at_s);
      events.push_back({r.start_at_s, +1});
      events.push_back({r.end_at_s, -1});
    }
  }
  std::sort(events.begin(), events.end());  // at equal times an end (-1) sorts before a start (+1)
  int in_service = 0;
  for (const auto& e : events) {
    in_service += e.second;
    REQUIRE(in_service <= p.num_workers);
  }
  CHECK(run.max_waiting_seen <= p.max_waiting);
}

TEST_CASE("Without a limit nothing is rejected; without dropping nothing is dropped", "[queues][admission]") {
  const auto records = records_of(small_spike(), 5);
  for (const AdmissionRecord& r : records) {
    REQUIRE(r.outcome != Outcome::Rejected);
    REQUIRE(r.outcome != Outcome::Dropped);
  }
}

TEST_CASE("One worker without a limit is the Lindley recurrence of a FIFO server", "[queues][admission]") {
  AdmissionParams p = small_spike();
  p.num_workers = 1;
  p.service = sl::Distribution::deterministic(0.01);
  p.timeout_s = 100;
  const auto records = records_of(p, 7);
  double previous_end_s = 0;
  for (const AdmissionRecord& r : records) {
    REQUIRE(r.start_at_s == std::max(r.arrival_at_s, previous_end_s));
    previous_end_s = r.end_at_s;
  }
}

TEST_CASE("A request keeps its service time under every admission policy of one seed", "[queues][admission]") {
  AdmissionParams limited = small_spike();
  limited.max_waiting = 4;
  const auto none = records_of(small_spike(), 11);
  const auto limit = records_of(limited, 11);
  REQUIRE(none.size() == limit.size());  // the same arrivals
  int num_compared = 0;
  for (std::size_t i = 0; i < none.size(); ++i) {
    REQUIRE(none[i].arrival_at_s == limit[i].arrival_at_s);
    if (limit[i].outcome == Outcome::Rejected) continue;
    // Both are end - start of the same drawn service time, at different start times: rounding only.
    REQUIRE_THAT(limit[i].end_at_s - limit[i].start_at_s, WithinRel(none[i].end_at_s - none[i].start_at_s, 1e-9));
    ++num_compared;
  }
  CHECK(num_compared > 100);
}

TEST_CASE("The waiting series' area is the total time accepted requests spent queued", "[queues][admission]") {
  // Each accepted request waits from arrival to start (or to its skip); the integral of the number waiting
  // over [0, end] sums exactly those intervals, cut at the end of arrivals. 1e-9 relative covers rounding.
  AdmissionParams p = small_spike();
  AdmissionRun run;
  const auto records = records_of(p, 13, &run);
  double queued = 0;
  for (const AdmissionRecord& r : records)
    if (r.outcome != Outcome::Rejected) queued += std::min(r.start_at_s, p.arrivals.end_at_s()) - r.arrival_at_s;
  REQUIRE(queued > 0);
  CHECK_THAT(run.waiting.area(), WithinRel(queued, 1e-9));
}

}  // namespace SL_UNITY_ID
