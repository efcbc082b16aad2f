// Cell request/cost. The bill is price per hour divided by requests per hour. Example 1.3: the same $4/h GPU
// at batch 1 (200 req/s) and batch 8 (800 req/s) costs 4x more per request unbatched. Table 22: cost per
// million images of a CPU, a T4 and a V100 instance at saturation. A real fleet buys whole machines and
// keeps each below a utilization cap rho (0.54 from napkin math 1.3), so fleet cost is a step function of
// the load; where the CPU steps stay under one T4 is the CPU/GPU crossover. Cost per request grows as
// 1 / utilization.
#include <cmath>
#include <optional>
#include <vector>

#include "core/checked_run.h"
#include "core/outputs.h"
#include "request/cells.h"
#include "request/budget/checks.h"
#include "request/cost/fleet_cost.h"

namespace sl::request {
namespace {

constexpr int kSweepLevels = 8;  // 257 points
constexpr double kSweepMinQps = 1;
constexpr double kUtilStep = 0.01;
constexpr double kMinUtil = 0.05;
constexpr double kMinRho = 0.05;

struct Fleet {
  Machine cpu, t4, v100;
};

/// Example 1.3's two ways of running one GPU: batch size and time per batch.
struct BatchOption {
  std::int64_t batch;
  double latency_ms;
};

struct CostParams {
  double gpu_usd_per_h;
  BatchOption a, b;
  Fleet fleet;
  double requests_per_s;   ///< the load the fleet serves
  double rho;              ///< utilization cap per machine
  double sweep_max_per_s;  ///< the fleet chart's highest load
};

Result<CostParams> validate_cost(const Inputs& in) {
  return CostParams{in.real("gpu_usd_per_h"),
                    {in.count("a_batch"), in.real("a_latency_ms")},
                    {in.count("b_batch"), in.real("b_latency_ms")},
                    {{in.real("cpu_usd_per_h"), in.real("cpu_per_s")},
                     {in.real("t4_usd_per_h"), in.real("t4_per_s")},
                     {in.real("v100_usd_per_h"), in.real("v100_per_s")}},
                    in.real("requests_per_s"),
                    in.real("rho"),
                    in.real("sweep_max_per_s")};
}

/// Example 1.3: one GPU, two batch sizes; requests per second = batch / batch latency.
void latency_cost_outputs(const CostParams& p, RunResult& result) {
  const Machine a{p.gpu_usd_per_h, static_cast<double>(p.a.batch) / (p.a.latency_ms * 1e-3)};
  const Machine b{p.gpu_usd_per_h, static_cast<double>(p.b.batch) / (p.b.latency_ms * 1e-3)};
  result.output("a_per_s", a.saturated_per_s);
  result.output("b_per_s", b.saturated_per_s);
  result.output("a_usd_per_m", usd_per_million(a));
  result.output("b_usd_per_m", usd_per_million(b));
  result.output("a_over_b", usd_per_million(a) / usd_per_million(b));
  result.output("a_extra_frac", usd_per_million(a) / usd_per_million(b) - 1);
}

void unit_cost_outputs(const Fleet& f, RunResult& result) {
  result.output("cpu_usd_per_m", usd_per_million(f.cpu));
  result.output("t4_usd_per_m", usd_per_million(f.t4));
  result.output("v100_usd_per_m", usd_per_million(f.v100));
  result.output("v100_over_t4_price", f.v100.usd_per_h / f.t4.usd_per_h);
  result.output("v100_over_t4_throughput", f.v100.saturated_per_s / f.t4.saturated_per_s);
  std::vector<double> util, cpu, t4, v100;
  for (int i = 0; kMinUtil + i * kUtilStep <= 1.0 + 1e-9; ++i) {
    util.push_back(kMinUtil + i * kUtilStep);
    cpu.push_back(usd_per_million(f.cpu, util.back()));
    t4.push_back(usd_per_million(f.t4, util.back()));
    v100.push_back(usd_per_million(f.v100, util.back()));
  }
  result.table("cost_vs_util").column("util_frac", std::move(util)).column("cpu_usd_per_m", std::move(cpu))
      .column("t4_usd_per_m", std::move(t4)).column("v100_usd_per_m", std::move(v100));
}

void fleet_outputs(const CostParams& p, RunResult& result) {
  const Fleet& f = p.fleet;
  const double qps = p.requests_per_s, rho = p.rho;
  result.output("cpu_machines", static_cast<double>(machines_needed(f.cpu, qps, rho)));
  result.output("t4_machines", static_cast<double>(machines_needed(f.t4, qps, rho)));
  result.output("v100_machines", static_cast<double>(machines_needed(f.v100, qps, rho)));
  result.output("cpu_fleet_usd_per_h", fleet_usd_per_h(f.cpu, qps, rho));
  result.output("t4_fleet_usd_per_h", fleet_usd_per_h(f.t4, qps, rho));
  result.output("v100_fleet_usd_per_h", fleet_usd_per_h(f.v100, qps, rho));

  // One row per instance type: its price, its throughput and what the load costs on it (the result table).
  std::vector<double> ids, usd_per_h, per_s, usd_per_m, machines, fleet;
  for (const Machine* m : {&f.cpu, &f.t4, &f.v100}) {
    ids.push_back(static_cast<double>(ids.size()));
    usd_per_h.push_back(m->usd_per_h);
    per_s.push_back(m->saturated_per_s);
    usd_per_m.push_back(usd_per_million(*m));
    machines.push_back(static_cast<double>(machines_needed(*m, qps, rho)));
    fleet.push_back(fleet_usd_per_h(*m, qps, rho));
  }
  result.table("instances").column("instance", std::move(ids)).column("usd_per_h", std::move(usd_per_h))
      .column("per_s", std::move(per_s)).column("usd_per_m", std::move(usd_per_m))
      .column("machines", std::move(machines)).column("fleet_usd_per_h", std::move(fleet));
  result.table("load").column("qps", {qps});

  // The chart's sweep reaches the load itself when the load is above sweep_max.
  std::vector<double> q = log_grid(kSweepMinQps, std::fmax(p.sweep_max_per_s, qps), kSweepLevels), cpu, t4, v100;
  for (double x : q) {
    cpu.push_back(fleet_usd_per_h(f.cpu, x, rho));
    t4.push_back(fleet_usd_per_h(f.t4, x, rho));
    v100.push_back(fleet_usd_per_h(f.v100, x, rho));
  }
  result.table("fleet_cost").column("qps", std::move(q)).column("cpu_usd_per_h", std::move(cpu))
      .column("t4_usd_per_h", std::move(t4)).column("v100_usd_per_h", std::move(v100));
}

void crossover_outputs(const CostParams& p, RunResult& result) {
  const Fleet& f = p.fleet;
  const std::optional<double> q = cpu_cheaper_up_to_qps(f.cpu, {f.t4, f.v100}, p.rho);
  if (q) {
    result.output("crossover_qps", *q);
    result.table("crossover_point").column("qps", {*q}).column("usd_per_h", {fleet_usd_per_h(f.cpu, *q, p.rho)})
        .column("rho", {p.rho});
  } else {
    result.notice("no_crossover", "At these prices the CPU costs no more per request than either GPU, so a CPU "
                                  "fleet stays competitive at every load: there is no crossover.");
    return;
  }
  std::vector<double> rhos, crossover;
  for (int i = 0; kMinRho + i * kUtilStep <= 1.0 + 1e-9; ++i) {
    const double rho = kMinRho + i * kUtilStep;
    const std::optional<double> x = cpu_cheaper_up_to_qps(f.cpu, {f.t4, f.v100}, rho);
    if (!x) continue;
    rhos.push_back(rho);
    crossover.push_back(*x);
  }
  result.table("crossover").column("rho", std::move(rhos)).column("crossover_qps", std::move(crossover));
}

Result<RunResult> run_cost(const CostParams& p, std::uint64_t /*seed*/, RunControl& /*ctl*/) {
  RunResult result;
  latency_cost_outputs(p, result);
  unit_cost_outputs(p.fleet, result);
  fleet_outputs(p, result);
  crossover_outputs(p, result);
  return result;
}

}  // namespace

CellSpec cost_cell() {
  CellSpec cell = checked_cell<&validate_cost, &run_cost>("request/cost",
      {real("gpu_usd_per_h", "$/h", 4, 1e-6, 1e6), count("a_batch", "requests", 1, 1, 1e6),
       real("a_latency_ms", "ms", 5, 1e-6, 1e6), count("b_batch", "requests", 8, 1, 1e6),
       real("b_latency_ms", "ms", 10, 1e-6, 1e6),
       real("cpu_usd_per_h", "$/h", 0.17, 1e-6, 1e6), real("cpu_per_s", "1/s", 50, 1e-6, 1e9),
       real("t4_usd_per_h", "$/h", 0.53, 1e-6, 1e6), real("t4_per_s", "1/s", 400, 1e-6, 1e9),
       explored(real("v100_usd_per_h", "$/h", 3.06, 1e-6, 1e6), 0.5, 10), real("v100_per_s", "1/s", 1200, 1e-6, 1e9),
       explored(aliased(real("requests_per_s", "1/s", 5000, 1e-6, 1e9), {"qps"}), 10, 1e5),
       real("rho", "", 0.54, 0.05, 1),
       aliased(real("sweep_max_per_s", "1/s", 10000, 10, 1e9), {"sweep_max_qps"})});
  cell.uses_seed = false;
  cell.outputs = outputs({"a_per_s", "b_per_s", out("a_usd_per_m", "$"), out("b_usd_per_m", "$"), out("a_over_b", "×"),
                  "a_extra_frac", out("cpu_usd_per_m", "$"), out("t4_usd_per_m", "$"), out("v100_usd_per_m", "$"),
                  out("v100_over_t4_price", "×"), out("v100_over_t4_throughput", "×"), "cpu_machines", "t4_machines",
                  "v100_machines", "cpu_fleet_usd_per_h", "t4_fleet_usd_per_h", "v100_fleet_usd_per_h",
                  sometimes(out("crossover_qps", "req/s"))});
  cell.tables = {table("instances"), table("load"), table("cost_vs_util"), table("fleet_cost"),
                 table("crossover_point", Presence::SomeInputs), table("crossover", Presence::SomeInputs)};
  return cell;
}

}  // namespace sl::request
