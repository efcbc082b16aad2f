// Cell batching/batching-tables. The book's batching tables recomputed live from one editable service-time
// model T_svc(B) = fixed + per_item B (5 + 0.6 ms) and one SLO (50 ms):
//   Table 11    — service, latency behind a window, and throughput B/T_svc at B = 1..32 (7.4x);
//   Example 1.7 — the share of a batch's time spent computing (10 % at B = 1, 79 % at 32, truncated as the
//                 book prints them) and the batch where the fixed overhead drops to 10 %;
//   Table 12    — a 5 ms vs a 25 ms window: average wait, the budget left for inference, and the gain of the
//                 book's assumed capacities (+12.3 %), beside the batch eq. 12 would allow;
//   Table 14    — a practical configuration at 500 QPS: budget, request-seen batch, envelope, capacity;
//   Table 15    — eq. 15's traffic-adaptive window at 100 to 5,000 QPS.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "core/checked_run.h"
#include "core/table_columns.h"
#include "core/outputs.h"
#include "batching/batch_formulas.h"
#include "batching/cells.h"
#include "batching/service_model.h"
#include "core/budget.h"

namespace sl::batching {
namespace {

constexpr std::array<std::int64_t, 5> kTable11Batches = {1, 4, 8, 16, 32};
constexpr std::array<double, 4> kTable15RatesPerS = {100, 500, 1000, 5000};
constexpr std::int64_t kMaxBatchSearched = 100'000;
/// A step of the Poisson quantile walks (Table 14's p99 batch and envelope walk up to ~ the mean, lambda x
/// t14_window_ms), natively: under 40 ns, 50 allowed (lambda 1e6, t14_window_ms 1000, a mean of 1e6: the whole run 0.04 s).
constexpr budget::UnitCost kQuantileStepCost{50e-9, 0};
constexpr const char* kWalkWhat = "the mean batch of Table 14's window (lambda x t14_window_ms), which its quantile walks";

/// Table 11's outputs per row (literal names: each is a book reference).
constexpr std::array<const char*, 5> kTable11SvcOutputs = {"t11_svc_b1_ms", "t11_svc_b4_ms", "t11_svc_b8_ms",
                                                           "t11_svc_b16_ms", "t11_svc_b32_ms"};
constexpr std::array<const char*, 5> kTable11TotalOutputs = {"t11_total_b1_ms", "t11_total_b4_ms", "t11_total_b8_ms",
                                                             "t11_total_b16_ms", "t11_total_b32_ms"};
constexpr std::array<const char*, 5> kTable11ThroughputOutputs = {
    "t11_throughput_b1_per_s", "t11_throughput_b4_per_s", "t11_throughput_b8_per_s", "t11_throughput_b16_per_s",
    "t11_throughput_b32_per_s"};
/// Table 15's outputs per arrival rate (literal names: each is a book reference).
constexpr std::array<const char*, 4> kTable15WindowOutputs = {"t15_window_100_ms", "t15_window_500_ms",
                                                              "t15_window_1000_ms", "t15_window_5000_ms"};
constexpr std::array<const char*, 4> kTable15BatchOutputs = {"t15_batch_100", "t15_batch_500", "t15_batch_1000",
                                                             "t15_batch_5000"};
constexpr std::array<const char*, 4> kTable15LatencyOutputs = {"t15_latency_100_ms", "t15_latency_500_ms",
                                                               "t15_latency_1000_ms", "t15_latency_5000_ms"};

/// One editable service model, one SLO, and each table's own scenario.
struct BatchingTablesParams {
  LinearServiceMs service;
  double slo_ms = 50;
  double window_ms = 10;        ///< Table 11 and Example 1.7
  double overhead_frac = 0.1;   ///< Example 1.7's target share of fixed overhead
  double t12_small_window_ms = 5;
  double t12_large_window_ms = 25;
  std::int64_t t12_small_max_batch = 32;
  std::int64_t t12_large_max_batch = 48;
  double t12_small_capacity_per_s = 1140;  ///< the book's assumed capacities
  double t12_large_capacity_per_s = 1280;
  double lambda_per_s = 500;    ///< Table 14
  double t14_budget_frac = 0.3;
  double t14_window_ms = 12;
  std::int64_t max_batch = 32;  ///< Table 14's memory-limited batch
  double t14_efficiency_frac = 0.89;
  double t15_svc_ms = 25;
};

Error invalid_window(const std::string& param, double window_ms, double slo_ms) {
  return Error{"invalid", param,
               param + " must leave a budget: half the window must be below slo_ms = " + format_number(slo_ms) +
                   " ms, got a " + format_number(window_ms) + " ms window",
               {{"max", format_number(2 * slo_ms)}, {"unit", "ms"}, {"got", format_number(window_ms)}, {"problem", "window_budget"},
                {"other", "slo_ms"}, {"slo", format_number(slo_ms)}}};
}

Result<BatchingTablesParams> validate_batching_tables(const Inputs& in) {
  BatchingTablesParams p;
  p.slo_ms = in.real("slo_ms");
  p.window_ms = in.real("window_ms");
  p.overhead_frac = in.real("overhead_frac");
  p.t12_small_window_ms = in.real("t12_small_window_ms");
  p.t12_large_window_ms = in.real("t12_large_window_ms");
  p.t12_small_max_batch = in.count("t12_small_max_batch");
  p.t12_large_max_batch = in.count("t12_large_max_batch");
  p.t12_small_capacity_per_s = in.real("t12_small_capacity_per_s");
  p.t12_large_capacity_per_s = in.real("t12_large_capacity_per_s");
  p.lambda_per_s = in.real("lambda");
  p.t14_budget_frac = in.real("t14_budget_frac");
  p.t14_window_ms = in.real("t14_window_ms");
  p.max_batch = in.count("max_batch");
  p.t14_efficiency_frac = in.real("t14_efficiency_frac");
  p.t15_svc_ms = in.real("t15_svc_ms");

  if (p.t12_small_window_ms / 2 >= p.slo_ms)
    return invalid_window("t12_small_window_ms", p.t12_small_window_ms, p.slo_ms);
  if (p.t12_large_window_ms / 2 >= p.slo_ms)
    return invalid_window("t12_large_window_ms", p.t12_large_window_ms, p.slo_ms);
  if (p.t15_svc_ms >= p.slo_ms)
    return Error{"invalid", "t15_svc_ms",
                 "t15_svc_ms must be below slo_ms = " + format_number(p.slo_ms) + " ms so that eq. 15 leaves a window, got " +
                     format_number(p.t15_svc_ms) + " ms",
                 {{"max", format_number(p.slo_ms)}, {"unit", "ms"}, {"got", format_number(p.t15_svc_ms)}, {"problem", "below_other"},
                  {"other", "slo_ms"}}};
  const double mean_batch = p.lambda_per_s * p.t14_window_ms * 1e-3;
  if (auto e = budget::check(budget::estimate("t14_window_ms", kWalkWhat, "requests", mean_batch, kQuantileStepCost)))
    return *e;
  auto service = validate_linear_service(in);
  if (!service.ok()) return service.error();
  p.service = service.value();
  return p;
}

void output_table11(RunResult& result, const ServiceModel& service, double window_ms) {
  for (std::size_t i = 0; i < kTable11Batches.size(); ++i) {
    const std::int64_t b = kTable11Batches[i];
    result.output(kTable11SvcOutputs[i], service.service_s(b) * 1e3);
    result.output(kTable11TotalOutputs[i], window_ms + service.service_s(b) * 1e3);
    result.output(kTable11ThroughputOutputs[i], service.throughput_per_s(b));
  }
  result.output("t11_gain_x", service.throughput_per_s(32) / service.throughput_per_s(1));
}

void output_example17(RunResult& result, const ServiceModel& service, const BatchingTablesParams& p) {
  const double fixed_s = service.fixed_s(), per_item_s = service.per_item_s();
  const double eff1 = batch_efficiency_frac(fixed_s, per_item_s, 1);
  const double eff32 = batch_efficiency_frac(fixed_s, per_item_s, 32);
  result.output("eff_b1_frac", eff1);
  result.output("eff_b1_pct_truncated", std::floor(eff1 * 100));  // the book prints int(10.71) = 10
  result.output("eff_b32_frac", eff32);
  result.output("eff_b32_pct_truncated", std::floor(eff32 * 100));
  const std::int64_t rule_batch = batch_for_overhead_below(fixed_s, per_item_s, p.overhead_frac);
  if (rule_batch > 0) {
    result.output("batch_overhead_rule", static_cast<double>(rule_batch));
  } else {
    result.notice("overhead_never_small", "with no per-request cost the fixed overhead never falls below the target share");
  }
  // The rule's other stop: the SLO. Eq. 12 with Table 11's window.
  const std::int64_t slo_batch =
      latency_constrained_batch(p.window_ms * 1e-3, p.slo_ms * 1e-3, service, kMaxBatchSearched);
  result.output("batch_slo_limit", static_cast<double>(slo_batch));
}

void output_table12(RunResult& result, const ServiceModel& service, const BatchingTablesParams& p) {
  const double slo_ms = p.slo_ms;
  const double small_ms = p.t12_small_window_ms;
  const double large_ms = p.t12_large_window_ms;
  result.output("t12_small_wait_ms", small_ms / 2);
  result.output("t12_large_wait_ms", large_ms / 2);
  result.output("t12_small_budget_ms", slo_ms - small_ms / 2);
  result.output("t12_large_budget_ms", slo_ms - large_ms / 2);
  result.output("t12_gain_frac", p.t12_large_capacity_per_s / p.t12_small_capacity_per_s - 1);
  result.output("t12_wait_increase_ms", (large_ms - small_ms) / 2);
  result.output("t12_max_wait_increase_ms", large_ms - small_ms);
  // What the service model itself says: eq. 12's batch limit for each window, and its capacity at the
  // book's caps (the book's capacities are assumptions, not derived from T_svc). Row 0: the conservative
  // window, row 1: the aggressive one.
  const auto small_bmax = latency_constrained_batch(small_ms * 1e-3, slo_ms * 1e-3, service, kMaxBatchSearched);
  const auto large_bmax = latency_constrained_batch(large_ms * 1e-3, slo_ms * 1e-3, service, kMaxBatchSearched);
  const double small_cap = service.throughput_per_s(p.t12_small_max_batch);
  const double large_cap = service.throughput_per_s(p.t12_large_max_batch);
  result.output("t12_model_gain_frac", large_cap / small_cap - 1);
  result.table("table12_model")
      .column("window_ms", {small_ms, large_ms})
      .column("bmax_eq12", {static_cast<double>(small_bmax), static_cast<double>(large_bmax)})
      .column("max_batch", {static_cast<double>(p.t12_small_max_batch), static_cast<double>(p.t12_large_max_batch)})
      .column("model_capacity_per_s", {small_cap, large_cap});
}

void output_table14(RunResult& result, const ServiceModel& service, const BatchingTablesParams& p) {
  const double slo_ms = p.slo_ms;
  const double lambda = p.lambda_per_s;
  const double window_s = p.t14_window_ms * 1e-3;
  const std::int64_t max_batch = p.max_batch;
  const double budget_ms = p.t14_budget_frac * slo_ms;
  result.output("t14_budget_ms", budget_ms);
  result.output("t14_max_window_ms", budget_ms);  // the whole batching budget may go to the window
  result.output("t14_seen_batch_mean", 1 + lambda * window_s);
  const std::int64_t p99_batch = std::min(request_seen_batch_quantile(lambda, window_s, 0.99), max_batch);
  result.output("t14_seen_batch_p99", static_cast<double>(p99_batch));
  const double envelope_ms = (window_s + service.service_s(p99_batch)) * 1e3;
  result.output("t14_envelope_ms", envelope_ms);
  const double capacity = service.throughput_per_s(max_batch) * p.t14_efficiency_frac;
  result.output("t14_capacity_per_s", capacity);
  result.output("t14_served_per_s", std::fmin(lambda, capacity));
  if (window_s * 1e3 > budget_ms)
    result.notice("t14_window_over_budget", "the selected window (" + format_number(window_s * 1e3) +
                                                " ms) exceeds the batching budget (" + format_number(budget_ms) + " ms)");
  if (envelope_ms > slo_ms)
    result.notice("t14_envelope_over_slo", "the tail envelope (" + format_number(envelope_ms) + " ms) exceeds the SLO (" +
                                               format_number(slo_ms) + " ms)");
  if (lambda > capacity)
    result.notice("t14_overloaded", "arrivals (" + format_number(lambda) + " req/s) exceed the capacity (" +
                                        format_number(capacity) + " req/s); the served rate is the capacity");
}

void output_table15(RunResult& result, const BatchingTablesParams& p) {
  const double slo_s = p.slo_ms * 1e-3;
  const double svc_s = p.t15_svc_ms * 1e-3;
  std::vector<double> rate, window_ms, batch, latency_ms;
  for (std::size_t i = 0; i < kTable15RatesPerS.size(); ++i) {
    const double lambda = kTable15RatesPerS[i];
    const double w_s = adaptive_window_s(slo_s, svc_s, lambda);
    result.output(kTable15WindowOutputs[i], w_s * 1e3);
    result.output(kTable15BatchOutputs[i], lambda * w_s);
    result.output(kTable15LatencyOutputs[i], (svc_s + w_s) * 1e3);
    rate.push_back(lambda);
    window_ms.push_back(w_s * 1e3);
    batch.push_back(lambda * w_s);
    latency_ms.push_back((svc_s + w_s) * 1e3);
  }
  result.table("table15").column("rate_per_s", rate).column("window_ms", window_ms).column("batch", batch).column(
      "latency_ms", latency_ms);
}

/// The service curve behind Table 11 and Example 1.7, from batch 1 to 128.
void table_service_curve(RunResult& result, const ServiceModel& service, const BatchingTablesParams& p) {
  const double window_ms = p.window_ms;
  TableColumns cols;
  for (std::int64_t b = 1; b <= 128; b *= 2) {
    cols.put({{"batch", static_cast<double>(b)}, {"svc_ms", service.service_s(b) * 1e3},
              {"total_ms", window_ms + service.service_s(b) * 1e3}, {"throughput_per_s", service.throughput_per_s(b)},
              {"efficiency_frac", batch_efficiency_frac(service.fixed_s(), service.per_item_s(), b)},
              {"rule_frac", 1 - p.overhead_frac}});  // rule: the golden rule's target share of compute
  }
  cols.into(result.table("service_curve"));
}

Result<RunResult> run_batching_tables(const BatchingTablesParams& p, std::uint64_t /*seed*/, RunControl& /*ctl*/) {
  const ServiceModel service = p.service.model();
  RunResult result;
  output_table11(result, service, p.window_ms);
  output_example17(result, service, p);
  output_table12(result, service, p);
  output_table14(result, service, p);
  output_table15(result, p);
  table_service_curve(result, service, p);
  return result;
}

}  // namespace

CellSpec batching_tables_cell() {
  CellSpec cell = checked_cell<&validate_batching_tables, &run_batching_tables>("batching/batching-tables",
      {explored(real("svc_fixed_ms", "ms", 5, 0, 1e4), 0, 20), explored(real("svc_per_item_ms", "ms", 0.6, 0, 1e4), 0, 2),
       explored(real("slo_ms", "ms", 50, 1e-3, 1e6), 10, 200), real("window_ms", "ms", 10, 0, 1e5),
       real("overhead_frac", "", 0.1, 1e-6, 0.999),
       real("t12_small_window_ms", "ms", 5, 0, 1e5), real("t12_large_window_ms", "ms", 25, 0, 1e5),
       aliased(count("t12_small_max_batch", "requests", 32, 1, 1e5), {"t12_small_cap"}),
       aliased(count("t12_large_max_batch", "requests", 48, 1, 1e5), {"t12_large_cap"}),
       real("t12_small_capacity_per_s", "1/s", 1140, 1e-6, 1e9),
       real("t12_large_capacity_per_s", "1/s", 1280, 1e-6, 1e9),
       real("lambda", "1/s", 500, 1e-6, 1e6), real("t14_budget_frac", "", 0.3, 0, 1),
       real("t14_window_ms", "ms", 12, 0, 1e5), count("max_batch", "requests", 32, 1, 1e5),
       real("t14_efficiency_frac", "", 0.89, 1e-6, 1), real("t15_svc_ms", "ms", 25, 0, 1e6)});
  cell.uses_seed = false;
  cell.outputs = outputs({"t11_svc_b1_ms", "t11_total_b1_ms", "t11_throughput_b1_per_s", "t11_svc_b4_ms", "t11_total_b4_ms",
                  "t11_throughput_b4_per_s", "t11_svc_b8_ms", "t11_total_b8_ms", "t11_throughput_b8_per_s",
                  "t11_svc_b16_ms", "t11_total_b16_ms", "t11_throughput_b16_per_s", "t11_svc_b32_ms",
                  "t11_total_b32_ms", "t11_throughput_b32_per_s", "t11_gain_x", "eff_b1_frac", "eff_b1_pct_truncated",
                  "eff_b32_frac", "eff_b32_pct_truncated", "batch_overhead_rule", "batch_slo_limit",
                  "t12_small_wait_ms", "t12_large_wait_ms", "t12_small_budget_ms", "t12_large_budget_ms",
                  "t12_gain_frac", "t12_wait_increase_ms", "t12_max_wait_increase_ms", "t12_model_gain_frac",
                  "t14_budget_ms", "t14_max_window_ms", "t14_seen_batch_mean", "t14_seen_batch_p99", "t14_envelope_ms",
                  "t14_capacity_per_s", "t14_served_per_s", "t15_window_100_ms", "t15_batch_100", "t15_latency_100_ms",
                  "t15_window_500_ms", "t15_batch_500", "t15_latency_500_ms", "t15_window_1000_ms", "t15_batch_1000",
                  "t15_latency_1000_ms", "t15_window_5000_ms", "t15_batch_5000", "t15_latency_5000_ms"});
  cell.tables = {table("table12_model"), table("table15"), table("service_curve")};
  cell.budget = {budget::describe(kWalkWhat, "requests", kQuantileStepCost)};
  return cell;
}

}  // namespace sl::batching
