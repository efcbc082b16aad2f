#include "llm/engine/step_model.h"

#include <cmath>
#include <cstdio>

#include "core/units.h"

namespace sl::llm {
namespace {

/// One direction of a link at which engines all-reduce with their own one-hop kernels (NVLink through an
/// NVSwitch); PCIe 5 x16 is 64 GB/s.
constexpr double kNvlinkClassBytesPerS = 100e9;

std::string digits4(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", x);
  return buf;
}

std::string one_decimal(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", x);
  return buf;
}

}  // namespace

void real_server_mechanisms(bool cuda_graphs, GpuSpec& gpu, TensorParallel& tp) {
  gpu.layer_tax_every_step = true;
  gpu.host_overlapped = false;  // vLLM V1's --async-scheduling is opt-in; TensorRT-LLM's overlap too
  gpu.cuda_graph_padding = cuda_graphs;
  gpu.lm_head_and_embedding = true;  // neither engine's FP8/INT4 recipes quantize the LM head
  gpu.attention_roofline = true;     // both engines run attention as its own kernel in every layer
  tp.direct_all_reduce = tp.link_bytes_per_s >= kNvlinkClassBytesPerS;
}

std::vector<ParamSpec> step_model_params(std::vector<ParamSpec> moved) {
  const std::vector<ParamSpec> own = {
      real("bw_efficiency_frac", "", 1, 0.01, 1), choice("all_reduce", {"ring", "direct"}, "ring"),
      choice("layer_tax_every_step", {"off", "on"}, "off"), real("host_step_ms", "ms", 0, 0, 1000),
      choice("host_overlap", {"off", "on"}, "off"), real("half_efficiency_tokens", "tokens", 0, 0, 1e6),
      choice("cuda_graph_padding", {"off", "on"}, "off"), real("request_overhead_ms", "ms", 0, 0, 1e6),
      real("low_precision_efficiency_frac", "", 1, 0.01, 1), real("expert_efficiency_frac", "", 1, 0.01, 1),
      choice("lm_head_and_embedding", {"off", "on"}, "off"), choice("attention_roofline", {"off", "on"}, "off")};
  std::vector<ParamSpec> params = {choice("step_model", {"fitted", "book", "custom"}, "fitted")};
  for (ParamSpec& spec : moved) params.push_back(used_when(std::move(spec), "step_model", {"custom"}));
  for (const ParamSpec& spec : own) params.push_back(used_when(spec, "step_model", {"custom"}));
  return params;
}

StepModelChoice validate_step_model(const Inputs& in, GpuSpec& gpu, TensorParallel& tp) {
  StepModelChoice c;
  c.model = in.choice("step_model");
  if (c.model == "custom") {  // the GPU's own fields (efficiency_frac and the taxes) are already in `gpu`
    gpu.bandwidth_efficiency = in.real("bw_efficiency_frac");
    tp.direct_all_reduce = in.choice("all_reduce") == "direct";
    gpu.layer_tax_every_step = in.choice("layer_tax_every_step") == "on";
    gpu.step_host_s = in.real("host_step_ms") * units::kSPerMs;
    gpu.host_overlapped = in.choice("host_overlap") == "on";
    gpu.half_efficiency_tokens = in.real("half_efficiency_tokens");
    gpu.cuda_graph_padding = in.choice("cuda_graph_padding") == "on";
    gpu.request_overhead_s = in.real("request_overhead_ms") * units::kSPerMs;
    gpu.low_precision_efficiency = in.real("low_precision_efficiency_frac");
    gpu.expert_efficiency = in.real("expert_efficiency_frac");
    gpu.lm_head_and_embedding = in.choice("lm_head_and_embedding") == "on";
    gpu.attention_roofline = in.choice("attention_roofline") == "on";
    return c;
  }
  // A field away from its default (the book's value) while the choice ignores it: by more than text round-tripping
  // can explain. The GPU's own fields (gpu_params) are among them.
  const auto moved = [](double x, double default_value) { return std::fabs(x - default_value) > 1e-9 * std::fabs(default_value); };
  for (const ParamSpec& spec : step_model_params({})) {
    if (spec.name == "step_model") continue;
    c.ignored_fields = c.ignored_fields || (spec.kind == ParamSpec::Kind::Choice ? in.choice(spec.name) != spec.default_choice
                                                                                 : moved(in.real(spec.name), spec.default_value));
  }
  const GpuSpec book;
  c.ignored_fields = c.ignored_fields || moved(in.real("efficiency_frac"), book.compute_efficiency) ||
                     moved(in.real("layer_tax_ms"), book.layer_tax_s * units::kMsPerS) ||
                     moved(in.real("dispatch_tax_ms"), book.dispatch_tax_s * units::kMsPerS);
  if (c.model == "book") {
    gpu = with_knobs(gpu, knobs_of(book));
    gpu.layer_tax_every_step = gpu.host_overlapped = gpu.cuda_graph_padding = false;
    gpu.lm_head_and_embedding = gpu.attention_roofline = false;
    tp.direct_all_reduce = false;
  } else {
    gpu = with_knobs(gpu, vllm_fit().knobs);
    real_server_mechanisms(true, gpu, tp);
  }
  return c;
}

std::vector<std::pair<std::string, std::string>> step_model_fields(const GpuSpec& gpu, const TensorParallel& tp) {
  const auto on = [](bool b) { return std::string(b ? "on" : "off"); };
  return {{"step_model", "custom"},
          {"efficiency_frac", digits4(gpu.compute_efficiency)},
          {"layer_tax_ms", digits4(gpu.layer_tax_s * units::kMsPerS)},
          {"dispatch_tax_ms", digits4(gpu.dispatch_tax_s * units::kMsPerS)},
          {"bw_efficiency_frac", digits4(gpu.bandwidth_efficiency)},
          {"all_reduce", tp.direct_all_reduce ? "direct" : "ring"},
          {"layer_tax_every_step", on(gpu.layer_tax_every_step)},
          {"host_step_ms", digits4(gpu.step_host_s * units::kMsPerS)},
          {"host_overlap", on(gpu.host_overlapped)},
          {"half_efficiency_tokens", digits4(gpu.half_efficiency_tokens)},
          {"cuda_graph_padding", on(gpu.cuda_graph_padding)},
          {"request_overhead_ms", digits4(gpu.request_overhead_s * units::kMsPerS)},
          {"low_precision_efficiency_frac", digits4(gpu.low_precision_efficiency)},
          {"expert_efficiency_frac", digits4(gpu.expert_efficiency)},
          {"lm_head_and_embedding", on(gpu.lm_head_and_embedding)},
          {"attention_roofline", on(gpu.attention_roofline)}};
}

void note_step_model(const StepModelChoice& choice, const GpuSpec& gpu, RunResult& result) {
  if (choice.ignored_fields)
    result.notice("step_model_fields_ignored", "step_model = " + choice.model +
                                                   ": the step model's fields are ignored; choose step_model = custom to use them.");
  if (choice.model != "fitted") return;
  const FittedStepModel& fit = vllm_fit();
  std::string errors;
  std::vector<std::pair<std::string, std::string>> args = {
      {"runs", std::to_string(fit.runs)}, {"engine", fit.engine}, {"gpu", fit.gpu}, {"source", fit.source}};
  const std::pair<const char*, double> families[] = {{"ttft", fit.ttft_err_pct}, {"itl", fit.itl_err_pct},
                                                     {"e2e", fit.e2e_err_pct}, {"e2e_p99", fit.e2e_p99_err_pct},
                                                     {"throughput", fit.throughput_err_pct}};
  for (const auto& [family, pct] : families) {
    if (pct < 0) continue;
    args.emplace_back(std::string(family) + "_err_pct", one_decimal(pct));
    errors += std::string(errors.empty() ? "" : ", ") + family + " " + one_decimal(pct) + " %";
  }
  result.notice("step_model_fitted",
                std::string("step_model = fitted: the step model's terms are fitted to ") + std::to_string(fit.runs) +
                    " published runs of " + fit.engine + " on " + fit.gpu + " (" + fit.source +
                    "); held out one at a time, its median errors are " + errors + ".",
                args);
  if (gpu.name != fit.gpu)
    result.notice("step_model_other_gpu",
                  "gpu = " + gpu.name + ": no published " + fit.engine + " run on it is in the fit; the terms fitted on " +
                      fit.gpu + " are used.",
                  {{"gpu", gpu.name}, {"fit_gpu", fit.gpu}, {"engine", fit.engine}});
}

}  // namespace sl::llm
