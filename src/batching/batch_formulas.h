#pragma once
#include <cstdint>

#include "batching/service_model.h"

namespace sl::batching {

/// Mean formation delay of a size-triggered batch of B under Poisson arrivals of rate lambda (eq. 4, first
/// term): (B - 1) / (2 lambda). The i-th of B requests waits for the B - i arrivals after it.
double formation_delay_s(std::int64_t batch_size, double lambda_per_s);

/// Mean wait in fixed calendar windows of length T (eq. 8): T / 2 (a Poisson arrival is uniform in its window).
double window_mean_wait_s(double window_s);

/// Poisson probability Pr(X = k) for mean m (eq. 9 with m = lambda T), by the log recursion
/// log p_k = log p_{k-1} + log m - log k: no factorial, no lgamma, same bits natively and in wasm.
double poisson_pmf(std::int64_t k, double mean);

/// Pr(X <= k) for a Poisson of mean m.
double poisson_cdf(std::int64_t k, double mean);

/// Pr(X >= k) for a Poisson of mean m, summed over the upper tail (accurate for tiny tails).
double poisson_tail_at_least(std::int64_t k, double mean);

/// Smallest k with Pr(X <= k) >= p (p in (0, 1)).
std::int64_t poisson_quantile(double mean, double p);

/// Batch size a request sees in a calendar window (eq. 13): itself plus the others, 1 + Poisson(lambda T).
/// Its p-quantile is 1 + poisson_quantile(lambda T, p).
std::int64_t request_seen_batch_quantile(double lambda_per_s, double window_s, double p);

/// Mean latency of calendar-window batching (eq. 7 with eq. 8): T/2 + T_svc(1 + lambda T) for the linear
/// law (T_svc is linear, so the mean service over the request-seen batch is T_svc at its mean).
double window_mean_latency_s(double lambda_per_s, double window_s, const ServiceModel& service);

/// The book's conservative tail envelope (eq. 13): T + T_svc(B_req,p99), with B_req,p99 the 0.99-quantile of
/// the request-seen batch. Full-window wait and a p99 batch rarely hit the same request, so this is above
/// the true p99.
double envelope_latency_s(double lambda_per_s, double window_s, const ServiceModel& service);

/// Largest batch meeting a latency target with average window wait (eq. 12):
/// max{B : T/2 + T_svc(B) <= target}, or 0 if even B = 1 misses it. Searched up to `max_batch`.
std::int64_t latency_constrained_batch(double window_s, double target_s, const ServiceModel& service,
                                       std::int64_t max_batch);

/// Traffic-adaptive window (eq. 15): min(L_SLO - T_svc, sqrt(T_svc / lambda)).
double adaptive_window_s(double slo_s, double service_s, double lambda_per_s);

/// Share of a batch's time spent computing (Example 1.7, the iron law with a fixed overhead):
/// per_item B / (fixed + per_item B).
double batch_efficiency_frac(double fixed_s, double per_item_s, std::int64_t batch_size);

/// Smallest batch whose fixed overhead is at most `overhead_frac` of the batch time (Example 1.7's golden
/// rule, 10 %): per_item B / (fixed + per_item B) >= 1 - overhead_frac; 75 for 5 ms + 0.6 ms B. 0 if per_item_s == 0 and fixed > 0
/// (overhead never falls), 1 if fixed == 0.
std::int64_t batch_for_overhead_below(double fixed_s, double per_item_s, double overhead_frac);

/// Rounds half away from zero (Python's round() differs only at exact .5 on even numbers; the tables'
/// values never sit there).
double round_half_up(double x);

}  // namespace sl::batching
