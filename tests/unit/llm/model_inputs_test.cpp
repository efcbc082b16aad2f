#include "llm/model_inputs.h"

#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "cell_runner.h"

using namespace sl::llm;

namespace {

/// Checked inputs of a cell with just the model and GPU parameters (Llama-3-8B and H100 as defaults).
sl::Inputs inputs(const std::map<std::string, std::string>& raw) {
  return cell_test::parsed_inputs(model_and_gpu_params(llama3_8b(), h100()), raw);
}

}  // namespace

TEST_CASE("At the defaults the model and GPU are the presets, and nothing is reported ignored", "[llm][model_inputs]") {
  const auto model = validate_model(inputs({}), llama3_8b());
  const auto gpu = validate_gpu(inputs({}), h100());
  REQUIRE(model.ok());
  REQUIRE(gpu.ok());
  CHECK(model.value().model.weight_bytes() == llama3_8b().weight_bytes());
  CHECK(model.value().model.kv_bytes_per_token() == llama3_8b().kv_bytes_per_token());
  CHECK(gpu.value().gpu.memory_bytes == h100().memory_bytes);
  CHECK(gpu.value().gpu.hbm_bytes_per_s == h100().hbm_bytes_per_s);
  // The taxes go through ms and back: 0.01 ms each (§0).
  CHECK(gpu.value().gpu.layer_tax_s == h100().layer_tax_s);
  CHECK_FALSE(model.value().ignored_custom);
  CHECK_FALSE(gpu.value().ignored_custom);
}

TEST_CASE("A custom model takes its shape from the fields; KV per token is 2 L H_kv d bytes", "[llm][model_inputs]") {
  const auto m = validate_model(inputs({{"model", "custom"}, {"params_b", "7"}, {"layers", "32"}, {"heads", "32"},
                                        {"kv_heads", "32"}, {"head_dim", "128"}, {"weights", "fp16"}, {"kv", "fp8"}}),
                                llama3_8b());
  REQUIRE(m.ok());
  CHECK(m.value().model.params == 7'000'000'000);
  CHECK(m.value().model.weight_bytes() == 14'000'000'000);  // 7e9 x 2 B
  CHECK(m.value().model.kv_bytes_per_token() == 2 * 32 * 32 * 128 * 1);  // FP8 KV: 1 B per value
}

TEST_CASE("A custom model with more KV heads than heads is refused, naming kv_heads", "[llm][model_inputs]") {
  const auto m = validate_model(inputs({{"model", "custom"}, {"heads", "8"}, {"kv_heads", "16"}}), llama3_8b());
  REQUIRE_FALSE(m.ok());
  CHECK(m.error().code == "invalid");
  CHECK(m.error().param == "kv_heads");
}

TEST_CASE("A changed custom field under a preset is ignored and reported", "[llm][model_inputs]") {
  const auto m = validate_model(inputs({{"layers", "40"}}), llama3_8b());
  const auto g = validate_gpu(inputs({{"mem_gib", "40"}}), h100());
  REQUIRE(m.ok());
  REQUIRE(g.ok());
  CHECK(m.value().model.num_layers == llama3_8b().num_layers);
  CHECK(g.value().gpu.memory_bytes == h100().memory_bytes);
  sl::RunResult result;
  note_ignored_custom_fields(m.value(), result);
  note_ignored_custom_fields(g.value(), result);
  REQUIRE(result.notices.size() == 2);
  CHECK(result.notices[0].code == "custom_model_ignored");
  CHECK(result.notices[1].code == "custom_gpu_ignored");
}

TEST_CASE("A custom GPU reads TFLOP/s, TB/s and GiB; the old ids peak_tflops and bw_tb_s still work",
          "[llm][model_inputs]") {
  const auto g = validate_gpu(inputs({{"gpu", "custom"}, {"peak_tflops", "100"}, {"bw_tb_s", "2"}, {"mem_gib", "24"}}),
                              h100());
  REQUIRE(g.ok());
  CHECK(g.value().gpu.peak_flop_per_s == 100e12);
  CHECK(g.value().gpu.hbm_bytes_per_s == 2e12);
  CHECK(g.value().gpu.memory_bytes == 24 * (std::int64_t{1} << 30));
}
