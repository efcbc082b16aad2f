#pragma once
// A traffic burst met by scaling out (Table 8's cold start in motion). Requests arrive as a Poisson stream
// whose rate steps from base to burst and back; a pool of identical replicas serves them first come, first
// served from one queue (each request goes to the replica that frees first: exact FCFS for c servers).
// When the burst begins the autoscaler decides after detect_s to add replicas, and each new replica serves
// only once its cold start is over; without warm-up, its first requests also pay lazy initialization.
// Each request leaves an immutable record; on-time shares and latency over time come from the records.
#include <cstdint>
#include <vector>

#include "core/rng.h"

namespace sl::request {

struct BurstParams {
  std::int64_t base_replicas = 4;
  std::int64_t added_replicas = 8;
  double base_rate_per_s = 500;
  double burst_rate_per_s = 1500;
  double burst_start_s = 60;
  double burst_end_s = 180;
  double end_s = 300;
  double detect_s = 0;     ///< from the start of the burst to the scale-out decision
  double service_s = 0.005;
  /// Expected number of arrivals: base x (end - burst length) + burst x burst length.
  double expected_requests() const;
};

/// How a new replica comes up.
struct ColdStart {
  double ready_after_s = 0;        ///< from the decision until it takes requests
  std::int64_t lazy_requests = 0;  ///< its first requests pay lazy initialization (no warm-up)
  double lazy_service_s = 0;
};

struct BurstRecord {
  double arrival_at_s;
  double latency_s;
};

/// The Poisson arrival instants of the whole run (rate piecewise constant), from `rng`.
std::vector<double> burst_arrivals(const BurstParams& p, Rng& rng);

/// Serves `arrivals` (sorted) with the pool; one record per request, in arrival order.
std::vector<BurstRecord> simulate_scale_out(const BurstParams& p, const ColdStart& c, const std::vector<double>& arrivals);

/// Share of the records arriving in [from_s, to_s) with latency <= slo_s (1 when there are none).
double on_time_frac(const std::vector<BurstRecord>& records, double from_s, double to_s, double slo_s);

}  // namespace sl::request
