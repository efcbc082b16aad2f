#pragma once
// The workload of a measured serving point (serving_calibration.h): fixed prompt and output lengths arriving as a
// Poisson stream, all at once, or from a closed loop of clients; prompts optionally re-sent, as a benchmark that
// cycles through a fixed set of them does.
#include <cstdint>

#include "llm/workload/workload.h"

namespace sl::llm {

/// How requests arrive: a Poisson stream, a burst of all of them at t = 0 (a benchmark at rate "inf", a static
/// batch), or a closed loop of `concurrency` clients that each send their next request when the last one finishes.
enum class Arrival { Poisson = 0, Burst = 1, ClosedLoop = 2 };

/// A benchmark's prompts reused: `distinct_prompts` prompts sent over and over (request i sends prompt i mod
/// distinct), in `groups` groups sharing a system prompt of system_prompt_tokens (inference-perf's shared_prefix
/// generator). distinct_prompts = 0: every prompt its own.
struct PromptReuse {
  std::int64_t distinct_prompts = 0;
  std::int64_t groups = 1;
  std::int64_t system_prompt_tokens = 0;
};

/// The workload of a serving point: fixed prompt and output lengths.
struct WorkloadRecipe {
  Arrival arrival = Arrival::Poisson;
  double rate_per_s = 1;          ///< Poisson only
  std::int64_t concurrency = 1;   ///< ClosedLoop only
  std::int64_t num_requests = 100;
  std::int64_t prompt_tokens = 100;
  std::int64_t output_tokens = 100;
  PromptReuse reuse;
  /// Requests sent first and left out of every figure: with prompt reuse, one pass over the distinct prompts, so
  /// that the measured requests meet the warm prefix cache a long benchmark's requests meet.
  std::int64_t num_warmup = 0;
};

/// The requests of a recipe, warm-up first (arrivals from Stream::Arrivals of `seed`).
Workload make_recipe_workload(const WorkloadRecipe& recipe, std::uint64_t seed);
/// True when the engine's decisions on this workload do not depend on how long a step takes (the header).
inline bool is_time_free(const WorkloadRecipe& recipe) { return recipe.arrival != Arrival::Poisson; }

}  // namespace sl::llm
