#pragma once
// Parameters that pick a model and a GPU, shared by the llm cells: a preset choice plus the fields of a
// custom entry, and the precisions and runtime taxes that apply to every choice.
#include <vector>

#include "core/cell.h"
#include "llm/step_time.h"

namespace sl::llm {

/// `model` (llama3-8b | llama3.1-70b | custom, default `preset`), the custom model's params_b, layers, heads,
/// kv_heads, head_dim (defaults: the preset's values), and `weights` (fp16|int8|int4) and `kv` (fp16|fp8).
std::vector<ParamSpec> model_params(const ModelSpec& preset);

/// `gpu` (h100 | a100 | custom, default `preset`), the custom GPU's peak_tflop_per_s, bw_tb_per_s, mem_gib, and
/// the runtime's efficiency_frac, layer_tax_ms and dispatch_tax_ms (§0: 0.4, 0.01 ms, 0.01 ms).
std::vector<ParamSpec> gpu_params(const GpuSpec& preset);

/// The checked model inputs: the model they describe, and whether custom fields were set but ignored.
struct ModelChoice {
  ModelSpec model;              ///< preset or custom, with the chosen precisions
  bool is_custom = false;       ///< model = custom
  bool ignored_custom = false;  ///< a preset is chosen but a custom field differs from its default
};

/// The checked GPU inputs: the GPU with the runtime's efficiency and taxes, and whether custom fields were
/// set but ignored.
struct GpuChoice {
  GpuSpec gpu;
  bool is_custom = false;       ///< gpu = custom
  bool ignored_custom = false;  ///< a preset is chosen but a custom field differs from its default
};

/// The model the inputs describe (`defaults` is the preset whose values the custom fields default to), or an
/// error when the custom shape is impossible (more KV heads than query heads: "invalid", param kv_heads).
Result<ModelChoice> validate_model(const Inputs& in, const ModelSpec& defaults);

/// The GPU the inputs describe (`defaults` as for validate_model).
Result<GpuChoice> validate_gpu(const Inputs& in, const GpuSpec& defaults);

/// Adds a notice when a preset is chosen but a custom field was changed from its default (it is ignored).
void note_ignored_custom_fields(const ModelChoice& model, RunResult& result);
void note_ignored_custom_fields(const GpuChoice& gpu, RunResult& result);

}  // namespace sl::llm
