#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "core/distributions.h"
#include "queues/fifo_queue.h"
#include "queues/run_progress.h"

namespace sl::queues {

/// How a fleet of identical servers gets its requests.
enum class Routing {
  Random,         ///< each request to a server drawn uniformly: c independent M/M/1 queues when Poisson
  PowerOfTwo,     ///< draw two distinct servers, join the one with fewer requests (first drawn on a tie)
  ShortestQueue,  ///< join the server with the fewest requests (JSQ; ties from a random starting server)
  SharedQueue,    ///< one FCFS queue, the next free server takes its head: M/M/c when Poisson/exponential
};

/// c identical servers fed by one Poisson stream, each serving its requests FIFO, one at a time.
struct FleetParams {
  std::int64_t num_servers = 8;
  double lambda_per_s = 1440;
  Distribution service = Distribution::exponential(200);
  Routing routing = Routing::SharedQueue;
  std::int64_t num_requests = 100'000;
};

/// Simulates `num_requests` arrivals and calls `on_request` with each request's record, in arrival order.
/// Exact recurrences, no event list: with a shared queue a request starts at max(arrival, earliest free
/// server) (Kiefer-Wolfowitz); otherwise its server's own Lindley recurrence, max(arrival, that server's
/// last end), after departures up to the arrival have been counted off (from a heap of departure times, or
/// each server's own ends when the routing looks at two servers), so the routing sees each server's exact
/// number in system. Service times are drawn in arrival order from
/// their own stream and routing draws from another, so all policies see the same requests.
void simulate_fleet(const FleetParams& params, std::uint64_t seed, RunProgress& progress,
                    const std::function<void(const RequestRecord&)>& on_request);

/// What a fleet run measured, over the requests after the warm-up.
struct FleetSummary {
  std::int64_t num_measured = 0;
  double mean_s = 0;       ///< mean time in system
  double mean_se_s = 0;    ///< its standard error by batch means (32 batches): successive requests correlate
  double p99_s = 0;        ///< exact sample 0.99-quantile of time in system
  double p99_se_s = 0;     ///< its standard error by batch quantiles (32 batches); 0 under 64 requests
  /// The p99's standard error through the share of requests below it (summarize_series: batch means of the
  /// indicator, mapped back through the sample's quantiles; half the 95 % interval over t(31)), which unlike
  /// batch quantiles does not under-state the spread at high load; 0 under 64 requests.
  double p99_share_se_s = 0;
  double mean_wait_s = 0;  ///< mean wait before service
  double wait_se_s = 0;    ///< its batch-means standard error
};

/// Standard error of the sample p-quantile of a correlated series, by batch quantiles: split into
/// `num_batches` contiguous batches, take each batch's p-quantile, and treat those as independent.
double batch_quantile_se(const std::vector<double>& xs, double p, int num_batches = 32);

/// Runs simulate_fleet and summarizes every request after the first `num_warmup`, which are dropped
/// because the fleet starts empty.
FleetSummary measure_fleet(const FleetParams& params, std::uint64_t seed, std::int64_t num_warmup,
                           RunProgress& progress);

}  // namespace sl::queues
