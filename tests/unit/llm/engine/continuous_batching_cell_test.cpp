#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "cell_runner.h"
#include "llm/engine/step_model.h"

namespace SL_UNITY_ID {

namespace {

const cell_test::Cell cell{"llm/continuous-batching"};

// Rows of the "policies" table.
enum Policy { kContinuous = 0, kNaive = 1, kStatic = 2 };

/// One policy's value of a column of the "policies" table.
double policy(const sl::RunResult& r, const std::string& column, Policy k) {
  const auto& values = cell_test::column(r, "policies", column);
  REQUIRE(values.size() == 3);
  return values[k];
}

}  // namespace

TEST_CASE("Book: the 72 GiB reserve holds 589,824 tokens; max-length reservation wastes 40-50 %, 16-token blocks "
          "under 4 %", "[llm][scheduler][book]") {
  const auto r = cell.run({{"n", "20"}});
  const double pool_tokens = cell.book("kv_pool_tokens");  // 72 x 2^30 / 131,072 (§21), exact
  CHECK(out(r, "kv_pool_tokens") == pool_tokens);
  CHECK(out(r, "kv_pool_blocks") == pool_tokens / 16);
  // The book prints ranges, "40-50 %" and "< 4 %"; the lab file holds them as centre +- half-width.
  cell.check_book(r, "naive_reserve_waste_frac");
  cell.check_book(r, "paged_reserve_waste_frac");
  CHECK(out(r, "naive_fit_seqs") == std::floor(pool_tokens / 2048));  // max_model_len slots: 288
  CHECK(out(r, "paged_fit_seqs") > 1.8 * out(r, "naive_fit_seqs"));
  CHECK_THAT(out(r, "example_slot_waste_frac"), WithinRel(cell.book("example_slot_waste_frac"), 1e-12));
}

TEST_CASE("With heavy-tailed answers at the defaults static batching uses under half its slot-steps",
          "[llm][scheduler]") {
  const auto r = cell.run({{"n", "20"}});
  CHECK(out(r, "static_slot_util_frac") < 0.5);
  CHECK(out(r, "continuous_slot_util_frac") > 0.95);
}

TEST_CASE("At the defaults continuous batching beats static batching on throughput and meets the book's LLM targets",
          "[llm][scheduler]") {
  const auto r = cell.run({});
  CHECK(policy(r, "tok_per_s", kContinuous) > 2 * policy(r, "tok_per_s", kStatic));
  CHECK(policy(r, "kv_waste_frac", kContinuous) < 0.04);
  CHECK(policy(r, "kv_waste_frac", kNaive) > 0.3);
  // §28 targets: TTFT < 500 ms, TPOT < 50 ms, > 1,000 tokens/s aggregate (medians here).
  CHECK(policy(r, "ttft_p50_ms", kContinuous) < 500);
  CHECK(policy(r, "tpot_p50_ms", kContinuous) < 50);
  CHECK(policy(r, "tok_per_s", kContinuous) > 1000);
  // The speedup scalars are ratios of the table's throughputs.
  CHECK(out(r, "speedup_vs_static") == policy(r, "tok_per_s", kContinuous) / policy(r, "tok_per_s", kStatic));
  CHECK(policy(r, "preemptions", kNaive) == out(r, "naive_preemptions"));
  bool static_saturated = false;
  for (const auto& n : r.notices) static_saturated = static_saturated || n.code == "static_saturated";
  CHECK(static_saturated);
}

TEST_CASE("The offered token rate is the answers drawn over their arrival span, so a stable run delivers it",
          "[llm][scheduler]") {
  // Issue 14: bursty arrivals (cv 4) of 1,000 requests at 3/s took less than 1,000 / 3 s, and the nominal
  // lambda x mean answer said 710.3 tokens/s were offered while 771.8 were delivered. Delivered tokens over the
  // makespan can never exceed the same tokens over the shorter arrival span; a stable run loses only the drain.
  const auto r = cell.run({{"kv_gib", "1"}, {"lambda", "3"}, {"arrival_cv", "4"}, {"static_batch", "4"}, {"n", "1000"}});
  const double offered = out(r, "offered_tok_per_s");
  CHECK(policy(r, "tok_per_s", kContinuous) <= offered);
  CHECK(policy(r, "tok_per_s", kContinuous) > 0.95 * offered);
  CHECK_FALSE(has_notice(r, "saturated"));
}

TEST_CASE("A small KV pool makes the paged engine preempt and the naive one queue", "[llm][scheduler]") {
  const auto r = cell.run({{"kv_gib", "8"}, {"n", "600"}});
  CHECK(out(r, "preemptions") > 0);
  CHECK(out(r, "naive_preemptions") == 0);
  CHECK(policy(r, "mean_batch", kContinuous) > policy(r, "mean_batch", kNaive));
  CHECK(policy(r, "ttft_p50_ms", kNaive) > policy(r, "ttft_p50_ms", kContinuous));
}

TEST_CASE("Continuous batching cell rejects impossible setups with a clear error", "[llm][scheduler]") {
  cell_test::check_bad_inputs(cell, {
      {"KV reserve beside the 70B weights", {{"model", "llama3.1-70b"}}, "too_large", "kv_gib"},
      {"static batch larger than the pool's max-length slots", {{"static_batch", "289"}}, "", "static_batch"},
      {"prompts that cannot fit one step without chunked prefill",
       {{"chunked_prefill", "off"}, {"max_num_batched_tokens", "1024"}}, "invalid", "max_num_batched_tokens"},
      {"the same under the parameter's old name, max_batched_tokens",
       {{"chunked_prefill", "off"}, {"max_batched_tokens", "1024"}}, "", "max_num_batched_tokens"},
      {"a pool smaller than one request", {{"kv_gib", "0.1"}}, "", "kv_gib"},
      {"a negative rate", {{"lambda", "-1"}}, "", "lambda"},
  });
}

TEST_CASE("The figures the chart summaries quote are the policies table's", "[llm][scheduler]") {
  const auto r = cell.run();
  CHECK(out(r, "tok_per_s") == policy(r, "tok_per_s", kContinuous));
  CHECK(out(r, "ttft_p99_ms") == policy(r, "ttft_p99_ms", kContinuous));
  CHECK(out(r, "static_ttft_p99_ms") == policy(r, "ttft_p99_ms", kStatic));
  CHECK(out(r, "mean_batch") == policy(r, "mean_batch", kContinuous));
  CHECK(out(r, "naive_mean_batch") == policy(r, "mean_batch", kNaive));
  CHECK(out(r, "static_mean_batch") == policy(r, "mean_batch", kStatic));
  CHECK(out(r, "kv_usage_frac") == policy(r, "kv_usage_frac", kContinuous));
  CHECK(out(r, "naive_kv_usage_frac") == policy(r, "kv_usage_frac", kNaive));
}

namespace {

/// The companion notebook's slot simulation (nb03 cb_sim) on the engine: 8 slots, one-token prompts, answers
/// lognormal with median 120 tokens and sigma 1 clipped to 1..1,000, and a constant 1 ms step (a custom 2e9-
/// parameter INT4 model on a custom 1 TB/s GPU, no taxes, one layer of one head of dimension 1: 4 B of KV per
/// token), so a request holds a slot for exactly its answer's steps and a wait in steps is a wait in ms.
std::map<std::string, std::string> notebook_slots(const std::string& lambda) {
  return {{"model", "custom"}, {"params_b", "2"}, {"layers", "1"}, {"heads", "1"}, {"kv_heads", "1"},
          {"head_dim", "1"}, {"gpu", "custom"}, {"peak_tflop_per_s", "1000"}, {"bw_tb_per_s", "1"},
          {"step_model", "custom"}, {"layer_tax_ms", "0"}, {"dispatch_tax_ms", "0"}, {"kv_gib", "0.001"}, {"max_num_seqs", "8"},
          {"prompt_mean", "1"}, {"prompt_cv", "0"}, {"output_mean", "197.8"}, {"output_cv", "1.3108"},
          {"output_max", "1000"}, {"lambda", lambda}, {"n", "10000"}};
}

}  // namespace

TEST_CASE("New knobs at their defaults keep the engine's numbers: the book rows and the policies table",
          "[llm][scheduler]") {
  const auto r = cell.run({{"n", "300"}});
  // Each knob's default is the old fixed value; setting them explicitly changes nothing, bit for bit.
  const auto same = cell.run({{"n", "300"}, {"weights", "int4"}, {"kv", "fp16"}, {"efficiency_frac", "0.4"},
                              {"bw_efficiency_frac", "1"}, {"tensor_parallel_size", "1"}, {"scheduling_policy", "fcfs"},
                              {"long_prefill_token_threshold", "0"}, {"prompt_min", "1"}, {"output_max", "1000000"}});
  for (const char* column : {"ttft_p99_ms", "tpot_p50_ms", "tok_per_s", "preemptions", "itl_p99_ms"})
    CHECK(policy(r, column, kContinuous) == policy(same, column, kContinuous));
  CHECK(out(r, "kv_pool_tokens") == cell.book("kv_pool_tokens"));
  CHECK(out(r, "all_reduce_frac") == 0);
  CHECK(policy(r, "rejected", kContinuous) == 0);
}

TEST_CASE("Latency distributions are ordered, and each token gap is at least the shortest decode step",
          "[llm][scheduler]") {
  const auto r = cell.run({{"n", "400"}});
  CHECK(policy(r, "ttft_p50_ms", kContinuous) <= policy(r, "ttft_p90_ms", kContinuous));
  CHECK(policy(r, "ttft_p90_ms", kContinuous) <= policy(r, "ttft_p99_ms", kContinuous));
  CHECK(policy(r, "itl_p50_ms", kContinuous) <= policy(r, "itl_p90_ms", kContinuous));
  CHECK(policy(r, "itl_p90_ms", kContinuous) <= out(r, "itl_p99_ms"));
  CHECK(out(r, "itl_p99_ms") == policy(r, "itl_p99_ms", kContinuous));
  CHECK(policy(r, "e2e_p50_s", kContinuous) <= policy(r, "e2e_p90_s", kContinuous));
  CHECK(policy(r, "queue_mean_ms", kContinuous) <= policy(r, "ttft_p99_ms", kContinuous));
  // Batch-1 decode (weights only) is 1.1985 ms + 0.32 ms of taxes: no step of a decoding batch is shorter.
  CHECK(policy(r, "itl_p50_ms", kContinuous) >= 1.5185 * (1 - 0.008));
  // A request's TPOT is the mean of its gaps, so the median gap lies within the spread of TPOTs.
  CHECK(policy(r, "itl_p50_ms", kContinuous) <= policy(r, "tpot_p99_ms", kContinuous) * 1.008);
  CHECK(out(r, "kv_read_frac") > 0);
  CHECK(out(r, "kv_read_frac") < 1);
  CHECK_THAT(out(r, "queue_mean_steps"),
             WithinRel(policy(r, "queue_mean_ms", kContinuous) / policy(r, "mean_step_ms", kContinuous), 1e-12));
}

TEST_CASE("Cost per million tokens and joules per token follow from the throughput, price and power model",
          "[llm][scheduler]") {
  const auto r = cell.run({{"n", "300"}});
  const double tok_per_s = out(r, "tok_per_s");
  // $3/h over 3,600 s for tok_per_s tokens a second, per million.
  CHECK_THAT(out(r, "usd_per_m_tokens"), WithinRel(3.0 / 3600 / tok_per_s * 1e6, 1e-12));
  // Busy share u of the GPU: 300 + 400 u W for the GPU plus 300 W of host, over tok_per_s tokens a second.
  const double j = out(r, "j_per_token");
  CHECK(j > 600 / tok_per_s);
  CHECK(j <= 1000 / tok_per_s * (1 + 1e-12));
  // Two GPUs: twice the price and the GPU power per hour, all-reduces in every step, shorter decode steps.
  const auto two = cell.run({{"n", "300"}, {"tensor_parallel_size", "2"}});
  CHECK_THAT(out(two, "usd_per_m_tokens"), WithinRel(2 * 3.0 / 3600 / out(two, "tok_per_s") * 1e6, 1e-12));
  CHECK(out(two, "all_reduce_frac") > 0);
  CHECK(policy(two, "tpot_p50_ms", kContinuous) < policy(r, "tpot_p50_ms", kContinuous));
  CHECK(out(two, "kv_pool_tokens") == 2 * out(r, "kv_pool_tokens"));
}

TEST_CASE("SLO attainment counts the requests meeting both targets; goodput is their rate", "[llm][scheduler]") {
  const auto loose = cell.run({{"n", "300"}, {"ttft_slo_ms", "1e7"}, {"tpot_slo_ms", "1e6"}});
  CHECK(out(loose, "slo_attainment_frac") == 1);
  const auto tight = cell.run({{"n", "300"}, {"tpot_slo_ms", "0.001"}});
  CHECK(out(tight, "slo_attainment_frac") < 0.05);  // only one-token answers have TPOT 0
  const auto r = cell.run({{"n", "300"}, {"batch_frac", "0.5"}, {"lambda", "40"}, {"scheduling_policy", "priority"}});
  const auto& cls = column(r, "slo_classes", "requests");
  REQUIRE(cls.size() == 3);
  CHECK(cls[0] + cls[1] == cls[2]);
  CHECK(cls[2] == 300);
  const auto& ttft = column(r, "slo_classes", "ttft_p99_ms");
  CHECK(ttft[0] < ttft[1]);  // interactive requests are admitted first under load
  const auto& goodput = column(r, "slo_classes", "goodput_req_per_s");
  CHECK_THAT(goodput[0] + goodput[1], WithinRel(goodput[2], 1e-12));
  CHECK(out(r, "goodput_req_per_s") == goodput[2]);
}

TEST_CASE("max_waiting rejects arrivals beyond it, and they count against the SLO", "[llm][scheduler]") {
  const auto r = cell.run({{"n", "600"}, {"lambda", "60"}, {"max_waiting", "3"}});
  const double rejected = policy(r, "rejected", kContinuous);
  CHECK(rejected > 0);
  CHECK(has_notice(r, "rejected"));
  CHECK(out(r, "slo_attainment_frac") <= 1 - rejected / 600);
}

TEST_CASE("The notebook's slot simulation: waits in steps at 60 % load", "[llm][scheduler][notebook]") {
  // nb03 cb_sim: 8 slots at 60 % of 8 / 188 requests per step = 25.53 per 1 ms step-second.
  const auto r = cell.run(notebook_slots("25.53"));
  CHECK_THAT(policy(r, "mean_step_ms", kContinuous), WithinRel(1.0, 1e-4));
  cell.check_book(r, "queue_mean_steps");
}

TEST_CASE("Continuous batching cell rejects impossible new settings with a clear error", "[llm][scheduler]") {
  cell_test::check_bad_inputs(cell, {
      {"a prompt clip with min above max", {{"prompt_min", "500"}, {"prompt_max", "100"}}, "invalid", "prompt_min"},
      {"an answer clip with min above max", {{"output_min", "500"}, {"output_max", "100"}}, "invalid", "output_min"},
      {"a prefill cap without chunked prefill", {{"chunked_prefill", "off"}, {"long_prefill_token_threshold", "512"}},
       "invalid", "long_prefill_token_threshold"},
      {"tensor parallelism that does not divide the heads", {{"tensor_parallel_size", "3"}}, "invalid",
       "tensor_parallel_size"},
      {"idle power above busy power", {{"idle_w", "800"}}, "invalid", "idle_w"},
      {"FP16 70B weights on one GPU", {{"model", "llama3.1-70b"}, {"weights", "fp16"}}, "too_large", "weights"},
      {"the 70B model's KV reserve beside its weights, even over 2 GPUs",
       {{"model", "llama3.1-70b"}, {"tensor_parallel_size", "2"}}, "too_large", "kv_gib"},
  });
}

TEST_CASE("The trace tables hold one queue span per traced request, in ms, and request 0's figures are read from them",
          "[llm][trace]") {
  const auto r = cell.run({{"n", "300"}, {"trace_requests", "20"}});
  const auto& request = column(r, "trace_spans", "request");
  const auto& kind = column(r, "trace_spans", "kind");
  const auto& start_ms = column(r, "trace_spans", "start_ms");
  const auto& end_ms = column(r, "trace_spans", "end_ms");
  std::map<double, std::size_t> queue_row;  // request -> its row of kind 0 (Queue)
  for (std::size_t i = 0; i < request.size(); ++i)
    if (kind[i] == 0) CHECK(queue_row.emplace(request[i], i).second);
  REQUIRE(queue_row.size() == 20);
  CHECK(queue_row.begin()->first == 0);
  CHECK(queue_row.rbegin()->first == 19);
  const std::size_t q0 = queue_row.at(0);
  CHECK_THAT(out(r, "trace_queue_ms"), WithinAbs(end_ms[q0] - start_ms[q0], 1e-9));
  const auto& token_request = column(r, "trace_tokens", "request");
  const auto& token = column(r, "trace_tokens", "token");
  const auto& t_ms = column(r, "trace_tokens", "t_ms");
  const auto first = std::find_if(token_request.begin(), token_request.end(), [](double id) { return id == 0; });
  REQUIRE(first != token_request.end());
  const auto k = static_cast<std::size_t>(first - token_request.begin());
  CHECK(token[k] == 0);
  CHECK_THAT(out(r, "trace_ttft_ms"), WithinAbs(t_ms[k] - start_ms[q0], 1e-9));  // ms both, ~1e-13 apart from rounding

  const auto fewer = cell.run({{"n", "8"}, {"trace_requests", "20"}});  // only requests that exist are traced
  const auto& kinds = column(fewer, "trace_spans", "kind");
  CHECK(std::count(kinds.begin(), kinds.end(), 0.0) == 8);
  const auto none = cell.run({{"n", "300"}, {"trace_requests", "0"}});
  CHECK(find_column(none, "trace_spans", "request") == nullptr);
  CHECK(none.find_output("trace_ttft_ms") == nullptr);
}

TEST_CASE("vLLM's start-up log: the pool in tokens and blocks, and the requests it holds at the workload's mean length",
          "[llm][scheduler][kv_pool]") {
  // Every request exactly 1,000 + 256 tokens (CV 0): 589,824 / 1,256 = 469.6 requests at once.
  const std::map<std::string, std::string> fixed = {{"n", "20"}, {"prompt_cv", "0"}, {"output_cv", "0"}};
  const auto r = cell.run(fixed);
  CHECK(out(r, "kv_pool_tokens") == 589'824);
  CHECK(out(r, "kv_pool_blocks") == 36'864);
  CHECK_THAT(out(r, "max_concurrency"), WithinRel(589'824.0 / 1'256, 1e-12));
  // Stated in blocks: 1,000 blocks of 16 tokens hold 16,000 tokens, 12.7 such requests.
  auto blocks = fixed;
  blocks.insert({{"kv_pool", "blocks"}, {"num_gpu_blocks", "1000"}, {"static_batch", "4"}});
  const auto b = cell.run(blocks);
  CHECK(out(b, "kv_pool_tokens") == 16'000);
  CHECK(out(b, "kv_pool_blocks") == 1'000);
  CHECK_THAT(out(b, "max_concurrency"), WithinRel(16'000.0 / 1'256, 1e-12));
}

TEST_CASE("An engine cell says where its step model comes from: the fit's runs and held-out errors, a GPU it has no "
          "run on, fields it ignores", "[llm][scheduler]") {
  const auto r = cell.run({{"n", "50"}});
  REQUIRE(has_notice(r, "step_model_fitted"));
  for (const sl::Notice& n : r.notices)
    if (n.code == "step_model_fitted") {
      const std::map<std::string, std::string> args(n.args.begin(), n.args.end());
      CHECK(args.at("runs") == std::to_string(sl::llm::vllm_fit().runs));
      CHECK(args.at("gpu") == "h100");
      CHECK(std::stod(args.at("ttft_err_pct")) == Approx(sl::llm::vllm_fit().ttft_err_pct).margin(0.05));
      CHECK(args.count("itl_err_pct") == (sl::llm::vllm_fit().itl_err_pct < 0 ? 0u : 1u));  // none published
    }
  CHECK_FALSE(has_notice(r, "step_model_other_gpu"));
  CHECK_FALSE(has_notice(r, "step_model_fields_ignored"));
  CHECK(has_notice(cell.run({{"n", "50"}, {"gpu", "a100"}}), "step_model_other_gpu"));
  CHECK(has_notice(cell.run({{"n", "50"}, {"bw_efficiency_frac", "0.5"}}), "step_model_fields_ignored"));
  const auto book = cell.run({{"n", "50"}, {"step_model", "book"}});
  CHECK_FALSE(has_notice(book, "step_model_fitted"));
  CHECK(policy(book, "ttft_p99_ms", kContinuous) != policy(cell.run({{"n", "50"}}), "ttft_p99_ms", kContinuous));
}

}  // namespace SL_UNITY_ID
