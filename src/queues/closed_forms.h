#pragma once

namespace sl::queues {

/// Mean time in system of M/M/1 (book eq. 5): 1 / (mu - lambda) = S / (1 - rho). Needs rho < 1.
double mm1_mean_time_in_system_s(double lambda_per_s, double mu_per_s);

/// p-quantile of the M/M/1 FCFS time in system: exactly exponential with rate mu - lambda, so
/// -ln(1 - p) / (mu - lambda). For p = 0.99 this is eq. 6 with ln 100 = 4.605 in place of 4.6.
double mm1_time_in_system_quantile_s(double lambda_per_s, double mu_per_s, double p);

/// Book eq. 6 as printed: 4.6 * S / (1 - rho).
double eq6_p99_s(double service_s, double rho);

/// Mean time in system of M/D/1 (Pollaczek-Khinchine with zero service variance): S + rho S / (2 (1 - rho)).
double md1_mean_time_in_system_s(double lambda_per_s, double mu_per_s);

/// Mean time in system of M/G/1 (Pollaczek-Khinchine): S + lambda E[S^2] / (2 (1 - rho)).
double mg1_mean_time_in_system_s(double lambda_per_s, double mean_service_s, double service_variance_s2);

}  // namespace sl::queues
