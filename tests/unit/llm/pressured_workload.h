#pragma once
// A workload shared by the engine's tests.
#include "llm/workload.h"

namespace sl::llm::test {

/// 300 requests of up to 512 tokens arriving at 400/s, faster than they are served, with a shared 64-token
/// system prompt: on a small pool it runs dry, requests are preempted, and prefixes hit.
inline OpenLoopParams pressured_workload() {
  OpenLoopParams w;
  w.num_requests = 300;
  w.rate_per_s = 400;
  w.prompt_tokens = sl::Distribution::lognormal_mean_cv(150, 0.8);
  w.output_tokens = sl::Distribution::lognormal_mean_cv(100, 1.0);
  w.max_model_len = 512;
  w.shared_prefix_tokens = 64;
  return w;
}

}  // namespace sl::llm::test
