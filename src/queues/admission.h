#pragma once
#include <cstdint>
#include <functional>

#include "core/distributions.h"
#include "queues/run_progress.h"
#include "queues/time_series.h"

namespace sl::queues {

/// Poisson arrivals whose rate steps up for a while: `base_per_s` on [0, spike_at_s), `spike_per_s` for
/// `spike_s` seconds, then `base_per_s` again for `after_s` seconds (the book's Black Friday: 1,000 -> 10,000 QPS).
struct SpikeProfile {
  double base_per_s = 1000;
  double spike_per_s = 10000;
  double spike_at_s = 5;
  double spike_s = 2.5;
  double after_s = 25;

  double spike_end_at_s() const { return spike_at_s + spike_s; }
  double end_at_s() const { return spike_at_s + spike_s + after_s; }
  double rate_at(double t_s) const { return t_s >= spike_at_s && t_s < spike_end_at_s() ? spike_per_s : base_per_s; }
  /// The next time after t_s at which the rate may change (or the end).
  double next_change_after(double t_s) const;
  double expected_arrivals() const { return base_per_s * (spike_at_s + after_s) + spike_per_s * spike_s; }
};

/// What became of a request.
enum class Outcome {
  Good,      ///< served and back to the client within its timeout (goodput)
  Late,      ///< served, but after the client had given up: wasted work
  Rejected,  ///< turned away on arrival by admission control (a fast 503)
  Dropped,   ///< still queued when its client gave up, and skipped by the worker that reached it
};

/// The immutable record of one request. A rejected request has start = end = arrival; a dropped one has
/// start = end = the moment a worker reached it and skipped it.
struct AdmissionRecord {
  std::int64_t id;
  double arrival_at_s;
  double start_at_s;
  double end_at_s;
  Outcome outcome;
  double time_in_system_s() const { return end_at_s - arrival_at_s; }
};

/// c workers behind one FCFS queue, with optional admission control and a client timeout.
struct AdmissionParams {
  SpikeProfile arrivals;
  std::int64_t num_workers = 100;
  Distribution service = Distribution::exponential(20);
  /// Admission control: an arrival that finds every worker busy and this many requests waiting is
  /// rejected at once. Negative: no limit.
  std::int64_t max_waiting = -1;
  double timeout_s = 1.0;
  /// True: a worker skips a request whose client has already timed out. False: the server cannot tell
  /// and serves it anyway.
  bool drop_expired = false;
};

/// Time-integrated facts of one run, over [0, end of arrivals].
struct AdmissionRun {
  StepSeries waiting{1.0};          ///< requests waiting (not in service), exact bucket averages
  std::int64_t max_waiting_seen = 0;
  double busy_in_spike_s = 0;       ///< worker-seconds of service inside the spike window
};

/// Simulates the profile through the workers and calls `on_request` with each record, in arrival order.
/// Exact recurrence (no event list): a request starts at max(arrival, earliest free worker), FCFS; the
/// number waiting at an arrival is the count of earlier accepted requests that have not started yet.
/// Service times are drawn for every arrival, rejected or not, so request i has the same service time
/// under every admission policy of one seed.
AdmissionRun simulate_admission(const AdmissionParams& params, std::uint64_t seed, double bucket_s, RunProgress& progress,
                                const std::function<void(const AdmissionRecord&)>& on_request);

}  // namespace sl::queues
