// Cell queues/routing. c identical servers share one Poisson stream at the same total load rho, and only the
// routing differs: random (c independent M/M/1 queues), power of two choices, join the shortest queue, and
// one shared FCFS queue (M/M/c, the pooled ideal). Every policy sees the same arrivals and service times
// (common random numbers), so the gaps between curves are the policies' doing. Beside the simulation: the
// M/M/c mean (Erlang C) and p99 for the shared queue and the M/M/1 (or M/D/1) forms for random routing.
// Headroom (notebook 01): from the summary load, traffic grows in steps up to growth_max; a fleet breaks its
// p99 SLO at the first multiplier where its p99 exceeds the SLO or its load reaches 1 (its queue then grows
// without bound), simulated for each policy and by the closed forms where they exist.
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "core/checked_run.h"
#include "core/budget.h"
#include "core/outputs.h"
#include "core/preset.h"
#include "queues/cells.h"
#include "queues/closed_forms.h"
#include "queues/erlang_c.h"
#include "queues/md1_tail.h"
#include "queues/multi_server.h"

namespace sl::queues {
namespace {

/// A simulated request of one policy, natively: 140 ns, plus 0.6 ns per server (join-the-shortest-queue scans them
/// all; the other policies look at one or two). Measured: 145 ns at 8 servers (points 12, n 400000: 2.79 s of
/// CPU), 298 ns at 256 (n 100000: 1.43 s).
constexpr budget::UnitCost kRoutedRequestCost{140e-9, 0};
constexpr double kScanPerServer = 0.018;  ///< one server scanned, in routed requests
constexpr const char* kRoutedWhat = "the routed requests (4 policies x points x n, JSQ's scans of the servers counted)";
constexpr std::int64_t kMaxPoints = 12;         // load points: the sweep is the page's result table, 12 rows at most

constexpr std::int64_t kMaxGrowthSteps = 200;    // traffic multipliers of the headroom walk
constexpr double kBreakZ = 4;                    // a p99 this many SEs from the SLO decides the break for sure

/// A routing policy and the names of its mean and p99 (outputs at the highest load, sweep columns), and of
/// the traffic multiplier at which it breaks the SLO, with that multiplier's uncertainty.
struct Policy {
  Routing routing;
  const char* mean_ms;
  const char* p99_ms;
  const char* break_x;
  const char* break_se_x;
};
constexpr Policy kPolicies[] = {{Routing::Random, "mean_random_ms", "p99_random_ms", "break_random_x", "break_random_se_x"},
                                {Routing::PowerOfTwo, "mean_p2_ms", "p99_p2_ms", "break_p2_x", "break_p2_se_x"},
                                {Routing::ShortestQueue, "mean_jsq_ms", "p99_jsq_ms", "break_jsq_x", "break_jsq_se_x"},
                                {Routing::SharedQueue, "mean_shared_ms", "p99_shared_ms", "break_shared_x", "break_shared_se_x"}};
constexpr int kNumPolicies = 4;

/// One load point: each policy's summary and the closed forms that exist for this service law.
struct Point {
  double rho = 0;
  FleetSummary by_policy[kNumPolicies];
  bool has_shared_closed = false;
  double mean_shared_closed_s = 0, wait_shared_closed_s = 0, p99_shared_closed_s = 0;
  double mean_random_closed_s = 0;
  bool has_p99_random_closed = false;
  double p99_random_closed_s = 0;
};

struct RoutingParams {
  std::int64_t servers;
  double service_s;
  bool exponential;
  double rho_min, rho_max;
  std::int64_t points, n;
  double slo_s = 0.05;       ///< the p99 target of the headroom walk
  double growth_step = 0.05; ///< its traffic multipliers: 1, 1 + step, ... up to growth_max
  double growth_max = 1.4;
  /// The walk's multipliers: 1 + k step for k = 0 .. floor((growth_max - 1) / step).
  std::vector<double> growth_grid() const {
    std::vector<double> grid;
    const double steps = std::floor((growth_max - 1) / growth_step + 1e-9);
    for (double k = 0; k <= steps; ++k) grid.push_back(1 + k * growth_step);
    return grid;
  }
};

Result<RoutingParams> validate_routing(const Inputs& in) {
  RoutingParams p{in.count("servers"), in.real("service_ms") * 1e-3, in.choice("service") == "exp",
                  in.real("rho_min"),  in.real("rho_max"),           in.count("points"), in.count("n")};
  p.slo_s = in.real("slo_ms") * 1e-3;
  p.growth_step = in.real("growth_step");
  p.growth_max = in.real("growth_max");
  if (p.rho_min > p.rho_max)
    return Error{"invalid", "rho_min",
                 "rho_min must not exceed rho_max = " + format_number(p.rho_max) + ", got " + format_number(p.rho_min),
                 {{"max", format_number(p.rho_max)}, {"got", format_number(p.rho_min)}, {"unit", ""}, {"problem", "at_most_other"}, {"other", "rho_max"}}};
  const double requests = static_cast<double>(p.points) * static_cast<double>(p.n);
  const double units = requests * (4 + kScanPerServer * static_cast<double>(p.servers));
  if (auto e = budget::check(budget::estimate("n", kRoutedWhat, "requests", units, kRoutedRequestCost))) return *e;
  // The headroom walk (growth_max = 1 turns it off): each traffic multiplier routes n requests per policy again.
  const double growth_steps = std::floor((p.growth_max - 1) / p.growth_step + 1e-9);
  if (growth_steps > static_cast<double>(kMaxGrowthSteps))
    return too_large("growth_max", growth_steps, static_cast<double>(kMaxGrowthSteps), "steps",
                     "the traffic multipliers (growth_max - 1) / growth_step");
  const double walk_units = growth_steps * static_cast<double>(p.n) * (4 + kScanPerServer * static_cast<double>(p.servers));
  if (auto e = budget::check(budget::estimate("growth_max", "the headroom walk's routed requests (per multiplier, 4 policies x n)",
                                              "requests", units + walk_units, kRoutedRequestCost)))
    return *e;
  return p;
}

/// One policy's run of n requests at load rho (the first tenth dropped as warm-up).
FleetSummary measure_policy(const RoutingParams& p, double rho, int k, std::uint64_t seed, RunProgress& progress) {
  const double mu = 1 / p.service_s;
  const double lambda = rho * static_cast<double>(p.servers) * mu;
  const Distribution service = p.exponential ? Distribution::exponential(mu) : Distribution::deterministic(p.service_s);
  return measure_fleet(FleetParams{p.servers, lambda, service, kPolicies[k].routing, p.n}, seed, p.n / 10, progress);
}

Point simulate_point(const RoutingParams& p, double rho, std::uint64_t seed, RunProgress& progress) {
  Point point;
  point.rho = rho;
  const double mu = 1 / p.service_s;
  const double lambda = rho * static_cast<double>(p.servers) * mu;
  for (int k = 0; k < kNumPolicies; ++k) point.by_policy[k] = measure_policy(p, rho, k, seed, progress);
  const double lambda_per_server = lambda / static_cast<double>(p.servers);
  if (p.exponential) {
    point.has_shared_closed = point.has_p99_random_closed = true;
    point.mean_shared_closed_s = mmc_mean_time_in_system_s(p.servers, lambda, mu);
    point.wait_shared_closed_s = mmc_mean_wait_s(p.servers, lambda, mu);
    point.p99_shared_closed_s = mmc_time_in_system_quantile_s(p.servers, lambda, mu, 0.99);
    point.mean_random_closed_s = mm1_mean_time_in_system_s(lambda_per_server, mu);
    point.p99_random_closed_s = mm1_time_in_system_quantile_s(lambda_per_server, mu, 0.99);
  } else {
    point.mean_random_closed_s = md1_mean_time_in_system_s(lambda_per_server, mu);
  }
  return point;
}

void output_sweep(const std::vector<Point>& points, RunResult& result) {
  Table& table = result.table("sweep");
  std::vector<double> rho;
  for (const Point& pt : points) rho.push_back(pt.rho);
  table.column("rho", std::move(rho));
  for (int k = 0; k < kNumPolicies; ++k) {
    std::vector<double> mean_ms, p99_ms;
    for (const Point& pt : points) {
      mean_ms.push_back(pt.by_policy[k].mean_s * 1e3);
      p99_ms.push_back(pt.by_policy[k].p99_s * 1e3);
    }
    table.column(kPolicies[k].mean_ms, std::move(mean_ms));
    table.column(kPolicies[k].p99_ms, std::move(p99_ms));
  }
  const auto column = [&](const char* name, double Point::*field) {
    std::vector<double> values;
    for (const Point& pt : points) values.push_back(pt.*field * 1e3);
    table.column(name, std::move(values));
  };
  column("mean_random_closed_ms", &Point::mean_random_closed_s);
  if (points.front().has_p99_random_closed) column("p99_random_closed_ms", &Point::p99_random_closed_s);
  if (points.front().has_shared_closed) {
    column("mean_shared_closed_ms", &Point::mean_shared_closed_s);
    column("p99_shared_closed_ms", &Point::p99_shared_closed_s);
  }
}

/// The summary at the highest load: each policy's mean and p99, the closed forms, and how much of the
/// pooling gain (random -> shared) each load-aware policy recovers.
void output_top(const Point& top, RunResult& result) {
  result.output("rho", top.rho);
  for (int k = 0; k < kNumPolicies; ++k) {
    result.output(kPolicies[k].mean_ms, top.by_policy[k].mean_s * 1e3);
    result.output(kPolicies[k].p99_ms, top.by_policy[k].p99_s * 1e3);
  }
  const FleetSummary& shared = top.by_policy[kNumPolicies - 1];
  result.output("mean_random_se_ms", top.by_policy[0].mean_se_s * 1e3);
  result.output("mean_shared_se_ms", shared.mean_se_s * 1e3);
  result.output("p99_random_se_ms", top.by_policy[0].p99_share_se_s * 1e3);
  result.output("p99_shared_se_ms", shared.p99_share_se_s * 1e3);
  result.output("wait_shared_ms", shared.mean_wait_s * 1e3);
  result.output("wait_shared_se_ms", shared.wait_se_s * 1e3);
  result.output("mean_random_closed_ms", top.mean_random_closed_s * 1e3);
  if (top.has_p99_random_closed) result.output("p99_random_closed_ms", top.p99_random_closed_s * 1e3);
  if (top.has_shared_closed) {
    result.output("mean_shared_closed_ms", top.mean_shared_closed_s * 1e3);
    result.output("wait_shared_closed_ms", top.wait_shared_closed_s * 1e3);
    result.output("p99_shared_closed_ms", top.p99_shared_closed_s * 1e3);
  }
  const double gap_s = top.by_policy[0].mean_s - shared.mean_s;
  if (gap_s > 0) {  // no gap with one server: every policy is the same queue
    result.output("recovered_p2_frac", (top.by_policy[0].mean_s - top.by_policy[1].mean_s) / gap_s);
    result.output("recovered_jsq_frac", (top.by_policy[0].mean_s - top.by_policy[2].mean_s) / gap_s);
  }
}

/// The first traffic multiplier at which a fleet breaks the SLO, and its uncertainty: 0 when every simulated
/// p99 on the way was more than kBreakZ of its SEs from the SLO (or the break is a load of 1: the queue grows
/// without bound), so that no other draw moves the break; one grid step otherwise.
struct Break {
  double at_x = 0;
  double se_x = 0;
};

/// Policy k's break, simulated: the summary point is multiplier 1 (already run), then one run per multiplier
/// until the first break. Nothing if it holds up to growth_max.
std::optional<Break> simulated_break(const RoutingParams& p, const FleetSummary& at_top, int k, std::uint64_t seed,
                                     RunProgress& progress) {
  const std::vector<double> grid = p.growth_grid();
  bool close_call = false;
  for (std::size_t i = 0; i < grid.size(); ++i) {
    const double rho = p.rho_max * grid[i];
    if (rho >= 1) return Break{grid[i], close_call ? p.growth_step : 0.0};
    const FleetSummary s = i == 0 ? at_top : measure_policy(p, rho, k, seed, progress);
    close_call = close_call || std::fabs(s.p99_s - p.slo_s) <= kBreakZ * s.p99_share_se_s;
    if (s.p99_s > p.slo_s) return Break{grid[i], close_call ? p.growth_step : 0.0};
  }
  return std::nullopt;
}

/// The closed-form p99 at load rho: M/M/1 (or M/D/1, where its series converges) per server for random
/// routing, M/M/c for the shared queue (exponential service only).
std::optional<double> closed_p99_s(const RoutingParams& p, double rho, bool shared) {
  const double mu = 1 / p.service_s;
  if (shared) {
    if (!p.exponential) return std::nullopt;
    return mmc_time_in_system_quantile_s(p.servers, rho * static_cast<double>(p.servers) * mu, mu, 0.99);
  }
  if (p.exponential) return mm1_time_in_system_quantile_s(rho * mu, mu, 0.99);
  return md1_time_in_system_quantile_s(rho * mu, p.service_s, 0.99);
}

/// The break by the closed form (the notebook's eq. 6 for random routing); nothing if it holds up to
/// growth_max or the form has no value on the way.
std::optional<double> closed_break_x(const RoutingParams& p, bool shared) {
  for (const double m : p.growth_grid()) {
    const double rho = p.rho_max * m;
    if (rho >= 1) return m;
    const auto p99_s = closed_p99_s(p, rho, shared);
    if (!p99_s) return std::nullopt;
    if (*p99_s > p.slo_s) return m;
  }
  return std::nullopt;
}

void output_headroom(const RoutingParams& p, const Point& top, std::uint64_t seed, RunProgress& progress, RunResult& result) {
  bool all_break = true;
  for (int k = 0; k < kNumPolicies; ++k) {
    const auto b = simulated_break(p, top.by_policy[k], k, seed, progress);
    all_break = all_break && b.has_value();
    if (!b) continue;
    result.output(kPolicies[k].break_x, b->at_x);
    result.output(kPolicies[k].break_se_x, b->se_x);
  }
  if (const auto m = closed_break_x(p, false)) result.output("break_random_closed_x", *m);
  if (const auto m = closed_break_x(p, true)) result.output("break_shared_closed_x", *m);
  if (!all_break)
    result.notice("slo_holds", "at least one policy keeps its p99 within " + format_number(p.slo_s * 1e3) +
                                   " ms up to traffic x " + format_number(p.growth_grid().back()) +
                                   ": its break lies beyond; raise growth_max to find it.");
}

Result<RunResult> run_routing(const RoutingParams& p, std::uint64_t seed, RunControl& ctl) {
  const auto walk = static_cast<std::int64_t>(p.growth_grid().size()) - 1;  // runs of the headroom walk, at most
  RunProgress progress(ctl, static_cast<double>(kNumPolicies * (p.points + walk) * p.n));
  std::vector<Point> points;
  for (std::int64_t i = 0; i < p.points; ++i) {
    const double rho = p.points == 1 ? p.rho_max
                                     : p.rho_min + (p.rho_max - p.rho_min) * static_cast<double>(i) / static_cast<double>(p.points - 1);
    points.push_back(simulate_point(p, rho, seed, progress));
  }
  RunResult result;
  output_top(points.back(), result);
  output_sweep(points, result);
  output_headroom(p, points.back(), seed, progress, result);
  return result;
}

}  // namespace

CellSpec routing_cell() {
  CellSpec cell = checked_cell<&validate_routing, &run_routing>("queues/routing",
      {explored(count("servers", "servers", 8, 1, 256), 1, 64), real("service_ms", "ms", 5, 1e-3, 1e6),
       choice("service", {"exp", "det"}, "exp"), real("rho_min", "", 0.5, 0.01, 0.99),
       explored(real("rho_max", "", 0.9, 0.01, 0.99), 0.5, 0.99), count("points", "", 9, 1, kMaxPoints),
       count("n", "requests", 40'000, 1000, 2'000'000), real("slo_ms", "ms", 50, 1e-3, 1e7),
       real("growth_step", "", 0.05, 1e-3, 10), real("growth_max", "×", 1.4, 1, 100)});
  cell.presets = presets_of({{"near-saturation", "rho_min=0.8 rho_max=0.97"}});
  cell.outputs = outputs({"rho", "mean_random_ms", "p99_random_ms", "mean_p2_ms", "p99_p2_ms", "mean_jsq_ms",
                   "p99_jsq_ms", "mean_shared_ms", "p99_shared_ms", "mean_random_se_ms", "mean_shared_se_ms",
                   "p99_random_se_ms", "p99_shared_se_ms", "wait_shared_ms", "wait_shared_se_ms",
                   "mean_random_closed_ms", sometimes("p99_random_closed_ms"), sometimes("mean_shared_closed_ms"),
                   sometimes("wait_shared_closed_ms"), sometimes("p99_shared_closed_ms"),
                   sometimes("recovered_p2_frac"), sometimes("recovered_jsq_frac"), sometimes("break_random_x"),
                   sometimes("break_random_se_x"), sometimes("break_p2_x"), sometimes("break_p2_se_x"),
                   sometimes("break_jsq_x"), sometimes("break_jsq_se_x"), sometimes("break_shared_x"),
                   sometimes("break_shared_se_x"), sometimes("break_random_closed_x"),
                   sometimes("break_shared_closed_x")});
  cell.tables = {table("sweep")};
  cell.budget = {budget::describe(kRoutedWhat, "requests", kRoutedRequestCost)};
  return cell;
}

}  // namespace sl::queues
