#include "llm/model/model_config.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/text.h"
#include "cell_runner.h"

namespace SL_UNITY_ID {

using sl::llm::ModelArchitecture;
using sl::llm::parse_model_config;

namespace {

// Real config.json files, tests/unit/llm/fixtures/hf-config/, each the Hugging Face file's keys and values:
//   Llama-3.1-8B, Qwen3-8B, Qwen3-30B-A3B   meta-llama/Llama-3.1-8B, Qwen/Qwen3-8B, Qwen/Qwen3-30B-A3B, as
//                                            reproduced in github.com/citsjtu2020/LLM-Prof sglang/Model_Config.md
//   gpt-oss-20b                              openai/gpt-oss-20b, as tinygrad's gpt-oss test pins it (TORCH_PARAMS
//                                            ["20B"], transformers 4.57.0), layer_types written out
//   DeepSeek-V2-Lite                         deepseek-ai/DeepSeek-V2-Lite (transformers 4.39.3); its dimensions as
//                                            a V2-Lite loader checks them (every MLA and MoE key above), the rest
//                                            (bos/eos, rope_scaling, auto_map) as the model's file has them
//   Mistral-7B-v0.1, Mixtral-8x7B-v0.1       mistralai/Mistral-7B-v0.1, mistralai/Mixtral-8x7B-v0.1; their
//                                            dimensions match the config tests of two Rust model loaders
// The expected values below are read off those files, not from our output.
std::string fixture(const std::string& name) { return cell_test::source_file("tests/unit/llm/fixtures/hf-config/" + name); }

ModelArchitecture parsed(const std::string& json) { return cell_test::value_of(parse_model_config(json)); }

using cell_test::error_arg;
std::string arg(const sl::Error& e, const std::string& name) { return error_arg(e, name); }

/// The one error of a refused file: its code, the parameter, the key named in args and message, one line.
sl::Error refused(const std::string& json, const std::string& code, const std::string& key = "") {
  auto r = parse_model_config(json);
  REQUIRE_FALSE(r.ok());
  const sl::Error& e = r.error();
  INFO(e.message);
  CHECK(e.code == code);
  CHECK(e.param == "model_config");
  CHECK(e.message.rfind("model_config", 0) == 0);
  if (!key.empty()) {
    CHECK(arg(e, "key") == key);
    CHECK(e.message.find(key) != std::string::npos);
  }
  CHECK(sl::echo(e.message, static_cast<std::size_t>(-1)) == e.message);  // one line of valid UTF-8
  return e;
}

/// A small Llama config.json, with `key` set to the raw JSON `value` ("" removes the key).
std::string llama_with(const std::string& key = "", const std::string& value = "") {
  std::map<std::string, std::string> keys = {
      {"model_type", "\"llama\""}, {"hidden_size", "4096"},        {"intermediate_size", "14336"},
      {"num_hidden_layers", "32"}, {"num_attention_heads", "32"}, {"num_key_value_heads", "8"},
      {"vocab_size", "128256"}};
  if (!key.empty() && value.empty()) keys.erase(key);
  if (!key.empty() && !value.empty()) keys[key] = value;
  std::string json = "{";
  for (const auto& [k, v] : keys) json += (json.size() > 1 ? ",\n  \"" : "\n  \"") + k + "\": " + v;
  return json + "\n}\n";
}

}  // namespace

TEST_CASE("Each config.json file parses to the dimensions and experts it states", "[llm][model-config]") {
  struct Expected {
    const char* file;
    std::int64_t hidden, intermediate, layers, heads, kv_heads, head_dim, vocab;
    std::int64_t experts, per_token, expert_width, shared_experts, first_dense_layers;
  };
  // head_dim where the file has no head_dim key: hidden / heads (Llama, Mistral, Mixtral), or MLA's query/key width
  // qk_nope + qk_rope = 128 + 64 (DeepSeek-V2-Lite). Qwen3-30B-A3B gives its own: 32 x 128 = 4096, not hidden.
  // Mixtral's experts are intermediate_size wide; gpt-oss's too (2880).
  const Expected cases[] = {
      {"Llama-3.1-8B.json", 4096, 14336, 32, 32, 8, 128, 128256, 0, 0, 0, 0, 0},
      {"Mistral-7B-v0.1.json", 4096, 14336, 32, 32, 8, 128, 32000, 0, 0, 0, 0, 0},
      {"Qwen3-8B.json", 4096, 12288, 36, 32, 8, 128, 151936, 0, 0, 0, 0, 0},
      {"Mixtral-8x7B-v0.1.json", 4096, 14336, 32, 32, 8, 128, 32000, 8, 2, 14336, 0, 0},
      {"Qwen3-30B-A3B.json", 2048, 6144, 48, 32, 4, 128, 151936, 128, 8, 768, 0, 0},
      {"gpt-oss-20b.json", 2880, 2880, 24, 64, 8, 64, 201088, 32, 4, 2880, 0, 0},
      {"DeepSeek-V2-Lite.json", 2048, 10944, 27, 16, 16, 192, 102400, 64, 6, 1408, 2, 1},
  };
  for (const Expected& x : cases) {
    INFO(x.file);
    const ModelArchitecture a = parsed(fixture(x.file));
    CHECK(a.hidden_size == x.hidden);
    CHECK(a.intermediate_size == x.intermediate);
    CHECK(a.num_layers == x.layers);
    CHECK(a.num_heads == x.heads);
    CHECK(a.num_kv_heads == x.kv_heads);
    CHECK(a.head_dim == x.head_dim);
    CHECK(a.vocab_size == x.vocab);
    CHECK(a.is_moe() == (x.experts > 0));
    if (!a.is_moe()) continue;
    CHECK(a.num_experts == x.experts);
    CHECK(a.experts_per_token == x.per_token);
    CHECK(a.moe_intermediate_size == x.expert_width);
    CHECK(a.num_shared_experts == x.shared_experts);
    CHECK(a.first_dense_layers == x.first_dense_layers);
  }
}

TEST_CASE("Dense config.json files of Llama-3.1-8B, Mistral-7B and Qwen3-8B give their names, biases and norms",
          "[llm][model-config]") {
  const ModelArchitecture llama = parsed(fixture("Llama-3.1-8B.json"));
  CHECK(llama.name == "llama");
  CHECK_FALSE(llama.tie_embeddings);
  CHECK_FALSE(llama.attention_bias);
  CHECK_FALSE(llama.mlp_bias);
  CHECK_FALSE(llama.qk_norm);
  CHECK_FALSE(llama.is_mla());

  CHECK(parsed(fixture("Mistral-7B-v0.1.json")).name == "mistral");

  const ModelArchitecture qwen = parsed(fixture("Qwen3-8B.json"));
  CHECK(qwen.qk_norm);  // Qwen3's q_norm and k_norm
  CHECK_FALSE(qwen.attention_bias);
  CHECK_FALSE(qwen.tie_embeddings);
}

TEST_CASE("MoE config.json files of Qwen3-30B-A3B and gpt-oss-20b give their norms and biases",
          "[llm][model-config]") {
  CHECK(parsed(fixture("Qwen3-30B-A3B.json")).qk_norm);

  const ModelArchitecture oss = parsed(fixture("gpt-oss-20b.json"));
  CHECK(oss.attention_bias);
  CHECK(oss.attention_out_bias);
  CHECK(oss.mlp_bias);
  CHECK_FALSE(oss.tie_embeddings);
}

TEST_CASE("DeepSeek-V2-Lite's config.json gives multi-head latent attention", "[llm][model-config]") {
  const ModelArchitecture ds = parsed(fixture("DeepSeek-V2-Lite.json"));
  CHECK(ds.is_mla());
  CHECK(ds.kv_lora_rank == 512);
  CHECK(ds.q_lora_rank == 0);  // null: a plain q_proj
  CHECK(ds.qk_nope_head_dim == 128);
  CHECK(ds.qk_rope_head_dim == 64);
  CHECK(ds.v_head_dim == 128);
}

TEST_CASE("Absent keys take transformers' defaults, family by family", "[llm][model-config]") {
  SECTION("num_key_value_heads absent or null: one KV head per query head") {
    CHECK(parsed(llama_with("num_key_value_heads")).num_kv_heads == 32);
    CHECK(parsed(llama_with("num_key_value_heads", "null")).num_kv_heads == 32);
  }
  SECTION("head_dim absent: hidden_size / num_attention_heads; given: as given") {
    CHECK(parsed(llama_with("num_attention_heads", "64")).head_dim == 64);
    CHECK(parsed(llama_with("head_dim", "256")).head_dim == 256);
  }
  SECTION("tie_word_embeddings: false unless given, except Gemma's default true") {
    CHECK_FALSE(parsed(llama_with()).tie_embeddings);
    CHECK(parsed(llama_with("tie_word_embeddings", "true")).tie_embeddings);
    CHECK(parsed(llama_with("model_type", "\"gemma\"")).tie_embeddings);
    CHECK_FALSE(parsed(llama_with("model_type", "\"qwen2\"")).tie_embeddings);
  }
  SECTION("biases: Qwen2's q/k/v always, gpt-oss's by default, Llama's when attention_bias says so") {
    const ModelArchitecture qwen2 = parsed(llama_with("model_type", "\"qwen2\""));
    CHECK(qwen2.attention_bias);
    CHECK_FALSE(qwen2.attention_out_bias);
    CHECK(parsed(llama_with("attention_bias", "true")).attention_out_bias);
    CHECK_FALSE(parsed(llama_with("model_type", "\"mistral\"")).attention_bias);
  }
  SECTION("name: _name_or_path when given, else model_type") {
    CHECK(parsed(llama_with("_name_or_path", "\"meta-llama/Llama-3.1-8B\"")).name == "meta-llama/Llama-3.1-8B");
    CHECK(parsed(llama_with()).name == "llama");
  }
  SECTION("no model_type: architectures[0] names the family") {
    const std::string json = llama_with("model_type", "") ;
    const std::string with_arch = json.substr(0, json.size() - 3) + ",\n  \"architectures\": [\"Qwen2ForCausalLM\"]\n}\n";
    CHECK(parsed(with_arch).attention_bias);  // read as qwen2
  }
  SECTION("4096.0 is a whole number") { CHECK(parsed(llama_with("hidden_size", "4096.0")).hidden_size == 4096); }
  SECTION("a key given twice counts as its last value, as Python's json.load reads it") {
    CHECK(parsed(llama_with().insert(1, "\"vocab_size\": 7,")).vocab_size == 128256);
    refused(llama_with().insert(llama_with().size() - 3, ", \"vocab_size\": \"x\""), "bad_config_value", "vocab_size");
  }
}

TEST_CASE("A multimodal wrapper is read from its text_config", "[llm][model-config]") {
  // Mistral-Small-3.1's layout: model_type mistral3, the language model in text_config without a model_type.
  const std::string mistral3 = R"({"model_type": "mistral3", "architectures": ["Mistral3ForConditionalGeneration"],
    "_name_or_path": "mistralai/Mistral-Small-3.1-24B-Instruct-2503",
    "text_config": {"head_dim": 128, "hidden_size": 5120, "intermediate_size": 32768, "num_attention_heads": 32,
                    "num_hidden_layers": 40, "num_key_value_heads": 8, "vocab_size": 131072},
    "vision_config": {"hidden_size": 1024, "model_type": "pixtral"}})";
  const ModelArchitecture a = parsed(mistral3);
  CHECK(a.name == "mistralai/Mistral-Small-3.1-24B-Instruct-2503");
  CHECK(a.hidden_size == 5120);
  CHECK(a.num_layers == 40);
  CHECK(a.head_dim == 128);
  CHECK(a.vocab_size == 131072);
  const sl::Error e = refused(R"({"model_type": "mistral3", "text_config": {"model_type": "mistral"}})",
                              "config_missing_key", "text_config.hidden_size");
  CHECK(e.message == "model_config: config.json has no text_config.hidden_size (the model's width)");
  refused(R"({"model_type": "llama4", "text_config": {"model_type": "llama4_text"}})", "config_unsupported_model",
          "text_config.model_type");
  refused(R"({"model_type": "llava", "text_config": 5})", "bad_config_value", "text_config");
}

TEST_CASE("Files that are not one JSON object are refused with line and column", "[llm][model-config]") {
  sl::Error e = refused("{\n  \"model_type\": \"llama\",\n  \"hidden_size\" 4096\n}", "bad_config_json");
  CHECK(e.message.rfind("model_config, line 3, column 17: not JSON: ", 0) == 0);
  CHECK(arg(e, "line") == "3");
  CHECK(arg(e, "column") == "17");
  e = refused("{\"model_type\": \"llama\",", "bad_config_json");
  CHECK(e.message.find("The file ends here: is it cut short?") != std::string::npos);
  e = refused("", "config_empty");
  CHECK(e.message == "model_config: the file is empty; expected a Hugging Face config.json, a JSON object");
  refused(" \n\t ", "config_empty");
  e = refused("[{\"model_type\": \"llama\"}]", "bad_config_json");
  CHECK(e.message == "model_config, line 1, column 1: the file holds a JSON list, not an object: a config.json is "
                     "one object of keys");
  refused("4096", "bad_config_json");
  refused("{} {}", "bad_config_json");
  refused(std::string("{\"model_type\": \"llama\"\0}", 24), "bad_config_json");
  refused("{\"model_type\": \"ll\xff\"}", "bad_config_json");  // not UTF-8
}

TEST_CASE("Size and nesting are bounded before anything is read: 50 MB and 10,000 levels", "[llm][model-config]") {
  // 50 MB: refused on its size alone (no parse: the text is not even JSON past its first byte).
  const std::string huge(50'000'000, '{');
  sl::Error e = refused(huge, "too_large");
  CHECK(e.message == "model_config: the file is 50000000 bytes; at most 1048576 bytes (1 MiB) are read, and a "
                     "config.json is a few kB");
  CHECK(arg(e, "got") == "50000000");
  refused(std::string(1024 * 1024 + 1, ' '), "too_large");
  // 10,000 levels of lists, and of objects: refused at level 65 by the iterative reader, no recursion.
  e = refused(std::string(10'000, '[') + std::string(10'000, ']'), "bad_config_json");
  CHECK(e.message == "model_config, line 1, column 65: nests lists and objects deeper than 64 levels");
  std::string objects;
  for (int i = 0; i < 10'000; ++i) objects += "{\"a\":";
  refused(objects + "1" + std::string(10'000, '}'), "bad_config_json");
  // 64 levels are fine (and ignored: an unknown key).
  const std::string deep = std::string(63, '[') + std::string(63, ']');
  CHECK(parse_model_config(llama_with("rope_scaling", deep)).ok());
}

TEST_CASE("A missing required key is named", "[llm][model-config]") {
  const char* required[] = {"hidden_size", "intermediate_size", "num_hidden_layers", "num_attention_heads",
                            "vocab_size"};
  for (const char* key : required) refused(llama_with(key, ""), "config_missing_key", key);
  const sl::Error e = refused(llama_with("num_hidden_layers", ""), "config_missing_key", "num_hidden_layers");
  CHECK(e.message == "model_config: config.json has no num_hidden_layers (the number of layers)");
  refused(llama_with("model_type", ""), "config_missing_key", "model_type");
  std::string moe = fixture("Qwen3-30B-A3B.json");
  moe.replace(moe.find("\"num_experts\""), 1, "\"x");
  refused(moe, "config_missing_key", "num_experts");
  std::string mla = fixture("DeepSeek-V2-Lite.json");
  mla.replace(mla.find("\"q_lora_rank\""), 1, "\"x");
  refused(mla, "config_missing_key", "q_lora_rank");
}

TEST_CASE("Values of the wrong type, fractional, below 1 or absurd are refused, naming the key",
          "[llm][model-config]") {
  sl::Error e = refused(llama_with("hidden_size", "\"4096\""), "bad_config_value", "hidden_size");
  CHECK(e.message == "model_config: config.json's hidden_size must be a whole number in [1, 1048576], got \"4096\"");
  CHECK(arg(e, "got") == "\"4096\"");
  e = refused(llama_with("hidden_size", "4096.5"), "bad_config_value", "hidden_size");
  CHECK(e.message == "model_config: config.json's hidden_size must be a whole number in [1, 1048576], got 4096.5");
  e = refused(llama_with("num_attention_heads", "-32"), "bad_config_value", "num_attention_heads");
  CHECK(e.message ==
        "model_config: config.json's num_attention_heads must be a whole number in [1, 65536], got -32");
  e = refused(llama_with("num_hidden_layers", "10001"), "bad_config_value", "num_hidden_layers");
  CHECK(e.message ==
        "model_config: config.json's num_hidden_layers must be a whole number in [1, 10000], got 10001");
  // A small Llama file with one key of a bad value: that key is refused.
  const std::vector<std::pair<std::string, std::string>> bad_values = {
      {"num_hidden_layers", "true"}, {"num_hidden_layers", "null"}, {"vocab_size", "[128256]"}, {"vocab_size", "NaN"},
      {"vocab_size", "1e300"}, {"vocab_size", "18446744073709551615"}, {"num_key_value_heads", "0"},
      {"intermediate_size", "0"}, {"hidden_size", "1048577"}, {"vocab_size", "10000001"},
      {"tie_word_embeddings", "1"}, {"model_type", "7"}};
  for (const auto& [key, value] : bad_values) {
    INFO(key << ": " << value);
    refused(llama_with(key, value), "bad_config_value", key);
  }
  std::string mixtral = fixture("Mixtral-8x7B-v0.1.json");
  mixtral.replace(mixtral.find("\"num_local_experts\": 8"), 22, "\"num_local_experts\": 100001");
  e = refused(mixtral, "bad_config_value", "num_local_experts");
  CHECK(e.message ==
        "model_config: config.json's num_local_experts must be a whole number in [1, 100000], got 100001");
  std::string qwen = fixture("Qwen3-30B-A3B.json");
  qwen.replace(qwen.find("\"mlp_only_layers\": []"), 21, "\"mlp_only_layers\": [0]");
  refused(qwen, "bad_config_value", "mlp_only_layers");
}

TEST_CASE("head_dim absent with hidden_size not a multiple of the heads is refused", "[llm][model-config]") {
  const sl::Error e = refused(llama_with("num_attention_heads", "48"), "bad_config_value", "head_dim");
  CHECK(e.message == "model_config: config.json has no head_dim, and hidden_size 4096 is not a multiple of "
                     "num_attention_heads 48, so hidden_size / num_attention_heads is no head width");
  CHECK(arg(e, "got") == "4096 / 48");
  CHECK(parsed(llama_with("num_attention_heads", "48").insert(1, "\"head_dim\": 128,")).head_dim == 128);
}

TEST_CASE("An unknown model_type is refused with the supported ones listed", "[llm][model-config]") {
  sl::Error e = refused(llama_with("model_type", "\"bert\""), "config_unsupported_model", "model_type");
  CHECK(e.message == "model_config: model_type \"bert\" is not a model this lab reads; supported model_type values: "
                     "llama, mistral, mixtral, qwen2, qwen2_moe, qwen3, qwen3_moe, gpt_oss, deepseek_v2, "
                     "deepseek_v3, gemma, gemma2, gemma3_text, phi3 (a multimodal model's text_config is read when "
                     "it holds one of these)");
  CHECK(arg(e, "got") == "\"bert\"");
  const std::string no_type = llama_with("model_type", "");
  e = refused(no_type.substr(0, no_type.size() - 3) + ",\n  \"architectures\": [\"BertModel\"]\n}",
              "config_unsupported_model", "architectures[0]");
  // A hostile model_type is echoed cut, as one line.
  e = refused(llama_with("model_type", "\"" + std::string(500, 'x') + "\\n\\u001b[31m\""), "config_unsupported_model",
              "model_type");
  CHECK(e.message.size() < 600);
}

}  // namespace SL_UNITY_ID
