#pragma once
// Serving statistics of one engine run, computed after the run from its immutable records and time integrals:
// TTFT (arrival to first token), TPOT (mean gap between later tokens), end-to-end latency, output tokens/s,
// KV usage (time-average share of blocks held) and KV waste (share of held token slots holding no token).
#include <cstdint>

#include "llm/engine.h"

namespace sl::llm {

struct ServingSummary {
  std::int64_t num_finished = 0;
  double ttft_mean_s = 0, ttft_p50_s = 0, ttft_p99_s = 0;
  double tpot_mean_s = 0, tpot_p50_s = 0, tpot_p99_s = 0;  ///< over requests with two or more output tokens
  double e2e_mean_s = 0, e2e_p50_s = 0, e2e_p99_s = 0;
  double output_tok_per_s = 0;  ///< output tokens / (last finish - first arrival)
  double prompt_tok_per_s = 0;
  double makespan_s = 0;
  double kv_usage_frac = 0;  ///< time average over the whole run of blocks held / blocks in the pool
  /// 1 - stored tokens / held token slots, integrated over the time requests hold KV (0 if they never do).
  double kv_waste_frac = 0;
  double mean_batch = 0;     ///< sequences per step, averaged over busy time
  double busy_frac = 0;      ///< share of the makespan spent in steps
  std::int64_t num_preemptions = 0;
  double preempted_request_frac = 0;  ///< requests preempted at least once
  double prefix_hit_frac = 0;         ///< prefix-cache hit tokens / looked-up tokens (0 without lookups)
};

ServingSummary summarize(const EngineRun& run);

}  // namespace sl::llm
