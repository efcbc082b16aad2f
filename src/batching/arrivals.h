#pragma once
#include <cstdint>
#include <vector>

#include "core/rng.h"

namespace sl::batching {

/// Arrival instants of a Poisson stream: `num_requests` exponential gaps of rate `lambda_per_s`, from 0.
std::vector<double> poisson_arrivals_s(double lambda_per_s, std::int64_t num_requests, Rng& rng);

/// One stretch of constant arrival rate (a rate of 0 is a silent stretch).
struct RateSegment {
  double duration_s;
  double rate_per_s;
};

/// Arrival instants of a Poisson stream whose rate is constant on each segment in turn (a burst is a
/// segment of higher rate). Exact: at a segment's end the pending gap is redrawn at the next rate, which
/// the exponential's lack of memory allows.
std::vector<double> piecewise_poisson_arrivals_s(const std::vector<RateSegment>& segments, Rng& rng);

}  // namespace sl::batching
