#pragma once
// What a run of the serving simulator (engine.h) costs, estimated from the workload's parameters before it is
// generated, so a cell refuses a run over the budget (core/budget.h) before the first step.
//   time:   each step visits its running requests (one entry per decoded token and per prefill chunk), prompts are
//           prefilled in chunks, each block is allocated, hashed, looked up and freed, each hash walking the prompt's
//           segments; fitted natively (CPU time, 5 runs, below) at 19 ns an output token, 5.2 ns a prompt token,
//           88 ns a block and 1.9 ns a block x segment, so in units of 20 ns:
//           work units = output tokens + prompt tokens / 4 + 4.5 blocks + blocks x segments / 10 + 8 per request;
//   memory: every request keeps its chained block hashes (8 B a block, up to 16 B with a vector's spare capacity)
//           and its segments (16 B each) until the run ends, plus ~512 B of request, records and queue entries.
#include <cstdint>
#include <optional>
#include <string>

#include "core/budget.h"
#include "llm/workload.h"

namespace sl::llm {

/// Sums over all requests of one or more engine runs.
struct EngineWork {
  double num_requests = 0;
  double prompt_tokens = 0;
  double output_tokens = 0;
  double blocks = 0;          ///< full or partial KV blocks of prompt + output
  double block_segments = 0;  ///< blocks x prompt segments: the hashing work
  double segments = 0;
  EngineWork& operator+=(const EngineWork& other);
  /// The same work, `runs` times (a cell that runs one workload under several policies).
  EngineWork times(double runs) const;
  double work_units() const {
    return output_tokens + 0.25 * prompt_tokens + 4.5 * blocks + 0.1 * block_segments + 8 * num_requests;
  }
  double bytes() const { return 16 * blocks + 16 * segments + 512 * num_requests; }
};

/// Independent requests: mean lengths (clamped to max_model_len as the workload clamps them) rounded up.
EngineWork open_loop_work(const OpenLoopParams& params, std::int64_t block_size);
/// Multi-turn conversations: turn k resends the whole history (k + 1 user messages, k answers).
EngineWork conversation_work(const ConversationParams& params, std::int64_t block_size);

/// Cost of one work unit natively (Release, CPU time on this 2-core machine). The fit's runs, units -> measured
/// (predicted): continuous-batching defaults 9.0e6 -> 0.17 s (0.18); n = 20000 9.0e7 -> 1.72 s (1.80); n = 5000,
/// prompt_mean = 10000 9.6e7 -> 1.90 s (1.91); prefix-caching users = 2000, block_size = 1 8.3e7 -> 1.63 s (1.66);
/// energy chats = 300, turns = 20 4.5e7 -> 0.88 s (0.89). The limit, 10 s in the browser at 2.5x native, is
/// 2e8 units (4 s natively).
inline constexpr budget::UnitCost kEngineUnitCost{20e-9, 0};

/// A too_large error naming `param` when the runs' time (all of `total`) or memory (the largest single run: runs
/// are sequential, each with its own workload) exceed the budget.
std::optional<Error> check_engine_budget(const EngineWork& total, const EngineWork& largest_run, const std::string& param,
                                         const std::string& what);

/// The cost model in one line, for `serving-lab list`.
std::string describe_engine_budget();

}  // namespace sl::llm
