#include <catch2/catch.hpp>

#include <algorithm>

#include "core/stats.h"
#include "cell_runner.h"
#include "request/budget/pipeline.h"

namespace SL_UNITY_ID {

namespace lc = sl::request;

namespace {
const cell_test::Cell cell{"request/pipelining"};

std::vector<lc::PipelineRecord> pipelined_records(const lc::StageTimes& work, int workers, std::int64_t buffer) {
  std::vector<lc::PipelineRecord> records;
  sl::RunControl ctl;
  lc::run_pipelined(work, workers, buffer, ctl, [&](const lc::PipelineRecord& r) { records.push_back(r); });
  return records;
}

/// Throughput of a pipelined run with its standard error: departures are correlated, so the SE of the mean
/// inter-departure time D comes from batch means, and SE(1/D) = SE(D) / D^2 (delta method).
std::pair<double, double> throughput_with_se(const std::vector<lc::PipelineRecord>& records) {
  std::vector<double> gaps;
  double last = 0;
  for (const auto& r : records) {
    gaps.push_back(r.gpu_end_s - last);
    last = r.gpu_end_s;
  }
  const double d = last / static_cast<double>(gaps.size());
  return {1.0 / d, sl::batch_means_se(gaps) / (d * d)};
}
}  // namespace

TEST_CASE("Eq. 2: 5 ms CPU + 5 ms GPU is 50 % efficient serially and N/(N+1) pipelined, a 2N/(N+1) speedup",
          "[request][pipelining][book]") {
  const auto r = cell.run();  // fixed times, one worker, N = 10,000
  const double n = 10'000;
  CHECK_THAT(out(r, "serial_efficiency_frac"), WithinRel(0.5, 1e-9));
  CHECK_THAT(out(r, "serial_gpu_util_frac"), WithinRel(0.5, 1e-9));
  // Pipelined: the GPU starts after the first 5 ms of preprocessing and never idles again: 5 + 5N ms.
  CHECK_THAT(out(r, "pipelined_per_s"), WithinRel(n / ((5 + 5 * n) * 1e-3), 1e-9));
  CHECK_THAT(out(r, "pipelined_efficiency_frac"), WithinRel(n / (n + 1), 1e-9));
  CHECK_THAT(out(r, "speedup"), WithinRel(2 * n / (n + 1), 1e-9));
  CHECK(out(r, "max_speedup") == 2);
  CHECK_THAT(out(r, "pipelined_latency_ms"), WithinRel(10.0, 1e-9));  // a buffer of 2 never fills at equal rates
}

TEST_CASE("With fixed times the slower stage sets the pipelined pace exactly", "[request][pipelining]") {
  SECTION("CPU-bound, one worker: N pre + gpu") {
    const auto r = cell.run({{"pre_ms", "8"}, {"gpu_ms", "2"}, {"n", "1000"}});
    CHECK_THAT(out(r, "pipelined_per_s"), WithinRel(1000 / ((8 * 1000 + 2) * 1e-3), 1e-9));
    CHECK_THAT(out(r, "max_speedup"), WithinRel(10.0 / 8.0, 1e-12));
  }
  SECTION("four workers make an 8 ms preprocessing faster than a 3 ms GPU: pre + N gpu") {
    const auto r = cell.run({{"pre_ms", "8"}, {"gpu_ms", "3"}, {"workers", "4"}, {"n", "1000"}});
    CHECK_THAT(out(r, "pipelined_per_s"), WithinRel(1000 / ((8 + 3 * 1000) * 1e-3), 1e-9));
    CHECK_THAT(out(r, "bound_per_s"), WithinRel(1000.0 / 3.0, 1e-12));
    CHECK_THAT(out(r, "max_speedup"), WithinRel(11.0 / 3.0, 1e-12));
  }
  SECTION("one request") {
    const auto r = cell.run({{"n", "1"}});
    CHECK_THAT(out(r, "speedup"), WithinRel(1.0, 1e-12));
  }
}

TEST_CASE("Exponential stages, one worker: pipelined throughput matches the two-station line mu2 (1 - pi_0)",
          "[request][pipelining]") {
  const std::int64_t buffer = GENERATE(0, 2);
  const double pre_ms = GENERATE(5.0, 3.0);
  // Same draws as the cell; the record stream lets us compute the batch-means SE of the departure rate.
  const auto work = lc::draw_stage_times(200'000, sl::Distribution::exponential(1e3 / pre_ms),
                                         sl::Distribution::exponential(1e3 / 5.0), 11);
  const auto [x, se] = throughput_with_se(pipelined_records(work, 1, buffer));
  const auto r = cell.run(
      {{"law", "exp"}, {"pre_ms", std::to_string(pre_ms)}, {"buffer", std::to_string(buffer)}, {"n", "10"}});
  const double closed = out(r, "tandem_closed_form_per_s");
  INFO("buffer " << buffer << " pre " << pre_ms << " ms: simulated " << x << " +- " << se << ", exact " << closed);
  if (pre_ms == 5.0) CHECK_THAT(closed, WithinRel(200.0 * (buffer + 2) / (buffer + 3), 1e-12));
  CHECK_THAT(x, WithinAbs(closed, 4 * se));
}

TEST_CASE("An endless buffer with a faster CPU keeps the accelerator busy", "[request][pipelining]") {
  const auto r = cell.run({{"pre_ms", "15"}, {"workers", "4"}, {"law", "lognormal"}, {"cv", "1"}, {"buffer", "1000000"},
                      {"n", "100000"}});
  // CPU capacity 4/15 ms = 267 req/s > 200: the backlog of preprocessed work only grows once built, so the GPU
  // idles only at the start.
  CHECK(out(r, "pipelined_gpu_util_frac") > 0.995);
  CHECK(out(r, "pipelined_per_s") <= out(r, "bound_per_s") * 1.005);
}

TEST_CASE("Both schedules see the same requests; a seed fixes the run", "[request][pipelining]") {
  const auto a = cell.run({{"law", "exp"}, {"n", "5000"}}, "3");
  const auto b = cell.run({{"law", "exp"}, {"n", "5000"}}, "3");
  const auto c = cell.run({{"law", "exp"}, {"n", "5000"}}, "4");
  CHECK(out(a, "pipelined_per_s") == out(b, "pipelined_per_s"));
  CHECK(out(a, "serial_per_s") != out(c, "serial_per_s"));
  // Serial busy times are the totals of the same draws: CPU and GPU shares add up to 1 per resource pair.
  CHECK_THAT(out(a, "serial_cpu_util_frac") + out(a, "serial_gpu_util_frac"), WithinRel(1.0, 1e-12));
}

TEST_CASE("The timelines show the first eight requests, one bar per stage", "[request][pipelining]") {
  const auto r = cell.run({{"workers", "2"}});
  const auto& request = column(r, "timeline_pipelined", "request");
  const auto& start = column(r, "timeline_pipelined", "start_ms");
  const auto& end = column(r, "timeline_pipelined", "end_ms");
  REQUIRE(request.size() == 16);
  for (std::size_t i = 0; i < request.size(); ++i) {
    CHECK(request[i] == static_cast<double>(i / 2));
    CHECK(end[i] > start[i]);
  }
  CHECK(column(r, "timeline_serial", "end_ms").back() == Approx(80.0).epsilon(1e-9));  // 8 x 10 ms
}

TEST_CASE("Pipelining inputs are validated", "[request][pipelining]") {
  CHECK(cell.error({{"workers", "0"}}).code == "out_of_range");
  CHECK(cell.error({{"law", "gamma"}}).code == "bad_choice");
  CHECK(cell.error({{"buffer", "-1"}}).param == "buffer");
  CHECK(cell.error({{"n", "2000000"}}).param == "n");
}

}  // namespace SL_UNITY_ID
