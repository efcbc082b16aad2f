#include "llm/engine/engine_setup.h"

#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "cell_runner.h"
#include "core/units.h"

namespace SL_UNITY_ID {

using namespace sl::llm;

const InputsOf inputs{engine_hardware_params()};

TEST_CASE("Engine hardware at the defaults is the book's: 589,824 tokens in the 72 GiB reserve, one H100",
          "[llm][engine_setup][book]") {
  const auto hw = validate_engine_hardware(inputs({}), 2048, "max_model_len");
  REQUIRE(hw.ok());
  // 72 x 2^30 B / 131,072 B per token (§21), exact; the model is the analytic cells' (INT4, FP16 KV).
  CHECK(hw.value().pool_tokens == 589'824);
  CHECK(hw.value().num_blocks == 36'864);
  CHECK(hw.value().tp.size == 1);
  CHECK(hw.value().model.bytes_per_weight == 0.5);
}

TEST_CASE("The step model: fitted to vLLM by default, the book's roofline, or the reader's fields",
          "[llm][engine_setup]") {
  // fitted: llm/validation's terms for vLLM, with the mechanisms its vLLM points ran with.
  const auto fitted = validate_engine_hardware(inputs({}), 2048, "x");
  REQUIRE(fitted.ok());
  const GpuSpec& f = fitted.value().gpu;
  CHECK(fitted.value().step_model.model == "fitted");
  CHECK(f.compute_efficiency == sl::llm::vllm_fit().knobs.compute_efficiency);
  CHECK(f.bandwidth_efficiency == sl::llm::vllm_fit().knobs.bandwidth_efficiency);
  CHECK(f.request_overhead_s == sl::llm::vllm_fit().knobs.request_overhead_s);
  CHECK((f.layer_tax_every_step && f.cuda_graph_padding && f.lm_head_and_embedding && f.attention_roofline));
  CHECK_FALSE(f.host_overlapped);
  CHECK(fitted.value().tp.direct_all_reduce);  // 450 GB/s each way: an NVLink-class link
  CHECK_FALSE(fitted.value().step_model.ignored_fields);
  // book: 0.4 of the peak, all the bandwidth, 0.01 ms taxes, no mechanism, NCCL's ring.
  const auto book = validate_engine_hardware(inputs({{"step_model", "book"}}), 2048, "x");
  REQUIRE(book.ok());
  const GpuSpec& b = book.value().gpu;
  CHECK(b.compute_efficiency == 0.4);
  CHECK(b.bandwidth_efficiency == 1.0);
  CHECK(b.layer_tax_s == 1e-5);
  CHECK(b.request_overhead_s == 0);
  CHECK_FALSE((b.layer_tax_every_step || b.cuda_graph_padding || b.lm_head_and_embedding || b.attention_roofline));
  CHECK_FALSE(book.value().tp.direct_all_reduce);
  // custom: the fields, from the book's values; a field set while the choice ignores it is flagged.
  const auto custom = validate_engine_hardware(inputs({{"step_model", "custom"}, {"efficiency_frac", "0.7"},
                                                       {"cuda_graph_padding", "on"}}), 2048, "x");
  REQUIRE(custom.ok());
  CHECK(custom.value().gpu.compute_efficiency == 0.7);
  CHECK(custom.value().gpu.cuda_graph_padding);
  CHECK(custom.value().gpu.bandwidth_efficiency == 1.0);
  CHECK_FALSE(custom.value().gpu.attention_roofline);
  const auto ignored = validate_engine_hardware(inputs({{"efficiency_frac", "0.7"}}), 2048, "x");
  REQUIRE(ignored.ok());
  CHECK(ignored.value().step_model.ignored_fields);
  CHECK(ignored.value().gpu.compute_efficiency == sl::llm::vllm_fit().knobs.compute_efficiency);
}

TEST_CASE("What an engine cell reports of its hardware: the ignored fields, the model's then the GPU's, then the step model",
          "[llm][engine_setup]") {
  const auto hw = validate_engine_hardware(inputs({{"layers", "40"}, {"mem_gib", "40"}, {"efficiency_frac", "0.7"}}),
                                           2048, "x");
  REQUIRE(hw.ok());
  sl::RunResult result;
  add_hardware_outputs(hw.value(), result);
  REQUIRE(result.notices.size() == 4);
  CHECK(result.notices[0].code == "custom_model_ignored");
  CHECK(result.notices[1].code == "custom_gpu_ignored");
  CHECK(result.notices[2].code == "step_model_fields_ignored");
  CHECK(result.notices[3].code == "step_model_fitted");
  REQUIRE(result.find_output("model_kv_per_token_bytes"));
  CHECK(*result.find_output("model_kv_per_token_bytes") == 131'072);  // Llama-3-8B at FP16 KV (§21)
}

TEST_CASE("Tensor parallelism over 2 GPUs halves each GPU's weights and KV per token, so the same reserve holds "
          "twice the tokens", "[llm][engine_setup][tensor_parallel]") {
  const auto one = validate_engine_hardware(inputs({}), 2048, "x");
  const auto two = validate_engine_hardware(inputs({{"tensor_parallel_size", "2"}}), 2048, "x");
  REQUIRE(two.ok());
  CHECK(two.value().tp.weight_bytes_per_gpu(two.value().model) == 4.015e9 / 2);
  CHECK(two.value().kv_bytes_per_token_per_gpu == 65'536);
  CHECK(two.value().pool_tokens == 2 * one.value().pool_tokens);
}

TEST_CASE("The 70B model fits one H100's KV reserve only when tensor parallelism leaves room", "[llm][engine_setup]") {
  // 35.3e9 B of INT4 weights leave 80 - 32.9 = 47.1 GiB: a 40 GiB reserve fits, 72 does not; over 4 GPUs
  // each holds 8.8 GB and 71.8 GiB remain, still short of 72 GiB; 64 GiB fits.
  const auto big = validate_engine_hardware(inputs({{"model", "llama3.1-70b"}}), 2048, "x");
  REQUIRE_FALSE(big.ok());
  CHECK(big.error().code == "too_large");
  CHECK(big.error().param == "kv_gib");
  CHECK(validate_engine_hardware(inputs({{"model", "llama3.1-70b"}, {"kv_gib", "40"}}), 2048, "x").ok());
  CHECK_FALSE(validate_engine_hardware(inputs({{"model", "llama3.1-70b"}, {"tensor_parallel_size", "4"}}), 2048, "x").ok());
  CHECK(validate_engine_hardware(inputs({{"model", "llama3.1-70b"}, {"tensor_parallel_size", "4"}, {"kv_gib", "64"}}),
                                 2048, "x").ok());
}

TEST_CASE("Filling the memory as vLLM does: the pool is mem_util_frac x memory minus the weights",
          "[llm][engine_setup]") {
  const auto hw = validate_engine_hardware(inputs({{"kv_pool", "fill"}, {"mem_util_frac", "0.9"}}), 2048, "x");
  REQUIRE(hw.ok());
  // 0.9 x 80 GiB - 4.015e9 B = 73.30 GiB, over 131,072 B per token.
  const double pool = 0.9 * 80 * sl::units::kGiB - 4.015e9;
  CHECK(hw.value().pool_tokens == static_cast<std::int64_t>(pool / 131'072));
  // A reserve beyond the usable memory is refused: 0.9 x 80 GiB leaves 68.26 GiB beside the weights.
  const auto over = validate_engine_hardware(inputs({{"mem_util_frac", "0.9"}}), 2048, "x");
  REQUIRE_FALSE(over.ok());
  CHECK(over.error().param == "kv_gib");
}

TEST_CASE("Engine hardware refuses splits vLLM refuses and weights that do not fit", "[llm][engine_setup]") {
  const auto three = validate_engine_hardware(inputs({{"tensor_parallel_size", "3"}}), 2048, "x");
  REQUIRE_FALSE(three.ok());
  CHECK(three.error().code == "invalid");
  CHECK(three.error().param == "tensor_parallel_size");
  const auto fp16_70b = validate_engine_hardware(inputs({{"model", "llama3.1-70b"}, {"weights", "fp16"}}), 2048, "x");
  REQUIRE_FALSE(fp16_70b.ok());  // 141.2 GB of FP16 weights on one 80 GiB GPU
  CHECK(fp16_70b.error().param == "weights");
}

TEST_CASE("A KV pool of more blocks than the simulator keeps is refused, naming kv_gib", "[llm][engine_setup]") {
  // A custom model of one layer of one KV head of dimension 1 keeps 4 B per token: 72 GiB would be 1.2e9 blocks.
  const auto tiny = validate_engine_hardware(
      inputs({{"model", "custom"}, {"layers", "1"}, {"heads", "1"}, {"kv_heads", "1"}, {"head_dim", "1"}}), 2048, "x");
  REQUIRE_FALSE(tiny.ok());
  CHECK(tiny.error().code == "too_large");
  CHECK(tiny.error().param == "kv_gib");
}

TEST_CASE("A pool stated in blocks holds blocks x block_size tokens, as vLLM's --num-gpu-blocks-override",
          "[llm][engine_setup][kv_pool]") {
  const auto hw = validate_engine_hardware(inputs({{"kv_pool", "blocks"}, {"num_gpu_blocks", "1000"}}), 2048, "x");
  REQUIRE(hw.ok());
  CHECK(hw.value().num_blocks == 1000);
  CHECK(hw.value().pool_tokens == 16'000);
  CHECK(hw.value().kv_pool_bytes_per_gpu == 16'000.0 * 131'072);
  // At their defaults blocks and tokens state the reserve's pool: 36,864 blocks, 589,824 tokens.
  for (const char* mode : {"blocks", "tokens"}) {
    const auto same = validate_engine_hardware(inputs({{"kv_pool", mode}}), 2048, "x");
    REQUIRE(same.ok());
    CHECK(same.value().pool_tokens == 589'824);
    CHECK(same.value().num_blocks == 36'864);
  }
}

TEST_CASE("A pool stated in tokens makes floor(tokens / block_size) blocks, as vLLM's 'GPU KV cache size'",
          "[llm][engine_setup][kv_pool]") {
  const auto hw = validate_engine_hardware(inputs({{"kv_pool", "tokens"}, {"kv_tokens", "100000"}, {"block_size", "32"}}),
                                           2048, "x");
  REQUIRE(hw.ok());
  CHECK(hw.value().pool_tokens == 100'000);
  CHECK(hw.value().num_blocks == 3'125);
  const auto odd = validate_engine_hardware(inputs({{"kv_pool", "tokens"}, {"kv_tokens", "100001"}}), 2048, "x");
  REQUIRE(odd.ok());
  CHECK(odd.value().num_blocks == 6'250);  // floor(100,001 / 16)
}

TEST_CASE("Filling the memory subtracts vLLM's activation reserve; a reserve that leaves no room is refused",
          "[llm][engine_setup][kv_pool]") {
  const std::map<std::string, std::string> fill = {{"kv_pool", "fill"}, {"mem_util_frac", "0.9"}};
  auto with_activation = fill;
  with_activation["activation_gib"] = "4";
  const auto hw = validate_engine_hardware(inputs(with_activation), 2048, "x");
  REQUIRE(hw.ok());
  // 0.9 x 80 GiB - 4.015e9 B - 4 GiB, over 131,072 B per token.
  const double pool = 0.9 * 80 * sl::units::kGiB - 4.015e9 - 4 * sl::units::kGiB;
  CHECK(hw.value().pool_tokens == static_cast<std::int64_t>(pool / 131'072));
  const auto none = validate_engine_hardware(inputs(fill), 2048, "x");
  REQUIRE(none.ok());
  CHECK(none.value().pool_tokens - hw.value().pool_tokens == 32'768);  // 4 GiB / 131,072 B
  auto too_much = fill;
  too_much["activation_gib"] = "70";  // 0.9 x 80 GiB leaves 68.26 GiB beside the weights
  const auto refused = validate_engine_hardware(inputs(too_much), 2048, "x");
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().code == "too_large");
  CHECK(refused.error().param == "activation_gib");
}

TEST_CASE("Every way of sizing the pool meets the same limits, each error naming the param that sized it",
          "[llm][engine_setup][kv_pool]") {
  const auto param_of = [](const std::map<std::string, std::string>& raw, std::int64_t min_tokens) {
    const auto hw = validate_engine_hardware(inputs(raw), min_tokens, "max_model_len");
    REQUIRE_FALSE(hw.ok());
    return hw.error().param;
  };
  // Beyond the memory beside the weights: 80 GiB - 4.015e9 B holds 624,727 tokens of 131,072 B.
  CHECK(param_of({{"kv_pool", "blocks"}, {"num_gpu_blocks", "50000"}}, 2048) == "num_gpu_blocks");
  CHECK(param_of({{"kv_pool", "tokens"}, {"kv_tokens", "700000"}}, 2048) == "kv_tokens");
  // Shorter than the longest request (2,048 tokens).
  CHECK(param_of({{"kv_pool", "blocks"}, {"num_gpu_blocks", "100"}}, 2048) == "num_gpu_blocks");
  CHECK(param_of({{"kv_pool", "tokens"}, {"kv_tokens", "2047"}}, 2048) == "kv_tokens");
  CHECK(param_of({{"kv_pool", "reserve"}, {"kv_gib", "0.1"}}, 2048) == "kv_gib");
  CHECK(param_of({{"kv_pool", "fill"}, {"mem_util_frac", "0.048"}}, 2048) == "mem_util_frac");
  // More blocks than the simulator keeps: 4 B per token of a one-head model, 2^24 blocks of 16 tokens.
  const std::map<std::string, std::string> tiny = {
      {"model", "custom"}, {"layers", "1"}, {"heads", "1"}, {"kv_heads", "1"}, {"head_dim", "1"}, {"kv_pool", "tokens"},
      {"kv_tokens", "300000000"}};
  const auto big = validate_engine_hardware(inputs(tiny), 2048, "x");
  REQUIRE_FALSE(big.ok());
  CHECK(big.error().code == "too_large");
  CHECK(big.error().param == "kv_tokens");
}

}  // namespace SL_UNITY_ID
