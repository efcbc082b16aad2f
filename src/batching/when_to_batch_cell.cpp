// Cell batching/when-to-batch. One arrival stream, two servers: batch-1 serving (a FIFO queue, B_max = 1)
// and dynamic batching (window T, B_max, same accelerator and T_svc(B)).
//   (a) Steady Poisson traffic swept over a range of rates: mean and p99 latency of both, and the first
//       rate at which batching wins on each. Batch 1 never waits for a window, so it keeps the lower mean
//       until its queue builds near 1/T_svc(1); its p99 loses much earlier.
//   (b) A burst above batch-1 capacity: queue length and p99 per interval. Batch 1's queue grows for the
//       whole burst and drains slowly; the batcher raises its batch size and absorbs it.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "batching/arrivals.h"
#include "batching/cells.h"
#include "batching/dynamic_batcher.h"
#include "core/checked_run.h"
#include "core/outputs.h"
#include "core/stats.h"
#include "queues/time_series.h"

namespace sl::batching {
namespace {

constexpr double kWarmupFrac = 0.05;
constexpr std::size_t kMaxRateRows = 12;  ///< rows of the result table by_rate
constexpr const char* kSimulatedWhat = "the simulated requests (2 x num_rates x n + 2 x the burst's arrivals)";

/// The burst experiment: base rate, then the burst, then the base rate again.
struct BurstParams {
  double base_per_s = 100;
  double burst_per_s = 300;
  double start_s = 2;  ///< the burst starts here
  double burst_s = 1;
  double after_s = 3;  ///< observed after the burst
  double deadline_s = 0.05;        ///< a request is on time if answered within this
  std::int64_t num_replicas = 1;   ///< independent runs of the burst, for standard errors
};

/// Both servers' hardware and T_svc(B), the steady sweep and the burst.
struct WhenToBatchParams {
  ServiceModelParams service;
  double window_ms = 5;
  std::int64_t max_batch = 32;
  std::int64_t num_accelerators = 1;
  double rate_min_per_s = 10;
  double rate_max_per_s = 170;
  std::int64_t num_rates = 17;
  std::int64_t num_requests = 20'000;  ///< n, per swept rate and server
  BurstParams burst;
};

/// The requests a run simulates: the sweep (2 servers x num_rates x n) and the burst's expected arrivals (x 2
/// servers); the parameter named is the larger part's.
budget::Estimate simulated_requests(const WhenToBatchParams& p) {
  const double sweep_total = 2.0 * static_cast<double>(p.num_rates) * static_cast<double>(p.num_requests);
  const BurstParams& b = p.burst;
  // The burst experiment runs burst_replicas times (its standard errors come from the spread between runs).
  const double burst_once = 2 * (b.base_per_s * (b.start_s + b.after_s) + b.burst_per_s * b.burst_s);
  const double burst_total = burst_once * static_cast<double>(b.num_replicas);
  const char* param = sweep_total >= burst_total ? "n" : (b.num_replicas > 1 && burst_once < sweep_total ? "burst_replicas" : "burst_per_s");
  return budget::estimate(param, kSimulatedWhat, "simulated requests", sweep_total + burst_total, kBatchedRequestCost);
}

Result<WhenToBatchParams> validate_when_to_batch(const Inputs& in) {
  WhenToBatchParams p;
  p.window_ms = in.real("window_ms");
  p.max_batch = in.count("max_batch");
  p.num_accelerators = in.count("accelerators");
  p.rate_min_per_s = in.real("rate_min_per_s");
  p.rate_max_per_s = in.real("rate_max_per_s");
  p.num_rates = in.count("num_rates");
  p.num_requests = in.count("n");
  p.burst = {in.real("burst_base_per_s"), in.real("burst_per_s"), in.real("burst_start_s"), in.real("burst_s"),
             in.real("burst_after_s")};
  p.burst.deadline_s = in.real("burst_deadline_ms") * 1e-3;
  p.burst.num_replicas = in.count("burst_replicas");
  if (p.rate_max_per_s < p.rate_min_per_s)
    return Error{"invalid", "rate_max_per_s",
                 "rate_max_per_s must be >= rate_min_per_s = " + format_number(p.rate_min_per_s) + " 1/s, got " +
                     format_number(p.rate_max_per_s),
                 {{"min", format_number(p.rate_min_per_s)}, {"unit", "1/s"}, {"got", format_number(p.rate_max_per_s)}, {"problem", "at_least_other"},
                  {"other", "rate_min_per_s"}}};
  if (auto e = budget::check(simulated_requests(p))) return *e;
  if (p.burst.start_s + p.burst.burst_s + p.burst.after_s <= 0)
    return Error{"invalid", "burst_s", "the burst experiment needs time: burst_start_s + burst_s + burst_after_s must be > 0 s, got 0",
                 {{"got", "0"}, {"problem", "burst_time"}}};
  auto service = validate_service_model(in);
  if (!service.ok()) return service.error();
  p.service = service.value();
  return p;
}

BatcherParams batch1_params(const BatcherParams& dynamic) {
  BatcherParams p = dynamic;
  p.max_batch_size = 1;
  p.max_wait_s = 0;
  return p;
}

struct SweepRow {
  double rate;
  BatchingSummary batch1;
  BatchingSummary dynamic;
};

std::vector<SweepRow> sweep(const BatcherParams& dynamic, const WhenToBatchParams& params, std::uint64_t seed,
                            RunControl& ctl) {
  const double lo = params.rate_min_per_s;
  const double hi = params.rate_max_per_s;
  const std::int64_t steps = params.num_rates;
  std::vector<SweepRow> rows;
  for (std::int64_t i = 0; i < steps; ++i) {
    const double rate = steps == 1 ? lo : lo + (hi - lo) * static_cast<double>(i) / static_cast<double>(steps - 1);
    Rng rng = Rng::stream(seed, Stream::Arrivals);
    const auto arrivals_s = poisson_arrivals_s(rate, params.num_requests, rng);
    const double warmup_s = kWarmupFrac * arrivals_s.back();
    RunControl quiet;
    const BatcherParams b1 = batch1_params(dynamic);
    rows.push_back({rate, summarize(simulate_dynamic_batching(b1, arrivals_s, quiet), b1, warmup_s),
                    summarize(simulate_dynamic_batching(dynamic, arrivals_s, quiet), dynamic, warmup_s)});
    ctl.report(static_cast<double>(i + 1), static_cast<double>(steps) + 2);
  }
  return rows;
}

/// First swept rate from which batching stays ahead (lower value) to the end of the sweep, or 0 if never.
double first_lasting_win(const std::vector<SweepRow>& rows, double (*metric)(const BatchingSummary&)) {
  double win = 0;
  for (auto it = rows.rbegin(); it != rows.rend(); ++it) {
    if (metric(it->dynamic) < metric(it->batch1)) win = it->rate;
    else break;
  }
  return win;
}

double mean_of(const BatchingSummary& s) { return s.mean_latency_s; }
double p99_of(const BatchingSummary& s) { return s.p99_latency_s; }

void output_sweep(RunResult& result, const std::vector<SweepRow>& rows) {
  std::vector<double> rate, b1_mean, b1_p99, dyn_mean, dyn_p99, dyn_batch;
  for (const auto& r : rows) {
    rate.push_back(r.rate);
    b1_mean.push_back(r.batch1.mean_latency_s * 1e3);
    b1_p99.push_back(r.batch1.p99_latency_s * 1e3);
    dyn_mean.push_back(r.dynamic.mean_latency_s * 1e3);
    dyn_p99.push_back(r.dynamic.p99_latency_s * 1e3);
    dyn_batch.push_back(r.dynamic.mean_batch_size);
  }
  result.output("batching_wins_mean_from_per_s", first_lasting_win(rows, &mean_of));
  result.output("batching_wins_p99_from_per_s", first_lasting_win(rows, &p99_of));
  const SweepRow& top = rows.back();
  result.output("top_rate_per_s", top.rate);
  result.output("top_batch1_mean_ms", top.batch1.mean_latency_s * 1e3);
  result.output("top_batch1_p99_ms", top.batch1.p99_latency_s * 1e3);
  result.output("top_dynamic_mean_ms", top.dynamic.mean_latency_s * 1e3);
  result.output("top_dynamic_p99_ms", top.dynamic.p99_latency_s * 1e3);
  result.output("top_dynamic_mean_batch", top.dynamic.mean_batch_size);
  result.output("top_batch1_mean_se_ms", top.batch1.mean_latency_se_s * 1e3);
  result.output("top_batch1_p99_se_ms", top.batch1.p99_latency_se_s * 1e3);
  result.output("top_dynamic_mean_se_ms", top.dynamic.mean_latency_se_s * 1e3);
  result.output("top_dynamic_p99_se_ms", top.dynamic.p99_latency_se_s * 1e3);
  result.table("sweep")
      .column("rate_per_s", rate)
      .column("batch1_mean_ms", b1_mean)
      .column("batch1_p99_ms", b1_p99)
      .column("dynamic_mean_ms", dyn_mean)
      .column("dynamic_p99_ms", dyn_p99)
      .column("dynamic_mean_batch", dyn_batch);
  // The result table: at most kMaxRateRows of the swept rates, evenly strided, the highest always in.
  const std::size_t stride = (rows.size() + kMaxRateRows - 1) / kMaxRateRows;
  Table& by_rate = result.table("by_rate");
  std::vector<double> r_rate, r_b1_mean, r_b1_p99, r_dyn_mean, r_dyn_p99, r_dyn_batch;
  for (std::size_t i = (rows.size() - 1) % stride; i < rows.size(); i += stride) {
    r_rate.push_back(rate[i]);
    r_b1_mean.push_back(b1_mean[i]);
    r_b1_p99.push_back(b1_p99[i]);
    r_dyn_mean.push_back(dyn_mean[i]);
    r_dyn_p99.push_back(dyn_p99[i]);
    r_dyn_batch.push_back(dyn_batch[i]);
  }
  by_rate.column("rate_per_s", r_rate)
      .column("batch1_mean_ms", r_b1_mean)
      .column("batch1_p99_ms", r_b1_p99)
      .column("dynamic_mean_ms", r_dyn_mean)
      .column("dynamic_p99_ms", r_dyn_p99)
      .column("dynamic_mean_batch", r_dyn_batch);
}

/// Requests waiting (arrived, not yet started) over time, bucket-averaged exactly.
std::vector<double> queue_series(const BatchingRun& run, double bucket_s, double end_s) {
  std::vector<std::pair<double, int>> steps;  // (time, +1 arrival / -1 start); starts first on ties
  steps.reserve(2 * run.requests.size());
  for (const auto& r : run.requests) {
    steps.emplace_back(r.arrival_at_s, +1);
    steps.emplace_back(r.start_at_s, -1);
  }
  std::sort(steps.begin(), steps.end());
  queues::StepSeries series(bucket_s);
  double level = 0;
  for (const auto& [t, delta] : steps) {
    if (t > end_s) break;
    series.advance(t, level);
    level += delta;
  }
  series.advance(end_s, level);
  return series.bucket_means();
}

/// p99 latency of the requests arriving in each bucket (0 where none arrived).
std::vector<double> p99_series_ms(const BatchingRun& run, double bucket_s, std::size_t num_buckets) {
  std::vector<std::vector<double>> by_bucket(num_buckets);
  for (const auto& r : run.requests) {
    const auto k = static_cast<std::size_t>(r.arrival_at_s / bucket_s);
    if (k < num_buckets) by_bucket[k].push_back(r.latency_s() * 1e3);
  }
  std::vector<double> p99(num_buckets, 0.0);
  for (std::size_t k = 0; k < num_buckets; ++k)
    if (!by_bucket[k].empty()) p99[k] = quantile(by_bucket[k], 0.99);
  return p99;
}

/// Largest value, or 0 for an empty series (no arrival at all).
double max_or_zero(const std::vector<double>& xs) { return xs.empty() ? 0.0 : *std::max_element(xs.begin(), xs.end()); }

/// Time from `until_s` to the completion of the last request that arrived before it (0 if all were done).
double backlog_after_s(const BatchingRun& run, double until_s) {
  double last_end_s = until_s;
  for (const auto& r : run.requests)
    if (r.arrival_at_s < until_s) last_end_s = std::max(last_end_s, r.end_at_s);
  return last_end_s - until_s;
}

/// One server's whole burst run: the share answered within the deadline, the p99 and the maximum latency.
struct BurstSummary {
  double on_time_frac = 0, p99_s = 0, max_s = 0;
};

BurstSummary summarize_burst(const BatchingRun& run, double deadline_s) {
  BurstSummary s;
  if (run.requests.empty()) return s;
  std::vector<double> latencies_s;
  double on_time = 0;
  for (const auto& r : run.requests) {
    latencies_s.push_back(r.latency_s());
    on_time += r.latency_s() <= deadline_s ? 1 : 0;
  }
  s.on_time_frac = on_time / static_cast<double>(latencies_s.size());
  s.max_s = *std::max_element(latencies_s.begin(), latencies_s.end());
  s.p99_s = quantile(std::move(latencies_s), 0.99);
  return s;
}

/// Spread of a burst run's statistics over independent replications (a burst is one transient: batch means
/// do not apply); their standard deviation is one run's standard error.
struct BurstSpread {
  RunningStats on_time_frac, p99_s, max_s;
  void add(const BurstSummary& s) { on_time_frac.add(s.on_time_frac), p99_s.add(s.p99_s), max_s.add(s.max_s); }
};

std::vector<double> burst_arrivals_s(const BurstParams& burst, std::uint64_t seed) {
  Rng rng = Rng::stream(seed, Stream::Misc);
  return piecewise_poisson_arrivals_s({{burst.start_s, burst.base_per_s}, {burst.burst_s, burst.burst_per_s}, {burst.after_s, burst.base_per_s}}, rng);
}

/// The whole run's on-time share, p99 and maximum for both servers; with replicas, their standard errors.
void output_burst_totals(RunResult& result, const BatcherParams& dynamic, const BurstParams& burst, std::uint64_t seed,
                         const BatchingRun& run1, const BatchingRun& rund) {
  const BurstSummary s1 = summarize_burst(run1, burst.deadline_s), sd = summarize_burst(rund, burst.deadline_s);
  if (run1.requests.empty()) return;
  result.output("burst_batch1_on_time_frac", s1.on_time_frac);
  result.output("burst_dynamic_on_time_frac", sd.on_time_frac);
  result.output("burst_batch1_p99_ms", s1.p99_s * 1e3);
  result.output("burst_dynamic_p99_ms", sd.p99_s * 1e3);
  result.output("burst_batch1_max_ms", s1.max_s * 1e3);
  result.output("burst_dynamic_max_ms", sd.max_s * 1e3);
  if (burst.num_replicas < 2) return;
  BurstSpread spread1, spreadd;
  spread1.add(s1);
  spreadd.add(sd);
  Rng replica_seeds = Rng::stream(seed, Stream::Routing);  // a stream this cell draws nothing else from
  RunControl quiet;
  for (std::int64_t r = 1; r < burst.num_replicas; ++r) {
    const auto arrivals_s = burst_arrivals_s(burst, replica_seeds.next_u64());
    spread1.add(summarize_burst(simulate_dynamic_batching(batch1_params(dynamic), arrivals_s, quiet), burst.deadline_s));
    spreadd.add(summarize_burst(simulate_dynamic_batching(dynamic, arrivals_s, quiet), burst.deadline_s));
  }
  result.output("burst_batch1_on_time_se_frac", spread1.on_time_frac.stddev());
  result.output("burst_dynamic_on_time_se_frac", spreadd.on_time_frac.stddev());
  result.output("burst_batch1_p99_se_ms", spread1.p99_s.stddev() * 1e3);
  result.output("burst_dynamic_p99_se_ms", spreadd.p99_s.stddev() * 1e3);
  result.output("burst_batch1_max_se_ms", spread1.max_s.stddev() * 1e3);
  result.output("burst_dynamic_max_se_ms", spreadd.max_s.stddev() * 1e3);
}

void output_burst(RunResult& result, const BatcherParams& dynamic, const BurstParams& burst, std::uint64_t seed) {
  const double before_s = burst.start_s;
  const double burst_s = burst.burst_s;
  const double after_s = burst.after_s;
  const auto arrivals_s = burst_arrivals_s(burst, seed);
  const double end_s = before_s + burst_s + after_s;
  const double bucket_s = end_s / 60;
  RunControl quiet;
  const BatcherParams b1 = batch1_params(dynamic);
  const BatchingRun run1 = simulate_dynamic_batching(b1, arrivals_s, quiet);
  const BatchingRun rund = simulate_dynamic_batching(dynamic, arrivals_s, quiet);
  const auto q1 = queue_series(run1, bucket_s, end_s);
  const auto qd = queue_series(rund, bucket_s, end_s);
  const auto p1 = p99_series_ms(run1, bucket_s, q1.size());
  const auto pd = p99_series_ms(rund, bucket_s, qd.size());
  std::vector<double> t;
  for (std::size_t k = 0; k < q1.size(); ++k) t.push_back(static_cast<double>(k) * bucket_s);
  result.output("burst_batch1_max_queue", max_or_zero(q1));
  result.output("burst_dynamic_max_queue", max_or_zero(qd));
  result.output("burst_batch1_max_p99_ms", max_or_zero(p1));
  result.output("burst_dynamic_max_p99_ms", max_or_zero(pd));
  // How long after the burst ends the requests that arrived before its end are all done.
  const double burst_end_s = before_s + burst_s;
  result.output("burst_batch1_backlog_s", backlog_after_s(run1, burst_end_s));
  result.output("burst_dynamic_backlog_s", backlog_after_s(rund, burst_end_s));
  output_burst_totals(result, dynamic, burst, seed, run1, rund);
  result.table("burst")
      .column("t_s", t)
      .column("batch1_queue", q1)
      .column("dynamic_queue", qd)
      .column("batch1_p99_ms", p1)
      .column("dynamic_p99_ms", pd);
}

Result<RunResult> run_when_to_batch(const WhenToBatchParams& p, std::uint64_t seed, RunControl& ctl) {
  std::vector<Notice> service_notes;  // after the checks: cpu_fit takes a measurement
  BatcherParams dynamic;
  dynamic.max_batch_size = p.max_batch;
  dynamic.max_wait_s = p.window_ms * 1e-3;
  dynamic.num_accelerators = p.num_accelerators;
  dynamic.service = make_service_model(p.service, seed, &service_notes);
  RunResult result;
  output_service_model(result, dynamic.service, service_notes);
  const double batch1_capacity = static_cast<double>(dynamic.num_accelerators) * dynamic.service.throughput_per_s(1);
  result.output("batch1_capacity_per_s", batch1_capacity);
  result.output("dynamic_capacity_per_s", static_cast<double>(dynamic.num_accelerators) *
                                              dynamic.service.throughput_per_s(dynamic.max_batch_size));
  const std::vector<SweepRow> rows = sweep(dynamic, p, seed, ctl);
  output_sweep(result, rows);
  if (p.rate_max_per_s >= batch1_capacity)
    result.notice("batch1_overloaded", "the sweep reaches batch-1 capacity (" + format_number(batch1_capacity) +
                                           " req/s): there batch 1's queue grows with the run length");
  output_burst(result, dynamic, p.burst, seed);
  return result;
}

}  // namespace

CellSpec when_to_batch_cell() {
  std::vector<ParamSpec> params = service_model_params();
  params.push_back(explored(real("window_ms", "ms", 5, 0, 1e4), 0, 20));
  params.push_back(explored(count("max_batch", "requests", 32, 1, 4096), 1, 128));
  params.push_back(count("accelerators", "accelerators", 1, 1, 64));
  params.push_back(aliased(real("rate_min_per_s", "1/s", 10, 1e-3, 1e6), {"rate_min"}));
  params.push_back(aliased(real("rate_max_per_s", "1/s", 170, 1e-3, 1e6), {"rate_max"}));
  params.push_back(count("num_rates", "rates", 17, 1, 100));
  params.push_back(count("n", "requests", 20'000, 1'000, 1'000'000));
  params.push_back(aliased(real("burst_base_per_s", "1/s", 100, 0, 1e5), {"burst_base_rate"}));
  params.push_back(aliased(real("burst_per_s", "1/s", 300, 0, 1e5), {"burst_rate"}));
  params.push_back(real("burst_start_s", "s", 2, 0, 1e3));
  params.push_back(real("burst_s", "s", 1, 0, 1e3));
  params.push_back(real("burst_after_s", "s", 3, 0, 1e3));
  params.push_back(real("burst_deadline_ms", "ms", 50, 1e-3, 1e7));
  params.push_back(count("burst_replicas", "runs", 1, 1, 1000));
  CellSpec cell = checked_cell<&validate_when_to_batch, &run_when_to_batch>("batching/when-to-batch", std::move(params));
  cell.outputs = outputs({sometimes("service_a_ms"), sometimes("service_b_ms"), out("batch1_capacity_per_s", "req/s"),
                   out("dynamic_capacity_per_s", "req/s"), "batching_wins_mean_from_per_s",
                   "batching_wins_p99_from_per_s", out("top_rate_per_s", "req/s"), "top_batch1_mean_ms",
                   "top_batch1_p99_ms", "top_dynamic_mean_ms", "top_dynamic_p99_ms", "top_dynamic_mean_batch",
                   "top_batch1_mean_se_ms", "top_batch1_p99_se_ms", "top_dynamic_mean_se_ms", "top_dynamic_p99_se_ms",
                   "burst_batch1_max_queue", "burst_dynamic_max_queue", "burst_batch1_max_p99_ms",
                   "burst_dynamic_max_p99_ms", "burst_batch1_backlog_s", "burst_dynamic_backlog_s",
                   sometimes("burst_batch1_on_time_frac"), sometimes("burst_dynamic_on_time_frac"),
                   sometimes("burst_batch1_p99_ms"), sometimes("burst_dynamic_p99_ms"),
                   sometimes("burst_batch1_max_ms"), sometimes("burst_dynamic_max_ms"),
                   sometimes("burst_batch1_on_time_se_frac"), sometimes("burst_dynamic_on_time_se_frac"),
                   sometimes("burst_batch1_p99_se_ms"), sometimes("burst_dynamic_p99_se_ms"),
                   sometimes("burst_batch1_max_se_ms"), sometimes("burst_dynamic_max_se_ms")});
  cell.tables = {table("sweep"), table("by_rate"), table("burst")};
  cell.budget = {budget::describe(kSimulatedWhat, "simulated requests", kBatchedRequestCost)};
  return cell;
}

}  // namespace sl::batching
