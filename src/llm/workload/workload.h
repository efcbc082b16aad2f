#pragma once
// Workloads for the serving simulator: requests with a prompt and an output length, arriving as a Poisson stream
// (or a burstier renewal stream), optionally sharing a system prompt, optionally as multi-turn conversations
// where turn k+1 arrives a think time after turn k finishes and its prompt is the whole conversation so far.
#include <cstdint>
#include <vector>

#include "core/distributions.h"
#include "llm/workload/request.h"

namespace sl::llm {

/// All requests of a run, generated up front (only follow-up turns get their arrival time during the run).
struct Workload {
  std::vector<Request> requests;       ///< request_id == index
  std::vector<std::int32_t> next_turn;  ///< the conversation's next request, or -1
  std::vector<double> think_s;          ///< pause between this request finishing and its next turn arriving
  std::vector<std::int32_t> initial;    ///< requests whose arrival time is known up front, in arrival order
};

struct OpenLoopParams {
  std::int64_t num_requests = 1000;
  double rate_per_s = 10;
  /// Inter-arrival coefficient of variation: 1 = Poisson (exponential gaps); otherwise lognormal gaps with this
  /// CV (> 1 is burstier than Poisson, 0 = evenly spaced).
  double arrival_cv = 1.0;
  Distribution prompt_tokens = Distribution::deterministic(1000);
  Distribution output_tokens = Distribution::deterministic(256);
  std::int64_t max_model_len = 2048;  ///< prompt + output never exceed this (lengths are clamped)
  std::int64_t shared_prefix_tokens = 0;  ///< a system prompt every request starts with (counted in the prompt)
  /// Clip bounds of the drawn lengths (the companion notebook clips prompts to 16..1,500 and answers to
  /// 1..1,000 tokens); the max_model_len clamp applies after them. The defaults clip nothing.
  std::int64_t prompt_min_tokens = 1, prompt_max_tokens = kNoClip;
  std::int64_t output_min_tokens = 1, output_max_tokens = kNoClip;
  /// Share of requests in the batch class (request_class 1); the others are interactive (class 0). Drawn from
  /// Stream::Misc, so it changes neither the arrivals nor the lengths.
  double batch_frac = 0;
  /// The batch class's own length laws (a long-document class beside chat, say); off: both classes draw from
  /// prompt_tokens and output_tokens. The clip bounds and max_model_len apply to both.
  bool has_batch_lengths = false;
  Distribution batch_prompt_tokens = Distribution::deterministic(1000);
  Distribution batch_output_tokens = Distribution::deterministic(256);
  /// Distinct shared prefixes (tenants' system prompts, shared_prefix_tokens long): each request starts with
  /// one, drawn uniformly from Stream::Routing; 1 = every request the same (kSystemPromptContent).
  std::int64_t num_prefixes = 1;
  static constexpr std::int64_t kNoClip = std::int64_t{1} << 40;
};

/// Prompt and output length of one request, clamped so that they fit max_model_len (as vLLM caps max_tokens).
struct RequestLengths {
  std::int64_t prompt_tokens = 0;  ///< including the shared prefix
  std::int64_t output_tokens = 0;
};
RequestLengths sample_request_lengths(const OpenLoopParams& params, Rng& sizes);

/// Request `id` of an open-loop workload: its prompt is [shared prefix `prefix_group`, prefix_tokens long] (none
/// when prefix_group < 0 or prefix_tokens = 0) followed by its own text, prompt_tokens in all; it stops after
/// output_tokens. Content ids as everywhere here (prefix_content, and 2 + 2 id, 3 + 2 id for its text and answer),
/// so the generator and a trace replay build the same request from the same numbers.
Request open_loop_request(std::int32_t id, double arrival_at_s, std::int64_t prefix_group, std::int64_t prefix_tokens,
                          std::int64_t prompt_tokens, std::int64_t output_tokens, std::int32_t request_class);

/// Appends a first turn (arrival known up front) to the workload; requests must be added in arrival order.
void add_first_turn(Workload& workload, Request request);

/// Independent requests (first turns only). Arrivals use Stream::Arrivals, lengths Stream::Sizes, so changing
/// a length law keeps the arrival times.
Workload make_open_loop(const OpenLoopParams& params, std::uint64_t seed);

struct ConversationParams {
  std::int64_t num_conversations = 25;
  std::int64_t num_turns = 4;
  double rate_per_s = 2;  ///< Poisson arrivals of first turns
  std::int64_t system_prompt_tokens = 2000;
  std::int64_t user_tokens = 100;    ///< new user message per turn
  std::int64_t answer_tokens = 200;  ///< generated per turn
  double think_s = 5;                ///< user pause between an answer and the next question
};

/// Multi-turn conversations: turn k's prompt = system prompt + (user_i, answer_i) for i < k + user_k.
Workload make_conversations(const ConversationParams& params, std::uint64_t seed);

/// Length of the longest request of a conversation workload (its last turn): must fit max_model_len.
std::int64_t conversation_max_tokens(const ConversationParams& params);

/// Content id of the shared system prompt (every workload uses the same one).
constexpr std::uint64_t kSystemPromptContent = 1;
/// Content id of shared prefix j of an open-loop workload with several (j = 0 is kSystemPromptContent); far
/// above the ids of the requests' own text (2 + 2i, 3 + 2i).
inline std::uint64_t prefix_content(std::int64_t j) {
  return j == 0 ? kSystemPromptContent : (std::uint64_t{1} << 62) + static_cast<std::uint64_t>(j);
}
/// The j of a prefix_content(j).
inline std::int64_t prefix_of(std::uint64_t content_id) {
  return content_id == kSystemPromptContent ? 0 : static_cast<std::int64_t>(content_id - (std::uint64_t{1} << 62));
}

}  // namespace sl::llm
