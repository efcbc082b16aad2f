#include "llm/engine/static_batching.h"

#include <algorithm>
#include <deque>

#include "core/error.h"

namespace sl::llm {
namespace {

/// The bookkeeping both kinds of step share: clock, integrals and series.
struct StaticRecorder {
  EngineRun& run;
  double& now_s;
  double reserved_frac;  // KV usage while a batch runs

  void step(double step_s, double batch, double slot_tokens, double stored_tokens, double waiting) {
    now_s += step_s;
    run.busy_s += step_s;
    run.used_block_s += reserved_frac * static_cast<double>(run.num_blocks) * step_s;
    run.slot_token_s += slot_tokens * step_s;
    run.stored_token_s += stored_tokens * step_s;
    run.seq_step_s += batch * step_s;
    run.running.advance(now_s, batch);
    run.waiting.advance(now_s, waiting);
    run.kv_usage.advance(now_s, reserved_frac);
    ++run.num_steps;
  }
};

void finish(Request& r, double now_s, EngineRun& run, ArrivalQueue& arrivals) {
  r.status = RequestStatus::Finished;
  r.finished_at_s = now_s;
  run.records.push_back(make_record(r));
  arrivals.on_finished(r, now_s);
}

}  // namespace

EngineRun run_static(const StaticBatchingConfig& config, Workload& workload, RunControl& ctl) {
  SL_ASSERT(config.batch_size * ((config.max_model_len + config.block_size - 1) / config.block_size) <= config.num_blocks);
  EngineRun run;
  run.num_blocks = config.num_blocks;
  run.block_size = config.block_size;
  run.running = run.waiting = run.kv_usage = queues::StepSeries(config.series_bucket_s);
  ArrivalQueue arrivals(workload);
  std::deque<Request*> waiting;
  const auto num_requests = static_cast<double>(workload.requests.size());
  const std::int64_t blocks_per_slot = (config.max_model_len + config.block_size - 1) / config.block_size;
  double now_s = 0;

  const auto admit_arrivals = [&] {
    while (!arrivals.empty() && arrivals.next_at_s() <= now_s) waiting.push_back(&arrivals.pop());
  };
  while (!arrivals.empty() || !waiting.empty()) {
    admit_arrivals();
    if (waiting.empty()) {
      now_s = arrivals.next_at_s();
      run.running.advance(now_s, 0);
      run.waiting.advance(now_s, 0);
      run.kv_usage.advance(now_s, 0);
      continue;
    }
    // Collect the batch.
    std::vector<Request*> batch;
    while (!waiting.empty() && static_cast<std::int64_t>(batch.size()) < config.batch_size) {
      waiting.front()->first_scheduled_at_s = now_s;
      batch.push_back(waiting.front());
      waiting.pop_front();
    }
    const auto b = static_cast<std::int64_t>(batch.size());
    std::int64_t longest_prompt = 0, longest_output = 0, stored = 0;
    for (const Request* r : batch) {
      longest_prompt = std::max(longest_prompt, r->num_prompt_tokens);
      longest_output = std::max(longest_output, r->max_tokens);
      stored += r->num_prompt_tokens;
    }
    StaticRecorder rec{run, now_s, static_cast<double>(b * blocks_per_slot) / static_cast<double>(config.num_blocks)};
    const double slot_tokens = static_cast<double>(b * config.max_model_len);
    const auto num_waiting = [&] { return static_cast<double>(waiting.size()); };

    // Prefill: every prompt padded to the longest, in one forward pass; it yields each request's first token.
    StepWork prefill;
    prefill.num_prefill_tokens = b * longest_prompt;
    prefill.num_prefill_chunks = 1;
    prefill.prefill_attention_pairs = b * prefill_attention_pairs(0, longest_prompt);
    rec.step(step_time(config.model, config.gpu, prefill, config.tp).total_s, static_cast<double>(b), slot_tokens,
             static_cast<double>(stored), num_waiting());
    admit_arrivals();
    for (Request* r : batch) {
      r->status = RequestStatus::Running;
      r->num_computed_tokens = r->num_prompt_tokens;
      r->num_output_tokens = 1;
      r->first_token_at_s = r->last_token_at_s = now_s;
      if (r->is_finished()) finish(*r, now_s, run, arrivals);
    }
    // Decode until the longest is done; finished sequences keep their slot and are computed as padding.
    for (std::int64_t k = 1; k < longest_output; ++k) {
      StepWork decode;
      decode.num_decode_seqs = b;
      decode.decode_context_tokens = b * (longest_prompt + k);
      stored = 0;
      for (const Request* r : batch) stored += r->num_tokens();
      rec.step(step_time(config.model, config.gpu, decode, config.tp).total_s, static_cast<double>(b), slot_tokens,
               static_cast<double>(stored), num_waiting());
      admit_arrivals();
      for (Request* r : batch) {
        if (r->is_finished()) continue;
        r->num_computed_tokens += 1;
        r->num_output_tokens += 1;
        run.token_gaps.add(now_s - r->last_token_at_s);
        r->last_token_at_s = now_s;
        if (r->is_finished()) finish(*r, now_s, run, arrivals);
      }
    }
    ctl.report(static_cast<double>(run.records.size()), num_requests);
  }
  run.end_s = now_s;
  return run;
}

}  // namespace sl::llm
