// Cell request/cold-start. Table 8's cold start of a ResNet-50 replica summed from its phases (local with a
// precompiled engine vs a first cloud deploy that downloads weights and compiles), the 10 GB model swap over
// a 32 GB/s link, and Example 1.12's checkpoint formats (pickle vs Safetensors against the NVMe floor).
// Then the cold start in motion: a burst arrives while new replicas come up, and the share of requests
// served within the SLO is simulated for a cloud cold start, a precompiled engine, the same without
// warm-up (lazy initialization lands on the first requests), and a warm pool. Beside the book's phases, this
// host's own (cold_start_measure.h): a model fetch with the HTTP cache bypassed vs warm, wasm compile and
// instantiate, first vs steady inference, and natively a read after page-cache eviction vs cached.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "core/checked_run.h"
#include "core/outputs.h"
#include "core/stats.h"
#include "request/cold_start/burst_scale_out.h"
#include "request/cells.h"
#include "request/cold_start/cold_start_measure.h"

namespace sl::request {
namespace {

enum Scenario { kCloud, kEngine, kNoWarmup, kWarmPool, kNumScenarios };
constexpr double kMaxRequests = 2e6;
constexpr int kLatencyBuckets = 90;
// Slider ends: 24 added replicas carry 4,800 requests/s; a burst of 5,000/s is 0.7 M requests per scenario
// (0.75 s natively); a minute's delay is half the burst. The text fields accept the whole ranges.
constexpr std::int64_t kMaxSliderAdded = 24;
constexpr double kMaxSliderBurstPerS = 5000;
constexpr double kMaxSliderDetectS = 60;

/// Table 8's phases (s), as the book lists them.
struct Table8Phases {
  double ssd_s, s3_s, cuda_s, trt_s, warmup_s, runtime_s;
};

struct ColdStartParams {
  Table8Phases phases;
  double swap_gb, link_gb_per_s;                          ///< the model swap
  double ckpt_gb, pickle_s, safetensors_s, nvme_gb_per_s; ///< Example 1.12's checkpoint formats
  BurstParams burst;
  double service_ms, slo_ms;
  std::int64_t warmup_n;       ///< requests that pay lazy initialization without warm-up
  double cold_request_ms;      ///< what each of them takes
  ColdStartMeasureParams measure;
};

/// Every input read and checked once: a base load the replicas can carry, a run of bounded size.
Result<ColdStartParams> validate_cold_start(const Inputs& in) {
  ColdStartParams p;
  p.phases = {in.real("ssd_s"), in.real("s3_s"), in.real("cuda_s"), in.real("trt_s"), in.real("warmup_s"),
              in.real("runtime_s")};
  const Table8Phases& t = p.phases;
  if (t.ssd_s + t.cuda_s + t.warmup_s + t.runtime_s <= 0)  // cloud_over_local divides by it
    return invalid("ssd_s", "the local cold start must take time: ssd_s + cuda_s + warmup_s + runtime_s must be "
                            "> 0 s, got 0", {{"problem", "local_cold_start_time"}});
  p.swap_gb = in.real("swap_gb");
  p.link_gb_per_s = in.real("link_gb_per_s");
  p.ckpt_gb = in.real("ckpt_gb");
  p.pickle_s = in.real("pickle_s");
  p.safetensors_s = in.real("safetensors_s");
  p.nvme_gb_per_s = in.real("nvme_gb_per_s");
  p.service_ms = in.real("service_ms");
  p.slo_ms = in.real("slo_ms");
  p.warmup_n = in.count("warmup_n");
  p.cold_request_ms = in.real("cold_request_ms");
  BurstParams& b = p.burst;
  b.base_replicas = in.count("replicas");
  b.added_replicas = in.count("added_replicas");
  b.base_rate_per_s = in.real("base_per_s");
  b.burst_rate_per_s = in.real("burst_per_s");
  b.burst_start_s = in.real("burst_at_s");
  b.burst_end_s = b.burst_start_s + in.real("burst_s");
  b.end_s = b.burst_end_s + in.real("after_s");
  b.detect_s = in.real("detect_s");
  b.service_s = p.service_ms * 1e-3;
  p.measure = validate_cold_start_measure(in);
  if (auto e = check_read_budget(p.measure)) return *e;

  const double base_capacity = static_cast<double>(b.base_replicas) / b.service_s;
  if (b.base_rate_per_s >= base_capacity)
    return Error{"unstable", "base_per_s",
                 "the base load of " + format_number(b.base_rate_per_s) + " req/s must stay below the " +
                     format_number(b.base_replicas) + " replicas' capacity of " + format_number(base_capacity) + " req/s",
                 {{"got", format_number(b.base_rate_per_s)}, {"max", format_number(base_capacity)}, {"problem", "base_load"},
                  {"replicas", format_number(b.base_replicas)}, {"unit", "req/s"}}};
  if (b.expected_requests() > kMaxRequests)
    return too_large("burst_per_s", b.expected_requests(), kMaxRequests, "requests",
                     "the requests simulated per scenario");
  return p;
}

struct Table8 {
  double local_s, cloud_s;
};

Table8 table8(const Table8Phases& t, RunResult& result, PhaseRows& rows) {
  const double local_s = t.ssd_s + t.cuda_s + t.warmup_s + t.runtime_s;
  const double cloud_s = t.s3_s + t.cuda_s + t.trt_s + t.warmup_s + t.runtime_s;
  result.output("local_total_s", local_s);
  result.output("cloud_total_s", cloud_s);
  result.output("cloud_over_local", cloud_s / local_s);
  result.table("table8").column("phase", {0, 1, 2, 3, 4, 5})
      .column("local_s", {t.ssd_s, 0.0, t.cuda_s, 0.0, t.warmup_s, t.runtime_s})
      .column("cloud_s", {0.0, t.s3_s, t.cuda_s, t.trt_s, t.warmup_s, t.runtime_s});
  rows.add(Phase::Ssd, t.ssd_s, false);
  rows.add(Phase::S3, t.s3_s, false);
  rows.add(Phase::CudaContext, t.cuda_s, false);
  rows.add(Phase::TensorRt, t.trt_s, false);
  rows.add(Phase::Warmup, t.warmup_s, false);
  rows.add(Phase::Runtime, t.runtime_s, false);
  return {local_s, cloud_s};
}

void loading_outputs(const ColdStartParams& p, RunResult& result) {
  result.output("swap_ms", 1e3 * p.swap_gb / p.link_gb_per_s);
  const double ckpt_gb = p.ckpt_gb;
  const double floor_s = ckpt_gb / p.nvme_gb_per_s;
  result.output("pickle_gb_per_s", ckpt_gb / p.pickle_s);
  result.output("safetensors_gb_per_s", ckpt_gb / p.safetensors_s);
  result.output("format_speedup", p.pickle_s / p.safetensors_s);
  result.output("nvme_floor_s", floor_s);
  result.output("safetensors_of_floor_frac", floor_s / p.safetensors_s);
  result.output("cold_request_ratio", p.cold_request_ms / p.service_ms);
}

ColdStart scenario_cold_start(Scenario s, const ColdStartParams& p, const Table8& t8) {
  switch (s) {
    case kCloud: return {t8.cloud_s, 0, 0};
    case kEngine: return {t8.local_s, 0, 0};
    case kNoWarmup: return {t8.local_s - p.phases.warmup_s, p.warmup_n, p.cold_request_ms * 1e-3};
    case kWarmPool:
    case kNumScenarios: break;
  }
  return {0, 0, 0};
}

/// Latency over time: per bucket of arrival time, the mean and the 99th percentile.
void add_latency_series(Scenario s, const BurstParams& p, const std::vector<BurstRecord>& records, Table& t) {
  const double width_s = p.end_s / kLatencyBuckets;
  std::vector<std::vector<double>> buckets(kLatencyBuckets);
  for (const auto& r : records)
    buckets[static_cast<std::size_t>(std::min<double>(r.arrival_at_s / width_s, kLatencyBuckets - 1))].push_back(r.latency_s);
  for (int b = 0; b < kLatencyBuckets; ++b) {
    if (buckets[b].empty()) continue;
    double sum = 0;
    for (double x : buckets[b]) sum += x;
    t.columns[0].second.push_back(s);
    t.columns[1].second.push_back((b + 0.5) * width_s);
    t.columns[2].second.push_back(1e3 * sum / static_cast<double>(buckets[b].size()));
    t.columns[3].second.push_back(1e3 * quantile(buckets[b], 0.99));
  }
}

Result<RunResult> run_cold_start(const ColdStartParams& cp, std::uint64_t seed, RunControl& ctl) {
  const BurstParams& p = cp.burst;
  RunResult result;
  PhaseRows rows;
  const Table8 t8 = table8(cp.phases, result, rows);
  loading_outputs(cp, result);
  if (auto e = add_measurements(cp.measure, seed, result, rows)) return *e;
  result.table("phases").column("phase", rows.phase).column("s", rows.s).column("measured", rows.measured);

  Rng rng = Rng::stream(seed, Stream::Arrivals);
  const std::vector<double> arrivals = burst_arrivals(p, rng);
  const double slo_s = cp.slo_ms * 1e-3;
  Table series{"latency", {{"scenario", {}}, {"t_s", {}}, {"mean_ms", {}}, {"p99_ms", {}}}};
  std::vector<double> ids, burst_frac, all_frac, burst_p99;
  for (int s = 0; s < kNumScenarios; ++s) {
    const auto scenario = static_cast<Scenario>(s);
    const auto records = simulate_scale_out(p, scenario_cold_start(scenario, cp, t8), arrivals);
    const double in_burst = on_time_frac(records, p.burst_start_s, p.burst_end_s, slo_s);
    std::vector<double> lat;
    for (const auto& r : records)
      if (r.arrival_at_s >= p.burst_start_s && r.arrival_at_s < p.burst_end_s) lat.push_back(r.latency_s);
    const double p99_ms = lat.empty() ? 0.0 : 1e3 * quantile(lat, 0.99);
    ids.push_back(s);
    burst_frac.push_back(in_burst);
    all_frac.push_back(on_time_frac(records, 0, p.end_s, slo_s));
    burst_p99.push_back(p99_ms);
    add_latency_series(scenario, p, records, series);
    ctl.report(s + 1, kNumScenarios);
  }
  result.output("ontime_cloud_frac", burst_frac[kCloud]);
  result.output("ontime_engine_frac", burst_frac[kEngine]);
  result.output("ontime_no_warmup_frac", burst_frac[kNoWarmup]);
  result.output("ontime_warm_pool_frac", burst_frac[kWarmPool]);
  result.output("num_requests", static_cast<double>(arrivals.size()));
  result.table("scenarios").column("scenario", ids).column("ontime_burst_frac", burst_frac)
      .column("ontime_all_frac", all_frac).column("p99_burst_ms", burst_p99)
      .column("slo_ms", std::vector<double>(ids.size(), cp.slo_ms));  // the latency charts' target line
  result.tables.push_back(std::move(series));
  const double full_capacity = static_cast<double>(p.base_replicas + p.added_replicas) / p.service_s;
  if (p.burst_rate_per_s >= full_capacity)
    result.notice("overloaded", "Even with all " + format_number(p.base_replicas + p.added_replicas) +
                                    " replicas the burst of " + format_number(p.burst_rate_per_s) +
                                    " req/s exceeds their capacity of " + format_number(full_capacity) + " req/s.");
  return result;
}

}  // namespace

CellSpec cold_start_cell() {
  CellSpec cell = checked_cell<&validate_cold_start, &run_cold_start>("request/cold-start",
{real("ssd_s", "s", 0.5, 0, 1e4), real("s3_s", "s", 4.0, 0, 1e4), real("cuda_s", "s", 0.4, 0, 1e4),
 real("trt_s", "s", 30, 0, 1e4), real("warmup_s", "s", 0.2, 0, 1e4), real("runtime_s", "s", 0.4, 0, 1e4),
 real("swap_gb", "GB", 10, 1e-6, 1e6), real("link_gb_per_s", "GB/s", 32, 1e-6, 1e6),
 real("ckpt_gb", "GB", 5, 1e-6, 1e6), real("pickle_s", "s", 15, 1e-6, 1e6),
 real("safetensors_s", "s", 1.5, 1e-6, 1e6), real("nvme_gb_per_s", "GB/s", 3.5, 1e-6, 1e6),
 count("replicas", "", 4, 1, 1000),
 explored(aliased(count("added_replicas", "", 8, 0, 1000), {"added"}), 0, kMaxSliderAdded),
 aliased(real("base_per_s", "1/s", 500, 1, 1e5), {"base_rps"}),
 explored(aliased(real("burst_per_s", "1/s", 1500, 1, 1e5), {"burst_rps"}), 100, kMaxSliderBurstPerS),
 real("burst_at_s", "s", 60, 0, 3600), real("burst_s", "s", 120, 1, 3600), real("after_s", "s", 120, 0, 3600),
 explored(real("detect_s", "s", 0, 0, 3600), 0, kMaxSliderDetectS),
 real("service_ms", "ms", 5, 0.01, 1e4), real("slo_ms", "ms", 50, 0.01, 1e5),
 count("warmup_n", "requests", 10, 0, 1e6), real("cold_request_ms", "ms", 500, 0.01, 1e6),
 choice("measure", {"on", "off"}, "on"), download_param_spec(), count("repeats", "", 3, 1, 20),
 count("read_mib", "MiB", 64, 1, 1024), real("weights_mib", "MiB", 98, 0.001, 1e6)});
  cell.deterministic = false;  // the measured phases differ run to run (measure = off is deterministic)
  cell.probes = {"model_fetch", "wasm_start"};
  cell.plan_probes = plan_cold_start_probes;
  cell.outputs = outputs({"local_total_s", "cloud_total_s", out("cloud_over_local", "×"), "swap_ms", "pickle_gb_per_s",
                  "safetensors_gb_per_s", out("format_speedup", "×"), "nvme_floor_s", "safetensors_of_floor_frac",
                  out("cold_request_ratio", "×"), "ontime_cloud_frac", "ontime_engine_frac", "ontime_no_warmup_frac",
                  "ontime_warm_pool_frac", "num_requests", browser_only("model_mib"), browser_only("fetch_bypass_ms"),
                  browser_only("fetch_bypass_mb_per_s"), browser_only("fetch_warm_ms"),
                  browser_only("fetch_warm_mb_per_s"), browser_only(out("fetch_bypass_over_warm", "×")),
                  browser_only("warm_from_cache_frac"), browser_only("fetch_weights_s"), browser_only("wasm_mib"),
                  browser_only("wasm_compile_ms"), browser_only("wasm_compile_mb_per_s"),
                  browser_only("wasm_instantiate_ms"), "infer_first_ms", sometimes("infer_fresh_model_ms"),
                  "infer_steady_ms", out("infer_first_over_steady", "×"), sometimes("read_cold_ms"),
                  sometimes("read_cold_mb_per_s"), sometimes("read_cached_ms"), sometimes("read_cached_mb_per_s"),
                  sometimes(out("read_cold_over_cached", "×")), sometimes("evicted_frac"),
                  sometimes("read_weights_cold_s")});
  cell.tables = {table("table8"), table("phases"), table("scenarios"), table("latency")};
  cell.budget = {describe_read_budget()};
  return cell;
}

}  // namespace sl::request
