#include "llm/engine_budget.h"

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
  return *this;
}

EngineWork EngineWork::times(double runs) const {
  return {num_requests * runs, prompt_tokens * runs, output_tokens * runs, blocks * runs, block_segments * runs,
          segments * runs};
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

std::optional<Error> check_engine_budget(const EngineWork& total, const EngineWork& largest_run, const std::string& param,
                                         const std::string& what) {
  budget::Estimate time;
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
  return budget::describe("simulator work (output tokens + prompt tokens / 4 + 4.5 KV blocks + blocks x segments / 10 + 8 per request)", "units", kEngineUnitCost) +
         "; memory 16 B per KV block + 16 B per segment + 512 B per request, at most 1 GiB";
}

}  // namespace sl::llm
