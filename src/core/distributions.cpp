#include "core/distributions.h"

#include <cmath>
#include <cstdint>
#include <limits>

#include "core/error.h"

namespace sl {

Distribution Distribution::exponential(double rate) { return {Kind::Exponential, rate, 0}; }
Distribution Distribution::deterministic(double value) { return {Kind::Deterministic, value, 0}; }
Distribution Distribution::uniform(double lo, double hi) { return {Kind::Uniform, lo, hi}; }
Distribution Distribution::lognormal(double mu, double sigma) { return {Kind::Lognormal, mu, sigma}; }
Distribution Distribution::pareto(double x_min, double alpha) { return {Kind::Pareto, x_min, alpha}; }

Distribution Distribution::lognormal_mean_cv(double mean, double cv) {
  // mean = exp(mu + s^2/2), cv^2 = exp(s^2) - 1.
  const double s2 = std::log1p(cv * cv);
  return lognormal(std::log(mean) - 0.5 * s2, std::sqrt(s2));
}

double Distribution::quantile(double p) const {
  switch (kind_) {
    case Kind::Exponential: return -std::log1p(-p) / a_;
    case Kind::Deterministic: return a_;
    case Kind::Uniform: return a_ + (b_ - a_) * p;
    case Kind::Lognormal: return std::exp(a_ + b_ * normal_quantile(p));
    case Kind::Pareto: return a_ * std::exp(-std::log1p(-p) / b_);
  }
  return 0;
}

double Distribution::mean() const {
  switch (kind_) {
    case Kind::Exponential: return 1 / a_;
    case Kind::Deterministic: return a_;
    case Kind::Uniform: return 0.5 * (a_ + b_);
    case Kind::Lognormal: return std::exp(a_ + 0.5 * b_ * b_);
    case Kind::Pareto: return b_ > 1 ? b_ * a_ / (b_ - 1) : std::numeric_limits<double>::infinity();
  }
  return 0;
}

double Distribution::variance() const {
  switch (kind_) {
    case Kind::Exponential: return 1 / (a_ * a_);
    case Kind::Deterministic: return 0;
    case Kind::Uniform: return (b_ - a_) * (b_ - a_) / 12;
    case Kind::Lognormal: return std::expm1(b_ * b_) * std::exp(2 * a_ + b_ * b_);
    case Kind::Pareto:
      return b_ > 2 ? a_ * a_ * b_ / ((b_ - 1) * (b_ - 1) * (b_ - 2)) : std::numeric_limits<double>::infinity();
  }
  return 0;
}

double normal_quantile(double p) {
  // Peter Acklam's algorithm: rational approximations in a central region and two tails.
  static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                             1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
  static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                             6.680131188771972e+01,  -1.328068155288572e+01};
  static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                             -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
  static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                             3.754408661907416e+00};
  const double p_low = 0.02425;
  if (p < p_low) {
    const double q = std::sqrt(-2 * std::log(p));
    return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
           ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  if (p > 1 - p_low) return -normal_quantile(1 - p);
  const double q = p - 0.5;
  const double r = q * q;
  return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
         (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

std::int64_t poisson(Rng& rng, double mean) {
  // A Poisson(m) is a sum of independent Poissons of smaller means; each piece (mean <= 16) is drawn by
  // inversion (sequential search on the CDF), which needs only exp and is exact to rounding.
  SL_ASSERT(mean >= 0 && std::isfinite(mean));
  std::int64_t total = 0;
  double left = mean;
  while (left > 0) {
    const double m = left > 16 ? 16 : left;
    left -= m;
    const double u = rng.uniform();
    double p = std::exp(-m);
    double cdf = p;
    std::int64_t k = 0;
    while (u > cdf && k < 1000) {
      ++k;
      p *= m / static_cast<double>(k);
      cdf += p;
    }
    total += k;
  }
  return total;
}

}  // namespace sl
