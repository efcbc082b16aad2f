#include "llm/model/model_config_keys.h"

#include <array>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>

#include "core/text.h"
#include "llm/model/model_config.h"

namespace sl::llm {

namespace {

// Ranges: the lower bounds are what a model needs (one layer, one head); the upper ones are model_limits'.
using namespace model_limits;
constexpr double kMaxExactInteger = 9007199254740992.0;  // 2^53

// transformers' configuration_<model_type>.py and modeling_<model_type>.py (v4.57): tie_word_embeddings defaults
// to False in every one of these configs except Gemma's (True); Qwen2's q/k/v projections have bias=True fixed and
// its o_proj none; gpt-oss's attention_bias defaults to True and its experts always carry biases; Qwen3 and
// Gemma 3 normalise q and k per head; DeepSeek-V3's first_k_dense_replace defaults to 3 and n_shared_experts to 1.
// Columns: model_type, architecture, experts, is_mla, qkv_bias, reads_attention_bias, attention_bias_default,
// reads_mlp_bias, mlp_bias, qk_norm, tie_default, first_dense_default, shared_default (llm/model/model_config_keys.h).
constexpr std::array<Family, 14> kFamilies = {{
    {"llama", "LlamaForCausalLM", ExpertKeys::None, false, false, true, false, true},
    {"mistral", "MistralForCausalLM"},
    {"mixtral", "MixtralForCausalLM", ExpertKeys::Local},
    {"qwen2", "Qwen2ForCausalLM", ExpertKeys::None, false, true},
    {"qwen2_moe", "Qwen2MoeForCausalLM", ExpertKeys::QwenShared, false, true},
    {"qwen3", "Qwen3ForCausalLM", ExpertKeys::None, false, false, true, false, false, false, true},
    {"qwen3_moe", "Qwen3MoeForCausalLM", ExpertKeys::Qwen, false, false, true, false, false, false, true},
    {"gpt_oss", "GptOssForCausalLM", ExpertKeys::Local, false, false, true, true, false, true},
    {"deepseek_v2", "DeepseekV2ForCausalLM", ExpertKeys::DeepSeek, true, false, true},
    {"deepseek_v3", "DeepseekV3ForCausalLM", ExpertKeys::DeepSeek, true, false, true, false, false, false, false,
     false, 3, 1},
    {"gemma", "GemmaForCausalLM", ExpertKeys::None, false, false, true, false, false, false, false, true},
    {"gemma2", "Gemma2ForCausalLM", ExpertKeys::None, false, false, true, false, false, false, false, true},
    {"gemma3_text", "Gemma3ForCausalLM", ExpertKeys::None, false, false, true, false, false, false, true, true},
    {"phi3", "Phi3ForCausalLM"},
}};

/// Reads keys of one object; the first error is kept and later reads return 0 (checked once at the end).
class Keys {
 public:
  Keys(const rapidjson::Value& lm, const std::string& prefix) : lm_(lm), prefix_(prefix) {}

  std::optional<Error> error;

  bool has(const char* key) const { return find(key) != nullptr; }
  /// Present and not null.
  bool given(const char* key) const { return has(key) && !find(key)->IsNull(); }

  /// A required whole number in [min, max].
  std::int64_t count(const char* key, std::int64_t min, std::int64_t max, const char* what) {
    if (error) return 0;
    if (!has(key)) {
      error = missing_key(prefix_ + key, what);
      return 0;
    }
    return whole(*find(key), key, min, max);
  }
  /// An optional whole number in [min, max]: absent or null (None in Python) gives `fallback`.
  std::int64_t count_or(const char* key, std::int64_t min, std::int64_t max, std::int64_t fallback) {
    if (error || !given(key)) return fallback;
    return whole(*find(key), key, min, max);
  }
  /// An optional true or false: absent or null gives `fallback`.
  bool flag_or(const char* key, bool fallback) {
    if (error || !given(key)) return fallback;
    const rapidjson::Value& v = *find(key);
    if (!v.IsBool()) {
      error = bad_value(prefix_ + key, shown(v), "true or false");
      error->args.push_back({"problem", "flag"});
    }
    return v.IsBool() ? v.GetBool() : fallback;
  }
  void fail(Error e) {
    if (!error) error = std::move(e);
  }
  const std::string& prefix() const { return prefix_; }
  const rapidjson::Value* find(const char* key) const { return member(lm_, key); }

 private:
  std::int64_t whole(const rapidjson::Value& v, const char* key, std::int64_t min, std::int64_t max) {
    const std::string expected = "a whole number in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
    std::optional<std::int64_t> x;
    if (v.IsInt64()) x = v.GetInt64();
    else if (v.IsDouble() && std::isfinite(v.GetDouble()) && std::floor(v.GetDouble()) == v.GetDouble() &&
             std::fabs(v.GetDouble()) <= kMaxExactInteger)
      x = static_cast<std::int64_t>(v.GetDouble());  // 4096.0: a whole number written as a float
    if (!x || *x < min || *x > max) {
      error = bad_value(prefix_ + key, shown(v), expected);
      error->args.insert(error->args.end(), {{"problem", "whole"}, {"min", std::to_string(min)}, {"max", std::to_string(max)}});
      return 0;
    }
    return *x;
  }

  const rapidjson::Value& lm_;
  const std::string& prefix_;
};

void read_attention(Keys& k, const Family& f, ModelArchitecture& a) {
  if (f.is_mla) {  // DeepSeek: q through q_lora_rank (null: a plain q_proj), k and v from a latent of kv_lora_rank
    a.kv_lora_rank = k.count("kv_lora_rank", 1, kLoraRank, "the rank of the latent the KV cache holds");
    if (!k.has("q_lora_rank") && !k.error) k.fail(missing_key(k.prefix() + "q_lora_rank", "null or the query's rank"));
    a.q_lora_rank = k.count_or("q_lora_rank", 1, kLoraRank, 0);
    a.qk_nope_head_dim = k.count("qk_nope_head_dim", 1, kHeadDim, "the query/key width without RoPE");
    a.qk_rope_head_dim = k.count("qk_rope_head_dim", 1, kHeadDim, "the query/key width with RoPE");
    a.v_head_dim = k.count("v_head_dim", 1, kHeadDim, "the value head width");
    a.head_dim = a.qk_nope_head_dim + a.qk_rope_head_dim;
    return;
  }
  if (k.given("head_dim")) {
    a.head_dim = k.count("head_dim", 1, kHeadDim, "");
    return;
  }
  if (k.error) return;
  if (a.hidden_size % a.num_heads != 0) {
    const std::string got = std::to_string(a.hidden_size) + " / " + std::to_string(a.num_heads);
    k.fail(Error{"bad_config_value", kModelConfigParam,
                 std::string(kModelConfigParam) + ": config.json has no " + k.prefix() + "head_dim, and hidden_size " +
                     std::to_string(a.hidden_size) + " is not a multiple of num_attention_heads " +
                     std::to_string(a.num_heads) + ", so hidden_size / num_attention_heads is no head width",
                 {{"key", k.prefix() + "head_dim"}, {"got", got}}});
    return;
  }
  a.head_dim = a.hidden_size / a.num_heads;
}

/// Refuses a file whose MoE model mixes in dense layers the way a count here cannot follow.
void refuse_mixed_layers(Keys& k, const char* key) {
  if (k.count_or(key, 1, kLayers, 1) != 1 && !k.error)
    k.fail(bad_value(k.prefix() + key, shown(*k.find(key)),
                     "1 (every layer an MoE layer: dense layers mixed in are not counted)"));
}

void read_experts(Keys& k, const Family& f, ModelArchitecture& a) {
  const char* per_token = "num_experts_per_tok";
  if (f.experts == ExpertKeys::None) return;
  if (f.experts == ExpertKeys::Local) {  // every expert is intermediate_size wide
    a.num_experts = k.count("num_local_experts", 1, kExperts, "the experts of a layer");
    if (!k.has(per_token) && k.has("experts_per_token")) per_token = "experts_per_token";  // gpt-oss writes both
    a.experts_per_token = k.count(per_token, 1, kExperts, "the experts a token runs");
    a.moe_intermediate_size = a.intermediate_size;
    return;
  }
  const bool deepseek = f.experts == ExpertKeys::DeepSeek;
  a.num_experts = k.count(deepseek ? "n_routed_experts" : "num_experts", 1, kExperts, "the experts of a layer");
  a.experts_per_token = k.count(per_token, 1, kExperts, "the experts a token runs");
  a.moe_intermediate_size = k.count("moe_intermediate_size", 1, kIntermediateSize, "an expert's width");
  if (deepseek) {
    a.num_shared_experts = k.count_or("n_shared_experts", 0, kExperts, f.shared_default);
    a.first_dense_layers = k.count_or("first_k_dense_replace", 0, kLayers, f.first_dense_default);
    refuse_mixed_layers(k, "moe_layer_freq");
    return;
  }
  refuse_mixed_layers(k, "decoder_sparse_step");
  const rapidjson::Value* dense = k.find("mlp_only_layers");
  if (dense != nullptr && !dense->IsNull() && !(dense->IsArray() && dense->Empty()))
    k.fail(bad_value(k.prefix() + "mlp_only_layers", shown(*dense),
                     "[] (every layer an MoE layer: dense layers mixed in are not counted)"));
  if (f.experts == ExpertKeys::QwenShared) {
    a.shared_expert_intermediate_size =
        k.count("shared_expert_intermediate_size", 0, kIntermediateSize, "the shared expert's width");
    a.num_shared_experts = a.shared_expert_intermediate_size > 0 ? 1 : 0;
  }
}

}  // namespace

const Family* family_of(const std::string& model_type) {
  for (const Family& f : kFamilies)
    if (model_type == f.model_type) return &f;
  return nullptr;
}

const Family* family_of_architecture(const std::string& architecture) {
  for (const Family& f : kFamilies)
    if (architecture == f.architecture) return &f;
  return nullptr;
}

const char* wrapped_model_type(const std::string& outer_model_type) {
  if (outer_model_type == "mistral3") return "mistral";  // Mistral-Small-3.1: text_config has no model_type
  if (outer_model_type == "gemma3") return "gemma3_text";
  return "";
}

const std::vector<std::string>& supported_model_types() {
  static const std::vector<std::string> types = [] {
    std::vector<std::string> out;
    for (const Family& f : kFamilies) out.emplace_back(f.model_type);
    return out;
  }();
  return types;
}

const rapidjson::Value* member(const rapidjson::Value& object, const char* key) {
  const rapidjson::Value* found = nullptr;
  for (const auto& m : object.GetObject())
    if (std::strcmp(m.name.GetString(), key) == 0 && m.name.GetStringLength() == std::strlen(key)) found = &m.value;
  return found;
}

std::string shown(const rapidjson::Value& v) {
  if (v.IsNull()) return "null";
  if (v.IsBool()) return v.GetBool() ? "true" : "false";
  if (v.IsString()) return "\"" + echo(std::string(v.GetString(), v.GetStringLength())) + "\"";
  if (v.IsArray()) return "a list";
  if (v.IsObject()) return "an object";
  if (v.IsInt64()) return std::to_string(v.GetInt64());
  if (v.IsUint64()) return std::to_string(v.GetUint64());
  return format_number(v.GetDouble());
}

Error missing_key(const std::string& key, const std::string& what) {
  return Error{"config_missing_key", kModelConfigParam,
               std::string(kModelConfigParam) + ": config.json has no " + echo(key, 80) +
                   (what.empty() ? "" : " (" + what + ")"),
               {{"key", echo(key, 80)}, {"got", ""}}};
}

Error bad_value(const std::string& key, const std::string& got, const std::string& expected) {
  return Error{"bad_config_value", kModelConfigParam,
               std::string(kModelConfigParam) + ": config.json's " + echo(key, 80) + " must be " + expected +
                   ", got " + got,
               {{"key", echo(key, 80)}, {"got", got}}};
}

Error unsupported(const std::string& key, const std::string& got) {
  std::string list;
  for (const auto& type : supported_model_types()) list += (list.empty() ? "" : ", ") + type;
  const std::string quoted = "\"" + echo(got, 64) + "\"";
  return Error{"config_unsupported_model", kModelConfigParam,
               std::string(kModelConfigParam) + ": " + echo(key, 80) + " " + quoted +
                   " is not a model this lab reads; supported model_type values: " + list +
                   " (a multimodal model's text_config is read when it holds one of these)",
               {{"key", echo(key, 80)}, {"got", quoted}, {"supported", list}}};
}

Result<ModelArchitecture> read_architecture(const rapidjson::Value& lm, const std::string& prefix, const Family& f) {
  Keys k(lm, prefix);
  ModelArchitecture a;
  a.hidden_size = k.count("hidden_size", 1, kHiddenSize, "the model's width");
  a.intermediate_size = k.count("intermediate_size", 1, kIntermediateSize, "the MLP's width");
  a.num_layers = k.count("num_hidden_layers", 1, kLayers, "the number of layers");
  a.num_heads = k.count("num_attention_heads", 1, kHeads, "the query heads of a layer");
  a.vocab_size = k.count("vocab_size", 1, kVocabSize, "the vocabulary's size");
  a.num_kv_heads = k.count_or("num_key_value_heads", 1, kHeads, a.num_heads);
  read_attention(k, f, a);
  read_experts(k, f, a);
  a.tie_embeddings = k.flag_or("tie_word_embeddings", f.tie_default);
  const bool bias = f.reads_attention_bias && k.flag_or("attention_bias", f.attention_bias_default);
  a.attention_bias = f.qkv_bias || bias;
  a.attention_out_bias = bias;
  a.mlp_bias = f.mlp_bias || (f.reads_mlp_bias && k.flag_or("mlp_bias", false));
  a.qk_norm = f.qk_norm;
  if (k.error) return *k.error;
  return a;
}

}  // namespace sl::llm
