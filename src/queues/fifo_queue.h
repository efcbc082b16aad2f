#pragma once
#include <cstdint>
#include <functional>

#include "core/cell.h"
#include "core/distributions.h"
#include "queues/time_series.h"

namespace sl::queues {

/// A single-server FIFO queue with Poisson arrivals and i.i.d. service times.
struct SingleServerParams {
  double lambda_per_s = 160;
  Distribution service = Distribution::exponential(200);
  std::int64_t num_requests = 100'000;
};

/// What one request did: the immutable record each completed request leaves (Ciw's data record).
struct RequestRecord {
  std::int64_t id;
  double arrival_at_s;
  double start_at_s;
  double end_at_s;
  double time_in_system_s() const { return end_at_s - arrival_at_s; }
};

/// Time-integrated facts of a run over the observation window [0, last arrival].
struct SingleServerRun {
  double window_s = 0;          ///< time of the last arrival
  double area_in_system = 0;    ///< integral of the number in system over the window (request-seconds)
  std::int64_t num_in_system_at_end = 0;  ///< requests not yet departed at the last arrival (itself included)
  StepSeries in_system{1.0};    ///< number in system, bucket-averaged
};

/// Simulates `num_requests` arrivals by the Lindley recurrence (start = max(arrival, previous end): exact for
/// one FIFO server) and calls `on_request` for each record in arrival order, keeping nothing else: the lean
/// loop under simulate_single_server, for callers that need only the records. A template, so that the call
/// per request inlines. Arrivals and services use separate random streams of `seed`.
template <class OnRequest>
void for_each_fifo_request(const SingleServerParams& params, std::uint64_t seed, RunControl& ctl, OnRequest&& on_request) {
  Rng arrivals = Rng::stream(seed, Stream::Arrivals);
  Rng services = Rng::stream(seed, Stream::Service);
  const Distribution interarrival = Distribution::exponential(params.lambda_per_s);
  double arrival_at_s = 0;
  double server_free_at_s = 0;
  for (std::int64_t i = 0; i < params.num_requests; ++i) {
    arrival_at_s += interarrival.sample(arrivals);
    const double start_at_s = arrival_at_s < server_free_at_s ? server_free_at_s : arrival_at_s;  // std::max
    server_free_at_s = start_at_s + params.service.sample(services);
    on_request(RequestRecord{i, arrival_at_s, start_at_s, server_free_at_s});
    if ((i & 0xFFFF) == 0) ctl.report(static_cast<double>(i), static_cast<double>(params.num_requests));
  }
}

/// The run of for_each_fifo_request (the same records, passed to `on_request` in arrival order) with the
/// number in system integrated exactly over [0, last arrival] in buckets of `bucket_s`.
SingleServerRun simulate_single_server(const SingleServerParams& params, std::uint64_t seed, double bucket_s,
                                       RunControl& ctl, const std::function<void(const RequestRecord&)>& on_request);

}  // namespace sl::queues
