#include "llm/engine/engine_budget.h"

#include <algorithm>
#include <cmath>

namespace sl::llm {
namespace {

double blocks_of(double tokens, std::int64_t block_size) {
  return std::ceil(tokens / static_cast<double>(block_size));
}

}  // namespace

EngineWork& EngineWork::operator+=(const EngineWork& o) {
  num_requests += o.num_requests;
  prompt_tokens += o.prompt_tokens;
  output_tokens += o.output_tokens;
  blocks += o.blocks;
  block_segments += o.block_segments;
  segments += o.segments;
  steps += o.steps;
  lookups += o.lookups;
  return *this;
}

EngineWork EngineWork::times(double runs) const {
  return {num_requests * runs, prompt_tokens * runs, output_tokens * runs, blocks * runs, block_segments * runs,
          segments * runs, steps * runs, lookups * runs};
}

EngineWork open_loop_work(const OpenLoopParams& p, std::int64_t block_size) {
  const auto max_len = static_cast<double>(p.max_model_len);
  const auto shared = static_cast<double>(p.shared_prefix_tokens);
  // A sample is at least 1 and rounded: its mean is below mean + 1; the clamp only lowers it. Clipping to
  // [lo, hi] raises the mean by at most lo - 1 more and caps it at hi.
  const double own = std::min({p.prompt_tokens.mean() + static_cast<double>(p.prompt_min_tokens),
                               static_cast<double>(p.prompt_max_tokens), max_len - 1 - shared});
  const double output = std::min({p.output_tokens.mean() + static_cast<double>(p.output_min_tokens),
                                  static_cast<double>(p.output_max_tokens), max_len - shared - 1});
  const double segments = p.shared_prefix_tokens > 0 ? 2 : 1;
  const double blocks = blocks_of(shared + own + output, block_size);
  const auto n = static_cast<double>(p.num_requests);
  return {n, n * (shared + own), n * output, n * blocks, n * blocks * segments, n * segments};
}

EngineWork conversation_work(const ConversationParams& p, std::int64_t block_size) {
  EngineWork one;  // one conversation
  const auto s = static_cast<double>(p.system_prompt_tokens), u = static_cast<double>(p.user_tokens),
             a = static_cast<double>(p.answer_tokens);
  for (std::int64_t k = 0; k < p.num_turns; ++k) {
    const double kk = static_cast<double>(k);
    const double blocks = blocks_of(s + kk * (u + a) + u + a, block_size);
    const double segments = (p.system_prompt_tokens > 0 ? 1 : 0) + 2 * kk + 1;
    one += EngineWork{1, s + kk * (u + a) + u, a, blocks, blocks * segments, segments};
  }
  return one.times(static_cast<double>(p.num_conversations));
}

namespace {

/// One request's shape, for the step estimate: its mean and longest tokens, its mean prompt.
struct RequestShape {
  double prompt_tokens = 0;
  double output_tokens = 0;
  double longest_tokens = 0;
};

/// Seconds one request takes alone: its prefill in chunks of the token budget, then its decode steps.
double time_alone_s(const EnginePool& pool, const RequestShape& r) {
  const auto budget = static_cast<double>(pool.scheduler.max_num_batched_tokens);
  const double chunks = std::max(1.0, std::ceil(r.prompt_tokens / budget));
  const double prefill = prefill_s(pool.model, pool.gpu, static_cast<std::int64_t>(std::min(r.prompt_tokens, budget)));
  const auto context = static_cast<std::int64_t>(r.prompt_tokens + r.output_tokens / 2);
  return chunks * prefill + r.output_tokens * decode_step_s(pool.model, pool.gpu, 1, context);
}

/// Adds the steps and the retried lookups of `work` on `pool`, `in_flight` requests at a time by Little's law and
/// at most `max_concurrent` (every request, or every conversation).
EngineWork on_pool(EngineWork work, const EnginePool& pool, const RequestShape& r, double in_flight,
                   double max_concurrent) {
  const auto bs = static_cast<double>(pool.block_size);
  const auto num_blocks = static_cast<double>(pool.num_blocks);
  const double held_tokens = pool.reserve_tokens > 0 ? static_cast<double>(pool.reserve_tokens)
                                                      : r.prompt_tokens + r.output_tokens;
  const double fit = std::floor(num_blocks / std::ceil(held_tokens / bs));
  const auto max_num_seqs = static_cast<double>(pool.scheduler.max_num_seqs);
  const double batch = std::max(1.0, std::min({max_num_seqs, fit, 2 * in_flight}));
  const double chunks = work.num_requests *
                        std::max(1.0, std::ceil(r.prompt_tokens / static_cast<double>(pool.scheduler.max_num_batched_tokens)));
  const double entries = work.output_tokens + chunks;
  work.steps = entries / batch;
  // Blocks can run short only if the requests that may run at once, at their longest, overfill the pool: at
  // most max_num_seqs and every request (or conversation), and with a margin of 4 for bursts, those in flight.
  const double longest_blocks = std::ceil(r.longest_tokens / bs);
  const double at_once = std::min({max_num_seqs, max_concurrent, std::max(1.0, 4 * in_flight)});
  const bool can_run_short = at_once * longest_blocks > num_blocks;
  // Each step at most one failed admission (the head; FCFS stops there), walking at most its longest blocks.
  if (pool.caching && can_run_short) work.lookups = entries * longest_blocks;
  return work;
}

}  // namespace

EngineWork open_loop_work(const OpenLoopParams& p, const EnginePool& pool) {
  const EngineWork work = open_loop_work(p, pool.block_size);
  const auto n = static_cast<double>(p.num_requests);
  RequestShape r{work.prompt_tokens / n, work.output_tokens / n, static_cast<double>(p.max_model_len)};
  const double in_flight = p.rate_per_s * time_alone_s(pool, r);
  return on_pool(work, pool, r, in_flight, n);
}

EngineWork conversation_work(const ConversationParams& p, const EnginePool& pool) {
  const EngineWork work = conversation_work(p, pool.block_size);
  const double turns = work.num_requests;
  RequestShape r{work.prompt_tokens / turns, work.output_tokens / turns,
                 static_cast<double>(conversation_max_tokens(p))};
  // Chats in progress (Little: rate x a chat's length), each busy with a turn a share turn / (turn + think).
  const double turn_s = time_alone_s(pool, r);
  const auto chats = static_cast<double>(p.num_conversations);
  const double chat_s = static_cast<double>(p.num_turns) * (turn_s + p.think_s);
  const double open_chats = std::min(chats, std::max(1.0, p.rate_per_s * chat_s));
  const double in_flight = open_chats * turn_s / (turn_s + p.think_s);
  return on_pool(work, pool, r, in_flight, chats);
}

EngineWork workload_work(const Workload& workload, const EnginePool& pool, double replicas) {
  EngineWork work;
  double longest = 0, first_s = 0, last_s = 0;
  for (std::size_t k = 0; k < workload.initial.size(); ++k) {
    const Request& r = workload.requests[static_cast<std::size_t>(workload.initial[k])];
    const auto prompt = static_cast<double>(r.num_prompt_tokens), output = static_cast<double>(r.max_tokens);
    const double blocks = blocks_of(prompt + output, pool.block_size);
    const auto segments = static_cast<double>(r.prompt.size());
    work += EngineWork{1, prompt, output, blocks, blocks * segments, segments};
    longest = std::max(longest, prompt + output);
    if (k == 0) first_s = r.arrival_at_s;
    last_s = r.arrival_at_s;
  }
  if (work.num_requests == 0) return work;
  const EngineWork share = work.times(1 / replicas);
  const double n = share.num_requests;
  RequestShape r{share.prompt_tokens / n, share.output_tokens / n, longest};
  const double span_s = last_s - first_s;
  const double in_flight = span_s > 0 ? n / span_s * time_alone_s(pool, r) : n;
  return on_pool(share, pool, r, in_flight, n).times(replicas);
}

std::optional<Error> check_engine_budget(const EngineWork& total, const EngineWork& largest_run, const std::string& param,
                                         const std::string& what, double max_seconds) {
  budget::Estimate time;
  time.max_seconds = max_seconds;
  time.param_to_lower = param;
  time.what = "the simulator's work for " + what;
  time.unit = "units";
  time.amount = total.work_units();
  time.per_unit = kEngineUnitCost;
  if (auto e = budget::check(time)) return e;
  budget::Estimate memory = time;
  memory.what = "the simulator's memory for " + what + " (block hashes and requests)";
  memory.unit = "MiB";
  memory.amount = largest_run.bytes() / units::kMiB;
  memory.per_unit = {0, units::kMiB};
  return budget::check(memory);
}

std::string describe_engine_budget() {
  return budget::describe("simulator work (output tokens + prompt tokens / 4 + 4.5 KV blocks + blocks x segments / 10 + "
                          "8 per request + 6 per step + 0.6 per block of a prefix lookup retried while the pool is "
                          "short)", "units", kEngineUnitCost) +
         "; memory 16 B per KV block + 16 B per segment + 512 B per request, at most 1 GiB";
}

}  // namespace sl::llm
