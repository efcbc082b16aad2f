#include "llm/engine/serving_metrics.h"

#include "matchers.h"

namespace SL_UNITY_ID {

using namespace sl::llm;

namespace {

RequestRecord record(double arrival_s, double first_s, double finished_s, std::int64_t num_output,
                     std::int64_t num_preemptions = 0) {
  RequestRecord r;
  r.arrival_at_s = arrival_s;
  r.first_token_at_s = first_s;
  r.finished_at_s = finished_s;
  r.num_prompt_tokens = 100;
  r.num_output_tokens = num_output;
  r.num_preemptions = num_preemptions;
  return r;
}

}  // namespace

TEST_CASE("Serving statistics come from the records: means, medians, tokens per second, shares", "[llm][serving_metrics]") {
  EngineRun run;
  // Three requests, in finishing order. TTFTs 0.5, 0.2, 1.0 s; e2e 2.5, 1.2, 2.0 s; the last has one token.
  run.records = {record(1.0, 1.5, 3.5, 5, 2), record(0.5, 0.7, 1.7, 3), record(2.0, 3.0, 4.0, 1)};
  run.end_s = 4.0;
  run.num_blocks = 10;
  run.used_block_s = 20;     // 5 blocks held on average over 4 s
  run.slot_token_s = 400;
  run.stored_token_s = 300;  // a quarter of the held slots hold no token
  run.busy_s = 2.0;
  run.seq_step_s = 3.0;      // 1.5 sequences per step while busy
  run.num_preemptions = 2;
  run.prefix_cache.num_query_tokens = 300;
  run.prefix_cache.num_hit_tokens = 75;
  const ServingSummary s = summarize(run);
  CHECK(s.num_finished == 3);
  CHECK_THAT(s.ttft_mean_s, WithinRel((0.5 + 0.2 + 1.0) / 3, 1e-12));
  CHECK_THAT(s.ttft_p50_s, WithinRel(0.5, 1e-12));  // type-7 median of 3: the middle one
  CHECK_THAT(s.e2e_p50_s, WithinRel(2.0, 1e-12));
  // p99 (type 7) of {0.2, 0.5, 1.0}: position 0.99 x 2 = 1.98, 0.5 + 0.98 x 0.5.
  CHECK_THAT(s.ttft_p99_s, WithinRel(0.5 + 0.98 * 0.5, 1e-12));
  // TPOT only over requests with two or more tokens: (2.0 / 4 + 1.0 / 2) / 2 = 0.5.
  CHECK_THAT(s.tpot_mean_s, WithinRel(0.5, 1e-12));
  // The makespan runs from the first arrival (0.5 s) to the engine's end (4 s): 9 tokens in 3.5 s.
  CHECK_THAT(s.makespan_s, WithinRel(3.5, 1e-12));
  CHECK_THAT(s.output_tok_per_s, WithinRel(9 / 3.5, 1e-12));
  CHECK_THAT(s.prompt_tok_per_s, WithinRel(300 / 3.5, 1e-12));
  CHECK_THAT(s.kv_usage_frac, WithinRel(0.5, 1e-12));
  CHECK_THAT(s.kv_waste_frac, WithinRel(0.25, 1e-12));
  CHECK_THAT(s.mean_batch, WithinRel(1.5, 1e-12));
  CHECK_THAT(s.busy_frac, WithinRel(2.0 / 3.5, 1e-12));
  CHECK(s.num_preemptions == 2);
  CHECK_THAT(s.preempted_request_frac, WithinRel(1.0 / 3, 1e-12));
  CHECK_THAT(s.prefix_hit_frac, WithinRel(0.25, 1e-12));
}

TEST_CASE("A run with no KV slots held and no lookups reports zero waste and zero hits, not NaN",
          "[llm][serving_metrics]") {
  EngineRun run;
  run.records = {record(0.0, 0.1, 0.2, 2)};
  run.end_s = 0.2;
  run.num_blocks = 4;
  const ServingSummary s = summarize(run);
  CHECK(s.kv_waste_frac == 0.0);
  CHECK(s.prefix_hit_frac == 0.0);
  CHECK(s.mean_batch == 0.0);
  CHECK(s.kv_usage_frac == 0.0);
}

TEST_CASE("An empty run summarises to zeros", "[llm][serving_metrics]") {
  const ServingSummary s = summarize(EngineRun{});
  CHECK(s.num_finished == 0);
  CHECK(s.output_tok_per_s == 0.0);
}

}  // namespace SL_UNITY_ID
