#pragma once
// The engine moves the clock. Each iteration: requests that have arrived join `waiting`; the scheduler decides a
// step; the step-time model (step_time.h) says how long that forward pass takes; the clock advances by it and
// the step is applied. When nothing is running or waiting the clock jumps to the next arrival. A finished
// request leaves an immutable RequestRecord; a conversation's next turn arrives a think time after it.
//
// Policies, all on the same workload and step-time model:
//   Continuous       — vLLM's iteration-level scheduler over the paged (block) KV allocator;
//   NaiveReservation — the same scheduler, but each request reserves max_model_len tokens of KV at admission;
//   Static           — static batching (static_batching.h): collect up to B requests, run until the longest
//                      finishes, with a max-length reservation per slot.
#include <cstdint>
#include <functional>
#include <vector>

#include "core/cell.h"
#include "llm/kv_cache_manager.h"
#include "llm/request.h"
#include "llm/request_trace.h"
#include "llm/scheduler.h"
#include "llm/step_time.h"
#include "llm/workload.h"
#include "queues/time_series.h"

namespace sl::llm {

struct EngineConfig {
  ModelSpec model;
  GpuSpec gpu;
  TensorParallel tp;  ///< the step runs on tp.size GPUs (step_time.h)
  SchedulerConfig scheduler;
  KvCacheConfig kv_cache;
  /// A request arriving while this many wait (new or preempted) is rejected: it leaves no record.
  std::int64_t max_waiting = std::int64_t{1} << 40;
  double series_bucket_s = 1.0;  ///< width of the time-series buckets (charts)
};

/// Time integrals and series of one run; statistics come from these and the records, after the run.
struct EngineRun {
  std::vector<RequestRecord> records;  ///< in finishing order
  std::int64_t num_steps = 0;
  std::int64_t num_preemptions = 0;
  std::int64_t num_rejected[2] = {0, 0};  ///< arrivals turned away by max_waiting, by request class
  GapHistogram token_gaps;                ///< every gap between a request's successive tokens
  double bytes_read = 0;     ///< HBM bytes the steps read, per GPU
  double kv_bytes_read = 0;  ///< the KV part of them
  double all_reduce_s = 0;   ///< time the steps spent in tensor parallelism's all-reduces
  PrefixCacheStats prefix_cache;
  std::int64_t num_blocks = 0;
  std::int64_t block_size = 16;
  /// Blocks handed out over the run: a pool at least this large never reuses (never evicts) a block.
  std::int64_t num_blocks_handed_out = 0;
  double end_s = 0;   ///< clock when the last request finished
  double busy_s = 0;  ///< time spent in steps
  // Integrals over time (unit x seconds):
  double used_block_s = 0;    ///< blocks held by requests
  double slot_token_s = 0;    ///< KV token slots the running requests hold (blocks x block size, or reservations)
  double stored_token_s = 0;  ///< tokens whose KV those slots actually hold
  double seq_step_s = 0;      ///< sequences in the step (batch occupancy)
  queues::StepSeries running{1.0};   ///< sequences in the step
  queues::StepSeries waiting{1.0};   ///< requests waiting (including preempted)
  queues::StepSeries kv_usage{1.0};  ///< fraction of KV blocks in use
};

/// Called after every step with the engine's state, for tests of the allocator's invariants.
using StepObserver = std::function<void(const Scheduler&, const KvCacheManager&, const Workload&)>;

/// Runs the continuous (iteration-level) engine over the workload. `workload` is consumed (its requests carry
/// the run's state); the records are the result. A `trace`, if given, sees every step (request_trace.h); it
/// changes nothing in the run.
EngineRun run_continuous(const EngineConfig& config, Workload& workload, RunControl& ctl,
                         const StepObserver& observer = {}, RequestTrace* trace = nullptr);

/// Releases arrivals in time order: the up-front ones, and follow-up turns scheduled during the run.
class ArrivalQueue {
 public:
  explicit ArrivalQueue(Workload& workload);
  bool empty() const { return next_initial_ >= w_.initial.size() && followups_.empty(); }
  /// Arrival time of the next request; the queue must not be empty.
  double next_at_s() const;
  /// Pops the next request.
  Request& pop();
  /// A finished request's next turn, if any, arrives a think time after `now_s`.
  void on_finished(const Request& request, double now_s);

 private:
  Workload& w_;
  std::size_t next_initial_ = 0;
  struct Followup {
    double at_s;
    std::int64_t order;
    std::int32_t id;
  };
  static bool later(const Followup& a, const Followup& b);
  bool initial_is_next() const;
  std::vector<Followup> followups_;  // a min-heap on (at_s, order): ties break by insertion order
  std::int64_t counter_ = 0;
};

/// Merges adjacent buckets of a series until it has at most max_points, averaging their levels.
void downsample_series(std::vector<double>& starts_s, std::vector<double>& means, int max_points);

}  // namespace sl::llm
