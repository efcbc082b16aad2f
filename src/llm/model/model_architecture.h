#pragma once
// A model as engineers name it: the architecture its Hugging Face config.json gives (hidden size, layers, heads,
// KV heads, head dim, MLP width, vocabulary, tied embeddings, experts and experts per token, shared experts,
// multi-head latent attention), and what the step model needs from it, counted layer by layer:
//   attention  q: h x H d, k and v: h x K d each, o: H d x h (+ biases where the config has them);
//              MLA (DeepSeek-V2/V3): q (through q_lora_rank when set), kv_a: h x (r + d_rope), kv_b: r x H (d_nope +
//              d_v), o: H d_v x h; the KV cache holds the latent, r + d_rope elements a token a layer;
//   MLP        gated (SwiGLU): 3 x h x I; a mixture-of-experts layer: E routed experts and S shared ones of
//              3 x h x I_moe each, and a router h x E; a token runs k routed experts and every shared one;
//   norms      2 h a layer (+ q/k norms of d each when the config has them), h at the end;
//   embeddings V x h, and the LM head V x h unless tied.
// Total parameters count everything; active parameters count what one token uses (every expert it is routed to
// and the shared ones, both embedding tables as the model cards count them); FLOPs per token are 2 per active
// weight of the matrix products (the input embedding is a lookup, not a product).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "llm/model/step_time.h"

namespace sl::llm {

/// The preset of this id in `presets` (model or GPU presets, below), or nullptr.
template <typename Preset>
const Preset* find_preset(const std::vector<Preset>& presets, const std::string& id) {
  for (const Preset& p : presets) {
    if (p.id == id) return &p;
  }
  return nullptr;
}

/// The architecture facts of a decoder-only transformer, as config.json names them (the comments give the keys).
struct ModelArchitecture {
  std::string name;                        ///< an id ("qwen3-8b") or the config's model_type
  std::int64_t hidden_size = 0;            ///< hidden_size (gpt-oss, Llama, Qwen, Mistral)
  std::int64_t intermediate_size = 0;      ///< intermediate_size: the dense MLP's width
  std::int64_t num_layers = 0;             ///< num_hidden_layers
  std::int64_t num_heads = 0;              ///< num_attention_heads
  std::int64_t num_kv_heads = 0;           ///< num_key_value_heads (absent: = num_attention_heads)
  std::int64_t head_dim = 0;               ///< head_dim (absent: hidden_size / num_attention_heads)
  std::int64_t vocab_size = 0;             ///< vocab_size
  bool tie_embeddings = false;             ///< tie_word_embeddings
  bool attention_bias = false;             ///< q, k, v biases (Qwen2: always; attention_bias elsewhere)
  bool attention_out_bias = false;         ///< an o_proj bias too (gpt-oss)
  bool qk_norm = false;                    ///< per-head RMSNorm of q and k (Qwen3)
  bool mlp_bias = false;                   ///< biases in the MLP and experts (gpt-oss)
  // Mixture of experts (num_experts = 0: dense).
  std::int64_t num_experts = 0;            ///< num_local_experts | num_experts | n_routed_experts
  std::int64_t experts_per_token = 0;      ///< num_experts_per_tok | experts_per_token
  std::int64_t moe_intermediate_size = 0;  ///< moe_intermediate_size (absent: intermediate_size)
  std::int64_t num_shared_experts = 0;     ///< n_shared_experts (DeepSeek); Qwen2-MoE: 1 of shared_expert_intermediate_size
  std::int64_t shared_expert_intermediate_size = 0;  ///< 0: moe_intermediate_size
  std::int64_t first_dense_layers = 0;     ///< first_k_dense_replace (DeepSeek): layers with a dense MLP before the MoE ones
  // Multi-head latent attention (kv_lora_rank = 0: none).
  std::int64_t kv_lora_rank = 0;
  std::int64_t q_lora_rank = 0;
  std::int64_t qk_nope_head_dim = 0, qk_rope_head_dim = 0, v_head_dim = 0;

  bool is_moe() const { return num_experts > 0; }
  bool is_mla() const { return kv_lora_rank > 0; }
};

/// A dense Llama-style decoder (SwiGLU MLP, RMSNorm, RoPE, no biases, untied embeddings) of these sizes.
ModelArchitecture dense_decoder(std::string name, std::int64_t hidden, std::int64_t intermediate, std::int64_t layers,
                                std::int64_t heads, std::int64_t kv_heads, std::int64_t head_dim, std::int64_t vocab);
/// `a` made a mixture of experts: `experts` routed experts a layer, `per_token` of them run a token, each `width`
/// wide (0: intermediate_size).
ModelArchitecture with_experts(ModelArchitecture a, std::int64_t experts, std::int64_t per_token,
                               std::int64_t width = 0);

/// What the architecture adds up to.
struct ArchitectureCounts {
  std::int64_t total_params = 0;
  std::int64_t active_params = 0;      ///< a token's share: routed experts k of E, shared experts, both embeddings
  std::int64_t expert_params = 0;      ///< every routed expert of every layer (0 for a dense model)
  std::int64_t embedding_params = 0;   ///< the input embedding table (V x h)
  std::int64_t flop_params = 0;        ///< active_params - the input embedding: the weights a token multiplies
  std::int64_t kv_elements_per_token = 0;  ///< over all layers: 2 K d a layer, or r + d_rope with MLA
};

/// The largest value each field may take, far past any published model (hidden 16,384 and 126 layers for
/// Llama-3.1-405B, vocabularies of 262,144, 256 routed experts for DeepSeek-V3): they only refuse a description that
/// is wrong. check_architecture and the config.json reader (model_config.h) refuse the same values. Each field alone
/// keeps every int64 product of one layer far from overflow; the whole count is checked in double first.
namespace model_limits {
inline constexpr std::int64_t kHiddenSize = 1'048'576;
inline constexpr std::int64_t kIntermediateSize = 16'777'216;
inline constexpr std::int64_t kLayers = 10'000;
inline constexpr std::int64_t kHeads = 65'536;
inline constexpr std::int64_t kHeadDim = 65'536;
inline constexpr std::int64_t kVocabSize = 10'000'000;
inline constexpr std::int64_t kExperts = 100'000;
inline constexpr std::int64_t kLoraRank = 1'048'576;
inline constexpr double kTotalParams = 1e15;  // a million billion: 1,000 x the largest published model
}  // namespace model_limits

/// The counts of an architecture (its fields already checked by check_architecture).
ArchitectureCounts count_architecture(const ModelArchitecture& arch);

/// An error naming the first field that cannot describe a model (a size below 1, heads that do not divide, more
/// experts per token than experts, more KV heads than heads...), or none. Field names are config.json's keys.
std::optional<Error> check_architecture(const ModelArchitecture& arch);

/// The ModelSpec the step model computes with: the counts above, at these weight and KV precisions.
ModelSpec model_spec_of(const ModelArchitecture& arch, double bytes_per_weight, double bytes_per_kv);

/// A named model, its facts bundled with where they come from.
struct ModelPreset {
  std::string id;                  ///< the choice's value ("qwen3-8b"); the two book models keep their ids
  ModelArchitecture arch;
  double published_params_b = 0;   ///< the total its source publishes (billions)
  double published_active_b = 0;  ///< for an MoE: the active count it publishes (0: dense)
  std::string config_source;       ///< where the architecture facts are (the HF config.json, with its revision)
  std::string params_source;       ///< where the published counts are (model card, paper)
  double book_params = 0;          ///< the book's own rounding of the count (§0), used instead of the sum when set
};

/// Every model preset, the book's two first.
const std::vector<ModelPreset>& model_presets();
/// The preset of this id, or nullptr.
inline const ModelPreset* find_model_preset(const std::string& id) { return find_preset(model_presets(), id); }

/// A named GPU, each figure citing its datasheet.
struct GpuPreset {
  std::string id;        ///< the choice's value ("h100", "h200", "mi300x")
  GpuSpec spec;          ///< peaks, bandwidth, memory, link, power and price
  std::string source;    ///< the datasheet (URL, document and table)
  std::string price_source;  ///< where the $/h is, and the date it was read
};

/// Every GPU preset, the book's two first (h100, a100).
const std::vector<GpuPreset>& gpu_presets();
inline const GpuPreset* find_gpu_preset(const std::string& id) { return find_preset(gpu_presets(), id); }

}  // namespace sl::llm
