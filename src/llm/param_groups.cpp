// The llm lab's parameter groups, declared once for the lab: a parameter's name means the same in
// every llm cell (the URL, the whole-page fills and the shared blocks of engine_setup.cpp rely on it), so one
// table gives it one group everywhere; a cell whose name means something else says so in its own table below.
// The group labels are in web/i18n/<lang>.json (param_groups), served apart as i18n/<lang>.groups.json.
#include <map>
#include <string>

#include "llm/cells.h"

namespace sl::llm {
namespace {

using Groups = std::map<std::string, const char*>;

/// Puts each name in `group`. Lists of C strings, not of string pairs: each pair would cost the wasm module ~60
/// bytes of code (see core/preset.h).
void put(Groups& g, const char* group, std::initializer_list<const char*> names) {
  for (const char* name : names) g[name] = group;
}

/// name -> group, for every parameter of every llm cell (a unit test checks that none is left out).
Groups lab_groups() {
  Groups g;
  put(g, "model", {"model", "model_config", "params_b", "layers", "heads", "kv_heads", "head_dim", "routing_skew", "weights", "kv"});
  put(g, "gpu", {"gpu", "peak_tflop_per_s", "peak_fp8_tflop_per_s", "bw_tb_per_s", "mem_gib"});
  put(g, "engine", {"step_model", "efficiency_frac", "layer_tax_ms", "dispatch_tax_ms", "bw_efficiency_frac", "mem_util_frac",
                    "layer_tax_every_step", "host_step_ms", "host_overlap", "half_efficiency_tokens", "cuda_graph_padding",
                    "request_overhead_ms", "low_precision_efficiency_frac", "lm_head_and_embedding", "attention_roofline",
                    "expert_efficiency_frac", "prefill_tok_per_s"});
  put(g, "kv_cache", {"kv_pool", "kv_gib", "activation_gib", "num_gpu_blocks", "kv_tokens", "block_size", "kv_reserve_gib",
                      "prefix_caching", "pcie_gb_per_s", "device", "weights_mem", "units"});
  put(g, "parallel", {"tensor_parallel_size", "expert_parallel", "link_gb_per_s", "link_latency_us", "all_reduce"});
  put(g, "scheduler", {"max_model_len", "scheduling_policy", "max_num_seqs", "max_num_batched_tokens", "chunked_prefill",
                       "long_prefill_token_threshold", "max_waiting", "max_batch", "static_batch"});
  put(g, "fleet", {"replicas", "router"});
  put(g, "workload", {"lambda", "n", "workload", "arrival_cv", "prompt_mean", "prompt_cv", "prompt_min", "prompt_max",
                      "output_mean", "output_cv", "output_min", "output_max", "batch_frac", "doc_frac", "doc_prompt_mean",
                      "doc_prompt_cv", "doc_output_mean", "doc_output_cv", "prefix_tokens", "num_prefixes", "prompt", "output",
                      "context", "users", "unique_tokens", "answer_tokens", "chats", "turns", "user_tokens", "chat_per_s",
                      "think_s", "request_tokens", "long_tokens", "concurrent", "req_tok_per_s", "response", "system_tokens",
                      "prompt_tokens", "output_tokens", "max_context"});
  put(g, "trace", {"trace", "rate_scale", "trace_start_s", "trace_window_s", "trace_loop"});
  put(g, "slo_cost", {"ttft_slo_ms", "tpot_slo_ms", "doc_ttft_slo_ms", "doc_tpot_slo_ms", "slo_target_frac", "price_usd_per_h",
                      "target_tok_per_s"});
  put(g, "energy", {"gpu_w", "idle_w", "host_w", "low_util_pct", "phone_j", "cup_j"});
  put(g, "speculation", {"spec_tokens", "spec_accept", "draft_cost_frac"});
  put(g, "disaggregation", {"disaggregation", "prefill_replicas", "kv_link_gb_per_s", "kv_link_latency_us", "prefill_frac"});
  put(g, "sweep", {"sweep", "sweep_from", "sweep_to", "sweep_points", "gpus", "tp_min", "tp_max", "weights_set",
                   "max_num_seqs_to", "max_num_batched_tokens_to", "spec_tokens_to", "replicas_min", "replicas_max", "pruning",
                   "points", "part", "parts", "b1", "b2", "b3", "b4"});
  put(g, "display", {"example_batch", "example_short_tokens", "example_long_tokens", "trace_requests"});
  put(g, "measurement", {"measurements", "iterations", "engines", "max_requests", "switch_off", "expert_efficiency"});
  return g;
}

/// The cells whose parameters of a shared name mean something else, after the lab's table: the CPU's own decode
/// (its max_batch is the largest batch timed, not a scheduler's limit).
Groups own_groups(const std::string& cell_id) {
  Groups g;
  if (cell_id == "llm/cpu-decode-roofline") {
    put(g, "model", {"weights_mib", "hidden", "precision"});
    put(g, "measurement", {"max_batch", "min_sample_ms", "samples"});
  }
  return g;
}

}  // namespace

void declare_groups(std::vector<CellSpec>& lab) {
  const Groups groups = lab_groups();
  for (CellSpec& cell : lab) {
    set_groups(cell, groups);
    set_groups(cell, own_groups(cell.id));
  }
}

}  // namespace sl::llm
