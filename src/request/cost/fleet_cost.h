#pragma once
#include <cstdint>
#include <optional>
#include <vector>

namespace sl::request {

/// One kind of machine: its hourly price and the request rate it sustains when saturated.
struct Machine {
  double usd_per_h;
  double saturated_per_s;
};

/// Cost per million requests of a machine kept busy a share `utilization` of the time (Table 22):
/// usd_per_h / (saturated_per_s * utilization * 3600 / 1e6).
double usd_per_million(const Machine& m, double utilization = 1.0);

/// Whole machines needed to serve `qps` with none above utilization `rho`: ceil(qps / (rho * saturated)).
std::int64_t machines_needed(const Machine& m, double qps, double rho);

/// Hourly cost of that fleet.
double fleet_usd_per_h(const Machine& m, double qps, double rho);

/// The CPU/GPU crossover with whole machines: the largest request rate at which a fleet of `cpu` machines
/// is strictly cheaper per hour than the cheapest fleet of any one `gpus` kind (all at utilization cap
/// `rho`). Both fleet costs are step functions of the rate, so the search walks their breakpoints (multiples
/// of rho * saturated_per_s) up to the rate beyond which the GPU's lower cost per request always wins.
/// Returns 0 if the GPU fleet is never dearer, and nullopt if the CPU costs no more per request than every
/// GPU (no crossover) or the walk would exceed `max_steps` breakpoints.
std::optional<double> cpu_cheaper_up_to_qps(const Machine& cpu, const std::vector<Machine>& gpus, double rho,
                                            std::int64_t max_steps = 1'000'000);

}  // namespace sl::request
