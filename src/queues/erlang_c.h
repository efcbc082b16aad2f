#pragma once
#include <cstdint>

namespace sl::queues {

// Closed forms of M/M/c: Poisson arrivals at rate lambda, c servers of exponential rate mu, one shared FCFS
// queue. The load per server is rho = lambda / (c mu) and must be below 1 for every function here but erlang_b
// (a loss system, which has no queue to grow).

/// Erlang B: probability that an arrival finds all c servers busy and is lost, in M/M/c/c (no queue), for any
/// offered load a = lambda / mu >= 0. By the recursion B(0) = 1, B(k) = a B(k-1) / (k + a B(k-1)), which stays
/// finite for thousands of servers where a^c / c! does not.
double erlang_b(std::int64_t num_servers, double offered_load);

/// Erlang C: probability that an arrival finds all c servers busy and waits, for offered load
/// a = lambda / mu < c: C = B / (1 - rho (1 - B)) with B = erlang_b(c, a).
double erlang_c(std::int64_t num_servers, double offered_load);

/// Mean wait in queue of M/M/c: C / (c mu - lambda). For c = 1 this is rho / (mu - lambda).
double mmc_mean_wait_s(std::int64_t num_servers, double lambda_per_s, double mu_per_s);

/// Mean time in system of M/M/c: mean wait + 1 / mu. For c = 1 this is book eq. 5, 1 / (mu - lambda).
double mmc_mean_time_in_system_s(std::int64_t num_servers, double lambda_per_s, double mu_per_s);

/// P(T > t) for the M/M/c FCFS time in system T = W + S: the wait W is 0 with probability 1 - C and
/// otherwise exponential of rate theta = c mu - lambda, independent of the service S ~ Exp(mu), so
/// P(T > t) = e^(-mu t) + C mu (e^(-theta t) - e^(-mu t)) / (mu - theta).
double mmc_time_in_system_tail(std::int64_t num_servers, double lambda_per_s, double mu_per_s, double t_s);

/// p-quantile of the M/M/c FCFS time in system, by bisection on the tail above (to ~1e-12 relative).
/// For c = 1 it is -ln(1 - p) / (mu - lambda): book eq. 6 at p = 0.99 with ln 100 = 4.605.
double mmc_time_in_system_quantile_s(std::int64_t num_servers, double lambda_per_s, double mu_per_s, double p);

}  // namespace sl::queues
