#include "queues/admission.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <queue>
#include <vector>

#include "core/error.h"

namespace sl::queues {

double SpikeProfile::next_change_after(double t_s) const {
  if (t_s < spike_at_s) return spike_at_s;
  if (t_s < spike_end_at_s()) return spike_end_at_s();
  return end_at_s();
}

namespace {

constexpr std::int64_t kProgressEvery = 1 << 15;

/// The next arrival after t_s, or a time >= end_at_s() when there is none. Exponential gaps at the current
/// rate; a gap that crosses a rate change is discarded and redrawn from the change (memorylessness).
double next_arrival_s(const SpikeProfile& profile, double t_s, Rng& rng) {
  const double end_s = profile.end_at_s();
  while (t_s < end_s) {
    const double rate = profile.rate_at(t_s);
    const double change_s = profile.next_change_after(t_s);
    if (rate > 0) {
      const double next_s = t_s + Distribution::exponential(rate).sample(rng);
      if (next_s < change_s) return next_s;
    }
    t_s = change_s;
  }
  return end_s;
}

/// Length of [a, b] inside [lo, hi].
double overlap_s(double a, double b, double lo, double hi) { return std::max(0.0, std::min(b, hi) - std::max(a, lo)); }

}  // namespace

AdmissionRun simulate_admission(const AdmissionParams& params, std::uint64_t seed, double bucket_s, RunProgress& progress,
                                const std::function<void(const AdmissionRecord&)>& on_request) {
  SL_ASSERT(params.num_workers >= 1 && params.timeout_s > 0);
  Rng arrivals = Rng::stream(seed, Stream::Arrivals);
  Rng services = Rng::stream(seed, Stream::Service);
  const SpikeProfile& profile = params.arrivals;
  const double end_s = profile.end_at_s();

  AdmissionRun run;
  run.waiting = StepSeries(bucket_s);
  std::priority_queue<double, std::vector<double>, std::greater<double>> free_at_s;  // when each worker frees up
  for (std::int64_t k = 0; k < params.num_workers; ++k) free_at_s.push(0.0);
  std::deque<double> waiting_start_s;  // start (or skip) times of accepted requests still waiting, in FCFS order
  const auto leave_waiting_until = [&](double t_s) {
    while (!waiting_start_s.empty() && waiting_start_s.front() <= t_s) {
      run.waiting.advance(waiting_start_s.front(), static_cast<double>(waiting_start_s.size()));
      waiting_start_s.pop_front();
    }
    run.waiting.advance(t_s, static_cast<double>(waiting_start_s.size()));
  };

  double t_s = 0;
  for (std::int64_t id = 0;; ++id) {
    t_s = next_arrival_s(profile, t_s, arrivals);
    if (t_s >= end_s) break;
    leave_waiting_until(t_s);
    const double service_s = params.service.sample(services);
    const auto num_waiting = static_cast<std::int64_t>(waiting_start_s.size());
    const bool all_busy = free_at_s.top() > t_s;
    if (params.max_waiting >= 0 && all_busy && num_waiting >= params.max_waiting) {
      on_request(AdmissionRecord{id, t_s, t_s, t_s, Outcome::Rejected});
    } else {
      const double free_s = free_at_s.top();
      free_at_s.pop();
      const double start_s = std::max(t_s, free_s);
      if (start_s > t_s) waiting_start_s.push_back(start_s);
      run.max_waiting_seen = std::max(run.max_waiting_seen, static_cast<std::int64_t>(waiting_start_s.size()));
      if (params.drop_expired && start_s - t_s > params.timeout_s) {
        free_at_s.push(free_s);  // the worker skips it and stays free
        on_request(AdmissionRecord{id, t_s, start_s, start_s, Outcome::Dropped});
      } else {
        const double done_s = start_s + service_s;
        free_at_s.push(done_s);
        run.busy_in_spike_s += overlap_s(start_s, done_s, profile.spike_at_s, profile.spike_end_at_s());
        on_request(AdmissionRecord{id, t_s, start_s, done_s, done_s - t_s <= params.timeout_s ? Outcome::Good : Outcome::Late});
      }
    }
    if ((id + 1) % kProgressEvery == 0) progress.add(kProgressEvery);
  }
  leave_waiting_until(end_s);
  return run;
}

}  // namespace sl::queues
