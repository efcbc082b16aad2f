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
#include "llm/engine/kv_cache_manager.h"
#include "llm/workload/request.h"
#include "llm/engine/request_trace.h"
#include "llm/engine/step_listener.h"
#include "llm/engine/scheduler.h"
#include "llm/model/step_time.h"
#include "llm/workload/workload.h"
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
  /// Keep the time series (EngineRun::running, waiting, kv_usage); off where no output reads them (the fleet's
  /// replicas), which saves three advances a step. Every other figure is the same either way.
  bool keep_series = true;
  /// Speculative decoding's draft model: one forward pass takes this long (scheduler.h); each step that verifies
  /// drafts first waits for the draft's passes (the most drafts of any sequence), which do not overlap it.
  double draft_step_s = 0;
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
  SpeculativeStats speculative;
  double draft_s = 0;  ///< time the steps waited for the draft model
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

/// One engine (one replica of a fleet), stepped from outside: requests are added as they arrive, a step is begun
/// at a time and ended when its time has passed (a fleet interleaves several replicas on one clock). Between
/// begin_step and end_step, arrivals may still be added: they wait for the next step. Every figure of the run
/// is kept as run_continuous keeps it, which is this class driven by a single arrival queue.
class EngineReplica {
 public:
  /// `trace` and `observer` as for run_continuous; both must outlive the replica.
  explicit EngineReplica(const EngineConfig& config, StepListener* trace = nullptr, StepObserver observer = {},
                         const Workload* workload = nullptr);
  EngineReplica(const EngineReplica&) = delete;
  EngineReplica& operator=(const EngineReplica&) = delete;

  /// An arrival: joins `waiting`, or is counted as rejected when max_waiting requests wait (returns false).
  bool add(Request& request);
  bool has_unfinished_requests() const { return scheduler_.has_unfinished_requests(); }
  bool is_stepping() const { return stepping_; }
  /// End of the step in progress (is_stepping()).
  double step_end_s() const { return step_end_s_; }
  /// The replica's clock: the end of its last step, or the instant it last idled until.
  double clock_s() const { return clock_s_; }
  /// Idle until `now_s` (nothing runs): the series record an empty engine.
  void idle_until(double now_s);
  /// Schedules a step at `now_s` (there must be unfinished requests, and no step in progress) and accounts its
  /// time; returns its end.
  double begin_step(double now_s);
  /// Applies the step in progress at its end: returns the requests that finished (their records are kept,
  /// unless the replica hands them off), valid until the next end_step.
  const std::vector<Request*>& end_step();
  /// A prefill replica of a disaggregated fleet (fleet.h): finished requests leave without a record, for a
  /// decode replica to finish; add_record keeps one for a request that ends here.
  void set_hands_off(bool hands_off) { hands_off_ = hands_off; }
  void add_record(const Request& request) { run_.records.push_back(record_of(request)); }
  /// Tokens still to compute for the requests it holds: prompts (again, after a preemption) and answers
  /// (the simulator knows each answer's length; a real router would estimate it).
  std::int64_t outstanding_tokens() const { return scheduler_.num_outstanding_tokens(); }
  std::int64_t num_steps() const { return run_.num_steps; }
  std::int64_t num_finished() const { return static_cast<std::int64_t>(run_.records.size()); }
  /// The run so far, closed at `end_s` (the last finish).
  EngineRun finish(double end_s);

 private:
  /// The request's record, its time outside the engine the GPU spec's (a client's timing).
  RequestRecord record_of(const Request& request) const {
    RequestRecord r = make_record(request);
    r.outside_s = config_.gpu.request_overhead_s;
    return r;
  }

  EngineConfig config_;
  StepTimeModel step_time_;
  KvCacheManager kv_;
  Scheduler scheduler_;
  StepListener* trace_;
  StepObserver observer_;
  const Workload* workload_;
  EngineRun run_;
  SchedulerOutput pending_;
  std::vector<Request*> finished_;  // the last end_step's
  bool stepping_ = false;
  bool hands_off_ = false;
  double step_end_s_ = 0;
  double clock_s_ = 0;
};

/// Runs the continuous (iteration-level) engine over the workload. `workload` is consumed (its requests carry
/// the run's state); the records are the result. A `trace`, if given, sees every step (step_listener.h: a
/// request trace, a recorded schedule); it changes nothing in the run.
EngineRun run_continuous(const EngineConfig& config, Workload& workload, RunControl& ctl,
                         const StepObserver& observer = {}, StepListener* trace = nullptr);

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
