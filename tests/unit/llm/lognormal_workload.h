#pragma once
// The open-loop workload most LLM tests draw: Poisson arrivals, lognormal prompt and output lengths.
#include <cstdint>

#include "core/distributions.h"
#include "llm/workload/workload.h"

namespace sl::llm::test {

/// `num_requests` arriving at `rate_per_s`; prompt and output lengths lognormal with the given mean and coefficient
/// of variation, clamped to `max_model_len`. The rest of OpenLoopParams keeps its defaults.
inline OpenLoopParams lognormal_workload(std::int64_t num_requests, double rate_per_s, double prompt_mean,
                                         double prompt_cv, double output_mean, double output_cv,
                                         std::int64_t max_model_len) {
  OpenLoopParams w;
  w.num_requests = num_requests;
  w.rate_per_s = rate_per_s;
  w.prompt_tokens = sl::Distribution::lognormal_mean_cv(prompt_mean, prompt_cv);
  w.output_tokens = sl::Distribution::lognormal_mean_cv(output_mean, output_cv);
  w.max_model_len = max_model_len;
  return w;
}

}  // namespace sl::llm::test
