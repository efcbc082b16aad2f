#pragma once
// vLLM v1's scheduler, one step at a time. A step closes the gap between each request's tokens and its computed
// tokens under a token budget (max_num_batched_tokens):
//   1. serve `running` first, in admission order, each as many tokens as it lacks (a chunk if chunked prefill
//      is on); when allocate_slots finds no blocks, preempt by recompute: the victim is the LAST request in
//      `running` (the latest admitted), its blocks are freed, its num_computed_tokens reset, and it goes back to
//      the HEAD of `waiting`; if the victim is the request being served, the running pass stops;
//   2. admit from `waiting` (FCFS) only if nothing was preempted this step, while max_num_seqs allows, the
//      budget lasts and blocks can be allocated; a prefix-cache hit skips the cached tokens, and a request
//      whose KV a prefill replica computed (fleet.h) arrives decoding: it needs blocks for that KV and a token.
// update_from_output then applies the step: computed tokens advance, a request whose computed tokens reach its
// tokens samples one more, and finished requests free their blocks and leave `running`.
//
// Policies (SchedulerConfig::policy) order `waiting`: FCFS as above; Priority by (request class, arrival), as
// vLLM's priority policy, a preempted request re-entering at its place in that order; ShortestPromptFirst by
// (prompt tokens, arrival), which vLLM does not have. Under every policy the preemption victim is the latest
// admitted (vLLM's priority policy preempts the lowest-priority running request instead).
//
// Speculative decoding (SpeculativeConfig) schedules a decoding request 1 + k tokens, as vLLM does.
//
// Where we differ from vLLM: no LoRA or encoder budget; a draft is accepted by a coin of probability
// accept_frac, not by comparing two models; a request stops only at its max_tokens (no EOS); prefix-cache
// statistics count a request at each admission (vLLM counts every lookup, including retries of a request that
// could not be admitted).
#include <cstdint>
#include <deque>
#include <vector>

#include "core/rng.h"
#include "llm/engine/gap_histogram.h"
#include "llm/engine/kv_cache_manager.h"
#include "llm/workload/request.h"
#include "llm/model/step_time.h"

namespace sl::llm {

enum class SchedulingPolicy { Fcfs, Priority, ShortestPromptFirst };

/// Speculative decoding (Leviathan et al. 2023; vLLM's num_speculative_tokens): before a step, a draft model
/// proposes up to num_speculative_tokens tokens for each decoding request (never past its max_tokens), and the
/// step verifies them beside the request's own token. Draft tokens are accepted in order, each with probability
/// accept_frac, until the first rejection; the step emits the accepted ones and one token of the target's
/// own, so k drafts give (1 - a^(k+1)) / (1 - a) tokens a step on average. Off when num_speculative_tokens = 0.
struct SpeculativeConfig {
  std::int64_t num_speculative_tokens = 0;
  double accept_frac = 0;
  std::uint64_t seed = 0;  ///< of the acceptance draws
};

/// What speculative decoding did: verify steps of one request, draft tokens proposed and accepted, and the
/// tokens emitted by the steps that verified all k drafts (their mean is the formula's; sum of squares for its
/// standard error).
struct SpeculativeStats {
  std::int64_t num_verify_steps = 0;
  std::int64_t num_draft_tokens = 0;
  std::int64_t num_accepted_tokens = 0;
  std::int64_t num_full_steps = 0;
  double full_emitted_sum = 0, full_emitted_sq_sum = 0;
};

struct SchedulerConfig {
  std::int64_t max_num_seqs = 256;             ///< most requests in `running`
  std::int64_t max_num_batched_tokens = 8192;  ///< token budget of one step
  bool enable_chunked_prefill = true;          ///< split a prompt over steps when the budget is short
  /// With chunked prefill, most tokens a prefill may take in one step (vLLM's long_prefill_token_threshold);
  /// 0 = no limit beyond the budget.
  std::int64_t long_prefill_token_threshold = 0;
  SchedulingPolicy policy = SchedulingPolicy::Fcfs;  ///< the order of `waiting` (above)
  SpeculativeConfig speculative;
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

/// True when `request` is decoding: it has sampled a token and every earlier token's KV is computed (a step
/// gives it that token, and its drafts under speculative decoding).
inline bool is_decoding(const Request& request) {
  return request.num_output_tokens > 0 && request.num_computed_tokens + 1 == request.num_tokens();
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
  /// The same into `out`, whose vectors keep their capacity from step to step (the engine's loop).
  void schedule(SchedulerOutput& out);
  /// Applies a step that ended at `now_s`: advances computed tokens, samples tokens, frees finished requests.
  /// Returns the requests that finished, in `running` order. Each step's gap since the request's previous
  /// tokens goes into `token_gaps`, if given: one gap per token, or per verify step under speculative decoding,
  /// whose tokens arrive together (vLLM counts its inter-token latency so).
  std::vector<Request*> update_from_output(const SchedulerOutput& output, double now_s,
                                           GapHistogram* token_gaps = nullptr);
  /// The same, the finished requests written into `finished` (cleared first).
  void update_from_output(const SchedulerOutput& output, double now_s, GapHistogram* token_gaps,
                          std::vector<Request*>& finished);

  bool has_unfinished_requests() const { return !waiting_.empty() || !running_.empty(); }
  const std::deque<Request*>& waiting() const { return waiting_; }
  const std::vector<Request*>& running() const { return running_; }
  const PrefixCacheStats& prefix_cache_stats() const { return prefix_stats_; }
  std::int64_t num_preemptions() const { return num_preemptions_; }
  /// Sum of num_computed_tokens over `running`, kept as they change (the engine's KV occupancy each step).
  std::int64_t num_running_computed_tokens() const { return num_running_computed_tokens_; }
  /// Tokens still to compute for `waiting` and `running`: each request's prompt + max_tokens - 1 minus its
  /// computed tokens, kept as they change (a least-tokens router reads it at every arrival).
  std::int64_t num_outstanding_tokens() const { return num_outstanding_tokens_; }
  const SpeculativeStats& speculative_stats() const { return spec_stats_; }

 private:
  void schedule_running(SchedulerOutput& out, std::int64_t& token_budget);
  void schedule_waiting(SchedulerOutput& out, std::int64_t& token_budget);
  /// Allocates for `request`, preempting from the tail of `running` until it fits; false if `request` itself
  /// was preempted.
  bool allocate_or_preempt(Request& request, std::int64_t num_new_tokens, SchedulerOutput& out);
  /// Preempts from the tail of `running` until the allocation succeeds (it just failed); as above.
  bool preempt_until_fits(Request& request, std::int64_t num_new_tokens, SchedulerOutput& out);
  /// `request` computes `num_new_tokens` this step: into the output, its budget and the step's work.
  void add_scheduled(SchedulerOutput& out, Request& request, std::int64_t num_new_tokens, std::int64_t& token_budget);
  void preempt(Request& victim);
  /// A request's computed tokens advance by `n` (it is running).
  void add_computed(Request& request, std::int64_t n);
  /// Puts a request into `waiting` at its place in the policy's order (FCFS: the tail, or the head if preempted).
  void enqueue(Request& request, bool preempted);
  std::int64_t cap_prefill(const Request& request, std::int64_t num_new_tokens, std::int64_t token_budget) const;
  static void add_work(StepWork& work, const Request& request, std::int64_t num_new_tokens);
  /// Drafts a decoding request gets this step: k, but none past its max_tokens.
  std::int64_t num_drafts(const Request& request) const;
  /// Draws the acceptance of a verify step of `num_drafts` drafts: returns the tokens it emits (the accepted
  /// drafts and one more).
  std::int64_t verify(std::int64_t num_drafts);

  SchedulerConfig config_;
  KvCacheManager& kv_;
  std::deque<Request*> waiting_;
  std::vector<Request*> running_;  // admission order: the back is the latest admitted
  PrefixCacheStats prefix_stats_;
  std::int64_t num_preemptions_ = 0;
  std::int64_t num_running_computed_tokens_ = 0;
  std::int64_t num_outstanding_tokens_ = 0;
  Rng accept_rng_;
  SpeculativeStats spec_stats_;
};

}  // namespace sl::llm
