#include "llm/engine/scheduler.h"

#include <algorithm>

#include "core/error.h"

namespace sl::llm {

Scheduler::Scheduler(const SchedulerConfig& config, KvCacheManager& kv_cache_manager)
    : config_(config), kv_(kv_cache_manager), accept_rng_(config.speculative.seed) {
  SL_ASSERT(config.max_num_seqs > 0 && config.max_num_batched_tokens > 0);
  SL_ASSERT(config.speculative.num_speculative_tokens >= 0);
}

void Scheduler::add_request(Request& request) {
  request.status = RequestStatus::Waiting;
  num_outstanding_tokens_ += request.num_prompt_tokens + request.max_tokens - 1 - request.num_computed_tokens;
  enqueue(request, false);
}

void Scheduler::add_computed(Request& request, std::int64_t n) {
  request.num_computed_tokens += n;
  num_running_computed_tokens_ += n;
  num_outstanding_tokens_ -= n;
}

namespace {

/// The policy's order of `waiting`: a total order (ties break by arrival, then id).
bool goes_before(SchedulingPolicy policy, const Request& a, const Request& b) {
  if (policy == SchedulingPolicy::Priority && a.request_class != b.request_class)
    return a.request_class < b.request_class;
  if (policy == SchedulingPolicy::ShortestPromptFirst && a.num_prompt_tokens != b.num_prompt_tokens)
    return a.num_prompt_tokens < b.num_prompt_tokens;
  if (a.arrival_at_s != b.arrival_at_s) return a.arrival_at_s < b.arrival_at_s;
  return a.request_id < b.request_id;
}

}  // namespace

void Scheduler::enqueue(Request& request, bool preempted) {
  if (config_.policy == SchedulingPolicy::Fcfs) {
    if (preempted) waiting_.push_front(&request);
    else waiting_.push_back(&request);
    return;
  }
  const SchedulingPolicy policy = config_.policy;
  const auto at = std::upper_bound(waiting_.begin(), waiting_.end(), &request,
                                   [policy](const Request* a, const Request* b) { return goes_before(policy, *a, *b); });
  waiting_.insert(at, &request);
}

SchedulerOutput Scheduler::schedule() {
  SchedulerOutput out;
  schedule(out);
  return out;
}

void Scheduler::schedule(SchedulerOutput& out) {
  out.scheduled.clear();
  out.preempted.clear();
  out.work = StepWork{};
  out.scheduled.reserve(running_.size() + std::min<std::size_t>(waiting_.size(), 64));
  std::int64_t token_budget = config_.max_num_batched_tokens;
  schedule_running(out, token_budget);
  if (out.preempted.empty()) schedule_waiting(out, token_budget);
  out.total_num_scheduled_tokens = config_.max_num_batched_tokens - token_budget;
}

std::int64_t Scheduler::cap_prefill(const Request& request, std::int64_t num_new_tokens,
                                    std::int64_t token_budget) const {
  (void)request;
  if (config_.enable_chunked_prefill && config_.long_prefill_token_threshold > 0)
    num_new_tokens = std::min(num_new_tokens, config_.long_prefill_token_threshold);
  return std::min(num_new_tokens, token_budget);
}

void Scheduler::schedule_running(SchedulerOutput& out, std::int64_t& token_budget) {
  // Preemption only ever pops the back of `running`, behind the request being served, so the index stays valid.
  std::size_t req_index = 0;
  while (req_index < running_.size() && token_budget > 0) {
    Request& request = *running_[req_index];
    std::int64_t num_new_tokens = request.num_tokens() - request.num_computed_tokens;
    if (is_decoding(request)) num_new_tokens += num_drafts(request);
    num_new_tokens = cap_prefill(request, num_new_tokens, token_budget);
    SL_ASSERT(num_new_tokens > 0);  // a running request always lacks at least the token just sampled
    if (!allocate_or_preempt(request, num_new_tokens, out)) break;
    add_scheduled(out, request, num_new_tokens, token_budget);
    ++req_index;
  }
}

void Scheduler::add_scheduled(SchedulerOutput& out, Request& request, std::int64_t num_new_tokens,
                              std::int64_t& token_budget) {
  ScheduledRequest& s = out.scheduled.emplace_back();
  s.request = &request;
  s.num_new_tokens = num_new_tokens;
  token_budget -= num_new_tokens;
  add_work(out.work, request, num_new_tokens);
}

bool Scheduler::allocate_or_preempt(Request& request, std::int64_t num_new_tokens, SchedulerOutput& out) {
  return kv_.allocate_slots(request, num_new_tokens).has_value() || preempt_until_fits(request, num_new_tokens, out);
}

bool Scheduler::preempt_until_fits(Request& request, std::int64_t num_new_tokens, SchedulerOutput& out) {
  do {
    Request* victim = running_.back();  // the latest admitted
    running_.pop_back();
    preempt(*victim);
    out.preempted.push_back(victim);
    if (victim == &request) return false;
  } while (!kv_.allocate_slots(request, num_new_tokens));
  return true;
}

void Scheduler::preempt(Request& victim) {
  kv_.free(victim);
  victim.status = RequestStatus::Preempted;
  num_running_computed_tokens_ -= victim.num_computed_tokens;
  num_outstanding_tokens_ += victim.num_computed_tokens;
  victim.num_computed_tokens = 0;  // recompute: prompt and generated tokens are prefilled again on return
  ++victim.num_preemptions;
  ++num_preemptions_;
  enqueue(victim, true);
}

void Scheduler::schedule_waiting(SchedulerOutput& out, std::int64_t& token_budget) {
  while (!waiting_.empty() && token_budget > 0) {
    if (static_cast<std::int64_t>(running_.size()) >= config_.max_num_seqs) break;
    Request& request = *waiting_.front();
    // A request whose KV arrived from a prefill replica (fleet.h) is decoding already: nothing to look up.
    const bool transferred = request.num_computed_tokens > 0;
    SL_ASSERT(!transferred || is_decoding(request));
    const ComputedBlocks hit = transferred ? ComputedBlocks{} : kv_.get_computed_blocks(request);
    std::int64_t num_new_tokens = request.num_tokens() - request.num_computed_tokens - hit.num_computed_tokens;
    // Without chunked prefill a prompt is computed in one step or waits (FCFS: nobody overtakes it).
    if (!config_.enable_chunked_prefill && num_new_tokens > token_budget) break;
    num_new_tokens = cap_prefill(request, num_new_tokens, token_budget);
    if (!kv_.allocate_slots(request, num_new_tokens, hit)) break;

    waiting_.pop_front();
    running_.push_back(&request);
    request.status = RequestStatus::Running;
    num_running_computed_tokens_ += request.num_computed_tokens;  // a transferred request's KV
    add_computed(request, hit.num_computed_tokens);
    if (request.num_cached_tokens < 0) request.num_cached_tokens = hit.num_computed_tokens;
    if (!transferred) {
      prefix_stats_.num_requests += 1;
      prefix_stats_.num_query_tokens += request.num_tokens();
      prefix_stats_.num_hit_tokens += hit.num_computed_tokens;
    }
    add_scheduled(out, request, num_new_tokens, token_budget);
  }
}

void Scheduler::add_work(StepWork& work, const Request& request, std::int64_t num_new_tokens) {
  const std::int64_t start = request.num_computed_tokens;
  if (is_decoding(request)) {
    work.num_decode_seqs += 1;
    work.decode_context_tokens += start + 1;  // attends to every earlier token and itself
    const std::int64_t drafts = num_new_tokens - 1;
    if (drafts > 0) {  // draft j (1..drafts) attends to start + 1 + j tokens
      work.num_spec_tokens += drafts;
      work.spec_context_tokens += drafts * (start + 1) + drafts * (drafts + 1) / 2;
      work.num_draft_steps = std::max(work.num_draft_steps, drafts);
    }
    return;
  }
  work.num_prefill_tokens += num_new_tokens;
  work.num_prefill_chunks += 1;
  work.prefill_context_tokens += start;  // KV already there: a prefix hit or earlier chunks
  work.prefill_attention_pairs += prefill_attention_pairs(start, num_new_tokens);
}

std::int64_t Scheduler::num_drafts(const Request& request) const {
  return std::max<std::int64_t>(
      0, std::min(config_.speculative.num_speculative_tokens, request.max_tokens - request.num_output_tokens - 1));
}

std::int64_t Scheduler::verify(std::int64_t num_drafts) {
  std::int64_t accepted = 0;
  while (accepted < num_drafts && accept_rng_.uniform() < config_.speculative.accept_frac) ++accepted;
  const std::int64_t emitted = accepted + 1;
  spec_stats_.num_verify_steps += 1;
  spec_stats_.num_draft_tokens += num_drafts;
  spec_stats_.num_accepted_tokens += accepted;
  if (num_drafts == config_.speculative.num_speculative_tokens) {
    spec_stats_.num_full_steps += 1;
    spec_stats_.full_emitted_sum += static_cast<double>(emitted);
    spec_stats_.full_emitted_sq_sum += static_cast<double>(emitted * emitted);
  }
  return emitted;
}

std::vector<Request*> Scheduler::update_from_output(const SchedulerOutput& output, double now_s,
                                                    GapHistogram* token_gaps) {
  std::vector<Request*> finished;
  update_from_output(output, now_s, token_gaps, finished);
  return finished;
}

void Scheduler::update_from_output(const SchedulerOutput& output, double now_s, GapHistogram* token_gaps,
                                   std::vector<Request*>& finished) {
  finished.clear();
  for (const ScheduledRequest& s : output.scheduled) {
    Request& request = *s.request;
    if (s.num_new_tokens > 1 && is_decoding(request)) {
      const std::int64_t emitted = verify(s.num_new_tokens - 1);
      add_computed(request, emitted);  // the last token's KV and the accepted drafts'
      request.num_output_tokens += emitted;
    } else {
      add_computed(request, s.num_new_tokens);
      if (request.num_computed_tokens < request.num_tokens()) continue;  // a prefill chunk: nothing sampled yet
      request.num_output_tokens += 1;
    }
    if (request.first_token_at_s < 0) request.first_token_at_s = now_s;
    if (token_gaps != nullptr && request.last_token_at_s >= 0) token_gaps->add(now_s - request.last_token_at_s);
    request.last_token_at_s = now_s;
    if (!request.is_finished()) continue;
    request.status = RequestStatus::Finished;
    request.finished_at_s = now_s;
    kv_.free(request);
    num_running_computed_tokens_ -= request.num_computed_tokens;
    num_outstanding_tokens_ -= request.num_prompt_tokens + request.max_tokens - 1 - request.num_computed_tokens;
    finished.push_back(&request);
  }
  // Collect, then apply: finished requests leave `running`, the others keep their admission order.
  if (!finished.empty()) {
    running_.erase(std::remove_if(running_.begin(), running_.end(),
                                  [](const Request* r) { return r->status == RequestStatus::Finished; }),
                   running_.end());
  }
}

}  // namespace sl::llm
