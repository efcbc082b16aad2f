// Cell batching/pareto. Dynamic batching (dispatch at B_max or when the oldest request has waited T_window)
// simulated for Table 13's five configurations and for a grid of windows x batch caps x arrival rates.
// Each grid run gives one point (throughput, p99); the Pareto frontier keeps, for each throughput, the
// configuration with the lowest p99 — no other point is both faster and has a lower tail. The book's table
// is simulator output with unstated inputs; ours are stated: Poisson arrivals, the chosen T_svc(B), the
// given number of accelerators, and (by default) each of the five run at the book's throughput as its
// arrival rate, so the comparison is on latency at equal load.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "core/checked_run.h"
#include "core/outputs.h"
#include "batching/arrivals.h"
#include "batching/cells.h"
#include "batching/dynamic_batcher.h"
#include "queues/confidence_intervals.h"

namespace sl::batching {
namespace {

struct BookConfig {
  double window_ms;
  std::int64_t max_batch;
  double avg_ms;
  double p99_ms;
  double throughput_per_s;
};

/// Table 13 as printed.
constexpr std::array<BookConfig, 5> kTable13 = {{{2, 16, 8, 18, 890},
                                                  {5, 32, 10, 22, 1140},
                                                  {10, 32, 15, 35, 1240},
                                                  {20, 64, 23, 52, 1310},
                                                  {50, 128, 38, 98, 1350}}};
constexpr std::array<double, 6> kGridWindowsMs = {1, 2, 5, 10, 20, 50};
constexpr std::array<std::int64_t, 5> kGridMaxBatches = {8, 16, 32, 64, 128};
constexpr std::array<double, 8> kGridRatesPerAccelerator = {100, 300, 500, 700, 900, 1100, 1300, 1500};
constexpr double kStableLoadFrac = 0.95;  ///< skip runs offered more than this share of saturated capacity
constexpr double kWarmupFrac = 0.05;      ///< requests arriving in the first 5 % of a run are not measured
constexpr const char* kSimulatedWhat = "the simulated requests (5 x n + 240 x grid_n)";

struct Point {
  double window_ms;
  std::int64_t max_batch;
  double offered_per_s;
  BatchingSummary summary;
  double p99_se_s = 0;  ///< Table 13's runs only (0 in the grid)
};

/// The checked inputs: T_svc(B), the hardware, the load of Table 13's runs and the run lengths.
struct ParetoParams {
  ServiceModelParams service;
  std::int64_t num_accelerators = 1;
  bool at_book_load = true;    ///< load=book: each Table 13 setting at the book's throughput; else lambda
  double lambda_per_s = 1000;  ///< the common rate when !at_book_load
  std::int64_t num_requests = 20'000;      ///< n, per Table 13 run
  std::int64_t grid_num_requests = 4'000;  ///< grid_n, per grid run
};

Result<ParetoParams> validate_pareto(const Inputs& in) {
  ParetoParams p;
  p.num_accelerators = in.count("accelerators");
  p.at_book_load = in.choice("load") == "book";
  p.lambda_per_s = in.real("lambda");
  p.num_requests = in.count("n");
  p.grid_num_requests = in.count("grid_n");
  const double total = static_cast<double>(kTable13.size()) * static_cast<double>(p.num_requests) +
                       static_cast<double>(kGridWindowsMs.size() * kGridMaxBatches.size() * kGridRatesPerAccelerator.size()) *
                           static_cast<double>(p.grid_num_requests);
  const bool grid_costs_more = total >= 2 * static_cast<double>(kTable13.size()) * static_cast<double>(p.num_requests);
  if (auto e = budget::check(budget::estimate(grid_costs_more ? "grid_n" : "n", kSimulatedWhat, "simulated requests",
                                              total, kBatchedRequestCost)))
    return *e;
  auto service = validate_service_model(in);
  if (!service.ok()) return service.error();
  p.service = service.value();
  return p;
}

double saturated_capacity_per_s(const BatcherParams& p) {
  return static_cast<double>(p.num_accelerators) * p.service.throughput_per_s(p.max_batch_size);
}

/// Lower bound on latency at rate lambda: to keep up, batches must reach the smallest B with
/// k B / T_svc(B) >= lambda, and such a batch takes T_svc(B). Zero if no batch up to B_max keeps up.
double latency_floor_s(const BatcherParams& p, double lambda_per_s) {
  for (std::int64_t b = 1; b <= p.max_batch_size; ++b)
    if (static_cast<double>(p.num_accelerators) * p.service.throughput_per_s(b) >= lambda_per_s)
      return p.service.service_s(b);
  return 0;
}

/// Standard error of a run's p99 latency (after the warm-up): the batch-means 95 % interval of
/// queues::summarize_series (successive latencies correlate), half-width over t(31); 0 under 64 requests.
double p99_se_s(const BatchingRun& run, double warmup_s) {
  std::vector<double> latencies_s;
  for (const auto& r : run.requests)
    if (r.arrival_at_s >= warmup_s) latencies_s.push_back(r.latency_s());
  if (latencies_s.size() < 2 * static_cast<std::size_t>(queues::kNumBatches)) return 0;
  return queues::summarize_series(std::move(latencies_s), 0.99).quantile.half_width() / queues::kStudentT31;
}

Point simulate_point(BatcherParams p, double window_ms, std::int64_t max_batch, double lambda, std::int64_t n,
                     std::uint64_t seed, bool with_p99_se = false) {
  p.max_wait_s = window_ms * 1e-3;
  p.max_batch_size = max_batch;
  Rng rng = Rng::stream(seed, Stream::Arrivals);
  const auto arrivals_s = poisson_arrivals_s(lambda, n, rng);
  RunControl quiet;
  const BatchingRun run = simulate_dynamic_batching(p, arrivals_s, quiet);
  const double warmup_s = kWarmupFrac * arrivals_s.back();
  return {window_ms, max_batch, lambda, summarize(run, p, warmup_s), with_p99_se ? p99_se_s(run, warmup_s) : 0.0};
}

/// Marks the points no other point beats on both axes: sweep from the highest offered rate down, keeping
/// a point when its p99 is below every p99 at a higher (or equal) rate.
std::vector<bool> pareto_front(const std::vector<Point>& points) {
  std::vector<std::size_t> order(points.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const Point& pa = points[a];
    const Point& pb = points[b];
    if (pa.offered_per_s != pb.offered_per_s) return pa.offered_per_s > pb.offered_per_s;
    if (pa.summary.p99_latency_s != pb.summary.p99_latency_s) return pa.summary.p99_latency_s < pb.summary.p99_latency_s;
    return a < b;
  });
  std::vector<bool> on_front(points.size(), false);
  double best_p99_s = kNoTimeout;
  for (std::size_t i : order) {
    if (points[i].summary.p99_latency_s < best_p99_s) {
      on_front[i] = true;
      best_p99_s = points[i].summary.p99_latency_s;
    }
  }
  return on_front;
}

/// Table 13's measured throughput per setting (literal names: each is a book reference).
constexpr std::array<const char*, 5> kTable13ThroughputOutputs = {"w2_b16_throughput_per_s", "w5_b32_throughput_per_s",
                                                                  "w10_b32_throughput_per_s", "w20_b64_throughput_per_s",
                                                                  "w50_b128_throughput_per_s"};
constexpr std::array<const char*, 5> kTable13AvgOutputs = {"w2_b16_avg_ms", "w5_b32_avg_ms", "w10_b32_avg_ms",
                                                           "w20_b64_avg_ms", "w50_b128_avg_ms"};
constexpr std::array<const char*, 5> kTable13P99Outputs = {"w2_b16_p99_ms", "w5_b32_p99_ms", "w10_b32_p99_ms",
                                                           "w20_b64_p99_ms", "w50_b128_p99_ms"};
constexpr std::array<const char*, 5> kTable13P99SeOutputs = {"w2_b16_p99_se_ms", "w5_b32_p99_se_ms", "w10_b32_p99_se_ms",
                                                             "w20_b64_p99_se_ms", "w50_b128_p99_se_ms"};
constexpr std::array<const char*, 5> kTable13MeanBatchOutputs = {"w2_b16_mean_batch", "w5_b32_mean_batch",
                                                                 "w10_b32_mean_batch", "w20_b64_mean_batch",
                                                                 "w50_b128_mean_batch"};

void output_table13(RunResult& result, const BatcherParams& base, const ParetoParams& params, std::uint64_t seed,
                    RunControl& ctl) {
  std::vector<double> window, max_batch, book_avg, book_p99, book_thr, avg, p99, thr, mean_batch;
  std::vector<double> load_window, load_max_batch, offered, capacity, floor_ms;
  for (std::size_t i = 0; i < kTable13.size(); ++i) {
    const BookConfig& c = kTable13[i];
    const double lambda = params.at_book_load ? c.throughput_per_s : params.lambda_per_s;
    BatcherParams p = base;
    p.max_batch_size = c.max_batch;
    const bool stable = lambda < kStableLoadFrac * saturated_capacity_per_s(p);
    load_window.push_back(c.window_ms);
    load_max_batch.push_back(static_cast<double>(c.max_batch));
    offered.push_back(lambda);
    capacity.push_back(saturated_capacity_per_s(p));
    floor_ms.push_back(latency_floor_s(p, lambda) * 1e3);
    if (!stable) {
      result.notice("unstable_config", "window " + format_number(c.window_ms) + " ms, B_max " +
                                           std::to_string(c.max_batch) + ": " + format_number(lambda) +
                                           " req/s is at or above 95 % of its capacity (" +
                                           format_number(saturated_capacity_per_s(p)) + " req/s); not simulated");
      continue;
    }
    const Point pt = simulate_point(base, c.window_ms, c.max_batch, lambda, params.num_requests, seed, /*with_p99_se=*/true);
    result.output(kTable13ThroughputOutputs[i], pt.summary.throughput_per_s);
    result.output(kTable13AvgOutputs[i], pt.summary.mean_latency_s * 1e3);
    result.output(kTable13P99Outputs[i], pt.summary.p99_latency_s * 1e3);
    result.output(kTable13P99SeOutputs[i], pt.p99_se_s * 1e3);
    result.output(kTable13MeanBatchOutputs[i], pt.summary.mean_batch_size);
    window.push_back(c.window_ms);
    max_batch.push_back(static_cast<double>(c.max_batch));
    book_avg.push_back(c.avg_ms);
    book_p99.push_back(c.p99_ms);
    book_thr.push_back(c.throughput_per_s);
    avg.push_back(pt.summary.mean_latency_s * 1e3);
    p99.push_back(pt.summary.p99_latency_s * 1e3);
    thr.push_back(pt.summary.throughput_per_s);
    mean_batch.push_back(pt.summary.mean_batch_size);
    ctl.report(static_cast<double>(i + 1), 10);
  }
  if (thr.size() == kTable13.size()) {
    result.output("throughput_gain_frac", thr.back() / thr.front() - 1);  // book: 1,350 / 890 - 1 = +52 %
    result.output("p99_ratio", p99.back() / p99.front());                // book: 98 / 18 = 5.4x
  }
  result.table("table13")
      .column("window_ms", window)
      .column("max_batch", max_batch)
      .column("book_avg_ms", book_avg)
      .column("book_p99_ms", book_p99)
      .column("book_throughput_per_s", book_thr)
      .column("avg_ms", avg)
      .column("p99_ms", p99)
      .column("throughput_per_s", thr)
      .column("mean_batch", mean_batch);
  // Every setting, simulated or not: its offered rate, saturated capacity and latency floor.
  result.table("table13_load")
      .column("window_ms", load_window)
      .column("max_batch", load_max_batch)
      .column("offered_per_s", offered)
      .column("capacity_per_s", capacity)
      .column("floor_ms", floor_ms);
}

void output_grid(RunResult& result, const BatcherParams& base, std::int64_t grid_num_requests, std::uint64_t seed,
                 RunControl& ctl) {
  std::vector<Point> points;
  std::int64_t skipped = 0;
  const auto k = static_cast<double>(base.num_accelerators);
  const double total = static_cast<double>(kGridWindowsMs.size() * kGridMaxBatches.size());
  double done = 0;
  for (double window_ms : kGridWindowsMs) {
    for (std::int64_t max_batch : kGridMaxBatches) {
      BatcherParams p = base;
      p.max_batch_size = max_batch;
      for (double rate : kGridRatesPerAccelerator) {
        const double lambda = rate * k;
        if (lambda >= kStableLoadFrac * saturated_capacity_per_s(p)) {
          ++skipped;
          continue;
        }
        points.push_back(simulate_point(base, window_ms, max_batch, lambda, grid_num_requests, seed));
      }
      ctl.report(5 + 5 * ++done / total, 10);
    }
  }
  const std::vector<bool> on_front = pareto_front(points);
  std::vector<double> window, max_batch, offered, thr, avg, p99, front;
  std::vector<double> f_thr, f_p99, f_window, f_batch;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Point& pt = points[i];
    window.push_back(pt.window_ms);
    max_batch.push_back(static_cast<double>(pt.max_batch));
    offered.push_back(pt.offered_per_s);
    thr.push_back(pt.summary.throughput_per_s);
    avg.push_back(pt.summary.mean_latency_s * 1e3);
    p99.push_back(pt.summary.p99_latency_s * 1e3);
    front.push_back(on_front[i] ? 1 : 0);
  }
  std::vector<std::size_t> front_ids;
  for (std::size_t i = 0; i < points.size(); ++i)
    if (on_front[i]) front_ids.push_back(i);
  std::sort(front_ids.begin(), front_ids.end(),
            [&](std::size_t a, std::size_t b) { return points[a].offered_per_s < points[b].offered_per_s; });
  for (std::size_t i : front_ids) {
    f_thr.push_back(points[i].offered_per_s);
    f_p99.push_back(points[i].summary.p99_latency_s * 1e3);
    f_window.push_back(points[i].window_ms);
    f_batch.push_back(static_cast<double>(points[i].max_batch));
  }
  result.output("grid_points", static_cast<double>(points.size()));
  result.output("grid_skipped_unstable", static_cast<double>(skipped));
  result.table("grid")
      .column("window_ms", window)
      .column("max_batch", max_batch)
      .column("offered_per_s", offered)
      .column("throughput_per_s", thr)
      .column("avg_ms", avg)
      .column("p99_ms", p99)
      .column("on_frontier", front);
  result.table("frontier")
      .column("offered_per_s", f_thr)
      .column("p99_ms", f_p99)
      .column("window_ms", f_window)
      .column("max_batch", f_batch);
}

Result<RunResult> run_pareto(const ParetoParams& p, std::uint64_t seed, RunControl& ctl) {
  std::vector<Notice> service_notes;  // after the size check: cpu_fit takes a measurement
  BatcherParams base;
  base.num_accelerators = p.num_accelerators;
  base.service = make_service_model(p.service, seed, &service_notes);
  RunResult result;
  output_service_model(result, base.service, service_notes);
  output_table13(result, base, p, seed, ctl);
  output_grid(result, base, p.grid_num_requests, seed, ctl);
  return result;
}

}  // namespace

CellSpec pareto_cell() {
  std::vector<ParamSpec> params = service_model_params();
  params.push_back(explored(count("accelerators", "accelerators", 1, 1, 64), 1, 4));
  params.push_back(choice("load", {"book", "common"}, "book"));
  params.push_back(real("lambda", "1/s", 1000, 1, 1e6));
  params.push_back(count("n", "requests", 20'000, 1'000, 1'000'000));
  params.push_back(count("grid_n", "requests", 4'000, 500, 200'000));
  CellSpec cell = checked_cell<&validate_pareto, &run_pareto>("batching/pareto", std::move(params));
  cell.outputs = outputs({sometimes("service_a_ms"), sometimes("service_b_ms"), out("w2_b16_throughput_per_s", "req/s"),
                  "w2_b16_avg_ms", "w2_b16_p99_ms", "w2_b16_mean_batch", out("w5_b32_throughput_per_s", "req/s"),
                  "w5_b32_avg_ms", "w5_b32_p99_ms", "w5_b32_mean_batch", out("w10_b32_throughput_per_s", "req/s"),
                  "w10_b32_avg_ms", "w10_b32_p99_ms", "w10_b32_mean_batch", out("w20_b64_throughput_per_s", "req/s"),
                  "w20_b64_avg_ms", "w20_b64_p99_ms", "w20_b64_mean_batch", out("w50_b128_throughput_per_s", "req/s"),
                  "w50_b128_avg_ms", "w50_b128_p99_ms", "w50_b128_mean_batch", "throughput_gain_frac",
                  out("p99_ratio", "×"), "w2_b16_p99_se_ms", "w5_b32_p99_se_ms", "w10_b32_p99_se_ms",
                  "w20_b64_p99_se_ms", "w50_b128_p99_se_ms", "grid_points", "grid_skipped_unstable"});
  cell.tables = {table("table13"), table("table13_load"), table("grid"), table("frontier")};
  cell.budget = {budget::describe(kSimulatedWhat, "simulated requests", kBatchedRequestCost)};
  return cell;
}

}  // namespace sl::batching
