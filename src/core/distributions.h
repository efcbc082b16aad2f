#pragma once
#include <cmath>
#include <cstdint>

#include "core/rng.h"

namespace sl {

/// A continuous distribution of non-negative durations or sizes, sampled by inverse transform with only
/// log, exp and sqrt, so a seed gives the same numbers natively and in wasm. Like Ciw's distributions, each
/// knows its mean() and variance() so tests can check samples against them.
class Distribution {
 public:
  enum class Kind { Exponential, Deterministic, Uniform, Lognormal, Pareto };

  /// Exponential with the given rate (mean 1/rate).
  static Distribution exponential(double rate);
  /// Always `value`.
  static Distribution deterministic(double value);
  /// Uniform on [lo, hi).
  static Distribution uniform(double lo, double hi);
  /// exp(N(mu, sigma^2)).
  static Distribution lognormal(double mu, double sigma);
  /// Lognormal with the given mean and coefficient of variation (std / mean).
  static Distribution lognormal_mean_cv(double mean, double cv);
  /// Pareto type I: P(X > x) = (x_min / x)^alpha for x >= x_min.
  static Distribution pareto(double x_min, double alpha);

  double sample(Rng& rng) const {
    // Inline: the queue simulators draw an exponential (or a constant) once or twice per request.
    switch (kind_) {
      case Kind::Exponential: return -std::log(rng.uniform()) / a_;  // 1-U and U have the same law
      case Kind::Deterministic: return a_;
      default: return quantile(rng.uniform());
    }
  }
  double mean() const;
  /// Infinite where the distribution has no finite variance (Pareto with alpha <= 2).
  double variance() const;
  /// Quantile function F^-1(p), p in (0, 1).
  double quantile(double p) const;
  Kind kind() const { return kind_; }

 private:
  Distribution(Kind kind, double a, double b) : kind_(kind), a_(a), b_(b) {}
  Kind kind_;
  double a_;
  double b_;
};

/// Standard normal quantile (Acklam's rational approximation, relative error < 1.2e-9).
double normal_quantile(double p);

/// Poisson random variate with the given mean: a sum of Poissons of mean <= 16, each by inversion.
/// Exact to rounding and deterministic across platforms; cost grows linearly with the mean.
std::int64_t poisson(Rng& rng, double mean);

}  // namespace sl
