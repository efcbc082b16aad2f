#pragma once
// vLLM v1's scheduler, one step at a time. A step closes the gap between each request's tokens and its computed
// tokens under a token budget (max_num_batched_tokens):
//   1. serve `running` first, in admission order, each as many tokens as it lacks (a chunk if chunked prefill
//      is on); when allocate_slots finds no blocks, preempt by recompute: the victim is the LAST request in
//      `running` (the latest admitted), its blocks are freed, its num_computed_tokens reset, and it goes back to
//      the HEAD of `waiting`; if the victim is the request being served, the running pass stops;
//   2. admit from `waiting` (FCFS) only if nothing was preempted this step, while max_num_seqs allows, the
//      budget lasts and blocks can be allocated; a prefix-cache hit skips the cached tokens.
// update_from_output then applies the step: computed tokens advance, a request whose computed tokens reach its
// tokens samples one more, and finished requests free their blocks and leave `running`.
//
// Policies (SchedulerConfig::policy) order `waiting`: FCFS as above; Priority by (request class, arrival), as
// vLLM's priority policy, a preempted request re-entering at its place in that order; ShortestPromptFirst by
// (prompt tokens, arrival), which vLLM does not have. Under every policy the preemption victim is the latest
// admitted (vLLM's priority policy preempts the lowest-priority running request instead).
//
// Where we differ from vLLM: no speculative decoding, LoRA or encoder budget; a request stops only at
// its max_tokens (no EOS); prefix-cache statistics count a request at each admission (vLLM counts every lookup,
// including retries of a request that could not be admitted).
#include <cstdint>
#include <deque>
#include <vector>

#include "llm/gap_histogram.h"
#include "llm/kv_cache_manager.h"
#include "llm/request.h"
#include "llm/step_time.h"

namespace sl::llm {

enum class SchedulingPolicy { Fcfs, Priority, ShortestPromptFirst };

struct SchedulerConfig {
  std::int64_t max_num_seqs = 256;             ///< most requests in `running`
  std::int64_t max_num_batched_tokens = 8192;  ///< token budget of one step
  bool enable_chunked_prefill = true;          ///< split a prompt over steps when the budget is short
  /// With chunked prefill, most tokens a prefill may take in one step (vLLM's long_prefill_token_threshold);
  /// 0 = no limit beyond the budget.
  std::int64_t long_prefill_token_threshold = 0;
  SchedulingPolicy policy = SchedulingPolicy::Fcfs;  ///< the order of `waiting` (above)
};

/// One request's share of a step.
struct ScheduledRequest {
  Request* request = nullptr;
  std::int64_t num_new_tokens = 0;
};

/// What one step does: who computes how many tokens, who was preempted, and the work for the step-time model.
struct SchedulerOutput {
  std::vector<ScheduledRequest> scheduled;
  std::vector<Request*> preempted;
  StepWork work;
  std::int64_t total_num_scheduled_tokens = 0;
  bool empty() const { return scheduled.empty(); }
};

/// True when a step's `num_new_tokens` for `request` is one decode token: the token sampled last, with every
/// earlier token's KV computed (anything else is a prefill chunk, a recompute after preemption included).
inline bool is_decode_step(const Request& request, std::int64_t num_new_tokens) {
  return num_new_tokens == 1 && request.num_output_tokens > 0 && request.num_computed_tokens + 1 == request.num_tokens();
}

/// Prefix-cache lookups, counted in tokens, at each admission (a preempted request counts again).
struct PrefixCacheStats {
  std::int64_t num_requests = 0;
  std::int64_t num_query_tokens = 0;
  std::int64_t num_hit_tokens = 0;
};

class Scheduler {
 public:
  Scheduler(const SchedulerConfig& config, KvCacheManager& kv_cache_manager);

  /// A new request joins the tail of `waiting`.
  void add_request(Request& request);
  /// Decides one step (and preempts when blocks run out). Computed tokens advance in update_from_output.
  SchedulerOutput schedule();
  /// Applies a step that ended at `now_s`: advances computed tokens, samples tokens, frees finished requests.
  /// Returns the requests that finished, in `running` order. Each sampled token's gap since the request's
  /// previous token goes into `token_gaps`, if given.
  std::vector<Request*> update_from_output(const SchedulerOutput& output, double now_s,
                                           GapHistogram* token_gaps = nullptr);

  bool has_unfinished_requests() const { return !waiting_.empty() || !running_.empty(); }
  const std::deque<Request*>& waiting() const { return waiting_; }
  const std::vector<Request*>& running() const { return running_; }
  const PrefixCacheStats& prefix_cache_stats() const { return prefix_stats_; }
  std::int64_t num_preemptions() const { return num_preemptions_; }

 private:
  void schedule_running(SchedulerOutput& out, std::int64_t& token_budget);
  void schedule_waiting(SchedulerOutput& out, std::int64_t& token_budget);
  /// Allocates for `request`, preempting from the tail of `running` until it fits; false if `request` itself
  /// was preempted.
  bool allocate_or_preempt(Request& request, std::int64_t num_new_tokens, SchedulerOutput& out);
  void preempt(Request& victim);
  /// Puts a request into `waiting` at its place in the policy's order (FCFS: the tail, or the head if preempted).
  void enqueue(Request& request, bool preempted);
  std::int64_t cap_prefill(const Request& request, std::int64_t num_new_tokens, std::int64_t token_budget) const;
  static void add_work(StepWork& work, const Request& request, std::int64_t num_new_tokens);

  SchedulerConfig config_;
  KvCacheManager& kv_;
  std::deque<Request*> waiting_;
  std::vector<Request*> running_;  // admission order: the back is the latest admitted
  PrefixCacheStats prefix_stats_;
  std::int64_t num_preemptions_ = 0;
};

}  // namespace sl::llm
