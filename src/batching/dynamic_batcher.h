#pragma once
#include <cstdint>
#include <limits>
#include <vector>

#include "batching/service_model.h"
#include "core/budget.h"
#include "core/cell.h"

namespace sl::batching {

/// A dynamic batcher in front of identical accelerators (the book's section on dynamic batching; Triton's
/// dynamic batcher). Requests wait in one FIFO queue. Whenever an accelerator is free, it takes the oldest
/// min(queue, B_max) requests as one batch if the queue holds B_max requests or its oldest request has
/// waited T_window; otherwise it waits for whichever comes first. A batch of B occupies its accelerator for
/// T_svc(B). Special cases: T_window = +inf is static, size-triggered batching (eq. 4); B_max = 1 is
/// batch-1 serving (a FIFO queue with c servers).
struct BatcherParams {
  std::int64_t max_batch_size = 32;  ///< B_max
  double max_wait_s = 0.005;         ///< T_window; +inf: dispatch only full batches
  std::int64_t num_accelerators = 1;
  bool unlimited_accelerators = false;  ///< true: a batch never waits for an accelerator (pure formation delay)
  ServiceModel service = ServiceModel::linear(5e-3, 0.6e-3);
};

/// What one simulated request of the dynamic batcher costs (arrival, batch formation, service, record), natively:
/// the unit of the budget of every cell that runs it (core/budget.h). Measured: 233 ns (batching/when-to-batch
/// --n 500000, 1.7e7 requests in 3.96 s of CPU), 157 ns (batching/pareto --grid_n 60000).
inline constexpr budget::UnitCost kBatchedRequestCost{240e-9, 0};

inline constexpr double kNoTimeout = std::numeric_limits<double>::infinity();

/// What one request did, written once when its batch completes and never changed (Ciw's data record).
/// Requests keep arrival order inside a batch, and a batch is a contiguous range of request ids.
struct BatchedRequest {
  const std::int64_t id;
  const double arrival_at_s;
  const double start_at_s;  ///< its batch went to an accelerator
  const double end_at_s;    ///< its batch finished
  const std::int64_t batch_id;
  const std::int64_t batch_size;
  /// Formation delay plus any wait for a free accelerator.
  double wait_s() const { return start_at_s - arrival_at_s; }
  double latency_s() const { return end_at_s - arrival_at_s; }
};

/// One dispatched batch: requests first_id .. first_id + size - 1.
struct BatchRecord {
  const std::int64_t id;
  const std::int64_t first_id;
  const std::int64_t size;
  const std::int64_t accelerator;  ///< -1 with unlimited accelerators
  const double start_at_s;
  const double end_at_s;
};

/// The records of one run. `requests` is in completion order; `batches` in dispatch order.
struct BatchingRun {
  std::vector<BatchedRequest> requests;
  std::vector<BatchRecord> batches;
  std::int64_t num_unserved = 0;  ///< still waiting at the end (only when T_window = +inf)
};

/// Runs the batcher over the given arrival instants (sorted, non-decreasing) with a discrete-event engine
/// (queues/event_queue.h: ties in time break by insertion order). Progress is reported per arrival.
BatchingRun simulate_dynamic_batching(const BatcherParams& params, const std::vector<double>& arrivals_s,
                                      RunControl& ctl);

/// Statistics of a run, computed from its records after the run.
struct BatchingSummary {
  std::int64_t num_served = 0;
  double mean_wait_s = 0;
  double mean_latency_s = 0;
  double p50_latency_s = 0;
  double p99_latency_s = 0;
  double max_latency_s = 0;
  /// Standard errors of the mean and the p99 latency over requests in arrival order (successive requests
  /// correlate): batch means for the mean, the share below the p99 by batch means for the p99
  /// (queues::summarize_series; half the 95 % interval over t(31)); 0 under 64 requests.
  double mean_latency_se_s = 0;
  double p99_latency_se_s = 0;
  double mean_batch_size = 0;       ///< per batch
  double throughput_per_s = 0;      ///< served / (last completion - first arrival)
  double busy_frac = 0;             ///< accelerator busy time / (accelerators x span); 0 if unlimited
};

/// Summary of the requests that arrived at or after `warmup_s` (all batches count toward batch size and
/// busy time). A run with no served request gives a zero summary.
BatchingSummary summarize(const BatchingRun& run, const BatcherParams& params, double warmup_s = 0);

}  // namespace sl::batching
