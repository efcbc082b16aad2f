// Cell queues/mm1-md1. One FIFO server with Poisson arrivals and service time S, exponential (M/M/1) or
// fixed (M/D/1), simulated at each utilization of a grid. At each point the mean and the p99 of the time in
// system carry 95 % confidence intervals by batch means (one long run per point and model, cut into 32
// batches), and sit beside the closed forms: eq. 5 S/(1-rho), the exact M/M/1 p99 ln(100) S/(1-rho), eq. 6
// 4.6 S/(1-rho), and Pollaczek-Khinchine S + rho S/(2(1-rho)) for M/D/1. Table 7 and Figure 1 are eq. 5 and
// eq. 6 evaluated; the simulation adds what they leave out: how far below eq. 6 the M/D/1 tail sits.
#include <cmath>
#include <optional>
#include <string>

#include "core/checked_run.h"
#include "core/budget.h"
#include "core/outputs.h"
#include "core/preset.h"
#include "queues/cells.h"
#include "queues/closed_forms.h"
#include "queues/confidence_intervals.h"
#include "queues/md1_tail.h"
#include "queues/sojourn_runs.h"
#include "queues/table_columns.h"

namespace sl::queues {
namespace {

/// Utilizations simulated: Table 7's rows (0.5, 0.7, 0.8, 0.9, 0.95) and the rest of Figure 1's range.
constexpr double kRhoGrid[] = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95};
constexpr int kNumRho = sizeof(kRhoGrid) / sizeof(kRhoGrid[0]);
/// Table 7's rows (utilization as a fraction), with the names of their outputs (book references), and
/// Figure 1's curve: 100 points on [0, 0.95].
struct Table7Row {
  double rho;
  const char* multiple_name;  // S/(1 - rho) in multiples of S
  const char* W_ms_name;      // the same in ms
};
constexpr Table7Row kTable7[] = {{0.5, "eq5_multiple_50", "eq5_W_50_ms"},
                                 {0.7, "eq5_multiple_70", "eq5_W_70_ms"},
                                 {0.8, "eq5_multiple_80", "eq5_W_80_ms"},
                                 {0.9, "eq5_multiple_90", "eq5_W_90_ms"},
                                 {0.95, "eq5_multiple_95", "eq5_W_95_ms"}};
constexpr int kFigure1Points = 100;
constexpr double kFigure1MaxRho = 0.95;
/// Points of the closing note: their simulated numbers and 95 % half-widths form the table
/// "closing_rows".
constexpr double kReportedRho[] = {0.5, 0.8, 0.95};
constexpr double kP99 = 0.99;

/// A run's request budget is split over the grid in proportion to max(2, 1/(1-rho)): successive waits stay
/// correlated for longer near rho = 1 (the SE of the mean grows like 1/(1-rho) at fixed N), so high loads
/// get more requests, and every point gets at least the share of rho = 0.5.
double budget_weight(double rho) { return std::fmax(2.0, 1.0 / (1.0 - rho)); }

std::int64_t num_kept_at(double rho, std::int64_t budget) {
  double total_weight = 0;
  for (double r : kRhoGrid) total_weight += budget_weight(r);
  return static_cast<std::int64_t>(static_cast<double>(budget) * budget_weight(rho) / total_weight);
}

/// One request of n, natively: both models simulate it (with warm-up) and keep its time in system for the
/// quantiles. 0.4 us measured (n = 2e7: 7.7 s, n = 5e6: 1.8 s on this 2-core machine with a build beside it), so
/// the limit, 1e7, runs in about 4 s natively (10 s in a browser).
constexpr budget::UnitCost kRequestCost{0.4e-6, 2 * 8 * 1.1};
constexpr const char* kRequestsWhat = "the requests per model (n, over the 11 utilizations)";

struct Mm1Md1Params {
  double service_s;            // S
  std::int64_t num_requests;   // kept requests per model, shared over the grid
};

Result<Mm1Md1Params> validate_mm1_md1(const Inputs& in) {
  // Every grid point is below rho = 1 whatever S is; n is bounded by the budget.
  const Mm1Md1Params p{in.real("service_ms") * 1e-3, in.count("n")};
  if (auto e = budget::check(budget::estimate("n", kRequestsWhat, "requests", static_cast<double>(p.num_requests), kRequestCost)))
    return *e;
  return p;
}

struct GridPoint {
  double rho;
  std::int64_t num_kept;
  SeriesSummary mm1;  // times in system, s
  SeriesSummary md1;
};

/// Both models at one utilization, on the same arrival stream (one seed: arrivals and services have
/// separate streams, so only the service law changes).
GridPoint simulate_point(double rho, double service_s, std::int64_t num_kept, std::uint64_t seed,
                         ProgressSplitter& progress) {
  const double lambda = rho / service_s;
  const double n_sim = static_cast<double>(num_simulated(num_kept));
  RunControl mm1_ctl = progress.next(n_sim);
  auto mm1 = simulate_fifo_times(lambda, Distribution::exponential(1 / service_s), num_kept, seed, mm1_ctl);
  RunControl md1_ctl = progress.next(n_sim);
  auto md1 = simulate_fifo_times(lambda, Distribution::deterministic(service_s), num_kept, seed, md1_ctl);
  return {rho, num_kept, summarize_series(std::move(mm1.time_in_system_s), kP99),
          summarize_series(std::move(md1.time_in_system_s), kP99)};
}

void add_book_tables(RunResult& result, double service_s) {
  // Table 7 and Figure 1 evaluate eq. 5 (and eq. 6 for Figure 1's p99) in multiples of the service time.
  for (const Table7Row& row : kTable7) {
    result.output(row.multiple_name, 1 / (1 - row.rho));
    result.output(row.W_ms_name, 1e3 * service_s / (1 - row.rho));
  }
  result.output("ln_100", std::log(100.0));
  result.output("eq6_multiple_70", eq6_p99_s(1.0, 0.7));
  std::vector<double> rho, mean_x, p99_x;
  for (int i = 0; i < kFigure1Points; ++i) {
    rho.push_back(kFigure1MaxRho * i / (kFigure1Points - 1));
    mean_x.push_back(1 / (1 - rho.back()));
    p99_x.push_back(eq6_p99_s(1.0, rho.back()));
  }
  result.table("figure1").column("rho", std::move(rho)).column("mean_x", std::move(mean_x)).column("p99_x", std::move(p99_x));
}

/// Closed forms at one grid point, in seconds. The exact M/D/1 p99 exists only where its alternating sum
/// is numerically safe (rho up to about 0.87).
struct ClosedForms {
  double eq5_s, mm1_p99_s, eq6_s, pk_s;
  std::optional<double> md1_p99_s;
};
ClosedForms closed_forms_at(double rho, double service_s) {
  const double lambda = rho / service_s, mu = 1 / service_s;
  return {mm1_mean_time_in_system_s(lambda, mu), mm1_time_in_system_quantile_s(lambda, mu, kP99),
          eq6_p99_s(service_s, rho), md1_mean_time_in_system_s(lambda, mu),
          md1_time_in_system_quantile_s(lambda, service_s, kP99)};
}

/// How many closed forms the simulated 95 % intervals cover, of how many checked.
struct Coverage {
  int num_checked = 0;
  int num_covered = 0;
  void check(const Estimate& e, double closed) {
    ++num_checked;
    num_covered += e.covers(closed);
  }
};

/// The exact M/D/1 p99 (Erlang's formula) where it can be evaluated, beside the simulated one.
void add_md1_exact_table(RunResult& result, const std::vector<GridPoint>& points, double service_s) {
  std::vector<double> rho, p99_ms, p99_to_eq6;
  for (const auto& p : points) {
    const ClosedForms cf = closed_forms_at(p.rho, service_s);
    if (!cf.md1_p99_s) continue;
    rho.push_back(p.rho);
    p99_ms.push_back(1e3 * *cf.md1_p99_s);
    p99_to_eq6.push_back(*cf.md1_p99_s / cf.eq6_s);
  }
  result.table("md1_exact")
      .column("rho", std::move(rho))
      .column("md1_p99_exact_ms", std::move(p99_ms))
      .column("md1_p99_exact_to_eq6", std::move(p99_to_eq6));
}

/// The sweep as a table (ms, and multiples of S for Figure 1), and how many closed forms the CIs cover.
Coverage add_sweep_table(RunResult& result, const std::vector<GridPoint>& points, double service_s) {
  TableColumns cols;
  Coverage coverage;
  for (const auto& p : points) {
    const ClosedForms cf = closed_forms_at(p.rho, service_s);
    cols.put("rho", p.rho);
    cols.put("num_requests", static_cast<double>(p.num_kept));
    cols.put_estimate("mm1_W_ms", "mm1_W_lo_ms", "mm1_W_hi_ms", p.mm1.mean, 1e3);
    cols.put("eq5_W_ms", 1e3 * cf.eq5_s);
    cols.put_estimate("mm1_p99_ms", "mm1_p99_lo_ms", "mm1_p99_hi_ms", p.mm1.quantile, 1e3);
    cols.put("mm1_p99_exact_ms", 1e3 * cf.mm1_p99_s);
    cols.put("eq6_p99_ms", 1e3 * cf.eq6_s);
    cols.put_estimate("md1_W_ms", "md1_W_lo_ms", "md1_W_hi_ms", p.md1.mean, 1e3);
    cols.put("md1_W_pk_ms", 1e3 * cf.pk_s);
    cols.put_estimate("md1_p99_ms", "md1_p99_lo_ms", "md1_p99_hi_ms", p.md1.quantile, 1e3);
    cols.put("mm1_p99_to_eq6", p.mm1.quantile.value / cf.eq6_s);
    cols.put("md1_p99_to_eq6", p.md1.quantile.value / cf.eq6_s);
    cols.put("mm1_W_x", p.mm1.mean.value / service_s);
    cols.put("mm1_p99_x", p.mm1.quantile.value / service_s);
    cols.put("md1_W_x", p.md1.mean.value / service_s);
    cols.put("md1_p99_x", p.md1.quantile.value / service_s);
    coverage.check(p.mm1.mean, cf.eq5_s);
    coverage.check(p.mm1.quantile, cf.mm1_p99_s);
    coverage.check(p.md1.mean, cf.pk_s);
    if (cf.md1_p99_s) coverage.check(p.md1.quantile, *cf.md1_p99_s);
  }
  cols.into(result.table("sweep"));
  return coverage;
}

/// The closing note's rows: the simulated numbers with their 95 % half-widths at rho = 0.5, 0.8, 0.95, and
/// the exact M/D/1 p99 that the lab text quotes at 0.5 and 0.8 (Erlang's formula; none at 0.95).
void add_closing_rows(RunResult& result, const std::vector<GridPoint>& points, double service_s) {
  TableColumns cols;
  for (const auto& p : points) {
    bool reported = false;
    for (double r : kReportedRho) reported = reported || std::fabs(p.rho - r) < 1e-9;
    if (!reported) continue;
    const ClosedForms cf = closed_forms_at(p.rho, service_s);
    cols.put("rho", p.rho);
    cols.put("mm1_W_ms", 1e3 * p.mm1.mean.value);
    cols.put("mm1_W_ci_ms", 1e3 * p.mm1.mean.half_width());
    cols.put("mm1_p99_ms", 1e3 * p.mm1.quantile.value);
    cols.put("mm1_p99_ci_ms", 1e3 * p.mm1.quantile.half_width());
    cols.put("md1_W_ms", 1e3 * p.md1.mean.value);
    cols.put("md1_W_ci_ms", 1e3 * p.md1.mean.half_width());
    cols.put("md1_p99_ms", 1e3 * p.md1.quantile.value);
    cols.put("md1_p99_ci_ms", 1e3 * p.md1.quantile.half_width());
    cols.put("md1_p99_to_eq6", p.md1.quantile.value / cf.eq6_s);
  }
  cols.into(result.table("closing_rows"));
  // Grid points 0.5 and 0.8 are below the exact form's limit (about 0.87) at any S.
  result.output("md1_p99_exact_50_ms", 1e3 * *closed_forms_at(0.5, service_s).md1_p99_s);
  result.output("md1_p99_exact_80_ms", 1e3 * *closed_forms_at(0.8, service_s).md1_p99_s);
}

/// The simulated numbers at 90 % busy in multiples of S: the page's predict-then-run question ("how many
/// times S is the M/M/1 p99?", eq. 6: 46) and its headline.
void add_at_90(RunResult& result, const std::vector<GridPoint>& points, double service_s) {
  for (const auto& p : points)
    if (std::fabs(p.rho - 0.9) < 1e-9) {
      result.output("mm1_W_90_x", p.mm1.mean.value / service_s);
      result.output("mm1_p99_90_x", p.mm1.quantile.value / service_s);
      result.output("md1_p99_90_x", p.md1.quantile.value / service_s);
    }
}

void add_table7(RunResult& result, const std::vector<GridPoint>& points, double service_s) {
  TableColumns cols;
  for (const Table7Row& row : kTable7)
    for (const auto& p : points)
      if (std::fabs(p.rho - row.rho) < 1e-9) {
        cols.put("rho_pct", 100 * row.rho);
        cols.put("multiple", 1 / (1 - row.rho));
        cols.put("eq5_W_ms", 1e3 * service_s / (1 - row.rho));
        cols.put_estimate("mm1_W_ms", "mm1_W_lo_ms", "mm1_W_hi_ms", p.mm1.mean, 1e3);
      }
  cols.into(result.table("table7"));
}

Result<RunResult> run_mm1_md1(const Mm1Md1Params& checked, std::uint64_t seed, RunControl& ctl) {
  const double service_s = checked.service_s;
  const std::int64_t budget = checked.num_requests;

  double total = 0;
  for (double rho : kRhoGrid) total += 2.0 * static_cast<double>(num_simulated(num_kept_at(rho, budget)));
  ProgressSplitter progress(ctl, total);
  const auto seeds = scenario_seeds(seed, kNumRho);
  std::vector<GridPoint> points;
  for (int i = 0; i < kNumRho; ++i)
    points.push_back(simulate_point(kRhoGrid[i], service_s, num_kept_at(kRhoGrid[i], budget), seeds[i], progress));

  RunResult result;
  add_book_tables(result, service_s);
  add_closing_rows(result, points, service_s);
  const Coverage coverage = add_sweep_table(result, points, service_s);
  result.output("closed_forms_checked", coverage.num_checked);
  result.output("closed_forms_inside_ci", coverage.num_covered);
  result.output("requests_simulated", total);
  add_table7(result, points, service_s);
  add_at_90(result, points, service_s);
  add_md1_exact_table(result, points, service_s);
  return result;
}

}  // namespace

CellSpec mm1_md1_cell() {
  CellSpec cell = checked_cell<&validate_mm1_md1, &run_mm1_md1>("queues/mm1-md1",
      {explored(real("service_ms", "ms", 5, 1e-3, 1e5), 0.1, 100),
       explored(count("n", "requests", 1'000'000, 500'000, 20'000'000), 500'000, 1'500'000)});
  cell.presets = presets_of({{"slow-service", "service_ms=50"}});
  cell.outputs = outputs({"eq5_multiple_50", "eq5_W_50_ms", "eq5_multiple_70", "eq5_W_70_ms", "eq5_multiple_80", "eq5_W_80_ms",
                  "eq5_multiple_90", "eq5_W_90_ms", "eq5_multiple_95", "eq5_W_95_ms", "ln_100", "eq6_multiple_70",
                  "md1_p99_exact_50_ms", "md1_p99_exact_80_ms", "closed_forms_checked", "closed_forms_inside_ci",
                  "requests_simulated", "mm1_W_90_x", "mm1_p99_90_x", "md1_p99_90_x"});
  cell.tables = {table("figure1"), table("sweep"), table("closing_rows"), table("table7"), table("md1_exact")};
  cell.budget = {budget::describe(kRequestsWhat, "requests", kRequestCost)};
  return cell;
}

}  // namespace sl::queues
