#include "batching/arrivals.h"

#include <cmath>

#include "core/error.h"

namespace sl::batching {
namespace {

double exponential_gap_s(double rate_per_s, Rng& rng) { return -std::log(rng.uniform()) / rate_per_s; }

}  // namespace

std::vector<double> poisson_arrivals_s(double lambda_per_s, std::int64_t num_requests, Rng& rng) {
  SL_ASSERT(lambda_per_s > 0 && num_requests >= 0);
  std::vector<double> at_s;
  at_s.reserve(static_cast<std::size_t>(num_requests));
  double t = 0;
  for (std::int64_t i = 0; i < num_requests; ++i) at_s.push_back(t += exponential_gap_s(lambda_per_s, rng));
  return at_s;
}

std::vector<double> piecewise_poisson_arrivals_s(const std::vector<RateSegment>& segments, Rng& rng) {
  std::vector<double> at_s;
  double start_s = 0;
  for (const auto& seg : segments) {
    SL_ASSERT(seg.duration_s >= 0 && seg.rate_per_s >= 0);
    const double end_s = start_s + seg.duration_s;
    if (seg.rate_per_s > 0)
      for (double t = start_s + exponential_gap_s(seg.rate_per_s, rng); t < end_s;
           t += exponential_gap_s(seg.rate_per_s, rng))
        at_s.push_back(t);
    start_s = end_s;
  }
  return at_s;
}

}  // namespace sl::batching
