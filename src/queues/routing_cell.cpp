// Cell queues/routing. c identical servers share one Poisson stream at the same total load rho, and only the
// routing differs: random (c independent M/M/1 queues), power of two choices, join the shortest queue, and
// one shared FCFS queue (M/M/c, the pooled ideal). Every policy sees the same arrivals and service times
// (common random numbers), so the gaps between curves are the policies' doing. Beside the simulation: the
// M/M/c mean (Erlang C) and p99 for the shared queue and the M/M/1 (or M/D/1) forms for random routing.
#include <cmath>
#include <string>
#include <vector>

#include "core/budget.h"
#include "queues/cells.h"
#include "queues/closed_forms.h"
#include "queues/erlang_c.h"
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

/// A routing policy and the names of its mean and p99 (outputs at the highest load, sweep columns).
struct Policy {
  Routing routing;
  const char* mean_ms;
  const char* p99_ms;
};
constexpr Policy kPolicies[] = {{Routing::Random, "mean_random_ms", "p99_random_ms"},
                                {Routing::PowerOfTwo, "mean_p2_ms", "p99_p2_ms"},
                                {Routing::ShortestQueue, "mean_jsq_ms", "p99_jsq_ms"},
                                {Routing::SharedQueue, "mean_shared_ms", "p99_shared_ms"}};
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
};

Result<RoutingParams> validate_routing(const Inputs& in) {
  RoutingParams p{in.count("servers"), in.real("service_ms") * 1e-3, in.choice("service") == "exp",
                  in.real("rho_min"),  in.real("rho_max"),           in.count("points"), in.count("n")};
  if (p.rho_min > p.rho_max)
    return Error{"invalid", "rho_min",
                 "rho_min must not exceed rho_max = " + format_number(p.rho_max) + ", got " + format_number(p.rho_min),
                 {{"max", format_number(p.rho_max)}, {"got", format_number(p.rho_min)}}};
  const double requests = static_cast<double>(p.points) * static_cast<double>(p.n);
  const double units = requests * (4 + kScanPerServer * static_cast<double>(p.servers));
  if (auto e = budget::check(budget::estimate("n", kRoutedWhat, "requests", units, kRoutedRequestCost))) return *e;
  return p;
}

Point simulate_point(const RoutingParams& p, double rho, std::uint64_t seed, RunProgress& progress) {
  Point point;
  point.rho = rho;
  const double mu = 1 / p.service_s;
  const double lambda = rho * static_cast<double>(p.servers) * mu;
  const Distribution service = p.exponential ? Distribution::exponential(mu) : Distribution::deterministic(p.service_s);
  for (int k = 0; k < kNumPolicies; ++k)
    point.by_policy[k] = measure_fleet(FleetParams{p.servers, lambda, service, kPolicies[k].routing, p.n}, seed, p.n / 10, progress);
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

Result<RunResult> run_routing(const Inputs& in, std::uint64_t seed, RunControl& ctl) {
  auto checked = validate_routing(in);
  if (!checked.ok()) return checked.error();
  const RoutingParams& p = checked.value();
  RunProgress progress(ctl, static_cast<double>(kNumPolicies * p.points * p.n));
  std::vector<Point> points;
  for (std::int64_t i = 0; i < p.points; ++i) {
    const double rho = p.points == 1 ? p.rho_max
                                     : p.rho_min + (p.rho_max - p.rho_min) * static_cast<double>(i) / static_cast<double>(p.points - 1);
    points.push_back(simulate_point(p, rho, seed, progress));
  }
  RunResult result;
  output_top(points.back(), result);
  output_sweep(points, result);
  return result;
}

}  // namespace

CellSpec routing_cell() {
  CellSpec cell{"queues/routing",
                {explored(count("servers", "servers", 8, 1, 256), 1, 64), real("service_ms", "ms", 5, 1e-3, 1e6),
                 choice("service", {"exp", "det"}, "exp"), real("rho_min", "", 0.5, 0.01, 0.99),
                 explored(real("rho_max", "", 0.9, 0.01, 0.99), 0.5, 0.99), count("points", "", 9, 1, kMaxPoints),
                 count("n", "requests", 40'000, 1000, 2'000'000)},
                &run_routing};
  cell.outputs = {out("rho", ""), out("mean_random_ms", "ms"), out("p99_random_ms", "ms"), out("mean_p2_ms", "ms"),
                  out("p99_p2_ms", "ms"), out("mean_jsq_ms", "ms"), out("p99_jsq_ms", "ms"),
                  out("mean_shared_ms", "ms"), out("p99_shared_ms", "ms"), out("mean_random_se_ms", "ms"),
                  out("mean_shared_se_ms", "ms"), out("p99_random_se_ms", "ms"), out("p99_shared_se_ms", "ms"),
                  out("wait_shared_ms", "ms"), out("wait_shared_se_ms", "ms"),
                  out("mean_random_closed_ms", "ms"), sometimes(out("p99_random_closed_ms", "ms")),
                  sometimes(out("mean_shared_closed_ms", "ms")), sometimes(out("wait_shared_closed_ms", "ms")),
                  sometimes(out("p99_shared_closed_ms", "ms")), sometimes(out("recovered_p2_frac", "")),
                  sometimes(out("recovered_jsq_frac", ""))};
  cell.tables = {table("sweep")};
  cell.validate = &validation_of<&validate_routing>;
  cell.budget = {budget::describe(kRoutedWhat, "requests", kRoutedRequestCost)};
  return cell;
}

}  // namespace sl::queues
