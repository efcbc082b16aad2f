// Cell queues/capacity-plan. Napkin math 1.3 sizes a GPU fleet for a p99 SLO: eq. 6 (p99 = 4.6 S / (1 - rho))
// solved for the highest safe utilization, then GPUs = peak / (rho_safe x per-GPU rate), rounded up, times
// a headroom factor, with spares for failures. The book treats each GPU as its own M/M/1 queue, which is
// exact when a balancer routes each request to a random GPU. We then check the plan by simulation: the
// chosen fleet with 0, 1 and 2 GPUs failed, under random routing (independent M/M/1 queues, beside the exact
// M/M/1 p99 and eq. 6) and under one shared queue (M/M/c, beside its exact p99 from Erlang C).
#include "queues/capacity_plan.h"

#include <cmath>
#include <string>

#include "core/checked_run.h"
#include "core/outputs.h"
#include "core/preset.h"
#include "core/table_columns.h"
#include "queues/cells.h"
#include "queues/closed_forms.h"
#include "queues/erlang_c.h"
#include "queues/multi_server.h"

namespace sl::queues {

std::int64_t ceil_count(double x) { return static_cast<std::int64_t>(std::ceil(x - 1e-9 * std::fabs(x))); }

CapacityPlan plan_capacity(const CapacityPlanInputs& in) {
  CapacityPlan p;
  p.rho_safe = 1 - in.p99_factor * in.service_s / in.slo_p99_s;
  p.gpu_rate_per_s = 1 / in.service_s;
  p.mu_required_per_s = in.peak_per_s / p.rho_safe;
  p.gpus_exact = p.mu_required_per_s / p.gpu_rate_per_s;
  p.gpus_min = ceil_count(p.gpus_exact);
  p.gpus_headroom_exact = static_cast<double>(p.gpus_min) * in.headroom;
  p.gpus_planned = ceil_count(p.gpus_headroom_exact);
  if (p.gpus_planned > 1) p.util_one_failure_frac = in.peak_per_s / (p.gpu_rate_per_s * static_cast<double>(p.gpus_planned - 1));
  p.gpus_n_plus_2_min = p.gpus_min + 2;
  p.gpus_n_plus_2_headroom = p.gpus_planned + 2;
  return p;
}

namespace {

constexpr std::int64_t kMaxFleet = 5000;     // servers the simulation accepts
constexpr double kMaxGpus = 1e12;            // a plan larger than this is not a plan
constexpr int kMaxFailed = 2;

/// p99 of one failure scenario, simulated and closed form, for both routings.
struct Scenario {
  std::int64_t failed = 0;
  std::int64_t servers = 0;
  double rho = 0;
  FleetSummary random, shared;
  double p99_random_closed_s = 0, p99_eq6_s = 0, p99_shared_closed_s = 0;
};

/// Which of the plan's fleets the simulation checks.
enum class FleetChoice { Planned, Minimum, NPlus2, NPlus2Headroom };

FleetChoice fleet_choice(const std::string& choice) {
  if (choice == "minimum") return FleetChoice::Minimum;
  if (choice == "n_plus_2") return FleetChoice::NPlus2;
  if (choice == "n_plus_2_headroom") return FleetChoice::NPlus2Headroom;
  return FleetChoice::Planned;
}

std::int64_t chosen_fleet(const CapacityPlan& plan, FleetChoice fleet) {
  switch (fleet) {
    case FleetChoice::Minimum: return plan.gpus_min;
    case FleetChoice::NPlus2: return plan.gpus_n_plus_2_min;
    case FleetChoice::NPlus2Headroom: return plan.gpus_n_plus_2_headroom;
    case FleetChoice::Planned: break;
  }
  return plan.gpus_planned;
}

struct CapacityPlanParams {
  CapacityPlanInputs plan_inputs;
  FleetChoice fleet;
  std::int64_t num_requests;  // per routing and failure case
};

Result<CapacityPlanParams> validate_capacity_plan(const Inputs& in) {
  CapacityPlanParams params{{in.real("peak_per_s"), in.real("service_ms") * 1e-3, in.real("slo_ms") * 1e-3,
                             in.real("headroom"), in.real("p99_factor")},
                            fleet_choice(in.choice("fleet")), in.count("n")};
  const CapacityPlanInputs& p = params.plan_inputs;
  const double slo_ms = in.real("slo_ms");
  const double floor_ms = p.p99_factor * in.real("service_ms");
  if (p.slo_p99_s * 1e3 <= floor_ms)
    return Error{"invalid", "slo_ms",
                 "the p99 SLO must exceed p99_factor x service time = " + format_number(floor_ms) +
                     " ms (no utilization meets it), got " + format_number(slo_ms) + " ms",
                 {{"min", format_number(floor_ms)}, {"unit", "ms"}, {"got", format_number(slo_ms)}, {"problem", "slo_below_floor"}}};
  const double gpus = p.peak_per_s * p.service_s / (1 - p.p99_factor * p.service_s / p.slo_p99_s) * p.headroom;
  if (!(gpus <= kMaxGpus)) return too_large("peak_per_s", gpus, kMaxGpus, "GPUs", "the plan's GPU count");
  const std::int64_t fleet = chosen_fleet(plan_capacity(p), params.fleet);
  if (fleet > kMaxFleet)
    return too_large("peak_per_s", static_cast<double>(fleet), static_cast<double>(kMaxFleet), "GPUs",
                     "the simulated fleet");
  return params;
}

Scenario simulate_scenario(const CapacityPlanInputs& in, std::int64_t servers, std::int64_t failed, std::int64_t n,
                           std::uint64_t seed, RunProgress& progress) {
  Scenario s;
  s.failed = failed;
  s.servers = servers;
  const double mu = 1 / in.service_s;
  s.rho = in.peak_per_s / (mu * static_cast<double>(servers));
  FleetParams fleet{servers, in.peak_per_s, Distribution::exponential(mu), Routing::Random, n};
  s.random = measure_fleet(fleet, seed, n / 10, progress);
  fleet.routing = Routing::SharedQueue;
  s.shared = measure_fleet(fleet, seed, n / 10, progress);
  const double lambda_per_server = in.peak_per_s / static_cast<double>(servers);
  s.p99_random_closed_s = mm1_time_in_system_quantile_s(lambda_per_server, mu, 0.99);
  s.p99_eq6_s = eq6_p99_s(in.service_s, s.rho);
  s.p99_shared_closed_s = mmc_time_in_system_quantile_s(servers, in.peak_per_s, mu, 0.99);
  return s;
}

void output_plan(const CapacityPlan& plan, RunResult& result) {
  result.output("rho_safe", plan.rho_safe);
  result.output("gpu_rate_per_s", plan.gpu_rate_per_s);
  result.output("mu_required_per_s", plan.mu_required_per_s);
  result.output("gpus_exact", plan.gpus_exact);
  result.output("gpus_min", static_cast<double>(plan.gpus_min));
  result.output("gpus_headroom_exact", plan.gpus_headroom_exact);
  result.output("gpus_planned", static_cast<double>(plan.gpus_planned));
  if (plan.gpus_planned > 1) result.output("util_one_failure_frac", plan.util_one_failure_frac);
  result.output("gpus_n_plus_2_min", static_cast<double>(plan.gpus_n_plus_2_min));
  result.output("gpus_n_plus_2_headroom", static_cast<double>(plan.gpus_n_plus_2_headroom));
}

/// Output names of one failure case (0, 1 or 2 GPUs failed), written out so that grep finds them.
struct ScenarioNames {
  const char* rho;
  const char* p99_random_ms;
  const char* p99_random_closed_ms;
  const char* p99_eq6_ms;
  const char* p99_shared_ms;
  const char* p99_shared_closed_ms;
};
constexpr ScenarioNames kScenarioNames[kMaxFailed + 1] = {
    {"rho_f0", "p99_random_f0_ms", "p99_random_closed_f0_ms", "p99_eq6_f0_ms", "p99_shared_f0_ms", "p99_shared_closed_f0_ms"},
    {"rho_f1", "p99_random_f1_ms", "p99_random_closed_f1_ms", "p99_eq6_f1_ms", "p99_shared_f1_ms", "p99_shared_closed_f1_ms"},
    {"rho_f2", "p99_random_f2_ms", "p99_random_closed_f2_ms", "p99_eq6_f2_ms", "p99_shared_f2_ms", "p99_shared_closed_f2_ms"}};

void output_scenarios(const std::vector<Scenario>& scenarios, double slo_s, RunResult& result) {
  TableColumns cols;
  std::string missed;  // failure counts whose simulated p99 exceeds the SLO under either routing
  for (const Scenario& s : scenarios) {
    const ScenarioNames& names = kScenarioNames[s.failed];
    result.output(names.rho, s.rho);
    result.output(names.p99_random_ms, s.random.p99_s * 1e3);
    result.output(names.p99_random_closed_ms, s.p99_random_closed_s * 1e3);
    result.output(names.p99_eq6_ms, s.p99_eq6_s * 1e3);
    result.output(names.p99_shared_ms, s.shared.p99_s * 1e3);
    result.output(names.p99_shared_closed_ms, s.p99_shared_closed_s * 1e3);
    cols.put("failed", static_cast<double>(s.failed));
    cols.put("servers", static_cast<double>(s.servers));
    cols.put("rho", s.rho);
    cols.put("p99_random_ms", s.random.p99_s * 1e3);
    cols.put("p99_random_closed_ms", s.p99_random_closed_s * 1e3);
    cols.put("p99_eq6_ms", s.p99_eq6_s * 1e3);
    cols.put("p99_shared_ms", s.shared.p99_s * 1e3);
    cols.put("p99_shared_closed_ms", s.p99_shared_closed_s * 1e3);
    cols.put("slo_ms", slo_s * 1e3);
    if (s.random.p99_s > slo_s || s.shared.p99_s > slo_s) missed += (missed.empty() ? "" : ", ") + std::to_string(s.failed);
  }
  cols.into(result.table("scenarios"));
  if (!missed.empty())
    result.notice("slo_missed", "the simulated p99 exceeds the " + format_number(slo_s * 1e3) +
                                    " ms SLO with " + missed + " GPU(s) failed (see the table).");
}

Result<RunResult> run_capacity_plan(const CapacityPlanParams& checked, std::uint64_t seed, RunControl& ctl) {
  const CapacityPlanInputs& p = checked.plan_inputs;
  const CapacityPlan plan = plan_capacity(p);
  const std::int64_t fleet = chosen_fleet(plan, checked.fleet);
  const std::int64_t n = checked.num_requests;

  RunResult result;
  output_plan(plan, result);
  result.output("fleet_gpus", static_cast<double>(fleet));
  RunProgress progress(ctl, static_cast<double>(2 * (kMaxFailed + 1) * n));
  std::vector<Scenario> scenarios;
  std::string unstable;  // failure counts the remaining GPUs cannot carry
  for (std::int64_t failed = 0; failed <= kMaxFailed; ++failed) {
    const std::int64_t servers = fleet - failed;
    if (servers < 1 || p.peak_per_s * p.service_s >= static_cast<double>(servers)) {
      unstable += (unstable.empty() ? "" : ", ") + std::to_string(failed);
      continue;
    }
    scenarios.push_back(simulate_scenario(p, servers, failed, n, seed, progress));
  }
  if (!unstable.empty())
    result.notice("unstable", "with " + unstable + " GPU(s) failed the remaining GPUs cannot carry " +
                                  format_number(p.peak_per_s) + " req/s: the queues grow without bound, so those cases are not simulated.");
  output_scenarios(scenarios, p.slo_p99_s, result);
  return result;
}

}  // namespace

CellSpec capacity_plan_cell() {
  CellSpec cell = checked_cell<&validate_capacity_plan, &run_capacity_plan>("queues/capacity-plan",
      {explored(aliased(real("peak_per_s", "1/s", 5000, 1e-3, 1e9), {"peak_qps"}), 100, 20'000),
       real("service_ms", "ms", 5, 1e-3, 1e6), explored(real("slo_ms", "ms", 50, 1e-3, 1e7), 25, 500),
       explored(real("headroom", "", 1.3, 1, 10), 1, 3), real("p99_factor", "", 4.6, 0.1, 50),
       choice("fleet", {"planned", "minimum", "n_plus_2", "n_plus_2_headroom"}, "planned"),
       count("n", "requests", 100'000, 1000, 2'000'000)});
  cell.presets = presets_of({{"sale-day-peak", "peak_per_s=20000 slo_ms=100"}});
  cell.outputs = outputs({"rho_safe", out("gpu_rate_per_s", "req/s"), out("mu_required_per_s", "req/s"), "gpus_exact",
                  "gpus_min", "gpus_headroom_exact", "gpus_planned", sometimes("util_one_failure_frac"),
                  "gpus_n_plus_2_min", "gpus_n_plus_2_headroom", "fleet_gpus", "rho_f0", "p99_random_f0_ms",
                  "p99_random_closed_f0_ms", "p99_eq6_f0_ms", "p99_shared_f0_ms", "p99_shared_closed_f0_ms",
                  sometimes("rho_f1"), sometimes("p99_random_f1_ms"), sometimes("p99_random_closed_f1_ms"),
                  sometimes("p99_eq6_f1_ms"), sometimes("p99_shared_f1_ms"), sometimes("p99_shared_closed_f1_ms"),
                  sometimes("rho_f2"), sometimes("p99_random_f2_ms"), sometimes("p99_random_closed_f2_ms"),
                  sometimes("p99_eq6_f2_ms"), sometimes("p99_shared_f2_ms"), sometimes("p99_shared_closed_f2_ms")});
  cell.tables = {table("scenarios")};
  return cell;
}

}  // namespace sl::queues
