#pragma once
// A request as vLLM's v1 scheduler sees it: tokens that exist (the prompt and the tokens generated so far) and
// tokens whose KV is computed. A step closes part of that gap; when num_computed_tokens catches up with
// num_tokens(), the model samples one more token. A preempted request loses its KV (num_computed_tokens = 0)
// but keeps its generated tokens, which it recomputes like a longer prompt.
//
// Token content is what prefix caching hashes. We do not carry token ids: a request's tokens are a list of
// segments, each a run of one "content" (a system prompt, a user message, one answer), so two requests share a
// prefix exactly when their segment lists start the same way.
#include <cstdint>
#include <vector>

namespace sl::llm {

/// vLLM's RequestStatus, reduced to the states this simulator visits.
enum class RequestStatus { Waiting, Running, Preempted, Finished };

/// `length` tokens of content `content_id`, positions 0..length-1 of that content.
struct TokenSegment {
  std::uint64_t content_id = 0;
  std::int64_t length = 0;
};

/// One request inside the engine (mutable; the engine owns it).
struct Request {
  std::int32_t request_id = 0;
  double arrival_at_s = 0;
  std::vector<TokenSegment> prompt;     ///< prompt content, in order
  std::uint64_t output_content_id = 0;  ///< content of the tokens this request generates
  std::int64_t num_prompt_tokens = 0;
  /// Output length. The request stops after exactly this many tokens (as benchmarks run with ignore_eos).
  std::int64_t max_tokens = 1;
  /// 0 interactive, 1 batch: the priority policy admits class 0 first; SLO results are kept per class.
  std::int32_t request_class = 0;

  RequestStatus status = RequestStatus::Waiting;
  std::int64_t num_output_tokens = 0;
  std::int64_t num_computed_tokens = 0;
  std::int64_t num_preemptions = 0;
  /// Prompt tokens found in the prefix cache when first scheduled (vLLM's num_cached_tokens); -1 before.
  std::int64_t num_cached_tokens = -1;
  double first_scheduled_at_s = -1;  ///< first admission to `running` (the end of its queueing)
  double first_token_at_s = -1;
  double last_token_at_s = -1;
  double finished_at_s = -1;
  /// Chained hashes of this request's full blocks, extended as they are needed (vLLM: request.block_hashes).
  std::vector<std::uint64_t> block_hashes;

  /// Prompt plus generated tokens (vLLM: request.num_tokens).
  std::int64_t num_tokens() const { return num_prompt_tokens + num_output_tokens; }
  bool is_finished() const { return num_output_tokens >= max_tokens; }
};

/// What one finished request leaves behind: immutable, and all statistics are computed from these.
struct RequestRecord {
  std::int32_t request_id = 0;
  std::int32_t request_class = 0;
  double arrival_at_s = 0;
  double first_scheduled_at_s = 0;
  double first_token_at_s = 0;
  double finished_at_s = 0;
  std::int64_t num_prompt_tokens = 0;
  std::int64_t num_output_tokens = 0;
  std::int64_t num_cached_tokens = 0;
  std::int64_t num_preemptions = 0;
  /// Time outside the engine's steps (GpuSpec::request_overhead_s: HTTP, tokenisation, the client), in the TTFT and
  /// E2E a client measures; 0: the engine's own timing.
  double outside_s = 0;

  double ttft_s() const { return first_token_at_s - arrival_at_s + outside_s; }
  /// Time in `waiting` before the first admission (vLLM's queued time).
  double queue_s() const { return first_scheduled_at_s - arrival_at_s; }
  double e2e_s() const { return finished_at_s - arrival_at_s + outside_s; }
  /// Mean time per output token after the first; defined for two or more output tokens.
  double tpot_s() const {
    return num_output_tokens > 1 ? (finished_at_s - first_token_at_s) / static_cast<double>(num_output_tokens - 1)
                                 : 0.0;
  }
};

/// Record of a finished request.
RequestRecord make_record(const Request& request);

/// Hash of the `block_size` tokens of `request` starting at `start` (a block boundary), chained to the hash of
/// the block before it (vLLM's hash_block_tokens(parent_block_hash, block_token_ids)). The tokens are the
/// prompt segments followed by the generated tokens; equal content at equal positions gives equal hashes.
std::uint64_t hash_block_tokens(std::uint64_t parent_hash, const Request& request, std::int64_t start,
                                std::int64_t block_size);

/// Hash of "no parent": the chain's root (vLLM's NONE_HASH).
constexpr std::uint64_t kNoneHash = 0x6a09e667f3bcc908ULL;

/// Extends request.block_hashes to cover its first `num_full_blocks` full blocks.
void ensure_block_hashes(Request& request, std::int64_t num_full_blocks, std::int64_t block_size);

}  // namespace sl::llm
