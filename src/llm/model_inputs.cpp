#include "llm/model_inputs.h"

#include <cmath>
#include <string>

namespace sl::llm {
namespace {

constexpr double kGiB = 1073741824.0;  // 2^30 B

double bytes_of(const std::string& precision) {
  if (precision == "fp16") return 2.0;
  if (precision == "int8" || precision == "fp8") return 1.0;
  return 0.5;  // int4
}

std::string precision_of(double bytes, bool is_kv) {
  if (bytes == 2.0) return "fp16";
  if (bytes == 1.0) return is_kv ? "fp8" : "int8";
  return "int4";
}

ModelSpec model_preset(const std::string& name) { return name == "llama3.1-70b" ? llama31_70b() : llama3_8b(); }

GpuSpec gpu_preset(const std::string& name) { return name == "a100" ? a100() : h100(); }

/// True when a field differs from its default by more than text round-tripping can explain.
bool differs(double x, double default_value) { return std::fabs(x - default_value) > 1e-9 * std::fabs(default_value); }

}  // namespace

std::vector<ParamSpec> model_params(const ModelSpec& preset) {
  const auto custom = [](ParamSpec p) { return used_when(std::move(p), "model", {"custom"}); };
  return {choice("model", {"llama3-8b", "llama3.1-70b", "custom"}, preset.name),
          custom(real("params_b", "billion", static_cast<double>(preset.params) * 1e-9, 0.001, 10'000)),
          custom(count("layers", "", static_cast<double>(preset.num_layers), 1, 1000)),
          custom(count("heads", "", static_cast<double>(preset.num_heads), 1, 1024)),
          custom(count("kv_heads", "", static_cast<double>(preset.num_kv_heads), 1, 1024)),
          custom(count("head_dim", "", static_cast<double>(preset.head_dim), 1, 4096)),
          choice("weights", {"fp16", "int8", "int4"}, precision_of(preset.bytes_per_weight, false)),
          choice("kv", {"fp16", "fp8"}, precision_of(preset.bytes_per_kv, true))};
}

std::vector<ParamSpec> gpu_params(const GpuSpec& preset) {
  const auto custom = [](ParamSpec p) { return used_when(std::move(p), "gpu", {"custom"}); };
  return {choice("gpu", {"h100", "a100", "custom"}, preset.name),
          custom(real("peak_tflops", "TFLOP/s", preset.peak_flop_per_s * 1e-12, 0.001, 1e6)),
          custom(real("bw_tb_s", "TB/s", preset.hbm_bytes_per_s * 1e-12, 0.001, 1000)),
          custom(real("mem_gib", "GiB", static_cast<double>(preset.memory_bytes) / kGiB, 0.001, 1e5)),
          real("efficiency", "", preset.compute_efficiency, 0.01, 1),
          real("layer_tax_ms", "ms", preset.layer_tax_s * 1e3, 0, 10),
          real("dispatch_tax_ms", "ms", preset.dispatch_tax_s * 1e3, 0, 1000)};
}

Result<ModelSpec> model_from_inputs(const Inputs& in) {
  ModelSpec m;
  if (in.choice("model") == "custom") {
    m.params = std::llround(in.real("params_b") * 1e9);
    m.num_layers = in.count("layers");
    m.num_heads = in.count("heads");
    m.num_kv_heads = in.count("kv_heads");
    m.head_dim = in.count("head_dim");
    if (m.num_kv_heads > m.num_heads)
      return Error{"invalid", "kv_heads",
                   "kv_heads must not exceed heads (" + std::to_string(m.num_heads) + "), got " +
                       std::to_string(m.num_kv_heads),
                   {{"max", std::to_string(m.num_heads)}, {"got", std::to_string(m.num_kv_heads)}}};
  } else {
    m = model_preset(in.choice("model"));
  }
  m.bytes_per_weight = bytes_of(in.choice("weights"));
  m.bytes_per_kv = bytes_of(in.choice("kv"));
  return m;
}

GpuSpec gpu_from_inputs(const Inputs& in) {
  GpuSpec g;
  if (in.choice("gpu") == "custom") {
    g.peak_flop_per_s = in.real("peak_tflops") * 1e12;
    g.hbm_bytes_per_s = in.real("bw_tb_s") * 1e12;
    g.memory_bytes = std::llround(in.real("mem_gib") * kGiB);
  } else {
    g = gpu_preset(in.choice("gpu"));
  }
  g.compute_efficiency = in.real("efficiency");
  g.layer_tax_s = in.real("layer_tax_ms") * 1e-3;
  g.dispatch_tax_s = in.real("dispatch_tax_ms") * 1e-3;
  return g;
}

void note_ignored_custom_fields(const Inputs& in, const ModelSpec& p, RunResult& result) {
  if (in.choice("model") == "custom") return;
  const bool changed = differs(in.real("params_b"), static_cast<double>(p.params) * 1e-9) || in.count("layers") != p.num_layers ||
                       in.count("heads") != p.num_heads || in.count("kv_heads") != p.num_kv_heads ||
                       in.count("head_dim") != p.head_dim;
  if (changed)
    result.notice("custom_model_ignored", "model = " + in.choice("model") +
                                              ": the custom-model fields are ignored; choose model = custom to use them.");
}

void note_ignored_custom_fields(const Inputs& in, const GpuSpec& p, RunResult& result) {
  if (in.choice("gpu") == "custom") return;
  const bool changed = differs(in.real("peak_tflops"), p.peak_flop_per_s * 1e-12) ||
                       differs(in.real("bw_tb_s"), p.hbm_bytes_per_s * 1e-12) ||
                       differs(in.real("mem_gib"), static_cast<double>(p.memory_bytes) / kGiB);
  if (changed)
    result.notice("custom_gpu_ignored",
                  "gpu = " + in.choice("gpu") + ": the custom-GPU fields are ignored; choose gpu = custom to use them.");
}

}  // namespace sl::llm
