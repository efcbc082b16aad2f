#include "llm/model/model_architecture.h"

#include <algorithm>
#include <utility>

namespace sl::llm {

ModelArchitecture dense_decoder(std::string name, std::int64_t hidden, std::int64_t intermediate, std::int64_t layers,
                                std::int64_t heads, std::int64_t kv_heads, std::int64_t head_dim, std::int64_t vocab) {
  ModelArchitecture a;
  a.name = std::move(name);
  a.hidden_size = hidden;
  a.intermediate_size = intermediate;
  a.num_layers = layers;
  a.num_heads = heads;
  a.num_kv_heads = kv_heads;
  a.head_dim = head_dim;
  a.vocab_size = vocab;
  return a;
}

ModelArchitecture with_experts(ModelArchitecture a, std::int64_t experts, std::int64_t per_token, std::int64_t width) {
  a.num_experts = experts;
  a.experts_per_token = per_token;
  a.moe_intermediate_size = width;
  return a;
}

namespace {

/// The architecture with config.json's defaults applied: KV heads = heads and head_dim = h / H when absent, the
/// experts' width = intermediate_size and the shared experts' = the experts' when absent.
struct Resolved {
  std::int64_t kv_heads, head_dim, moe_width, shared_width, moe_layers;
};

Resolved resolve(const ModelArchitecture& a) {
  Resolved r{};
  r.kv_heads = a.num_kv_heads > 0 ? a.num_kv_heads : a.num_heads;
  r.head_dim = a.head_dim > 0 ? a.head_dim : (a.num_heads > 0 ? a.hidden_size / a.num_heads : 0);
  r.moe_width = a.moe_intermediate_size > 0 ? a.moe_intermediate_size : a.intermediate_size;
  r.shared_width = a.shared_expert_intermediate_size > 0 ? a.shared_expert_intermediate_size : r.moe_width;
  r.moe_layers = a.is_moe() ? a.num_layers - a.first_dense_layers : 0;
  return r;
}

/// One layer's attention weights: projections, their biases and the q/k (or latent) norms. In T = double for the
/// overflow check, in int64 for the count.
template <class T>
T attention_params(const ModelArchitecture& a, const Resolved& r) {
  const T h = T(a.hidden_size), heads = T(a.num_heads);
  if (a.is_mla()) {
    const T qk_dim = T(a.qk_nope_head_dim + a.qk_rope_head_dim), q_rank = T(a.q_lora_rank), kv_rank = T(a.kv_lora_rank);
    const T q = a.q_lora_rank > 0 ? h * q_rank + q_rank + q_rank * heads * qk_dim  // q_a, q_a_layernorm, q_b
                                  : h * heads * qk_dim;                            // q_proj
    const T kv_a = h * (kv_rank + T(a.qk_rope_head_dim)) + kv_rank;               // kv_a_proj_with_mqa, kv_a_layernorm
    const T kv_b = kv_rank * heads * T(a.qk_nope_head_dim + a.v_head_dim);
    const T o = heads * T(a.v_head_dim) * h;
    return q + kv_a + kv_b + o;
  }
  const T q_width = heads * T(r.head_dim), kv_width = T(r.kv_heads) * T(r.head_dim);
  T n = T(2) * h * q_width + T(2) * h * kv_width;  // q and o, k and v
  if (a.attention_bias) n += q_width + T(2) * kv_width;
  if (a.attention_out_bias) n += h;
  if (a.qk_norm) n += T(2) * T(r.head_dim);
  return n;
}

/// A gated MLP of this width (gate, up, down), with its biases when the config has them.
std::int64_t gated_mlp_params(const ModelArchitecture& a, std::int64_t width) {
  return 3 * a.hidden_size * width + (a.mlp_bias ? 2 * width + a.hidden_size : 0);
}

std::optional<Error> out_of_range(const std::string& key, std::int64_t got, std::int64_t lo, std::int64_t hi) {
  if (got >= lo && got <= hi) return std::nullopt;
  const std::string lo_text = format_number(static_cast<double>(lo)), hi_text = format_number(static_cast<double>(hi));
  return Error{"out_of_range", key,
               key + " must be in [" + lo_text + ", " + hi_text + "], got " + format_number(static_cast<double>(got)),
               {{"min", lo_text}, {"max", hi_text}, {"got", format_number(static_cast<double>(got))}, {"problem", "config_key"}}};
}

/// Each field alone, in config.json's order of importance; the first out of its range.
std::optional<Error> check_fields(const ModelArchitecture& a) {
  const bool needs_dense_mlp = !a.is_moe() || a.first_dense_layers > 0 || a.moe_intermediate_size == 0;
  const std::int64_t heads_cap = a.num_heads > 0 ? a.num_heads : model_limits::kHeads;
  const struct {
    const char* key;
    std::int64_t got, lo, hi;
  } fields[] = {
      {"hidden_size", a.hidden_size, 1, model_limits::kHiddenSize},
      {"intermediate_size", a.intermediate_size, needs_dense_mlp ? 1 : 0, model_limits::kIntermediateSize},
      {"num_hidden_layers", a.num_layers, 1, model_limits::kLayers},
      {"num_attention_heads", a.num_heads, 1, model_limits::kHeads},
      {"num_key_value_heads", a.num_kv_heads, 0, a.is_mla() ? model_limits::kHeads : heads_cap},  // 0: absent
      {"head_dim", a.head_dim, 0, model_limits::kHeadDim},                                         // 0: absent
      {"vocab_size", a.vocab_size, 1, model_limits::kVocabSize},
      {"num_experts", a.num_experts, 0, model_limits::kExperts},
      {"num_experts_per_tok", a.experts_per_token, a.is_moe() ? 1 : 0, a.num_experts},
      {"moe_intermediate_size", a.moe_intermediate_size, 0, model_limits::kIntermediateSize},
      {"n_shared_experts", a.num_shared_experts, 0, model_limits::kExperts},
      {"shared_expert_intermediate_size", a.shared_expert_intermediate_size, 0, model_limits::kIntermediateSize},
      {"first_k_dense_replace", a.first_dense_layers, 0, a.is_moe() ? a.num_layers : 0},
      {"kv_lora_rank", a.kv_lora_rank, 0, model_limits::kLoraRank},
      {"q_lora_rank", a.q_lora_rank, 0, model_limits::kLoraRank},
      {"qk_nope_head_dim", a.qk_nope_head_dim, a.is_mla() ? 1 : 0, model_limits::kHeadDim},
      {"qk_rope_head_dim", a.qk_rope_head_dim, a.is_mla() ? 1 : 0, model_limits::kHeadDim},
      {"v_head_dim", a.v_head_dim, a.is_mla() ? 1 : 0, model_limits::kHeadDim},
  };
  for (const auto& f : fields) {
    if (auto e = out_of_range(f.key, f.got, f.lo, f.hi)) return e;
  }
  return std::nullopt;
}

/// How the fields fit together: KV heads share the query heads evenly, and an absent head_dim divides hidden_size.
std::optional<Error> check_shapes(const ModelArchitecture& a) {
  if (!a.is_mla() && a.num_kv_heads > 0 && a.num_heads % a.num_kv_heads != 0) {
    return Error{"invalid", "num_key_value_heads",
                 "num_key_value_heads must divide num_attention_heads (" + format_number(static_cast<double>(a.num_heads)) + "), got " +
                     format_number(static_cast<double>(a.num_kv_heads)),
                 {{"got", format_number(static_cast<double>(a.num_kv_heads))}, {"problem", "kv_heads_divide"},
                  {"heads", format_number(static_cast<double>(a.num_heads))}}};
  }
  if (!a.is_mla() && a.head_dim == 0 && a.hidden_size % a.num_heads != 0) {
    return Error{"invalid", "head_dim",
                 "head_dim is needed when num_attention_heads (" + format_number(static_cast<double>(a.num_heads)) +
                     ") does not divide hidden_size (" + format_number(static_cast<double>(a.hidden_size)) + ")",
                 {{"problem", "head_dim_needed"}, {"heads", format_number(static_cast<double>(a.num_heads))},
                  {"hidden", format_number(static_cast<double>(a.hidden_size))}}};
  }
  return std::nullopt;
}

/// The whole count, in double (it cannot overflow there), against model_limits::kTotalParams; the field blamed is the one
/// whose product is largest: the layers when one layer is sane, else the layer's MLP or attention.
std::optional<Error> check_total(const ModelArchitecture& a) {
  const Resolved r = resolve(a);
  const double h = static_cast<double>(a.hidden_size);
  const double attention = attention_params<double>(a, r);
  const double experts = static_cast<double>(a.num_experts) * static_cast<double>(r.moe_width) +
                         static_cast<double>(a.num_shared_experts) * static_cast<double>(r.shared_width);
  const double mlp = 3.0 * h * std::max(experts, static_cast<double>(a.intermediate_size));
  const double layer = attention + mlp;
  const double total = static_cast<double>(a.num_layers) * layer + 2.0 * h * static_cast<double>(a.vocab_size);
  if (total <= model_limits::kTotalParams) return std::nullopt;
  const char* blamed = layer * 10.0 <= model_limits::kTotalParams ? "num_hidden_layers"
                       : mlp < attention                ? "num_attention_heads"
                       : a.is_moe()                     ? "num_experts"
                                                        : "intermediate_size";
  return too_large(blamed, total, model_limits::kTotalParams, "parameters", "the parameter count");
}

}  // namespace

std::optional<Error> check_architecture(const ModelArchitecture& arch) {
  if (auto e = check_fields(arch)) return e;
  if (auto e = check_shapes(arch)) return e;
  return check_total(arch);
}

ArchitectureCounts count_architecture(const ModelArchitecture& a) {
  const Resolved r = resolve(a);
  const std::int64_t h = a.hidden_size;
  const std::int64_t expert = gated_mlp_params(a, r.moe_width);
  const std::int64_t router = h * a.num_experts + (a.mlp_bias ? a.num_experts : 0);
  const std::int64_t moe_layer_shared = a.num_shared_experts * gated_mlp_params(a, r.shared_width) + router;
  const std::int64_t dense_layers = a.num_layers - r.moe_layers;
  const std::int64_t norms = 2 * h * a.num_layers + h;

  ArchitectureCounts c;
  c.embedding_params = a.vocab_size * h;
  c.expert_params = r.moe_layers * a.num_experts * expert;
  const std::int64_t lm_head = a.tie_embeddings ? 0 : a.vocab_size * h;
  const std::int64_t always_used = a.num_layers * attention_params<std::int64_t>(a, r) + dense_layers * gated_mlp_params(a, a.intermediate_size) +
                                   r.moe_layers * moe_layer_shared + norms + c.embedding_params + lm_head;
  c.total_params = always_used + c.expert_params;
  c.active_params = always_used + r.moe_layers * a.experts_per_token * expert;
  // The input embedding is a lookup; a tied table is also the LM head, which a token does multiply.
  c.flop_params = c.active_params - (a.tie_embeddings ? 0 : c.embedding_params);
  c.kv_elements_per_token = a.is_mla() ? a.num_layers * (a.kv_lora_rank + a.qk_rope_head_dim)
                                       : 2 * a.num_layers * r.kv_heads * r.head_dim;
  return c;
}

ModelSpec model_spec_of(const ModelArchitecture& arch, double bytes_per_weight, double bytes_per_kv) {
  const Resolved r = resolve(arch);
  const ArchitectureCounts c = count_architecture(arch);
  ModelSpec m;
  m.name = arch.name;
  m.params = c.total_params;
  m.num_layers = arch.num_layers;
  m.num_heads = arch.num_heads;
  // MLA: every head attends to one shared latent, so the cache has one "KV head" a layer (its size is
  // kv_elements_per_token, not 2 x head_dim); a query head's dot products span qk_nope + qk_rope.
  m.num_kv_heads = arch.is_mla() ? 1 : r.kv_heads;
  m.head_dim = arch.is_mla() ? arch.qk_nope_head_dim + arch.qk_rope_head_dim : r.head_dim;
  m.bytes_per_weight = bytes_per_weight;
  m.bytes_per_kv = bytes_per_kv;
  m.flop_params = c.flop_params;
  m.active_params = c.active_params;
  m.expert_params = c.expert_params;
  m.num_experts = arch.num_experts;
  m.experts_per_token = arch.experts_per_token;
  m.num_moe_layers = r.moe_layers;
  m.hidden_size = arch.hidden_size;
  m.kv_elements_per_token = c.kv_elements_per_token;
  m.is_mla = arch.is_mla();
  m.embedding_params = c.embedding_params;
  m.tied_embeddings = arch.tie_embeddings;
  return m;
}

}  // namespace sl::llm
