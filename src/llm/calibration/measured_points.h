#pragma once
// Published measurements of real serving systems (labs/llm/measured/*.json, schema labs/schema/measured.schema.json),
// compiled in: scripts/labs/generate.mjs checks each file against its schema at build time and writes them as the
// table measured_points() returns, so the CLI and the wasm module hold the same points without parsing JSON at run
// time. Unknown values (null in the files) are -1 (numbers) or "" (texts); a tri-state is -1 / 0 / 1.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace sl::llm {

struct MeasuredPoint {
  std::string source;  ///< the file's source id, e.g. "inference-sim-training"
  std::string id;
  std::string engine;  ///< "vllm", "sglang", "tensorrt-llm"
  // Model (architecture from its HF config).
  std::string model_name;
  double params_b = 0;
  std::int64_t layers = 0, heads = 0, kv_heads = 0, head_dim = 0;
  std::string preset;  ///< the model preset with this architecture (model_architecture.h's ids), or ""
  // The rest of config.json's facts, named as ModelArchitecture names them (-1: unknown).
  std::int64_t hidden_size = -1, intermediate_size = -1, vocab_size = -1;
  int tie_embeddings = -1;
  /// Mixture of experts: routed experts a layer (0: dense), routed experts a token, one expert's width, shared experts.
  std::int64_t num_experts = -1, experts_per_token = -1, moe_intermediate_size = -1, num_shared_experts = -1;
  std::string weights, kv;  ///< "fp16", "bf16", "fp8", "int8", "int4", "fp4", "fp32" or ""
  // Hardware.
  std::string gpu_sku;
  std::int64_t tp = 1, pp = 1;
  // Server knobs.
  std::int64_t max_num_seqs = -1, max_num_batched_tokens = -1, block_size = -1, max_model_len = -1;
  std::int64_t num_scheduler_steps = -1;
  int chunked_prefill = -1, prefix_caching = -1;
  double gpu_memory_utilization = -1;
  // Workload.
  std::string arrival;  ///< "poisson", "inf", "closed", "static_batch", "rate_process_unstated"
  double rate_per_s = -1;
  std::int64_t max_concurrency = -1, batch_size = -1, num_prompts = -1;
  double input_mean = -1, output_mean = -1;  ///< tokens
  bool input_fixed = false, output_fixed = false;
  /// The max_tokens every request asked for (-1: not stated as one value), and whether the server ignored EOS
  /// (then it generated exactly max_tokens; the client's output count re-tokenizes the text and may differ).
  std::int64_t max_tokens = -1;
  int ignore_eos = -1;
  int has_shared_prefix = -1;  ///< the file's shared_prefix: null -1, false 0, a description 1
  /// Its prompt_reuse, when the file states it: distinct prompts re-sent in turn, in groups sharing a system prompt.
  std::int64_t reuse_distinct_prompts = 0, reuse_groups = 0, reuse_system_prompt_tokens = 0;
  /// What was measured, by the schema's key ("ttft_mean_ms", "output_tok_per_s"...), in file order.
  std::vector<std::pair<std::string, double>> measured;

  /// Routed experts: a mixture-of-experts model (num_experts unknown counts as dense).
  bool is_moe() const { return num_experts > 0; }

  /// A measured value by key, or -1 when the source gives none.
  double value(const std::string& key) const {
    for (const auto& [k, v] : measured)
      if (k == key) return v;
    return -1;
  }
};

/// Every point of every file, files in name order, points in file order.
const std::vector<MeasuredPoint>& measured_points();

}  // namespace sl::llm
