#pragma once
// What a workload's requests look like, as a replayed trace has them and as the length laws fitted to it draw
// them, side by side: what the lognormal lengths and Poisson-like arrivals keep (means, CVs) and what they drop
// (bursts the gap CV alone does not carry, heavy or two-humped lengths, prompts and answers that go together).
//   arrivals: the rate ((n - 1) / span), the CV of the gaps, and the index of dispersion of the counts in
//             windows of w seconds (variance / mean of the arrivals per window; 1 for Poisson at any w, growing
//             with w for traffic whose rate itself wanders);
//   lengths:  mean, CV and the 50th, 90th and 99th percentiles of prompts and outputs;
//   together: Spearman's rank correlation of prompt and output length (0 when the laws draw them apart).
// The fit is by moments: arrivals at the trace's rate with its gap CV, prompts and outputs lognormal with the
// trace's mean and CV, the batch class at its share.
#include <cstdint>
#include <vector>

#include "llm/workload/workload.h"
#include "llm/workload/workload_trace.h"

namespace sl::llm {

struct LengthStats {
  double mean = 0, cv = 0, p50 = 0, p90 = 0, p99 = 0;
};

struct WorkloadStats {
  std::int64_t num_requests = 0;
  double rate_per_s = 0;  ///< (n - 1) / (last - first arrival); 0 when they share one instant
  double gap_cv = 0;
  double dispersion_1s = 0, dispersion_10s = 0, dispersion_60s = 0;  ///< index of dispersion of counts (0: too short)
  LengthStats prompt, output;
  double rank_corr = 0;  ///< Spearman's rho of prompt and output tokens (ties ranked by their mean rank)
  double batch_frac = 0;  ///< share of class-1 requests
};

/// The statistics of a workload's first turns (arrival order), lengths as the requests carry them.
WorkloadStats workload_stats(const Workload& workload);

/// The length laws fitted to `stats` by moments, on `base` (its max_model_len, clip bounds and n are kept).
OpenLoopParams fitted_laws(const WorkloadStats& stats, const OpenLoopParams& base);

}  // namespace sl::llm
