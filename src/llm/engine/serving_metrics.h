#pragma once
// Serving statistics of one engine run, computed after the run from its immutable records and time integrals:
// TTFT (arrival to first token), TPOT (mean gap between later tokens), end-to-end latency, output tokens/s,
// KV usage (time-average share of blocks held) and KV waste (share of held token slots holding no token).
#include <cstdint>

#include "llm/engine/engine.h"

namespace sl::llm {

struct ServingSummary {
  std::int64_t num_finished = 0;
  std::int64_t num_rejected = 0;  ///< turned away by max_waiting (no record)
  double ttft_mean_s = 0, ttft_p50_s = 0, ttft_p90_s = 0, ttft_p99_s = 0;
  double tpot_mean_s = 0, tpot_p50_s = 0, tpot_p90_s = 0, tpot_p99_s = 0;  ///< over requests with 2+ output tokens
  double itl_p50_s = 0, itl_p90_s = 0, itl_p99_s = 0;  ///< over every token gap (gap_histogram.h)
  double queue_mean_s = 0, queue_p50_s = 0, queue_p90_s = 0, queue_p99_s = 0;  ///< arrival to first admission
  double queue_mean_se_s = 0;  ///< batch-means standard error of queue_mean_s (records in arrival order)
  double e2e_mean_s = 0, e2e_p50_s = 0, e2e_p90_s = 0, e2e_p99_s = 0;
  double mean_step_s = 0;      ///< busy time / steps
  double kv_read_frac = 0;     ///< KV bytes / all bytes the steps read (0 without steps)
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
  double preemptions_per_request = 0;
  double prefix_hit_frac = 0;         ///< prefix-cache hit tokens / looked-up tokens (0 without lookups)
};

ServingSummary summarize(const EngineRun& run);

/// SLO attainment of one request class: the requests that arrived (finished or rejected), those that met both
/// targets (TTFT <= ttft_slo_s and TPOT <= tpot_slo_s; a rejected request meets neither), and the rate of the
/// latter over the makespan (goodput).
struct SloClass {
  std::int64_t num_arrived = 0;
  std::int64_t num_met = 0;
  double attainment_frac = 0;  ///< num_met / num_arrived (0 if none arrived)
  double goodput_req_per_s = 0;
  double ttft_p99_s = 0, tpot_p99_s = 0;
};

/// Per class (0 interactive, 1 batch) and for all requests (index 2).
struct SloSummary {
  SloClass by_class[3];
};

SloSummary summarize_slo(const EngineRun& run, double ttft_slo_s, double tpot_slo_s);

}  // namespace sl::llm
