#include "matchers.h"

#include <type_traits>

#include "batching/arrivals.h"
#include "batching/dynamic_batcher.h"
#include "core/stats.h"

namespace SL_UNITY_ID {

using sl::batching::BatcherParams;
using sl::batching::BatchedRequest;
using sl::batching::ServiceModel;

namespace {

std::vector<double> arrivals(double lambda, std::int64_t n, std::uint64_t seed = 11) {
  sl::Rng rng = sl::Rng::stream(seed, sl::Stream::Arrivals);
  return sl::batching::poisson_arrivals_s(lambda, n, rng);
}

sl::batching::BatchingRun simulate(const BatcherParams& p, const std::vector<double>& at_s) {
  sl::RunControl ctl;
  return sl::batching::simulate_dynamic_batching(p, at_s, ctl);
}

}  // namespace

static_assert(!std::is_copy_assignable_v<BatchedRequest>, "request records are immutable once written");

TEST_CASE("Dynamic batcher: every request is served once, batches respect B_max and FIFO order", "[batching][batcher]") {
  BatcherParams p;
  p.max_batch_size = GENERATE(1, 4, 32);
  p.max_wait_s = GENERATE(0.0, 0.002, 0.01);
  p.num_accelerators = GENERATE(1, 3);
  const auto at_s = arrivals(900, 20'000);
  const auto run = simulate(p, at_s);
  CHECK(run.num_unserved == 0);
  REQUIRE(run.requests.size() == at_s.size());
  std::vector<int> seen(at_s.size(), 0);
  for (const auto& r : run.requests) {
    ++seen[static_cast<std::size_t>(r.id)];
    CHECK(r.arrival_at_s == at_s[static_cast<std::size_t>(r.id)]);
    CHECK(r.start_at_s >= r.arrival_at_s);
    CHECK(r.batch_size <= p.max_batch_size);
    CHECK_THAT(r.end_at_s - r.start_at_s, WithinRel(p.service.service_s(r.batch_size), 1e-12));
  }
  for (int s : seen) CHECK(s == 1);
  // Batches leave in FIFO order: each starts where the previous one ended in the id sequence.
  std::int64_t next_id = 0;
  for (const auto& b : run.batches) {
    CHECK(b.first_id == next_id);
    next_id += b.size;
  }
}

TEST_CASE("Batch-1 serving on one accelerator is M/D/1: mean latency within 4 SE of S + rho S / (2 (1 - rho))",
          "[batching][batcher]") {
  BatcherParams p;
  p.max_batch_size = 1;
  const double lambda = GENERATE(50.0, 100.0, 150.0);
  const auto run = simulate(p, arrivals(lambda, 200'000));
  const double s = 5.6e-3;  // T_svc(1) = 5 + 0.6 ms
  const double rho = lambda * s;
  const double closed_s = s + rho * s / (2 * (1 - rho));
  std::vector<double> latencies_s;
  for (const auto& r : run.requests) latencies_s.push_back(r.latency_s());  // one server: arrival order
  const double se_s = sl::batch_means_se(latencies_s);  // successive waits are correlated
  const auto summary = sl::batching::summarize(run, p);
  CHECK_THAT(summary.mean_latency_s, WithinAbs(closed_s, 4 * se_s));
  CHECK_THAT(summary.busy_frac, WithinRel(rho, 0.02));
}

TEST_CASE("With accelerators always free, a window opened by the first request closes exactly T later",
          "[batching][batcher]") {
  // The head waits T; the lambda T others expected in the window wait uniformly, T/2 on average, so the
  // mean wait per request is (T + lambda T * T/2) / (1 + lambda T). Batches are independent renewal cycles.
  BatcherParams p;
  p.max_batch_size = 1'000'000;
  p.max_wait_s = 0.01;
  p.unlimited_accelerators = true;
  const double lambda = 500;
  const auto run = simulate(p, arrivals(lambda, 200'000));
  sl::RunningStats waits;
  for (const auto& r : run.requests) {
    CHECK(r.wait_s() <= p.max_wait_s * (1 + 1e-12));
    waits.add(r.wait_s());
  }
  std::vector<double> arrival_of(run.requests.size());
  for (const auto& r : run.requests) arrival_of[static_cast<std::size_t>(r.id)] = r.arrival_at_s;
  for (const auto& b : run.batches) CHECK(b.start_at_s == arrival_of[static_cast<std::size_t>(b.first_id)] + p.max_wait_s);
  const double m = lambda * p.max_wait_s;
  const double closed_s = (p.max_wait_s + m * p.max_wait_s / 2) / (1 + m);
  // Waits within a batch are correlated; batches are independent, so use batch means over many batches.
  std::vector<double> by_arrival(run.requests.size());
  for (const auto& r : run.requests) by_arrival[static_cast<std::size_t>(r.id)] = r.wait_s();
  CHECK_THAT(waits.mean(), WithinAbs(closed_s, 4 * sl::batch_means_se(by_arrival)));
  // Mean batch size is 1 + lambda T (the head plus Poisson arrivals in its window).
  CHECK_THAT(sl::batching::summarize(run, p).mean_batch_size, WithinRel(1 + m, 0.02));
}

TEST_CASE("Overloaded batcher fills every batch and serves at B_max / T_svc(B_max) per accelerator",
          "[batching][batcher]") {
  BatcherParams p;
  p.max_batch_size = 8;
  p.num_accelerators = GENERATE(1, 2);
  const double capacity = static_cast<double>(p.num_accelerators) * 8 / p.service.service_s(8);  // 816.3 each
  const auto run = simulate(p, arrivals(3 * capacity, 50'000));
  std::int64_t full = 0;
  for (const auto& b : run.batches) full += b.size == 8;
  CHECK(full >= static_cast<std::int64_t>(run.batches.size()) - 2);
  CHECK_THAT(sl::batching::summarize(run, p).throughput_per_s, WithinRel(capacity, 0.01));
}

TEST_CASE("Size-triggered batching leaves the last partial batch unserved", "[batching][batcher]") {
  BatcherParams p;
  p.max_batch_size = 10;
  p.max_wait_s = sl::batching::kNoTimeout;
  p.unlimited_accelerators = true;
  const auto run = simulate(p, arrivals(100, 1005));
  CHECK(run.num_unserved == 5);
  CHECK(run.requests.size() == 1000);
  CHECK(run.batches.size() == 100);
}

TEST_CASE("Table 9 interpolation passes through its points and extends the last segment", "[batching][batcher]") {
  const auto m = ServiceModel::interpolated(sl::batching::table9_points_s());
  CHECK_THAT(m.service_s(8), WithinRel(9.1e-3, 1e-12));
  CHECK_THAT(m.service_s(12), WithinRel((9.1e-3 + 14e-3) / 2, 1e-12));
  CHECK_THAT(m.service_s(64), WithinRel(25e-3 + 32 * 11e-3 / 16, 1e-12));
  const auto lin = ServiceModel::linear(5e-3, 0.6e-3);
  CHECK_THAT(lin.service_s(32), WithinRel(24.2e-3, 1e-12));
}

}  // namespace SL_UNITY_ID
