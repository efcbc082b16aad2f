// Tests of request/budget/pipeline.cpp: the serial schedule (figure 5A) and the event-driven pipeline (5B).
#include "matchers.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "core/distributions.h"
#include "core/stats.h"
#include "request/budget/pipeline.h"

namespace SL_UNITY_ID {

namespace lc = sl::request;

namespace {
std::vector<lc::PipelineRecord> pipelined_records(const lc::StageTimes& work, int workers, std::int64_t buffer,
                                                  lc::PipelineRun* totals = nullptr) {
  std::vector<lc::PipelineRecord> records;
  sl::RunControl ctl;
  const auto run = lc::run_pipelined(work, workers, buffer, ctl, [&](const lc::PipelineRecord& r) { records.push_back(r); });
  if (totals != nullptr) *totals = run;
  return records;
}
}  // namespace

TEST_CASE("Serial throughput is 1 / (E[pre] + E[gpu]) within 4 standard errors", "[request][pipelining]") {
  const auto work = lc::draw_stage_times(100'000, sl::Distribution::lognormal_mean_cv(4e-3, 1.5),
                                         sl::Distribution::exponential(1e3 / 6.0), 5);
  sl::RunningStats cycle_s;  // serial cycles are independent: the i.i.d. SE applies
  const auto run = lc::run_serial(work, [&](const lc::PipelineRecord& r) { cycle_s.add(r.gpu_end_s - r.pre_start_s); });
  CHECK_THAT(cycle_s.mean(), WithinAbs(10e-3, 4 * cycle_s.standard_error()));
  CHECK_THAT(run.wall_s / 100'000, WithinRel(cycle_s.mean(), 1e-9));
}

TEST_CASE("Pipelined schedule invariants: FIFO service, no idle accelerator while work waits, bounded waiting",
          "[request][pipelining]") {
  const int workers = GENERATE(1, 3);
  const std::int64_t buffer = GENERATE(0, 1, 4);
  const auto work = lc::draw_stage_times(3000, sl::Distribution::lognormal_mean_cv(9e-3, 1.0),
                                         sl::Distribution::lognormal_mean_cv(4e-3, 1.0), 3);
  const auto records = pipelined_records(work, workers, buffer);
  REQUIRE(records.size() == 3000);
  double previous_end = 0;
  std::vector<std::pair<double, int>> waiting;  // (time, +1 at pre_end / -1 at gpu_start)
  for (const auto& r : records) {
    const auto i = static_cast<std::size_t>(r.id);
    CHECK_THAT(r.pre_end_s - r.pre_start_s, WithinAbs(work.pre_s[i], 1e-12));
    CHECK_THAT(r.gpu_end_s - r.gpu_start_s, WithinAbs(work.gpu_s[i], 1e-12));
    // Work-conserving, in order of preprocessing completion: start as soon as both are free.
    CHECK(r.gpu_start_s == std::max(r.pre_end_s, previous_end));
    previous_end = r.gpu_end_s;
    waiting.push_back({r.pre_end_s, +1});
    waiting.push_back({r.gpu_start_s, -1});
  }
  std::sort(waiting.begin(), waiting.end());  // at equal times the -1 (a start) sorts first
  int depth = 0, most = 0;
  for (const auto& [t, d] : waiting) most = std::max(most, depth += d);
  // Preprocessed but not started: at most the FIFO plus one held request per worker.
  CHECK(most <= buffer + workers);
}

TEST_CASE("Serial records chain back to back: each request starts when the previous one leaves the accelerator",
          "[request][pipelining]") {
  const auto work = lc::draw_stage_times(1000, sl::Distribution::exponential(1e3 / 4.0),
                                         sl::Distribution::lognormal_mean_cv(5e-3, 0.7), 9);
  double previous_end = 0, busy_cpu = 0, busy_gpu = 0;
  std::int64_t next_id = 0;
  const auto run = lc::run_serial(work, [&](const lc::PipelineRecord& r) {
    const auto i = static_cast<std::size_t>(r.id);
    CHECK(r.id == next_id++);
    CHECK(r.pre_start_s == previous_end);
    CHECK(r.gpu_start_s == r.pre_end_s);
    CHECK(r.pre_end_s == r.pre_start_s + work.pre_s[i]);
    CHECK(r.gpu_end_s == r.pre_end_s + work.gpu_s[i]);
    previous_end = r.gpu_end_s;
    busy_cpu += work.pre_s[i];
    busy_gpu += work.gpu_s[i];
  });
  CHECK(next_id == 1000);
  CHECK(run.wall_s == previous_end);
  // Same additions in the same order as the engine's: equal to the bit.
  CHECK(run.cpu_busy_s == busy_cpu);
  CHECK(run.gpu_busy_s == busy_gpu);
}

TEST_CASE("Pipelined totals: busy time is the work done, and the wall clock is the last departure",
          "[request][pipelining]") {
  const int workers = GENERATE(1, 2, 5);
  const auto work = lc::draw_stage_times(2000, sl::Distribution::lognormal_mean_cv(6e-3, 1.0),
                                         sl::Distribution::exponential(1e3 / 3.0), 21);
  lc::PipelineRun run;
  const auto records = pipelined_records(work, workers, 2, &run);
  REQUIRE(records.size() == 2000);
  double pre = 0, gpu = 0, last = 0;
  for (std::int64_t i = 0; i < work.size(); ++i) {
    pre += work.pre_s[static_cast<std::size_t>(i)];
    gpu += work.gpu_s[static_cast<std::size_t>(i)];
  }
  for (const auto& r : records) last = std::max(last, r.gpu_end_s);
  CHECK(run.num_workers == workers);
  CHECK(run.wall_s == last);
  // The engine adds the accelerator's times in the order it serves the requests, which with several workers
  // may differ from id order: the sums agree to rounding (2000 additions of 2^-53 relative error each).
  CHECK_THAT(run.cpu_busy_s, WithinRel(pre, 1e-12));
  CHECK_THAT(run.gpu_busy_s, WithinRel(gpu, 1e-12));
  // Neither resource can be busy longer than the wall clock allows.
  CHECK(run.gpu_busy_s <= run.wall_s);
  CHECK(run.cpu_busy_s <= run.wall_s * workers);
}

}  // namespace SL_UNITY_ID
