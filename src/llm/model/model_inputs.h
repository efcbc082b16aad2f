#pragma once
// Parameters that pick a model and a GPU, shared by the llm cells: a preset choice plus the fields of a
// custom entry, and the precisions and runtime taxes that apply to every choice.
#include <optional>
#include <vector>

#include "core/cell.h"
#include "llm/model/model_architecture.h"
#include "llm/model/step_time.h"

namespace sl::llm {

/// True when a field differs from its default by more than text round-tripping can explain.
bool differs(double x, double default_value);

/// `model` (every model preset's id, model_presets(), then config and custom; default `preset`), the file
/// `model_config` (a Hugging Face config.json, used when model = config), the custom model's params_b, layers,
/// heads, kv_heads, head_dim (defaults: the preset's values), `routing_skew` (how unevenly a mixture of experts'
/// router spreads tokens, expert_routing.h; used by the MoE presets and config), and `weights`
/// (fp16|fp8|int8|int4|fp4) and `kv` (fp16|fp8).
std::vector<ParamSpec> model_params(const ModelSpec& preset);

/// The spec of a model preset at these precisions: the book's two (llama3-8b, llama3.1-70b) keep the book's counts
/// (llama3_8b(), llama31_70b(): the §0 figures every book row uses); every other preset is counted from its
/// architecture (model_spec_of), its name the preset's id.
ModelSpec preset_model_spec(const ModelPreset& preset, double bytes_per_weight, double bytes_per_kv);

/// What a cell that takes a model reports about it: total and active parameters (billions), the weight bytes at
/// the chosen precision (GB) and the KV bytes one token keeps (all layers, one sequence).
std::vector<OutputSpec> model_outputs();
void add_model_outputs(const ModelSpec& model, RunResult& result);

/// `gpu` (every GPU preset's id, gpu_presets(), then custom; default `preset`), the custom GPU's peak_tflop_per_s,
/// peak_fp8_tflop_per_s (0: no FP8 tensor cores), bw_tb_per_s, mem_gib, and the runtime's efficiency_frac,
/// layer_tax_ms and dispatch_tax_ms (§0: 0.4, 0.01 ms, 0.01 ms).
std::vector<ParamSpec> gpu_params(const GpuSpec& preset);

/// model_params, then gpu_params, at the book's case (Llama-3-8B on one H100, step_time.h's llama3_8b() and h100()),
/// which every cell that takes both starts from: what validate_model_and_gpu reads.
std::vector<ParamSpec> model_and_gpu_params();

/// The checked model inputs: the model they describe, and whether custom fields were set but ignored.
struct ModelChoice {
  ModelSpec model;              ///< preset, config or custom, with the chosen precisions
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
/// error: the custom shape is impossible (more KV heads than query heads: "invalid", param kv_heads); model =
/// config without a file ("invalid", model_config), or a file parse_model_config or check_architecture refuses
/// (one error naming the key, param model_config).
Result<ModelChoice> validate_model(const Inputs& in, const ModelSpec& defaults);

/// The GPU the inputs describe (`defaults` as for validate_model).
Result<GpuChoice> validate_gpu(const Inputs& in, const GpuSpec& defaults);

/// A checked model and GPU, as the cells that take both hold them (their params structs derive from it): the
/// choices, for their notices, and copies of the specs the cell computes with (the engine adjusts its GPU's).
struct ModelAndGpu {
  ModelChoice model_choice;
  GpuChoice gpu_choice;
  ModelSpec model;  ///< model_choice.model
  GpuSpec gpu;      ///< gpu_choice.gpu
};

/// validate_model, then validate_gpu, at model_and_gpu_params()'s defaults: the first error, or both, the GPU's
/// peak_flop_per_s set to the tensor-core peak the weights run at: FP16 for fp16 and for weight-only int8 and int4
/// (widened to FP16 before each product, as the book treats INT4), FP8 for fp8 (W8A8), FP4 for fp4 (H100: 989e12,
/// 1,979e12 at fp8). A GPU without the precision refuses it ("invalid", param weights: the A100 has no FP8).
Result<ModelAndGpu> validate_model_and_gpu(const Inputs& in);

/// An error naming weights ("too_large", in GB) when the weights at their precision fill the GPU's memory.
std::optional<Error> check_weights_fit(const ModelSpec& model, const GpuSpec& gpu);

/// Adds a notice when a preset is chosen but a custom field was changed from its default (it is ignored).
void note_ignored_custom_fields(const ModelChoice& model, RunResult& result);
void note_ignored_custom_fields(const GpuChoice& gpu, RunResult& result);
/// Both notices: the model's, then the GPU's.
void note_ignored_custom_fields(const ModelAndGpu& choices, RunResult& result);

}  // namespace sl::llm
