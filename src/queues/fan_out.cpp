#include "queues/fan_out.h"

#include <algorithm>
#include <cmath>

#include "core/distributions.h"
#include "core/error.h"
#include "core/stats.h"

namespace sl::queues {

LeafLaw LeafLaw::exponential(double mean_s) { return {false, mean_s, 0}; }

LeafLaw LeafLaw::lognormal(double mean_s, double cv) {
  const double sigma2 = std::log1p(cv * cv);
  return {true, std::log(mean_s) - 0.5 * sigma2, std::sqrt(sigma2)};
}

double LeafLaw::quantile(double p) const {
  SL_ASSERT(p > 0 && p < 1);
  return is_lognormal_ ? std::exp(a_ + b_ * normal_quantile(p)) : -a_ * std::log1p(-p);
}

double LeafLaw::cdf(double x_s) const {
  if (x_s <= 0) return 0;
  return is_lognormal_ ? normal_cdf((std::log(x_s) - a_) / b_) : -std::expm1(-x_s / a_);
}

double LeafLaw::mean_s() const { return is_lognormal_ ? std::exp(a_ + 0.5 * b_ * b_) : a_; }

double normal_cdf(double z) {
  const double x = std::fabs(z) / std::sqrt(2.0);
  const double t = 1 / (1 + 0.5 * x);
  const double erfc =
      t * std::exp(-x * x - 1.26551223 +
                   t * (1.00002368 +
                        t * (0.37409196 +
                             t * (0.09678418 +
                                  t * (-0.18628806 +
                                       t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))));
  return z >= 0 ? 1 - 0.5 * erfc : 0.5 * erfc;
}

double LeafSampler::sample(Rng& rng) const {
  if (measured_s_.empty()) return law_.sample(rng);
  return measured_s_[static_cast<std::size_t>(rng.below(measured_s_.size()))];
}

double LeafSampler::quantile(double p) const {
  return measured_s_.empty() ? law_.quantile(p) : quantile_sorted(measured_s_, p);
}

double fan_out_slow_share(double p, std::int64_t n) { return -std::expm1(static_cast<double>(n) * std::log(p)); }

double request_quantile_s(const LeafLaw& leaf, std::int64_t n, double p) {
  return leaf.quantile(std::exp(std::log(p) / static_cast<double>(n)));
}

double hedged_request_quantile_s(const LeafLaw& leaf, double hedge_after_s, std::int64_t n, double p) {
  const double leaf_p = std::exp(std::log(p) / static_cast<double>(n));  // each leaf's cdf at the answer
  const auto hedged_cdf = [&](double y) {
    if (y <= hedge_after_s) return leaf.cdf(y);
    return 1 - (1 - leaf.cdf(y)) * (1 - leaf.cdf(y - hedge_after_s));
  };
  double lo = 0, hi = leaf.quantile(leaf_p);  // hedging only shortens a leaf
  while (hi - lo > 1e-12 * hi) {
    const double mid = 0.5 * (lo + hi);
    (hedged_cdf(mid) < leaf_p ? lo : hi) = mid;
  }
  return hi;
}

std::optional<double> mm1_hedge_share(double rho, double q) {
  SL_ASSERT(rho > 0 && rho < 1 && q > 0 && q < 1);
  const double a = -std::log1p(-q) / (1 - rho);
  double h = 0;
  for (int i = 0; i < 1'000'000; ++i) {
    const double next = (1 - q) * std::exp(a * rho * h);
    if (rho * (1 + next) >= 1) return std::nullopt;
    if (std::fabs(next - h) <= 1e-15) return next;
    h = next;
  }
  return std::nullopt;  // creeping towards a tangency: no steady state within reach
}

FanOutSample simulate_fan_out(const LeafSampler& primary, std::int64_t n, std::int64_t num_requests, double slow_after_s,
                              std::optional<double> hedge_after_s, Rng& rng) {
  FanOutSample s;
  s.request_s.reserve(static_cast<std::size_t>(num_requests));
  for (std::int64_t r = 0; r < num_requests; ++r) {
    double slowest_s = 0;
    for (std::int64_t leaf = 0; leaf < n; ++leaf) {
      double x = primary.sample(rng);
      if (hedge_after_s && x > *hedge_after_s) {
        ++s.num_backups;
        x = std::min(x, *hedge_after_s + primary.sample(rng));
      }
      slowest_s = std::max(slowest_s, x);
    }
    s.num_any_slow += slowest_s > slow_after_s;
    s.request_s.push_back(slowest_s);
  }
  s.num_leaf_requests = n * num_requests;
  sort_ascending(s.request_s);  // std::sort's order (latencies are never -0), by the faster radix sort
  return s;
}

}  // namespace sl::queues
