#include "llm/engine/engine.h"

#include <algorithm>
#include <utility>

#include "core/error.h"

namespace sl::llm {
namespace {

/// KV slots and stored tokens of the running requests during the step just scheduled.
struct KvOccupancy {
  double slot_tokens = 0;
  double stored_tokens = 0;
};

KvOccupancy kv_occupancy(const Scheduler& scheduler, const KvCacheManager& kv, const SchedulerOutput& out) {
  KvOccupancy o;
  // Only running requests hold blocks (kv_cache_manager.h), so the tables' blocks are theirs; both sums are
  // integers kept as they change, equal to summing over `running` here.
  const std::int64_t slots = kv.num_table_blocks() * kv.block_size();
  const std::int64_t stored = out.total_num_scheduled_tokens  // written during this step
                              + scheduler.num_running_computed_tokens();
  o.slot_tokens = static_cast<double>(slots);
  o.stored_tokens = static_cast<double>(stored);
  return o;
}

/// The pool's config, with room for the scheduler's drafts (kv_cache_manager.h).
KvCacheConfig with_lookahead(KvCacheConfig kv, const SchedulerConfig& scheduler) {
  kv.num_lookahead_tokens = scheduler.speculative.num_speculative_tokens;
  return kv;
}

}  // namespace

ArrivalQueue::ArrivalQueue(Workload& workload) : w_(workload) {}

bool ArrivalQueue::later(const Followup& a, const Followup& b) {
  return a.at_s != b.at_s ? a.at_s > b.at_s : a.order > b.order;
}

bool ArrivalQueue::initial_is_next() const {
  if (next_initial_ >= w_.initial.size()) return false;
  if (followups_.empty()) return true;
  // On a tie the up-front arrival goes first.
  return w_.requests[static_cast<std::size_t>(w_.initial[next_initial_])].arrival_at_s <= followups_.front().at_s;
}

double ArrivalQueue::next_at_s() const {
  SL_ASSERT(!empty());
  return initial_is_next() ? w_.requests[static_cast<std::size_t>(w_.initial[next_initial_])].arrival_at_s
                           : followups_.front().at_s;
}

Request& ArrivalQueue::pop() {
  SL_ASSERT(!empty());
  if (initial_is_next()) return w_.requests[static_cast<std::size_t>(w_.initial[next_initial_++])];
  std::pop_heap(followups_.begin(), followups_.end(), &ArrivalQueue::later);
  const std::int32_t id = followups_.back().id;
  followups_.pop_back();
  return w_.requests[static_cast<std::size_t>(id)];
}

void ArrivalQueue::on_finished(const Request& request, double now_s) {
  const std::int32_t next = w_.next_turn[static_cast<std::size_t>(request.request_id)];
  if (next < 0) return;
  const double at_s = now_s + w_.think_s[static_cast<std::size_t>(request.request_id)];
  w_.requests[static_cast<std::size_t>(next)].arrival_at_s = at_s;
  followups_.push_back({at_s, counter_++, next});
  std::push_heap(followups_.begin(), followups_.end(), &ArrivalQueue::later);
}

EngineReplica::EngineReplica(const EngineConfig& config, StepListener* trace, StepObserver observer,
                             const Workload* workload)
    : config_(config),
      step_time_(config_.model, config_.gpu, config_.tp),
      kv_(with_lookahead(config.kv_cache, config.scheduler)),
      scheduler_(config.scheduler, kv_),
      trace_(trace),
      observer_(std::move(observer)),
      workload_(workload) {
  SL_ASSERT(!observer_ || workload_ != nullptr);
  run_.num_blocks = config.kv_cache.num_blocks;
  run_.block_size = config.kv_cache.block_size;
  run_.running = run_.waiting = run_.kv_usage = queues::StepSeries(config.series_bucket_s);
}

bool EngineReplica::add(Request& request) {
  if (static_cast<std::int64_t>(scheduler_.waiting().size()) >= config_.max_waiting) {
    ++run_.num_rejected[request.request_class];  // turned away: no record, and a conversation ends here
    return false;
  }
  scheduler_.add_request(request);
  return true;
}

void EngineReplica::idle_until(double now_s) {
  SL_ASSERT(!stepping_ && now_s >= clock_s_);
  clock_s_ = now_s;
  if (!config_.keep_series) return;
  run_.running.advance(now_s, 0);
  run_.waiting.advance(now_s, 0);
  run_.kv_usage.advance(now_s, kv_.block_pool().usage());
}

double EngineReplica::begin_step(double now_s) {
  SL_ASSERT(!stepping_ && scheduler_.has_unfinished_requests());
  scheduler_.schedule(pending_);
  const SchedulerOutput& out = pending_;
  SL_ASSERT(!out.empty());  // every request fits an empty pool and the budget (validated), so work progresses
  const StepTime step = step_time_(out.work);
  double step_s = step.total_s;
  if (out.work.num_draft_steps > 0) {
    const double draft_s = static_cast<double>(out.work.num_draft_steps) * config_.draft_step_s;
    step_s += draft_s;
    run_.draft_s += draft_s;
  }
  for (const ScheduledRequest& s : out.scheduled)
    if (s.request->first_scheduled_at_s < 0) s.request->first_scheduled_at_s = now_s;  // admitted this step
  run_.bytes_read += step.bytes;
  run_.kv_bytes_read += step.kv_bytes;
  run_.all_reduce_s += step.all_reduce_s;
  const KvOccupancy occupancy = kv_occupancy(scheduler_, kv_, out);
  const auto batch = static_cast<double>(out.scheduled.size());
  if (trace_ != nullptr) trace_->on_step(out, now_s, now_s + step_s);
  now_s += step_s;
  run_.busy_s += step_s;
  run_.used_block_s += static_cast<double>(kv_.block_pool().num_used_blocks()) * step_s;
  run_.slot_token_s += occupancy.slot_tokens * step_s;
  run_.stored_token_s += occupancy.stored_tokens * step_s;
  run_.seq_step_s += batch * step_s;
  clock_s_ = now_s;
  if (config_.keep_series) {
    run_.running.advance(now_s, batch);
    run_.waiting.advance(now_s, static_cast<double>(scheduler_.waiting().size()));
    run_.kv_usage.advance(now_s, kv_.block_pool().usage());
  }
  ++run_.num_steps;
  stepping_ = true;
  step_end_s_ = now_s;
  return now_s;
}

const std::vector<Request*>& EngineReplica::end_step() {
  SL_ASSERT(stepping_);
  stepping_ = false;
  scheduler_.update_from_output(pending_, step_end_s_, &run_.token_gaps, finished_);
  if (!hands_off_)
    for (const Request* r : finished_) run_.records.push_back(record_of(*r));
  if (observer_) observer_(scheduler_, kv_, *workload_);
  return finished_;
}

EngineRun EngineReplica::finish(double end_s) {
  SL_ASSERT(!stepping_);
  EngineRun run = std::move(run_);
  run.end_s = end_s;
  run.num_preemptions = scheduler_.num_preemptions();
  run.num_blocks_handed_out = kv_.block_pool().num_handed_out();
  run.prefix_cache = scheduler_.prefix_cache_stats();
  run.speculative = scheduler_.speculative_stats();
  return run;
}

EngineRun run_continuous(const EngineConfig& config, Workload& workload, RunControl& ctl, const StepObserver& observer,
                         StepListener* trace) {
  EngineReplica engine(config, trace, observer, &workload);
  ArrivalQueue arrivals(workload);
  const auto num_requests = static_cast<double>(workload.requests.size());
  double now_s = 0;

  while (!arrivals.empty() || engine.has_unfinished_requests()) {
    while (!arrivals.empty() && arrivals.next_at_s() <= now_s) engine.add(arrivals.pop());
    if (!engine.has_unfinished_requests()) {  // idle: jump to the next arrival
      if (arrivals.empty()) break;            // the last arrivals were all rejected
      now_s = arrivals.next_at_s();
      engine.idle_until(now_s);
      continue;
    }
    now_s = engine.begin_step(now_s);
    for (Request* r : engine.end_step()) arrivals.on_finished(*r, now_s);
    // Progress every 64 steps: report() reads the wall clock, a call into JS in the browser.
    if ((engine.num_steps() & 63) == 0) ctl.report(static_cast<double>(engine.num_finished()), num_requests);
  }
  return engine.finish(now_s);
}

void downsample_series(std::vector<double>& starts_s, std::vector<double>& means, int max_points) {
  SL_ASSERT(starts_s.size() == means.size() && max_points > 0);
  const std::size_t n = means.size();
  if (n <= static_cast<std::size_t>(max_points)) return;
  const std::size_t k = (n + static_cast<std::size_t>(max_points) - 1) / static_cast<std::size_t>(max_points);
  std::vector<double> s, m;
  for (std::size_t i = 0; i < n; i += k) {
    const std::size_t end = std::min(n, i + k);
    double sum = 0;
    for (std::size_t j = i; j < end; ++j) sum += means[j];
    s.push_back(starts_s[i]);
    m.push_back(sum / static_cast<double>(end - i));
  }
  starts_s = std::move(s);
  means = std::move(m);
}

}  // namespace sl::llm
