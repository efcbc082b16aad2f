#pragma once
// What a run of the serving simulator (engine.h) costs, estimated from the workload's parameters before it is
// generated, so a cell refuses a run over the budget (core/budget.h) before the first step.
//   time:   each step visits its running requests (one entry per decoded token and per prefill chunk), prompts are
//           prefilled in chunks, each block is allocated, hashed, looked up and freed, each hash walking the prompt's
//           segments; fitted natively (CPU time, 5 runs, below) at 19 ns an output token, 5.2 ns a prompt token,
//           88 ns a block and 1.9 ns a block x segment, so in units of 20 ns:
//           work units = output tokens + prompt tokens / 4 + 4.5 blocks + blocks x segments / 10 + 8 per request;
//   steps:  a step costs 117 ns of its own (scheduling, the step-time model, the series; measured with batches of
//           one: 137 ns a step of one decoded token, 20 of them the token's), 6 units; the steps are the
//           decoded tokens and prefill chunks over the mean batch, estimated as the fewest of max_num_seqs, the
//           requests the pool holds at their mean length and the requests in flight by Little's law at twice
//           their service time alone (2 lambda x time alone: queueing at least doubles it under load); a light load or a small max_num_seqs runs batches of one;
//   lookups: when the pool cannot hold every request that may run at once at its longest, blocks can run short:
//           then the request at the head of `waiting` looks its prefix up again every step until it fits (each
//           lookup walks its cached blocks, 12 ns a block: 0.6 units), up to its longest blocks a step (measured:
//           llm/energy --user_tokens 100000, 14,167 steps x ~25,000 blocks, 4.3 s with the cache, 0.09 s without);
//           preemptions recompute prompts too, but cheaply (482 preemptions, < 0.1 s, in the same run);
//   memory: every request keeps its chained block hashes (8 B a block, up to 16 B with a vector's spare capacity)
//           and its segments (16 B each) until the run ends, plus ~512 B of request, records and queue entries.
#include <cstdint>
#include <optional>
#include <string>

#include "core/budget.h"
#include "llm/engine/scheduler.h"
#include "llm/model/step_time.h"
#include "llm/workload/workload.h"

namespace sl::llm {

/// Sums over all requests of one or more engine runs.
struct EngineWork {
  double num_requests = 0;
  double prompt_tokens = 0;
  double output_tokens = 0;
  double blocks = 0;          ///< full or partial KV blocks of prompt + output
  double block_segments = 0;  ///< blocks x prompt segments: the hashing work
  double segments = 0;
  double steps = 0;    ///< engine steps (the pool's overload only; 0 otherwise)
  double lookups = 0;  ///< blocks walked by prefix lookups retried while the pool is short (the pool's overload)
  EngineWork& operator+=(const EngineWork& other);
  /// The same work, `runs` times (a cell that runs one workload under several policies).
  EngineWork times(double runs) const;
  double work_units() const {
    return output_tokens + 0.25 * prompt_tokens + 4.5 * blocks + 0.1 * block_segments + 8 * num_requests +
           kStepUnits * steps + kLookupUnits * lookups;
  }
  static constexpr double kStepUnits = 6;      ///< a step's own cost, in units of 20 ns
  static constexpr double kLookupUnits = 0.6;  ///< a cached block walked by a prefix lookup
  double bytes() const { return 16 * blocks + 16 * segments + 512 * num_requests; }
};

/// What a run's steps depend on: the model and GPU (a request's time alone), the pool and the scheduler.
struct EnginePool {
  ModelSpec model;
  GpuSpec gpu;
  std::int64_t num_blocks = 0;
  std::int64_t block_size = 16;
  SchedulerConfig scheduler;
  bool caching = true;
  /// > 0: naive reservation of this many tokens per request (each request holds them all while it runs).
  std::int64_t reserve_tokens = 0;
};

/// Independent requests: mean lengths (clamped to max_model_len as the workload clamps them) rounded up.
EngineWork open_loop_work(const OpenLoopParams& params, std::int64_t block_size);
/// Multi-turn conversations: turn k resends the whole history (k + 1 user messages, k answers).
EngineWork conversation_work(const ConversationParams& params, std::int64_t block_size);
/// The same work with its steps and retried lookups on this pool (the header's "steps" and "lookups").
EngineWork open_loop_work(const OpenLoopParams& params, const EnginePool& pool);
EngineWork conversation_work(const ConversationParams& params, const EnginePool& pool);

/// The work of a workload's first turns at their actual lengths, with its steps and retried lookups on `pool`
/// (arrivals at their mean rate over the span they cover; all at once when they share one instant), the requests
/// spread evenly over `replicas` engines.
EngineWork workload_work(const Workload& workload, const EnginePool& pool, double replicas = 1);

/// Cost of one work unit natively (Release, CPU time on this 2-core machine, shared). The weights above are the
/// first fit's, at 20 ns a unit; issue 16 made the engine 1.2-2.2x faster, and the unit is re-fitted on its own,
/// median of 5 runs each, units -> measured (predicted at 10 ns): continuous-batching defaults 9.8e6 -> 0.05 s
/// (0.10); n = 20000 9.8e7 -> 0.47 s (0.98); n = 50000 2.5e8 -> 1.05 s (2.46); llm/fleet n = 100000, one replica,
/// chats only, lambda 18 9.7e7 -> 0.54 s (0.97); llm/fleet n = 20000, replicas swept 1..10 (11 runs) 3.0e8 ->
/// 1.83 s (3.03; 2.96 s with the machine's other jobs at a load of 4: the sweep's many small steps cost most a
/// unit). Cells heavy in blocks and segments are over-predicted: prefix-caching users = 2000, block_size = 1
/// 4.9e8 -> 0.85 s, energy chats = 300, turns = 20 4.1e8 -> 0.31 s. The limit, 10 s in the browser at 2.5x native
/// (wasm under node: 2.5x for one engine, 1.9x for the sweep), is 4e8 units (4 s natively).
inline constexpr budget::UnitCost kEngineUnitCost{10e-9, 0};

/// A too_large error naming `param` when the runs' time (all of `total`) or memory (the largest single run: runs
/// are sequential, each with its own workload) exceed the budget.
std::optional<Error> check_engine_budget(const EngineWork& total, const EngineWork& largest_run, const std::string& param,
                                         const std::string& what, double max_seconds = budget::kMaxRunSeconds);

/// The cost model in one line, for `serving-lab list`.
std::string describe_engine_budget();

}  // namespace sl::llm
