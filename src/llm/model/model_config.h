#pragma once
// A model given by its Hugging Face config.json (issue 36): the file's text read into a ModelArchitecture. The
// text comes from the CLI (--model_config @config.json) or from a file the page reads locally; it never leaves
// the machine, and nothing in it is trusted: size, nesting, types and ranges are checked before use.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "llm/model/model_architecture.h"

namespace sl::llm {

/// The parameter the file fills: every error of parse_model_config names it.
inline constexpr const char* kModelConfigParam = "model_config";
/// Largest config.json read (a real one is 1-10 kB; gpt-oss's, with its 36 layer_types, is under 2 kB).
inline constexpr std::int64_t kMaxModelConfigBytes = 1024 * 1024;
/// Deepest nesting of objects and lists (a config.json has 3: text_config, rope_scaling, a list in it).
inline constexpr int kMaxModelConfigDepth = 64;

/// The model_type values parse_model_config reads, in the order its messages list them.
const std::vector<std::string>& supported_model_types();

/// Reads a config.json as transformers would: model_type (or architectures[0] when model_type is absent) picks
/// the family; a multimodal wrapper's language model is read from text_config (Mistral 3, Gemma 3). Dimension
/// keys are required (hidden_size, intermediate_size, num_hidden_layers, num_attention_heads, vocab_size, the
/// experts' keys of an MoE, the latent ranks of MLA); switches and derived values take transformers' defaults:
///   num_key_value_heads   absent or null: num_attention_heads (MLA: num_attention_heads)
///   head_dim              absent or null: hidden_size / num_attention_heads, which must divide (MLA:
///                         qk_nope_head_dim + qk_rope_head_dim, the query/key head width)
///   tie_word_embeddings   absent: false, except Gemma (true); every family here defaults false in transformers
///   biases                Qwen2 / Qwen2-MoE: q, k, v always; gpt-oss: attention_bias (default true) for q, k,
///                         v and o, and the experts' biases; Llama, Qwen3, DeepSeek, Gemma: attention_bias
///                         (default false) for q, k, v and o; Llama: mlp_bias; Mistral, Mixtral, Phi-3: none
///   qk_norm               Qwen3, Qwen3-MoE, Gemma 3
///   shared experts        Qwen2-MoE: one of shared_expert_intermediate_size; DeepSeek: n_shared_experts
///                         (absent: 0 for V2, 1 for V3); first_k_dense_replace (absent: 0 for V2, 3 for V3)
/// name is _name_or_path when the file has one, else model_type. The architecture is not cross-checked here
/// (check_architecture does that). One Error, param = "model_config", message one line starting "model_config",
/// args {key, got} (and {line, column} for JSON errors). Codes:
///   too_large                over kMaxModelConfigBytes, refused before any parsing
///   config_empty             nothing but blanks
///   bad_config_json          not JSON (RapidJSON's reason at line:column), a top level or text_config that is
///                            not an object, nesting deeper than kMaxModelConfigDepth
///   config_missing_key       a required key absent: "config.json has no num_hidden_layers"
///   bad_config_value         a key of the wrong type (a string, a fraction, a bool where a whole number
///                            belongs), out of its range (below 1, or absurd: hidden_size over 1,048,576,
///                            layers over 10,000, vocab over 10^7, experts over 100,000), a head_dim that
///                            hidden_size / num_attention_heads leaves undefined, dense layers mixed into an MoE
///                            other than DeepSeek's first ones (decoder_sparse_step, mlp_only_layers)
///   config_unsupported_model a model_type outside supported_model_types(), listing them
Result<ModelArchitecture> parse_model_config(std::string_view json);

}  // namespace sl::llm
