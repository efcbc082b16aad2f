#include "llm/model/model_inputs.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

#include "cell_runner.h"

namespace SL_UNITY_ID {

using namespace sl::llm;

namespace {

/// Checked inputs of a cell with just the model and GPU parameters (Llama-3-8B and H100 as defaults).
const InputsOf inputs{model_and_gpu_params()};

/// A real config.json (tests/unit/llm/fixtures/hf-config/).
std::string config_file(const std::string& name) {
  return cell_test::source_file("tests/unit/llm/fixtures/hf-config/" + name);
}

sl::Inputs inputs_with_file(std::map<std::string, std::string> raw, const std::string& file) {
  raw["model_config"] = file;
  return inputs(raw);
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

TEST_CASE("Every model preset is a choice of model, with config and custom after them", "[llm][model_inputs]") {
  const auto params = model_params(llama3_8b());
  const auto& choices = params.front().choices;
  REQUIRE(choices.size() == model_presets().size() + 2);
  for (std::size_t i = 0; i < model_presets().size(); ++i) CHECK(choices[i] == model_presets()[i].id);
  CHECK(choices[choices.size() - 2] == "config");
  CHECK(choices.back() == "custom");
  REQUIRE(choices.size() >= 12);  // issue 36: at least ten common models besides config and custom
}

TEST_CASE("The book's two presets keep the book's counts; the others are counted from their architecture",
          "[llm][model_inputs]") {
  const auto book = validate_model(inputs({{"model", "llama3.1-70b"}}), llama3_8b());
  REQUIRE(book.ok());
  CHECK(book.value().model.params == llama31_70b().params);
  CHECK(book.value().model.flop_params == 0);  // FLOPs from the book's 70.6e9, as every book row computes
  const auto qwen = validate_model(inputs({{"model", "qwen3-8b"}, {"weights", "fp8"}}), llama3_8b());
  REQUIRE(qwen.ok());
  const ModelSpec counted = model_spec_of(find_model_preset("qwen3-8b")->arch, 1.0, 2.0);
  CHECK(qwen.value().model.name == "qwen3-8b");
  CHECK(qwen.value().model.params == counted.params);
  CHECK(qwen.value().model.weight_bytes() == counted.params);  // FP8: one byte a weight
  CHECK(qwen.value().model.kv_bytes_per_token() == 2 * 36 * 8 * 128 * 2);  // 36 layers, 8 KV heads, d 128, FP16
}

TEST_CASE("model = config reads the file: Qwen3-8B's config.json gives the qwen3-8b preset's counts",
          "[llm][model_inputs]") {
  const auto from_file = validate_model(inputs_with_file({{"model", "config"}}, config_file("Qwen3-8B.json")), llama3_8b());
  const auto preset = validate_model(inputs({{"model", "qwen3-8b"}}), llama3_8b());
  REQUIRE(from_file.ok());
  REQUIRE(preset.ok());
  CHECK(from_file.value().model.params == preset.value().model.params);
  CHECK(from_file.value().model.flop_params == preset.value().model.flop_params);
  CHECK(from_file.value().model.kv_bytes_per_token() == preset.value().model.kv_bytes_per_token());
  // An MoE's file: active parameters well below the total, its experts and routing kept.
  const auto moe = validate_model(
      inputs_with_file({{"model", "config"}, {"routing_skew", "0.3"}}, config_file("Qwen3-30B-A3B.json")), llama3_8b());
  REQUIRE(moe.ok());
  const ModelSpec& m = moe.value().model;
  CHECK(m.num_experts == 128);
  CHECK(m.experts_per_token == 8);
  CHECK(m.routing_skew == 0.3);
  CHECK(m.active_params < m.params / 8);
}

TEST_CASE("model = config without a file, or with one the reader refuses, is one error at model_config",
          "[llm][model_inputs]") {
  const auto none = validate_model(inputs({{"model", "config"}}), llama3_8b());
  REQUIRE_FALSE(none.ok());
  CHECK(none.error().param == "model_config");
  const auto junk = validate_model(inputs_with_file({{"model", "config"}}, "{\"model_type\": \"llama\"}"), llama3_8b());
  REQUIRE_FALSE(junk.ok());
  CHECK(junk.error().param == "model_config");
  CHECK(junk.error().code == "config_missing_key");
  // A shape check_architecture refuses (KV heads that do not divide the heads) names the key, at the file.
  std::string file = config_file("Qwen3-8B.json");
  const std::string kv_heads = "\"num_key_value_heads\": 8";
  const auto at = file.find(kv_heads);
  REQUIRE(at != std::string::npos);
  file.replace(at, kv_heads.size(), "\"num_key_value_heads\": 5");
  const auto shape = validate_model(inputs_with_file({{"model", "config"}}, file), llama3_8b());
  REQUIRE_FALSE(shape.ok());
  CHECK(shape.error().param == "model_config");
  CHECK(shape.error().message.find("num_key_value_heads") != std::string::npos);
}

TEST_CASE("A dense preset ignores routing_skew; the model outputs report total and active counts",
          "[llm][model_inputs]") {
  const auto dense = validate_model(inputs({{"model", "qwen3-8b"}, {"routing_skew", "0.5"}}), llama3_8b());
  REQUIRE(dense.ok());
  CHECK(dense.value().model.routing_skew == 0);
  const auto moe = validate_model(inputs({{"model", "mixtral-8x7b"}, {"weights", "fp16"}}), llama3_8b());
  REQUIRE(moe.ok());
  sl::RunResult result;
  add_model_outputs(moe.value().model, result);
  const double total_b = *result.find_output("model_params_b");
  const double active_b = *result.find_output("model_active_params_b");
  CHECK(total_b == Approx(46.7).epsilon(0.01));   // Mixtral's published 46.7B and 12.9B
  CHECK(active_b == Approx(12.9).epsilon(0.01));
  CHECK(*result.find_output("model_weights_gb") == Approx(2 * total_b));  // FP16
  CHECK(*result.find_output("model_kv_per_token_bytes") == 2 * 32 * 8 * 128 * 2);
}

}  // namespace SL_UNITY_ID
