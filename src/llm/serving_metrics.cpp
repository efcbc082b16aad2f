#include "llm/serving_metrics.h"

#include <algorithm>

#include "core/error.h"
#include "core/stats.h"

namespace sl::llm {
namespace {

struct Quantiles {
  double mean = 0, p50 = 0, p99 = 0;
};

Quantiles quantiles_of(std::vector<double> xs) {
  Quantiles q;
  if (xs.empty()) return q;
  std::sort(xs.begin(), xs.end());
  double sum = 0;
  for (const double x : xs) sum += x;
  q.mean = sum / static_cast<double>(xs.size());
  q.p50 = quantile_sorted(xs, 0.5);
  q.p99 = quantile_sorted(xs, 0.99);
  return q;
}

}  // namespace

ServingSummary summarize(const EngineRun& run) {
  ServingSummary s;
  s.num_finished = static_cast<std::int64_t>(run.records.size());
  if (run.records.empty()) return s;
  std::vector<double> ttft, tpot, e2e;
  double first_arrival_s = run.records.front().arrival_at_s;
  double num_output = 0, num_prompt = 0;
  std::int64_t num_preempted = 0;
  for (const RequestRecord& r : run.records) {
    ttft.push_back(r.ttft_s());
    e2e.push_back(r.e2e_s());
    if (r.num_output_tokens > 1) tpot.push_back(r.tpot_s());
    first_arrival_s = std::min(first_arrival_s, r.arrival_at_s);
    num_output += static_cast<double>(r.num_output_tokens);
    num_prompt += static_cast<double>(r.num_prompt_tokens);
    num_preempted += r.num_preemptions > 0;
  }
  const Quantiles t = quantiles_of(std::move(ttft)), p = quantiles_of(std::move(tpot)), e = quantiles_of(std::move(e2e));
  s.ttft_mean_s = t.mean, s.ttft_p50_s = t.p50, s.ttft_p99_s = t.p99;
  s.tpot_mean_s = p.mean, s.tpot_p50_s = p.p50, s.tpot_p99_s = p.p99;
  s.e2e_mean_s = e.mean, s.e2e_p50_s = e.p50, s.e2e_p99_s = e.p99;
  s.makespan_s = run.end_s - first_arrival_s;
  SL_ASSERT(s.makespan_s > 0);
  s.output_tok_per_s = num_output / s.makespan_s;
  s.prompt_tok_per_s = num_prompt / s.makespan_s;
  s.kv_usage_frac = run.end_s > 0 ? run.used_block_s / (static_cast<double>(run.num_blocks) * run.end_s) : 0.0;
  s.kv_waste_frac = run.slot_token_s > 0 ? 1.0 - run.stored_token_s / run.slot_token_s : 0.0;
  s.mean_batch = run.busy_s > 0 ? run.seq_step_s / run.busy_s : 0.0;
  s.busy_frac = run.busy_s / s.makespan_s;
  s.num_preemptions = run.num_preemptions;
  s.preempted_request_frac = static_cast<double>(num_preempted) / static_cast<double>(s.num_finished);
  s.prefix_hit_frac = run.prefix_cache.num_query_tokens > 0
                          ? static_cast<double>(run.prefix_cache.num_hit_tokens) /
                                static_cast<double>(run.prefix_cache.num_query_tokens)
                          : 0.0;
  return s;
}

}  // namespace sl::llm
