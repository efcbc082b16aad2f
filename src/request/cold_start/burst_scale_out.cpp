#include "request/cold_start/burst_scale_out.h"

#include <algorithm>
#include <cmath>
#include <queue>
#include <utility>

namespace sl::request {
namespace {

struct Replica {
  double free_at_s;
  std::int64_t served = 0;
};

double rate_at(const BurstParams& p, double t_s) {
  return t_s >= p.burst_start_s && t_s < p.burst_end_s ? p.burst_rate_per_s : p.base_rate_per_s;
}

/// The next instant the rate changes after t_s (end_s if none).
double next_change(const BurstParams& p, double t_s) {
  if (t_s < p.burst_start_s) return p.burst_start_s;
  if (t_s < p.burst_end_s) return p.burst_end_s;
  return p.end_s;
}

}  // namespace

double BurstParams::expected_requests() const {
  const double burst_s = burst_end_s - burst_start_s;
  return base_rate_per_s * (end_s - burst_s) + burst_rate_per_s * burst_s;
}

std::vector<double> burst_arrivals(const BurstParams& p, Rng& rng) {
  std::vector<double> t;
  double now_s = 0;
  while (now_s < p.end_s) {
    // Exponential gaps are memoryless: a gap that crosses a rate change restarts at the change.
    const double gap_s = -std::log(rng.uniform()) / rate_at(p, now_s);
    const double change_s = next_change(p, now_s);
    if (now_s + gap_s >= change_s) {
      now_s = change_s;
      continue;
    }
    now_s += gap_s;
    t.push_back(now_s);
  }
  return t;
}

std::vector<BurstRecord> simulate_scale_out(const BurstParams& p, const ColdStart& c, const std::vector<double>& arrivals) {
  std::vector<Replica> replicas;
  for (std::int64_t i = 0; i < p.base_replicas; ++i) replicas.push_back({0.0});
  const double ready_s = p.burst_start_s + p.detect_s + c.ready_after_s;
  for (std::int64_t i = 0; i < p.added_replicas; ++i) replicas.push_back({ready_s});
  // Min-heap on (free at, replica index): ties go to the lower index.
  using Slot = std::pair<double, std::size_t>;
  std::priority_queue<Slot, std::vector<Slot>, std::greater<Slot>> free;
  for (std::size_t i = 0; i < replicas.size(); ++i) free.push({replicas[i].free_at_s, i});
  std::vector<BurstRecord> records;
  records.reserve(arrivals.size());
  for (double a : arrivals) {
    const std::size_t i = free.top().second;
    free.pop();
    Replica& r = replicas[i];
    const bool is_new = static_cast<std::int64_t>(i) >= p.base_replicas;
    const double service_s = is_new && r.served < c.lazy_requests ? c.lazy_service_s : p.service_s;
    const double start_s = std::max(a, r.free_at_s);
    r.free_at_s = start_s + service_s;
    ++r.served;
    free.push({r.free_at_s, i});
    records.push_back({a, r.free_at_s - a});
  }
  return records;
}

double on_time_frac(const std::vector<BurstRecord>& records, double from_s, double to_s, double slo_s) {
  std::int64_t n = 0, ok = 0;
  for (const auto& r : records)
    if (r.arrival_at_s >= from_s && r.arrival_at_s < to_s) {
      ++n;
      ok += r.latency_s <= slo_s ? 1 : 0;
    }
  return n == 0 ? 1.0 : static_cast<double>(ok) / static_cast<double>(n);
}

}  // namespace sl::request
