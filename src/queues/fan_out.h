#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/rng.h"

namespace sl::queues {

/// Latency law of one leaf of a fan-out request: exponential or lognormal, with an exact cdf and quantile
/// (only exp, log and sqrt, so native and wasm agree). An M/M/1 leaf's time in system is exponential with
/// mean S / (1 - rho).
class LeafLaw {
 public:
  static LeafLaw exponential(double mean_s);
  /// Lognormal with the given mean and coefficient of variation (std / mean).
  static LeafLaw lognormal(double mean_s, double cv);
  double sample(Rng& rng) const { return quantile(rng.uniform()); }
  double quantile(double p) const;
  double cdf(double x_s) const;
  double mean_s() const;

 private:
  LeafLaw(bool is_lognormal, double a, double b) : is_lognormal_(is_lognormal), a_(a), b_(b) {}
  bool is_lognormal_;
  double a_;  // exponential: mean; lognormal: mu of log
  double b_;  // lognormal: sigma of log
};

/// Standard normal cdf by the complementary error function of Numerical Recipes (erfcc, Chebyshev fit,
/// relative error below 1.2e-7 everywhere, tails included); uses exp only.
double normal_cdf(double z);

/// Where a leaf's latency comes from in a simulation: drawn from a law, or resampled from measured
/// latencies (a simulated M/M/1 queue's times in system).
class LeafSampler {
 public:
  explicit LeafSampler(const LeafLaw& law) : law_(law) {}
  LeafSampler(const LeafLaw& law, std::vector<double> measured_s) : law_(law), measured_s_(std::move(measured_s)) {}
  double sample(Rng& rng) const;
  /// p-quantile of what sample() draws: the law's, or the measured sample's (type 7).
  double quantile(double p) const;

 private:
  LeafLaw law_;
  std::vector<double> measured_s_;  // sorted; empty: draw from the law
};

/// P(at least one of n independent leaves is slower than its own p-quantile) = 1 - p^n.
double fan_out_slow_share(double p, std::int64_t n);

/// p-quantile of a request that waits for the slowest of n i.i.d. leaves: the max has cdf F(x)^n, so it
/// is F^-1(p^(1/n)).
double request_quantile_s(const LeafLaw& leaf, std::int64_t n, double p);

/// Hedged leaf: if the first reply has not come by `hedge_after_s`, a backup goes to another replica, and
/// the leaf is done at min(X, hedge_after_s + X'), X and X' independent draws of `leaf`. Survival:
/// P(Y > y) = (1 - F(y)) (1 - F(y - t)) beyond t. Returns the p-quantile of a request over n hedged leaves
/// (bisection on the cdf, to 1e-12 relative).
double hedged_request_quantile_s(const LeafLaw& leaf, double hedge_after_s, std::int64_t n, double p);

/// Share of leaf requests that get a backup when M/M/1 leaves at load rho hedge after their un-hedged
/// q-quantile t = S ln(1/(1-q)) / (1-rho): the backups are extra load, so h = P(X > t) at load rho (1 + h),
/// i.e. h = (1-q) exp(a rho h) with a = ln(1/(1-q)) / (1-rho). The smallest fixed point, by iteration from
/// h = 0; nothing when there is none (backups raise latency, which triggers more backups, without end).
std::optional<double> mm1_hedge_share(double rho, double q);

/// What a fan-out simulation at one n measured.
struct FanOutSample {
  std::vector<double> request_s;   ///< request latencies (max over the leaves), sorted
  std::int64_t num_any_slow = 0;   ///< requests with a leaf slower than `slow_after_s` (un-hedged runs)
  std::int64_t num_backups = 0;    ///< backup requests sent (hedged runs)
  std::int64_t num_leaf_requests = 0;
};

/// Simulates `num_requests` requests, each fanned out to n leaves drawn from `primary`. With a hedge
/// (hedge_after_s set), a leaf slower than hedge_after_s also gets a backup drawn from `primary`, and
/// finishes at the earlier reply.
FanOutSample simulate_fan_out(const LeafSampler& primary, std::int64_t n, std::int64_t num_requests, double slow_after_s,
                              std::optional<double> hedge_after_s, Rng& rng);

}  // namespace sl::queues
