#include "llm/engine.h"

#include <algorithm>

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
  std::int64_t slots = 0;
  std::int64_t stored = out.total_num_scheduled_tokens;  // written during this step
  for (const Request* r : scheduler.running()) {
    slots += static_cast<std::int64_t>(kv.blocks_of(*r).size()) * kv.block_size();
    stored += r->num_computed_tokens;
  }
  o.slot_tokens = static_cast<double>(slots);
  o.stored_tokens = static_cast<double>(stored);
  return o;
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

EngineRun run_continuous(const EngineConfig& config, Workload& workload, RunControl& ctl, const StepObserver& observer,
                         RequestTrace* trace) {
  KvCacheManager kv(config.kv_cache);
  Scheduler scheduler(config.scheduler, kv);
  ArrivalQueue arrivals(workload);
  EngineRun run;
  run.num_blocks = config.kv_cache.num_blocks;
  run.block_size = config.kv_cache.block_size;
  run.running = run.waiting = run.kv_usage = queues::StepSeries(config.series_bucket_s);
  const auto num_requests = static_cast<double>(workload.requests.size());
  double now_s = 0;

  while (!arrivals.empty() || scheduler.has_unfinished_requests()) {
    while (!arrivals.empty() && arrivals.next_at_s() <= now_s) {
      Request& arrived = arrivals.pop();
      if (static_cast<std::int64_t>(scheduler.waiting().size()) >= config.max_waiting)
        ++run.num_rejected[arrived.request_class];  // turned away: no record, and a conversation ends here
      else
        scheduler.add_request(arrived);
    }
    if (!scheduler.has_unfinished_requests()) {  // idle: jump to the next arrival
      if (arrivals.empty()) break;               // the last arrivals were all rejected
      now_s = arrivals.next_at_s();
      run.running.advance(now_s, 0);
      run.waiting.advance(now_s, 0);
      run.kv_usage.advance(now_s, kv.block_pool().usage());
      continue;
    }
    const SchedulerOutput out = scheduler.schedule();
    SL_ASSERT(!out.empty());  // every request fits an empty pool and the budget (validated), so work progresses
    const StepTime step = step_time(config.model, config.gpu, out.work, config.tp);
    const double step_s = step.total_s;
    for (const ScheduledRequest& s : out.scheduled)
      if (s.request->first_scheduled_at_s < 0) s.request->first_scheduled_at_s = now_s;  // admitted this step
    run.bytes_read += step.bytes;
    run.kv_bytes_read += step.kv_bytes;
    run.all_reduce_s += step.all_reduce_s;
    const KvOccupancy occupancy = kv_occupancy(scheduler, kv, out);
    const auto batch = static_cast<double>(out.scheduled.size());
    if (trace != nullptr) trace->on_step(out, now_s, now_s + step_s);
    now_s += step_s;
    run.busy_s += step_s;
    run.used_block_s += static_cast<double>(kv.block_pool().num_used_blocks()) * step_s;
    run.slot_token_s += occupancy.slot_tokens * step_s;
    run.stored_token_s += occupancy.stored_tokens * step_s;
    run.seq_step_s += batch * step_s;
    run.running.advance(now_s, batch);
    run.waiting.advance(now_s, static_cast<double>(scheduler.waiting().size()));
    run.kv_usage.advance(now_s, kv.block_pool().usage());
    ++run.num_steps;

    for (Request* r : scheduler.update_from_output(out, now_s, &run.token_gaps)) {
      run.records.push_back(make_record(*r));
      arrivals.on_finished(*r, now_s);
    }
    if (observer) observer(scheduler, kv, workload);
    // Progress every 64 steps: report() reads the wall clock, a call into JS in the browser.
    if ((run.num_steps & 63) == 0) ctl.report(static_cast<double>(run.records.size()), num_requests);
  }
  run.end_s = now_s;
  run.num_preemptions = scheduler.num_preemptions();
  run.num_blocks_handed_out = kv.block_pool().num_handed_out();
  run.prefix_cache = scheduler.prefix_cache_stats();
  return run;
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
