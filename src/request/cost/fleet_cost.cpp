#include "request/cost/fleet_cost.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.h"
#include "core/units.h"

namespace sl::request {
namespace {

constexpr double kMillion = 1e6;

double cost_per_request_rate(const Machine& m, double rho) { return m.usd_per_h / (rho * m.saturated_per_s); }

}  // namespace

double usd_per_million(const Machine& m, double utilization) {
  return m.usd_per_h / (m.saturated_per_s * utilization * units::kSPerHour / kMillion);
}

std::int64_t machines_needed(const Machine& m, double qps, double rho) {
  return static_cast<std::int64_t>(std::ceil(qps / (rho * m.saturated_per_s)));
}

double fleet_usd_per_h(const Machine& m, double qps, double rho) {
  return static_cast<double>(machines_needed(m, qps, rho)) * m.usd_per_h;
}

std::optional<double> cpu_cheaper_up_to_qps(const Machine& cpu, const std::vector<Machine>& gpus, double rho,
                                            std::int64_t max_steps) {
  // Beyond q_max the CPU fleet, at least q/c_cpu machines, costs more than any GPU fleet with a lower cost
  // per request, which needs at most q/c_g + 1 machines: q p_cpu/c_cpu >= (q/c_g + 1) p_g.
  double q_max = std::numeric_limits<double>::infinity();
  for (const auto& g : gpus) {
    const double margin = cost_per_request_rate(cpu, rho) - cost_per_request_rate(g, rho);
    if (margin > 0) q_max = std::min(q_max, g.usd_per_h / margin);
  }
  if (!std::isfinite(q_max)) return std::nullopt;

  // Walk the intervals (q_lo, q_hi] on which every fleet size is constant: machine kind i has n_i machines
  // until q reaches n_i * c_i.
  std::vector<Machine> all{cpu};
  all.insert(all.end(), gpus.begin(), gpus.end());
  std::vector<std::int64_t> n(all.size(), 1);
  double last_cpu_cheaper = 0;
  double q_lo = 0;
  for (std::int64_t step = 0; q_lo < q_max; ++step) {
    if (step == max_steps) return std::nullopt;
    double q_hi = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < all.size(); ++i)
      q_hi = std::min(q_hi, static_cast<double>(n[i]) * rho * all[i].saturated_per_s);
    double cheapest_gpu = std::numeric_limits<double>::infinity();
    for (std::size_t i = 1; i < all.size(); ++i)
      cheapest_gpu = std::min(cheapest_gpu, static_cast<double>(n[i]) * all[i].usd_per_h);
    if (static_cast<double>(n[0]) * cpu.usd_per_h < cheapest_gpu) last_cpu_cheaper = q_hi;
    for (std::size_t i = 0; i < all.size(); ++i)
      if (static_cast<double>(n[i]) * rho * all[i].saturated_per_s == q_hi) ++n[i];
    SL_ASSERT(q_hi > q_lo);
    q_lo = q_hi;
  }
  return last_cpu_cheaper;
}

}  // namespace sl::request
