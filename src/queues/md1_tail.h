#pragma once
#include <optional>

namespace sl::queues {

/// Largest term md1_wait_cdf lets its alternating sum hold: the sum then keeps an absolute accuracy of
/// about 1e-16 * 1e7 per term, ~1e-8 for the few dozen terms involved (checked against 60-digit arithmetic:
/// at rho = 0.85 the p99 agrees to 1e-8).
constexpr double kMd1MaxTerm = 1e7;

/// P(W <= t) for the wait before service in M/D/1 (Erlang 1909; Crommelin):
///   (1 - rho) * sum_{k=0}^{floor(t/S)} e^(lambda (t - kS)) (-lambda (t - kS))^k / k!.
/// Exact, but an alternating sum of terms that grow like e^(lambda t): nothing when a term exceeds
/// kMd1MaxTerm, where cancellation would eat the answer. Needs rho = lambda S < 1.
std::optional<double> md1_wait_cdf(double t_s, double lambda_per_s, double service_s);

/// p-quantile of the M/D/1 time in system, S + the wait's p-quantile, by bisection on md1_wait_cdf (to
/// 1e-12 relative). Nothing where md1_wait_cdf cannot answer (high load and high p: at p = 0.99 above
/// rho of about 0.86).
std::optional<double> md1_time_in_system_quantile_s(double lambda_per_s, double service_s, double p);

}  // namespace sl::queues
