#include "llm/engine/serving_metrics.h"

#include <algorithm>

#include "core/error.h"
#include "core/stats.h"

namespace sl::llm {
namespace {

struct Quantiles {
  double mean = 0, p50 = 0, p90 = 0, p99 = 0;
};

Quantiles quantiles_of(std::vector<double> xs) {
  Quantiles q;
  if (xs.empty()) return q;
  sort_ascending(xs);  // the mean is summed in sorted order
  double sum = 0;
  for (const double x : xs) sum += x;
  q.mean = sum / static_cast<double>(xs.size());
  q.p50 = quantile_sorted(xs, 0.5);
  q.p90 = quantile_sorted(xs, 0.9);
  q.p99 = quantile_sorted(xs, 0.99);
  return q;
}

}  // namespace

ServingSummary summarize(const EngineRun& run) {
  ServingSummary s;
  s.num_finished = static_cast<std::int64_t>(run.records.size());
  if (run.records.empty()) return s;
  s.num_rejected = run.num_rejected[0] + run.num_rejected[1];
  std::vector<double> ttft, tpot, e2e, queue;
  std::vector<std::pair<double, double>> arrival_queue;  // (arrival, queue time): the SE needs arrival order
  double first_arrival_s = run.records.front().arrival_at_s;
  double num_output = 0, num_prompt = 0;
  std::int64_t num_preempted = 0;
  for (const RequestRecord& r : run.records) {
    ttft.push_back(r.ttft_s());
    e2e.push_back(r.e2e_s());
    queue.push_back(r.queue_s());
    arrival_queue.emplace_back(r.arrival_at_s, r.queue_s());
    if (r.num_output_tokens > 1) tpot.push_back(r.tpot_s());
    first_arrival_s = std::min(first_arrival_s, r.arrival_at_s);
    num_output += static_cast<double>(r.num_output_tokens);
    num_prompt += static_cast<double>(r.num_prompt_tokens);
    num_preempted += r.num_preemptions > 0;
  }
  const Quantiles t = quantiles_of(std::move(ttft)), p = quantiles_of(std::move(tpot)), e = quantiles_of(std::move(e2e));
  const Quantiles q = quantiles_of(std::move(queue));
  s.ttft_mean_s = t.mean, s.ttft_p50_s = t.p50, s.ttft_p90_s = t.p90, s.ttft_p99_s = t.p99;
  s.tpot_mean_s = p.mean, s.tpot_p50_s = p.p50, s.tpot_p90_s = p.p90, s.tpot_p99_s = p.p99;
  s.e2e_mean_s = e.mean, s.e2e_p50_s = e.p50, s.e2e_p90_s = e.p90, s.e2e_p99_s = e.p99;
  s.queue_mean_s = q.mean, s.queue_p50_s = q.p50, s.queue_p90_s = q.p90, s.queue_p99_s = q.p99;
  std::sort(arrival_queue.begin(), arrival_queue.end());
  std::vector<double> queue_in_order;
  queue_in_order.reserve(arrival_queue.size());
  for (const auto& [at_s, queue_s] : arrival_queue) queue_in_order.push_back(queue_s);
  s.queue_mean_se_s = queue_in_order.size() >= 64 ? batch_means_se(queue_in_order) : 0.0;
  s.itl_p50_s = run.token_gaps.quantile(0.5);
  s.itl_p90_s = run.token_gaps.quantile(0.9);
  s.itl_p99_s = run.token_gaps.quantile(0.99);
  s.mean_step_s = run.num_steps > 0 ? run.busy_s / static_cast<double>(run.num_steps) : 0.0;
  s.kv_read_frac = run.bytes_read > 0 ? run.kv_bytes_read / run.bytes_read : 0.0;
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
  s.preemptions_per_request = static_cast<double>(run.num_preemptions) / static_cast<double>(s.num_finished);
  s.prefix_hit_frac = run.prefix_cache.num_query_tokens > 0
                          ? static_cast<double>(run.prefix_cache.num_hit_tokens) /
                                static_cast<double>(run.prefix_cache.num_query_tokens)
                          : 0.0;
  return s;
}

SloSummary summarize_slo(const EngineRun& run, double ttft_slo_s, double tpot_slo_s) {
  SloSummary out;
  std::vector<double> ttft[3], tpot[3];
  double first_arrival_s = run.records.empty() ? 0.0 : run.records.front().arrival_at_s;
  for (const RequestRecord& r : run.records) {
    first_arrival_s = std::min(first_arrival_s, r.arrival_at_s);
    const bool met = r.ttft_s() <= ttft_slo_s && r.tpot_s() <= tpot_slo_s;
    for (const int k : {r.request_class, 2}) {
      SloClass& c = out.by_class[k];
      c.num_arrived += 1;
      c.num_met += met;
      ttft[k].push_back(r.ttft_s());
      if (r.num_output_tokens > 1) tpot[k].push_back(r.tpot_s());
    }
  }
  const double makespan_s = run.end_s - first_arrival_s;
  for (int k = 0; k < 3; ++k) {
    SloClass& c = out.by_class[k];
    c.num_arrived += k < 2 ? run.num_rejected[k] : run.num_rejected[0] + run.num_rejected[1];
    c.attainment_frac = c.num_arrived > 0 ? static_cast<double>(c.num_met) / static_cast<double>(c.num_arrived) : 0.0;
    c.goodput_req_per_s = makespan_s > 0 ? static_cast<double>(c.num_met) / makespan_s : 0.0;
    c.ttft_p99_s = quantiles_of(std::move(ttft[k])).p99;
    c.tpot_p99_s = quantiles_of(std::move(tpot[k])).p99;
  }
  return out;
}

}  // namespace sl::llm
