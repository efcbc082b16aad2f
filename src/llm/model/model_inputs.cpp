#include "llm/model/model_inputs.h"

#include <cmath>
#include <string>
#include <utility>

#include "core/units.h"
#include "core/outputs.h"
#include "llm/model/model_architecture.h"
#include "llm/model/model_config.h"

namespace sl::llm {
namespace {

using units::kGiB;
using units::kMsPerS;
// Scale factors written as the products the presets were always converted with (x 1e-9, not / 1e9), so the
// defaults and the numbers stay bit for bit what they were.
constexpr double kParamsPerBillion = 1e9;  // params_b counts parameters in 10^9
constexpr double kBillionPerParam = 1e-9;
constexpr double kPerTera = 1e-12;         // peak_tflop_per_s and bw_tb_per_s count 10^12 per second
using units::kSPerMs;

double bytes_of(const std::string& precision) {
  if (precision == "fp16") return 2.0;
  if (precision == "int8" || precision == "fp8") return 1.0;
  return 0.5;  // int4, fp4
}

std::string precision_of(double bytes, bool is_kv) {
  if (bytes == 2.0) return "fp16";
  if (bytes == 1.0) return is_kv ? "fp8" : "int8";
  return "int4";
}

/// The `model` choice's values: every preset's id, then config (a config.json) and custom (the fields).
std::vector<std::string> model_choices() {
  std::vector<std::string> ids;
  for (const ModelPreset& p : model_presets()) ids.push_back(p.id);
  ids.push_back("config");
  ids.push_back("custom");
  return ids;
}

/// The choices that describe a mixture of experts, whose router routing_skew shapes: the MoE presets and config.
std::vector<std::string> routed_model_choices() {
  std::vector<std::string> ids;
  for (const ModelPreset& p : model_presets())
    if (p.arch.is_moe()) ids.push_back(p.id);
  ids.push_back("config");
  return ids;
}

/// The model a config.json describes: parse_model_config, then check_architecture, each error naming the key
/// and carried by the model_config parameter (the page shows it at the file), then model_spec_of.
Result<ModelSpec> model_from_config(const std::string& file, double bytes_per_weight, double bytes_per_kv) {
  if (file.empty())
    return Error{"invalid", kModelConfigParam,
                 "model = config needs a file: give a Hugging Face config.json (model_config), or choose a preset",
                 {{"problem", "config_needs_file"}, {"other", "model"}}};
  auto arch = parse_model_config(file);
  if (!arch.ok()) return arch.error();
  if (auto e = check_architecture(arch.value())) {
    Error error = *e;
    error.args.push_back({"key", error.param});
    error.message = std::string(kModelConfigParam) + ": " + error.message;
    error.param = kModelConfigParam;
    return error;
  }
  return model_spec_of(arch.value(), bytes_per_weight, bytes_per_kv);
}

GpuSpec gpu_preset(const std::string& name) {
  const GpuPreset* preset = find_gpu_preset(name);
  return preset ? preset->spec : h100();
}

/// The `gpu` choice's values: every preset's id, then custom.
std::vector<std::string> gpu_choices() {
  std::vector<std::string> ids;
  for (const GpuPreset& p : gpu_presets()) ids.push_back(p.id);
  ids.push_back("custom");
  return ids;
}

/// The tensor-core peak a step runs at for these weights: FP16 for fp16 and for weight-only int8 and int4 (the
/// weights are widened to FP16 before the product, as the book treats INT4); FP8 for fp8 (W8A8); FP4 for fp4.
/// 0 when the GPU has no such tensor cores.
double peak_for_weights(const GpuSpec& gpu, const std::string& weights) {
  if (weights == "fp8") return gpu.peak_fp8_flop_per_s;
  if (weights == "fp4") return gpu.peak_fp4_flop_per_s;
  return gpu.peak_flop_per_s;
}

/// weights = fp8 or fp4 on a GPU without that precision's tensor cores ("invalid", param weights).
Error precision_error(const GpuSpec& gpu, const std::string& weights) {
  const std::string other = gpu.peak_fp8_flop_per_s > 0 ? "fp16, fp8, int8 or int4" : "fp16, int8 or int4";
  const bool fp8 = weights == "fp8";
  const std::string upper = fp8 ? "FP8" : "FP4";
  const std::string example = fp8 ? "h100" : "b200";
  const std::string what = gpu.name == "custom" ? std::string("the custom GPU states no ") + upper + " peak" +
                                                      (fp8 ? " (peak_fp8_tflop_per_s = 0)" : "")
                                                : "the " + gpu.name + " has no " + upper + " tensor cores";
  return Error{"invalid", "weights",
               "weights = " + weights + ": " + what + "; choose " + other + ", or a GPU with " + upper + " such as " +
                   example,
               {{"got", weights}, {"problem", gpu.name == "custom" ? "precision_custom_gpu" : "precision_gpu"}, {"precision", upper},
                {"gpu", gpu.name}, {"choices", gpu.peak_fp8_flop_per_s > 0 ? "fp16, fp8, int8, int4" : "fp16, int8, int4"},
                {"example", example}}};
}

}  // namespace

bool differs(double x, double default_value) { return std::fabs(x - default_value) > 1e-9 * std::fabs(default_value); }

ModelSpec preset_model_spec(const ModelPreset& preset, double bytes_per_weight, double bytes_per_kv) {
  ModelSpec m = preset.id == "llama3-8b"      ? llama3_8b()
                : preset.id == "llama3.1-70b" ? llama31_70b()
                                              : model_spec_of(preset.arch, bytes_per_weight, bytes_per_kv);
  m.name = preset.id;
  m.bytes_per_weight = bytes_per_weight;
  m.bytes_per_kv = bytes_per_kv;
  // The book's two keep the book's counts; their tables come from their architecture (the LM head mechanism).
  m.embedding_params = preset.arch.vocab_size * preset.arch.hidden_size;
  m.tied_embeddings = preset.arch.tie_embeddings;
  return m;
}

std::vector<OutputSpec> model_outputs() {
  return {out("model_params_b", "billion"), out("model_active_params_b", "billion"), named("model_weights_gb"),
          named("model_kv_per_token_bytes")};
}

void add_model_outputs(const ModelSpec& m, RunResult& result) {
  const double total = static_cast<double>(m.params);
  result.output("model_params_b", total * kBillionPerParam);
  result.output("model_active_params_b", static_cast<double>(m.active_param_count()) * kBillionPerParam);
  result.output("model_weights_gb", static_cast<double>(m.weight_bytes()) / units::kGB);
  result.output("model_kv_per_token_bytes", static_cast<double>(m.kv_bytes_per_token()));
}

std::vector<ParamSpec> model_params(const ModelSpec& preset) {
  const auto custom = [](ParamSpec p) { return used_when(std::move(p), "model", {"custom"}); };
  return {choice("model", model_choices(), preset.name),
          used_when(bytes(kModelConfigParam, "application/json,.json", static_cast<double>(kMaxModelConfigBytes)),
                    "model", {"config"}),
          custom(real("params_b", "billion", static_cast<double>(preset.params) * kBillionPerParam, 0.001, 10'000)),
          custom(count("layers", "", static_cast<double>(preset.num_layers), 1, 1000)),
          custom(count("heads", "", static_cast<double>(preset.num_heads), 1, 1024)),
          custom(count("kv_heads", "", static_cast<double>(preset.num_kv_heads), 1, 1024)),
          custom(count("head_dim", "", static_cast<double>(preset.head_dim), 1, 4096)),
          used_when(real("routing_skew", "", 0, 0, 0.99), "model", routed_model_choices()),
          choice("weights", {"fp16", "fp8", "int8", "int4", "fp4"}, precision_of(preset.bytes_per_weight, false)),
          choice("kv", {"fp16", "fp8"}, precision_of(preset.bytes_per_kv, true))};
}

std::vector<ParamSpec> gpu_params(const GpuSpec& preset) {
  const auto custom = [](ParamSpec p) { return used_when(std::move(p), "gpu", {"custom"}); };
  return {choice("gpu", gpu_choices(), preset.name),
          aliased(custom(real("peak_tflop_per_s", "TFLOP/s", preset.peak_flop_per_s * kPerTera, 0.001, 1e6)),
                  {"peak_tflops"}),
          custom(real("peak_fp8_tflop_per_s", "TFLOP/s", preset.peak_fp8_flop_per_s * kPerTera, 0, 1e6)),
          aliased(custom(real("bw_tb_per_s", "TB/s", preset.hbm_bytes_per_s * kPerTera, 0.001, 1000)), {"bw_tb_s"}),
          custom(real("mem_gib", "GiB", static_cast<double>(preset.memory_bytes) / kGiB, 0.001, 1e5)),
          aliased(real("efficiency_frac", "", preset.compute_efficiency, 0.01, 1), {"efficiency"}),
          real("layer_tax_ms", "ms", preset.layer_tax_s * kMsPerS, 0, 10),
          real("dispatch_tax_ms", "ms", preset.dispatch_tax_s * kMsPerS, 0, 1000)};
}

std::vector<ParamSpec> model_and_gpu_params() {
  std::vector<ParamSpec> params = model_params(llama3_8b());
  for (ParamSpec& spec : gpu_params(h100())) params.push_back(std::move(spec));
  return params;
}

Result<ModelChoice> validate_model(const Inputs& in, const ModelSpec& defaults) {
  ModelChoice c;
  const std::string& preset = in.choice("model");
  c.is_custom = preset == "custom";
  const double params_b = in.real("params_b");
  const std::int64_t layers = in.count("layers"), heads = in.count("heads"), kv_heads = in.count("kv_heads"),
                     head_dim = in.count("head_dim");
  ModelSpec& m = c.model;
  const double bytes_per_weight = bytes_of(in.choice("weights")), bytes_per_kv = bytes_of(in.choice("kv"));
  if (preset == "config") {
    auto from_file = model_from_config(in.bytes(kModelConfigParam), bytes_per_weight, bytes_per_kv);
    if (!from_file.ok()) return from_file.error();
    m = from_file.value();
  } else if (c.is_custom) {
    m.params = std::llround(params_b * kParamsPerBillion);
    m.num_layers = layers;
    m.num_heads = heads;
    m.num_kv_heads = kv_heads;
    m.head_dim = head_dim;
    if (m.num_kv_heads > m.num_heads)
      return Error{"invalid", "kv_heads",
                   "kv_heads must not exceed heads (" + std::to_string(m.num_heads) + "), got " +
                       std::to_string(m.num_kv_heads),
                   {{"max", std::to_string(m.num_heads)}, {"got", std::to_string(m.num_kv_heads)}, {"unit", ""}, {"problem", "at_most_other"},
                    {"other", "heads"}}};
  } else {
    const ModelPreset* named_preset = find_model_preset(preset);
    m = named_preset ? preset_model_spec(*named_preset, bytes_per_weight, bytes_per_kv) : llama3_8b();
    c.ignored_custom = differs(params_b, static_cast<double>(defaults.params) * kBillionPerParam) ||
                       layers != defaults.num_layers || heads != defaults.num_heads ||
                       kv_heads != defaults.num_kv_heads || head_dim != defaults.head_dim;
  }
  m.bytes_per_weight = bytes_per_weight;
  m.bytes_per_kv = bytes_per_kv;
  const double skew = in.real("routing_skew");
  if (m.is_moe()) m.routing_skew = skew;  // a dense model has no router: the skew means nothing to it
  return c;
}

Result<GpuChoice> validate_gpu(const Inputs& in, const GpuSpec& defaults) {
  GpuChoice c;
  const std::string& preset = in.choice("gpu");
  c.is_custom = preset == "custom";
  const double peak_tflop_per_s = in.real("peak_tflop_per_s"), bw_tb_per_s = in.real("bw_tb_per_s"),
               mem_gib = in.real("mem_gib"), peak_fp8_tflop_per_s = in.real("peak_fp8_tflop_per_s");
  GpuSpec& g = c.gpu;
  if (c.is_custom) {
    g.peak_flop_per_s = peak_tflop_per_s * units::kTera;
    g.peak_fp8_flop_per_s = peak_fp8_tflop_per_s * units::kTera;  // 0: no FP8 tensor cores
    g.hbm_bytes_per_s = bw_tb_per_s * units::kTera;
    g.memory_bytes = std::llround(mem_gib * kGiB);
  } else {
    g = gpu_preset(preset);
    c.ignored_custom = differs(peak_tflop_per_s, defaults.peak_flop_per_s * kPerTera) ||
                       differs(peak_fp8_tflop_per_s, defaults.peak_fp8_flop_per_s * kPerTera) ||
                       differs(bw_tb_per_s, defaults.hbm_bytes_per_s * kPerTera) ||
                       differs(mem_gib, static_cast<double>(defaults.memory_bytes) / kGiB);
  }
  g.compute_efficiency = in.real("efficiency_frac");
  g.layer_tax_s = in.real("layer_tax_ms") * kSPerMs;
  g.dispatch_tax_s = in.real("dispatch_tax_ms") * kSPerMs;
  return c;
}

Result<ModelAndGpu> validate_model_and_gpu(const Inputs& in) {
  auto model = validate_model(in, llama3_8b());
  if (!model.ok()) return model.error();
  auto gpu = validate_gpu(in, h100());
  if (!gpu.ok()) return gpu.error();
  ModelAndGpu c{model.value(), gpu.value(), model.value().model, gpu.value().gpu};
  // The weights' precision picks the tensor-core peak the steps run at; a GPU without it refuses the precision.
  const std::string& weights = in.choice("weights");
  const double peak_flop_per_s = peak_for_weights(c.gpu, weights);
  if (peak_flop_per_s <= 0) return precision_error(c.gpu, weights);
  c.gpu.low_precision_peak = weights == "fp8" || weights == "fp4";
  c.gpu.peak_flop_per_s = peak_flop_per_s;
  return c;
}

std::optional<Error> check_weights_fit(const ModelSpec& model, const GpuSpec& gpu) {
  const double weights = static_cast<double>(model.weight_bytes());
  const double memory = static_cast<double>(gpu.memory_bytes);
  if (weights < memory) return std::nullopt;
  return too_large("weights", weights / units::kGB, memory / units::kGB, "GB",
                   "the weights at this precision (choose a smaller one or a larger GPU)");
}

void note_ignored_custom_fields(const ModelChoice& model, RunResult& result) {
  if (model.ignored_custom)
    result.notice("custom_model_ignored", "model = " + model.model.name +
                                              ": the custom-model fields are ignored; choose model = custom to use them.");
}

void note_ignored_custom_fields(const GpuChoice& gpu, RunResult& result) {
  if (gpu.ignored_custom)
    result.notice("custom_gpu_ignored",
                  "gpu = " + gpu.gpu.name + ": the custom-GPU fields are ignored; choose gpu = custom to use them.");
}

void note_ignored_custom_fields(const ModelAndGpu& choices, RunResult& result) {
  note_ignored_custom_fields(choices.model_choice, result);
  note_ignored_custom_fields(choices.gpu_choice, result);
}

}  // namespace sl::llm
