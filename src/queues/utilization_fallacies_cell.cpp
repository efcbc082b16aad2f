// Cell queues/utilization-fallacies. Three of the chapter's fallacies and pitfalls (§13) are M/M/1
// arithmetic; each is recomputed from eq. 5 and eq. 6 and confirmed by simulating the queues it compares:
//   1. a faster model at a fixed arrival rate: service S -> S' at load rho cuts the queueing delay far more
//      than S / S', because the utilization falls too (rho' = rho S' / S);
//   2. running at rho_high instead of rho_low: the fleet shrinks by 1 - rho_low / rho_high, latency grows by
//      (1 - rho_low) / (1 - rho_high), and so does the p99;
//   3. the mean hides the tail: at rho_low the p99 is ln(100) = 4.6 times the mean.
// The four scenarios run independently (own seeds); each simulated number has a 95 % batch-means CI, and a
// ratio of two scenarios gets the delta-method CI.
#include <cmath>
#include <string>

#include "core/checked_run.h"
#include "core/outputs.h"
#include "core/preset.h"
#include "queues/cells.h"
#include "queues/closed_forms.h"
#include "queues/confidence_intervals.h"
#include "queues/rounding.h"
#include "queues/sojourn_runs.h"
#include "queues/table_columns.h"

namespace sl::queues {
namespace {

constexpr double kP99 = 0.99;
/// Lowest load simulated (as the rho parameters' range): below it a run of a few hundred thousand requests
/// may see no request wait at all, and the queueing-delay ratio has nothing to divide by.
constexpr double kMinRho = 0.01;

struct FallacyParams {
  double service_s;      // S
  double rho;            // item 1's load before the speed-up
  double new_service_s;  // S'
  double rho_low;        // items 2 and 3
  double rho_high;       // item 2
  std::int64_t budget;   // requests over all four scenarios
};

Result<FallacyParams> validate_utilization_fallacies(const Inputs& in) {
  FallacyParams p{in.real("service_ms") * 1e-3, in.real("rho"), in.real("new_service_ms") * 1e-3,
                  in.real("rho_low"), in.real("rho_high"), in.count("n")};
  const double rho_after = p.rho * p.new_service_s / p.service_s;
  if (rho_after >= 1)
    return Error{"unstable", "new_service_ms",
                 "the new service time " + format_number(p.new_service_s * 1e3) + " ms at the same arrival rate gives rho = " +
                     format_number(round_significant(rho_after, 3)) + ", but the queue needs rho < 1; use a service time below " +
                     format_number(round_significant(p.service_s * 1e3 / p.rho, 3)) + " ms",
                 {{"got", format_number(p.new_service_s * 1e3)}, {"max", format_number(round_significant(p.service_s * 1e3 / p.rho, 3))}, {"unit", "ms"},
                  {"problem", "new_service"}, {"rho", format_number(round_significant(rho_after, 3))}}};
  if (rho_after < kMinRho)
    return Error{"invalid", "new_service_ms",
                 "the new service time " + format_number(p.new_service_s * 1e3) + " ms leaves the server busy only rho = " +
                     format_number(round_significant(rho_after, 3)) + " of the time; to measure a queueing delay the simulation needs rho >= " +
                     format_number(kMinRho) + ", i.e. a service time of at least " +
                     format_number(round_significant(kMinRho * p.service_s * 1e3 / p.rho, 3)) + " ms",
                 {{"got", format_number(p.new_service_s * 1e3)}, {"min", format_number(round_significant(kMinRho * p.service_s * 1e3 / p.rho, 3))}, {"unit", "ms"},
                  {"problem", "rho_too_low"}, {"rho", format_number(round_significant(rho_after, 3))}, {"min_rho", format_number(kMinRho)}}};
  if (p.rho_high <= p.rho_low)
    return Error{"invalid", "rho_high",
                 "rho_high must be above rho_low = " + format_number(p.rho_low) + ", got " + format_number(p.rho_high),
                 {{"got", format_number(p.rho_high)}, {"min", format_number(p.rho_low)}, {"unit", ""}, {"problem", "above_other"}, {"other", "rho_low"}}};
  return p;
}

/// One simulated M/M/1 scenario: mean and p99 of the time in system, and the mean wait.
struct Scenario {
  double rho;
  double service_s;
  SeriesSummary time_in_system;  // s
  Estimate mean_wait_s;
};

/// Budget share: as in queues/mm1-md1, proportional to max(2, 1/(1-rho)).
double budget_weight(double rho) { return std::fmax(2.0, 1.0 / (1.0 - rho)); }

std::vector<Scenario> simulate_scenarios(const FallacyParams& p, std::uint64_t seed, RunControl& ctl) {
  const double rhos[] = {p.rho, p.rho * p.new_service_s / p.service_s, p.rho_low, p.rho_high};
  const double services_s[] = {p.service_s, p.new_service_s, p.service_s, p.service_s};
  double total_weight = 0;
  for (double r : rhos) total_weight += budget_weight(r);
  std::vector<std::int64_t> kept;
  double total = 0;
  for (double r : rhos) {
    kept.push_back(static_cast<std::int64_t>(static_cast<double>(p.budget) * budget_weight(r) / total_weight));
    total += static_cast<double>(num_simulated(kept.back()));
  }
  ProgressSplitter progress(ctl, total);
  const auto seeds = scenario_seeds(seed, 4);
  std::vector<Scenario> out;
  for (int i = 0; i < 4; ++i) {
    RunControl sub = progress.next(static_cast<double>(num_simulated(kept[i])));
    FifoTimes t = simulate_fifo_times(rhos[i] / services_s[i], Distribution::exponential(1 / services_s[i]), kept[i],
                                      seeds[i], sub, /*keep_waits=*/true);
    const Estimate wait = summarize_series(std::move(t.wait_s), kP99).mean;
    out.push_back({rhos[i], services_s[i], summarize_series(std::move(t.time_in_system_s), kP99), wait});
  }
  return out;
}

/// Eq. 5 and eq. 6 for M/M/1 with service S at load rho, in seconds.
double eq5_s(double service_s, double rho) { return service_s / (1 - rho); }
double eq5_wait_s(double service_s, double rho) { return rho * service_s / (1 - rho); }
double exact_p99_s(double service_s, double rho) {
  return mm1_time_in_system_quantile_s(rho / service_s, 1 / service_s, kP99);
}

/// One row of the comparison: the exact M/M/1 value and its simulated estimate. Times are in seconds.
struct Check {
  int item;
  double exact;
  Estimate sim;
  bool is_time;
};

void add_closed_forms(RunResult& r, const FallacyParams& p) {
  const double rho_after = p.rho * p.new_service_s / p.service_s;
  // Item 1: eq. 5 before and after the speed-up, at the same arrival rate.
  r.output("W_at_rho_ms", 1e3 * eq5_s(p.service_s, p.rho));
  r.output("wait_at_rho_ms", 1e3 * eq5_wait_s(p.service_s, p.rho));
  r.output("rho_after", rho_after);
  r.output("wait_after_ms", 1e3 * eq5_wait_s(p.new_service_s, rho_after));
  r.output("W_after_ms", 1e3 * eq5_s(p.new_service_s, rho_after));
  r.output("queue_gain_x", eq5_wait_s(p.service_s, p.rho) / eq5_wait_s(p.new_service_s, rho_after));
  r.output("system_speedup_x", eq5_s(p.service_s, p.rho) / eq5_s(p.new_service_s, rho_after));
  r.output("model_speedup_x", p.service_s / p.new_service_s);
  // Item 2: the same traffic on fewer servers; fleet size is proportional to 1 / rho.
  r.output("W_low_ms", 1e3 * eq5_s(p.service_s, p.rho_low));
  r.output("W_high_ms", 1e3 * eq5_s(p.service_s, p.rho_high));
  r.output("W_multiple_high", 1 / (1 - p.rho_high));
  r.output("wait_multiple_high", p.rho_high / (1 - p.rho_high));
  r.output("cost_saving_frac", 1 - p.rho_low / p.rho_high);
  r.output("latency_ratio_x", eq5_s(p.service_s, p.rho_high) / eq5_s(p.service_s, p.rho_low));
  r.output("p99_low_ms", 1e3 * eq6_p99_s(p.service_s, p.rho_low));
  r.output("p99_high_ms", 1e3 * eq6_p99_s(p.service_s, p.rho_high));
  // Item 3: eq. 6 over eq. 5 is 4.6 at any load (ln 100 = 4.605 exactly).
  r.output("p99_to_mean_x", eq6_p99_s(p.service_s, p.rho_low) / eq5_s(p.service_s, p.rho_low));
}

std::vector<Check> make_checks(const std::vector<Scenario>& s) {
  const Scenario &before = s[0], &after = s[1], &low = s[2], &high = s[3];
  const auto exact_w = [](const Scenario& x) { return eq5_s(x.service_s, x.rho); };
  const auto exact_q = [](const Scenario& x) { return eq5_wait_s(x.service_s, x.rho); };
  // p99 / mean of one run: the two estimates are positively correlated, so the independent-runs delta
  // method overstates the ratio's CI (conservative).
  return {
      {0, exact_w(before), before.time_in_system.mean, true},
      {1, exact_q(before), before.mean_wait_s, true},
      {2, exact_w(after), after.time_in_system.mean, true},
      {3, exact_q(after), after.mean_wait_s, true},
      {4, exact_q(before) / exact_q(after), ratio_of_independent(before.mean_wait_s, after.mean_wait_s), false},
      {5, exact_w(before) / exact_w(after), ratio_of_independent(before.time_in_system.mean, after.time_in_system.mean), false},
      {6, exact_w(low), low.time_in_system.mean, true},
      {7, exact_w(high), high.time_in_system.mean, true},
      {8, exact_w(high) / exact_w(low), ratio_of_independent(high.time_in_system.mean, low.time_in_system.mean), false},
      {9, exact_p99_s(low.service_s, low.rho), low.time_in_system.quantile, true},
      {10, exact_p99_s(high.service_s, high.rho), high.time_in_system.quantile, true},
      {11, std::log(100.0), ratio_of_independent(low.time_in_system.quantile, low.time_in_system.mean), false},
  };
}

void add_simulated(RunResult& r, const std::vector<Check>& checks) {
  // Output names (estimate, 95 % half-width) of the checks that are also outputs, by item; the rest are in
  // the table only.
  struct Names {
    const char* value;
    const char* ci;
  };
  const Names names[] = {{"sim_W_at_rho_ms", "sim_W_at_rho_ci_ms"},
                         {nullptr, nullptr},
                         {"sim_W_after_ms", "sim_W_after_ci_ms"},
                         {nullptr, nullptr},
                         {"sim_queue_gain_x", "sim_queue_gain_ci_x"},
                         {"sim_system_speedup_x", "sim_system_speedup_ci_x"},
                         {"sim_W_low_ms", "sim_W_low_ci_ms"},
                         {"sim_W_high_ms", "sim_W_high_ci_ms"},
                         {"sim_latency_ratio_x", "sim_latency_ratio_ci_x"},
                         {"sim_p99_low_ms", "sim_p99_low_ci_ms"},
                         {"sim_p99_high_ms", "sim_p99_high_ci_ms"},
                         {"sim_p99_to_mean_x", "sim_p99_to_mean_ci_x"}};
  for (const Check& c : checks) {
    if (names[c.item].value == nullptr) continue;
    const double scale = c.is_time ? 1e3 : 1.0;  // times in ms, ratios as they are
    r.output(names[c.item].value, scale * c.sim.value);
    r.output(names[c.item].ci, scale * c.sim.half_width());
    if (c.item == 11) r.output("sim_p99_to_mean_se_x", c.sim.half_width() / kStudentT31);  // batch means, 31 d.o.f.
  }
  // Standard errors (half the batch-means 95 % interval over t(31)) of the four M/M/1 estimates at rho_low and
  // rho_high, and how many requests each of those two runs kept.
  for (const Check& c : checks) {
    const double se_ms = 1e3 * c.sim.half_width() / kStudentT31;
    if (c.item == 6) r.output("sim_W_low_se_ms", se_ms);
    if (c.item == 7) r.output("sim_W_high_se_ms", se_ms);
    if (c.item == 9) r.output("sim_p99_low_se_ms", se_ms);
    if (c.item == 10) r.output("sim_p99_high_se_ms", se_ms);
  }
  TableColumns cols;
  int num_inside = 0;
  for (const Check& c : checks) {
    const double scale = c.is_time ? 1e3 : 1.0;  // times in ms, ratios as they are
    cols.put("item", c.item);
    cols.put("exact", scale * c.exact);
    cols.put_estimate("sim", "sim_lo", "sim_hi", c.sim, scale);
    cols.put("sim_to_exact", c.sim.value / c.exact);
    cols.put("sim_to_exact_lo", c.sim.lo / c.exact);
    cols.put("sim_to_exact_hi", c.sim.hi / c.exact);
    num_inside += c.sim.covers(c.exact);
  }
  r.output("checks_inside_ci", num_inside);
  r.output("checks_total", static_cast<double>(checks.size()));
  cols.into(r.table("checks"));
}

Result<RunResult> run_utilization_fallacies(const FallacyParams& p, std::uint64_t seed, RunControl& ctl) {
  const auto scenarios = simulate_scenarios(p, seed, ctl);
  RunResult result;
  add_closed_forms(result, p);
  add_simulated(result, make_checks(scenarios));
  return result;
}

}  // namespace

CellSpec utilization_fallacies_cell() {
  CellSpec cell = checked_cell<&validate_utilization_fallacies, &run_utilization_fallacies>(
      "queues/utilization-fallacies",
      {real("service_ms", "ms", 5, 1e-3, 1e5), explored(real("rho", "", 0.8, 0.01, 0.99), 0.05, 0.98),
       explored(real("new_service_ms", "ms", 2, 1e-3, 1e5), 0.1, 6), real("rho_low", "", 0.7, 0.01, 0.99),
       explored(real("rho_high", "", 0.9, 0.01, 0.99), 0.72, 0.99), count("n", "requests", 1'000'000, 400'000, 10'000'000)});
  cell.presets = presets_of({{"near-saturation", "rho=0.95 rho_high=0.95"}});
  cell.outputs = outputs({"W_at_rho_ms", "wait_at_rho_ms", "rho_after", "wait_after_ms", "W_after_ms", "queue_gain_x",
                  "system_speedup_x", "model_speedup_x", "W_low_ms", "W_high_ms", "W_multiple_high",
                  "wait_multiple_high", "cost_saving_frac", "latency_ratio_x", "p99_low_ms", "p99_high_ms",
                  "p99_to_mean_x", "sim_W_at_rho_ms", "sim_W_at_rho_ci_ms", "sim_W_after_ms", "sim_W_after_ci_ms",
                  "sim_queue_gain_x", "sim_queue_gain_ci_x", "sim_system_speedup_x", "sim_system_speedup_ci_x",
                  "sim_W_low_ms", "sim_W_low_ci_ms", "sim_W_high_ms", "sim_W_high_ci_ms", "sim_latency_ratio_x",
                  "sim_latency_ratio_ci_x", "sim_p99_low_ms", "sim_p99_low_ci_ms", "sim_p99_high_ms",
                  "sim_p99_high_ci_ms", "sim_W_low_se_ms", "sim_W_high_se_ms", "sim_p99_low_se_ms",
                  "sim_p99_high_se_ms", "sim_p99_to_mean_x", "sim_p99_to_mean_se_x", "sim_p99_to_mean_ci_x",
                  "checks_inside_ci", "checks_total"});
  cell.tables = {table("checks")};
  return cell;
}

}  // namespace sl::queues
