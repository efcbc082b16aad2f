#include "llm/engine/static_batching.h"

#include "matchers.h"

#include "llm/engine/serving_metrics.h"

namespace SL_UNITY_ID {

using namespace sl::llm;

namespace {

/// `n` identical requests (prompt P, answer O tokens) all arriving at t = 0, as initial arrivals.
Workload burst(int n, std::int64_t prompt, std::int64_t answer) {
  Workload w;
  for (int i = 0; i < n; ++i) {
    Request r;
    r.request_id = i;
    r.prompt = {{static_cast<std::uint64_t>(10 + i), prompt}};
    r.num_prompt_tokens = prompt;
    r.output_content_id = static_cast<std::uint64_t>(100 + i);
    r.max_tokens = answer;
    w.requests.push_back(r);
    w.next_turn.push_back(-1);
    w.think_s.push_back(0);
    w.initial.push_back(i);
  }
  return w;
}

StaticBatchingConfig config(std::int64_t batch_size) {
  StaticBatchingConfig c;
  c.model = llama3_8b();
  c.gpu = h100();
  c.batch_size = batch_size;
  c.max_model_len = 256;
  c.num_blocks = batch_size * 16;  // exactly batch_size slots of 256 tokens
  c.block_size = 16;
  return c;
}

/// One batch of b requests: a padded prefill of b x P tokens, then O - 1 decode steps at context b (P + k).
double batch_s(std::int64_t b, std::int64_t prompt, std::int64_t answer) {
  StepWork prefill;
  prefill.num_prefill_tokens = b * prompt;
  prefill.num_prefill_chunks = 1;
  prefill.prefill_attention_pairs = b * prefill_attention_pairs(0, prompt);
  double t = step_time(llama3_8b(), h100(), prefill).total_s;
  for (std::int64_t k = 1; k < answer; ++k) t += decode_step_s(llama3_8b(), h100(), b, b * (prompt + k));
  return t;
}

}  // namespace

TEST_CASE("Static batches of identical requests take one prefill plus O - 1 decode steps each, back to back",
          "[llm][static_batching]") {
  // 8 requests at t = 0 in batches of 4: the first batch ends at T(4), the second at 2 T(4); all of a batch
  // share its first-token time (the end of its prefill).
  Workload w = burst(8, 100, 20);
  sl::RunControl ctl;
  const EngineRun run = run_static(config(4), w, ctl);
  REQUIRE(run.records.size() == 8);
  const double t_batch = batch_s(4, 100, 20);
  for (const RequestRecord& r : run.records) {
    const double end = r.request_id < 4 ? t_batch : 2 * t_batch;
    CHECK_THAT(r.finished_at_s, WithinRel(end, 1e-12));
    CHECK(r.num_output_tokens == 20);
    CHECK(r.first_token_at_s < r.finished_at_s);
  }
  CHECK(run.num_steps == 2 * 20);  // per batch: 1 prefill + 19 decodes
  const ServingSummary s = summarize(run);
  CHECK_THAT(s.mean_batch, WithinRel(4.0, 1e-12));  // every step carries a full batch
  CHECK(s.num_preemptions == 0);
}

TEST_CASE("A static slot holds max_model_len tokens: KV waste is 1 - stored tokens / reserved slots",
          "[llm][static_batching]") {
  // One batch of 1: prompt 100, answer 20, slot 256 tokens. Stored tokens step by step: 100 in the prefill,
  // then 100 + k in decode step k (k = 1..19); the waste integral weights each by its step's time.
  Workload w = burst(1, 100, 20);
  sl::RunControl ctl;
  const EngineRun run = run_static(config(1), w, ctl);
  StepWork prefill;
  prefill.num_prefill_tokens = 100;
  prefill.num_prefill_chunks = 1;
  prefill.prefill_attention_pairs = prefill_attention_pairs(0, 100);
  const double prefill_step_s = step_time(llama3_8b(), h100(), prefill).total_s;
  double stored_s = 100 * prefill_step_s, total_s = prefill_step_s;
  for (std::int64_t k = 1; k < 20; ++k) {
    const double step_s = decode_step_s(llama3_8b(), h100(), 1, 100 + k);
    stored_s += static_cast<double>(100 + k) * step_s;
    total_s += step_s;
  }
  CHECK_THAT(summarize(run).kv_waste_frac, WithinRel(1.0 - stored_s / (256.0 * total_s), 1e-12));
}

}  // namespace SL_UNITY_ID
