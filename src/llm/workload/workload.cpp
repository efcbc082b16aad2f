#include "llm/workload/workload.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"

namespace sl::llm {
namespace {

// Content ids: 1 is the shared system prompt; request i's own prompt text is 2 + 2i and its answer 3 + 2i.
std::uint64_t user_content(std::int64_t i) { return 2 + 2 * static_cast<std::uint64_t>(i); }
std::uint64_t answer_content(std::int64_t i) { return 3 + 2 * static_cast<std::uint64_t>(i); }

std::int64_t sample_tokens(const Distribution& d, Rng& rng, std::int64_t lo = 1,
                           std::int64_t hi = OpenLoopParams::kNoClip) {
  return std::clamp<std::int64_t>(std::llround(d.sample(rng)), std::max<std::int64_t>(1, lo), hi);
}

/// Gaps between arrivals with mean 1/rate and the given CV (1: exponential).
double sample_gap_s(double rate_per_s, double cv, Rng& rng) {
  if (cv == 1.0) return Distribution::exponential(rate_per_s).sample(rng);
  return Distribution::lognormal_mean_cv(1.0 / rate_per_s, cv).sample(rng);
}

Request make_request(std::int32_t id, double arrival_at_s, std::vector<TokenSegment> prompt, std::int64_t max_tokens) {
  Request r;
  r.request_id = id;
  r.arrival_at_s = arrival_at_s;
  r.prompt = std::move(prompt);
  for (const TokenSegment& s : r.prompt) r.num_prompt_tokens += s.length;
  r.output_content_id = answer_content(id);
  r.max_tokens = max_tokens;
  return r;
}

void add_request(Workload& w, Request r, bool initial) {
  if (initial) w.initial.push_back(r.request_id);
  w.requests.push_back(std::move(r));
  w.next_turn.push_back(-1);
  w.think_s.push_back(0);
}

}  // namespace

RequestLengths sample_request_lengths(const OpenLoopParams& p, Rng& sizes) {
  RequestLengths l;
  const std::int64_t own =
      std::min(sample_tokens(p.prompt_tokens, sizes, p.prompt_min_tokens, p.prompt_max_tokens),
               p.max_model_len - 1 - p.shared_prefix_tokens);
  l.prompt_tokens = p.shared_prefix_tokens + own;
  l.output_tokens = std::min(sample_tokens(p.output_tokens, sizes, p.output_min_tokens, p.output_max_tokens),
                             p.max_model_len - l.prompt_tokens);
  return l;
}

Workload make_open_loop(const OpenLoopParams& p, std::uint64_t seed) {
  SL_ASSERT(p.shared_prefix_tokens + 1 < p.max_model_len);
  Rng arrivals = Rng::stream(seed, Stream::Arrivals);
  Rng sizes = Rng::stream(seed, Stream::Sizes);
  Rng classes = Rng::stream(seed, Stream::Misc);
  Rng prefixes = Rng::stream(seed, Stream::Routing);
  OpenLoopParams batch_law = p;
  batch_law.prompt_tokens = p.batch_prompt_tokens;
  batch_law.output_tokens = p.batch_output_tokens;
  Workload w;
  w.requests.reserve(static_cast<std::size_t>(p.num_requests));
  double t_s = 0;
  for (std::int64_t i = 0; i < p.num_requests; ++i) {
    t_s += sample_gap_s(p.rate_per_s, p.arrival_cv, arrivals);
    const std::int32_t request_class = p.batch_frac > 0 && classes.uniform() < p.batch_frac ? 1 : 0;
    const RequestLengths l =
        sample_request_lengths(request_class == 1 && p.has_batch_lengths ? batch_law : p, sizes);
    std::int64_t group = -1;
    if (p.shared_prefix_tokens > 0) {
      const std::int64_t j = p.num_prefixes > 1 ? static_cast<std::int64_t>(prefixes.uniform() * static_cast<double>(p.num_prefixes)) : 0;
      group = std::min(j, p.num_prefixes - 1);
    }
    add_first_turn(w, open_loop_request(static_cast<std::int32_t>(i), t_s, group, p.shared_prefix_tokens, l.prompt_tokens,
                                        l.output_tokens, request_class));
  }
  return w;
}

Request open_loop_request(std::int32_t id, double arrival_at_s, std::int64_t prefix_group, std::int64_t prefix_tokens,
                          std::int64_t prompt_tokens, std::int64_t output_tokens, std::int32_t request_class) {
  std::vector<TokenSegment> prompt;
  const bool has_prefix = prefix_group >= 0 && prefix_tokens > 0;
  if (has_prefix) prompt.push_back({prefix_content(prefix_group), prefix_tokens});
  prompt.push_back({user_content(id), prompt_tokens - (has_prefix ? prefix_tokens : 0)});
  Request r = make_request(id, arrival_at_s, std::move(prompt), output_tokens);
  r.request_class = request_class;
  return r;
}

void add_first_turn(Workload& workload, Request request) { add_request(workload, std::move(request), true); }

std::int64_t conversation_max_tokens(const ConversationParams& p) {
  return p.system_prompt_tokens + p.num_turns * (p.user_tokens + p.answer_tokens);
}

Workload make_conversations(const ConversationParams& p, std::uint64_t seed) {
  Rng arrivals = Rng::stream(seed, Stream::Arrivals);
  Workload w;
  double t_s = 0;
  for (std::int64_t c = 0; c < p.num_conversations; ++c) {
    t_s += Distribution::exponential(p.rate_per_s).sample(arrivals);
    std::vector<TokenSegment> history;
    if (p.system_prompt_tokens > 0) history.push_back({kSystemPromptContent, p.system_prompt_tokens});
    for (std::int64_t k = 0; k < p.num_turns; ++k) {
      const auto id = static_cast<std::int32_t>(w.requests.size());
      history.push_back({user_content(id), p.user_tokens});
      add_request(w, make_request(id, k == 0 ? t_s : -1.0, history, p.answer_tokens), k == 0);
      if (k > 0) {
        w.next_turn[static_cast<std::size_t>(id - 1)] = id;
        w.think_s[static_cast<std::size_t>(id - 1)] = p.think_s;
      }
      history.push_back({answer_content(id), p.answer_tokens});  // the answer becomes part of the next prompt
    }
  }
  return w;
}

}  // namespace sl::llm
