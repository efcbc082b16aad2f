#pragma once
// The keys of a config.json, family by family (parse_model_config's second half; llm/model/model_config.h documents
// the whole). Internal: included by model_config.cpp and model_config_keys.cpp only (it brings RapidJSON's DOM).
#include <string>

#include <rapidjson/document.h>

#include "core/error.h"
#include "llm/model/model_architecture.h"

namespace sl::llm {

/// How a family lays out its experts in config.json.
enum class ExpertKeys {
  None,      ///< dense
  Local,     ///< Mixtral, gpt-oss: num_local_experts of intermediate_size each
  Qwen,      ///< Qwen3-MoE: num_experts of moe_intermediate_size
  QwenShared,  ///< Qwen2-MoE: the same and one shared expert of shared_expert_intermediate_size
  DeepSeek,  ///< n_routed_experts and n_shared_experts of moe_intermediate_size, first_k_dense_replace dense layers
};

/// A model_type this reader knows, with what transformers' modeling code fixes for it.
struct Family {
  const char* model_type;
  const char* architecture;         ///< architectures[0] of its checkpoints
  ExpertKeys experts = ExpertKeys::None;
  bool is_mla = false;              ///< DeepSeek's multi-head latent attention
  bool qkv_bias = false;            ///< q, k, v biases whatever the file says (Qwen2)
  bool reads_attention_bias = false;  ///< attention_bias sets the q, k, v and o biases
  bool attention_bias_default = false;
  bool reads_mlp_bias = false;      ///< mlp_bias (Llama)
  bool mlp_bias = false;            ///< biases in the experts whatever the file says (gpt-oss)
  bool qk_norm = false;
  bool tie_default = false;         ///< tie_word_embeddings when absent
  std::int64_t first_dense_default = 0;  ///< first_k_dense_replace when absent (DeepSeek-V3: 3)
  std::int64_t shared_default = 0;       ///< n_shared_experts when absent (DeepSeek-V3: 1)
};

/// The family of a model_type, or nullptr.
const Family* family_of(const std::string& model_type);
/// The family whose checkpoints name this architecture (architectures[0]), or nullptr.
const Family* family_of_architecture(const std::string& architecture);
/// The model_type of the language model inside a multimodal wrapper that omits it ("mistral3" -> "mistral"), or "".
const char* wrapped_model_type(const std::string& outer_model_type);

/// The value of `key` in `object`, or nullptr: the last one when the key appears twice, as Python's json.load
/// (and so transformers) reads it.
const rapidjson::Value* member(const rapidjson::Value& object, const char* key);
/// A value as a message shows it: 4096.5, "4096" (quoted, cut), true, null, a list, an object.
std::string shown(const rapidjson::Value& v);
/// config_missing_key: "model_config: config.json has no <key> (<what>)".
Error missing_key(const std::string& key, const std::string& what);
/// bad_config_value: "model_config: config.json's <key> must be <expected>, got <got>".
Error bad_value(const std::string& key, const std::string& got, const std::string& expected);
/// config_unsupported_model: the model_type (or architecture) and the supported list.
Error unsupported(const std::string& key, const std::string& got);

/// The architecture facts of the language model `lm` (the file's top level, or its text_config: `prefix` is
/// then "text_config." and goes before every key a message names).
Result<ModelArchitecture> read_architecture(const rapidjson::Value& lm, const std::string& prefix, const Family& f);

}  // namespace sl::llm
