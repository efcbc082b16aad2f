#include "llm/engine/step_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

#include "core/units.h"
#include "llm/model/model_inputs.h"

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

void vllm_step_model(const StepKnobs& knobs, GpuSpec& gpu, TensorParallel& tp) {
  gpu = with_knobs(gpu, knobs);
  real_server_mechanisms(true, gpu, tp);
}

namespace {

/// The terms step_model = custom takes, each once: its field, and whether its text is in ms (GpuSpec holds seconds).
/// The parameters' order, reading, the ignored-field check and the fill all walk these two tables.
struct Term {
  const char* name;
  double GpuSpec::*field;
  bool in_ms;  ///< shown in ms, held in seconds
};
constexpr Term kTerms[] = {{"efficiency_frac", &GpuSpec::compute_efficiency, false},
                           {"layer_tax_ms", &GpuSpec::layer_tax_s, true},
                           {"dispatch_tax_ms", &GpuSpec::dispatch_tax_s, true},
                           {"bw_efficiency_frac", &GpuSpec::bandwidth_efficiency, false},
                           {"host_step_ms", &GpuSpec::step_host_s, true},
                           {"half_efficiency_tokens", &GpuSpec::half_efficiency_tokens, false},
                           {"request_overhead_ms", &GpuSpec::request_overhead_s, true},
                           {"low_precision_efficiency_frac", &GpuSpec::low_precision_efficiency, false},
                           {"expert_efficiency_frac", &GpuSpec::expert_efficiency, false}};
struct Switch {
  const char* name;
  bool GpuSpec::*field;
};
constexpr Switch kSwitches[] = {{"layer_tax_every_step", &GpuSpec::layer_tax_every_step},
                                {"host_overlap", &GpuSpec::host_overlapped},
                                {"cuda_graph_padding", &GpuSpec::cuda_graph_padding},
                                {"lm_head_and_embedding", &GpuSpec::lm_head_and_embedding},
                                {"attention_roofline", &GpuSpec::attention_roofline}};

double shown(const Term& t, double field) { return t.in_ms ? field * units::kMsPerS : field; }
/// x_ms * 1e-3, as gpu_params reads its taxes (not always x_ms / 1e3 to the bit).
double held(const Term& t, double text) { return t.in_ms ? text * units::kSPerMs : text; }

}  // namespace

void add_step_model_params(std::vector<ParamSpec>& params) {
  const std::vector<ParamSpec> own = {
      real("bw_efficiency_frac", "", 1, 0.01, 1), choice("all_reduce", {"ring", "direct"}, "ring"),
      choice("layer_tax_every_step", {"off", "on"}, "off"), real("host_step_ms", "ms", 0, 0, 1000),
      choice("host_overlap", {"off", "on"}, "off"), real("half_efficiency_tokens", "tokens", 0, 0, 1e6),
      choice("cuda_graph_padding", {"off", "on"}, "off"), real("request_overhead_ms", "ms", 0, 0, 1e6),
      real("low_precision_efficiency_frac", "", 1, 0.01, 1), real("expert_efficiency_frac", "", 1, 0.01, 1),
      choice("lm_head_and_embedding", {"off", "on"}, "off"), choice("attention_roofline", {"off", "on"}, "off")};
  const auto is_term = [](const ParamSpec& spec) {
    return std::any_of(std::begin(kTerms), std::end(kTerms), [&spec](const Term& t) { return spec.name == t.name; });
  };
  std::vector<ParamSpec> kept, moved;  // moved: the GPU's terms (gpu_params), in their order
  for (ParamSpec& spec : params) (is_term(spec) ? moved : kept).push_back(std::move(spec));
  params = std::move(kept);
  params.push_back(choice("step_model", {"fitted", "book", "custom"}, "fitted"));
  for (ParamSpec& spec : moved) params.push_back(used_when(std::move(spec), "step_model", {"custom"}));
  for (const ParamSpec& spec : own) params.push_back(used_when(spec, "step_model", {"custom"}));
}

StepModelChoice validate_step_model(const Inputs& in, GpuSpec& gpu, TensorParallel& tp) {
  StepModelChoice c;
  c.model = in.choice("step_model");
  const GpuSpec book;  // every field's default is the book's value, every switch off, the ring
  const bool custom = c.model == "custom";
  for (const Term& t : kTerms) {
    const double x = in.real(t.name);
    if (custom) gpu.*t.field = held(t, x);
    else if (differs(x, shown(t, book.*t.field))) c.ignored_fields = true;  // away from its default, unused
  }
  for (const Switch& s : kSwitches) {
    const bool on = in.choice(s.name) == "on";
    if (custom) gpu.*s.field = on;
    else if (on) c.ignored_fields = true;
  }
  const bool direct = in.choice("all_reduce") == "direct";
  if (custom) tp.direct_all_reduce = direct;
  else if (direct) c.ignored_fields = true;
  if (c.model == "book") {
    for (const Term& t : kTerms) gpu.*t.field = book.*t.field;
    for (const Switch& s : kSwitches) gpu.*s.field = false;
    tp.direct_all_reduce = false;
  } else if (c.model == "fitted") {
    vllm_step_model(vllm_fit().knobs, gpu, tp);
  }
  return c;
}

std::vector<std::pair<std::string, std::string>> step_model_fields(const GpuSpec& gpu, const TensorParallel& tp) {
  std::vector<std::pair<std::string, std::string>> fields = {{"step_model", "custom"},
                                                             {"all_reduce", tp.direct_all_reduce ? "direct" : "ring"}};
  for (const Term& t : kTerms) fields.emplace_back(t.name, digits4(shown(t, gpu.*t.field)));
  for (const Switch& s : kSwitches) fields.emplace_back(s.name, gpu.*s.field ? "on" : "off");
  return fields;
}

std::vector<std::pair<std::string, std::string>> vllm_step_model_fields(const StepKnobs& knobs) {
  GpuSpec gpu;
  TensorParallel tp;
  vllm_step_model(knobs, gpu, tp);
  return step_model_fields(gpu, tp);
}

void note_step_model(const StepModelChoice& choice, const std::string& gpu, RunResult& result) {
  if (choice.ignored_fields)
    result.notice("step_model_fields_ignored", "step_model = " + choice.model +
                                                   ": the step model's fields are ignored; choose step_model = custom to use them.");
  if (choice.model != "fitted") return;
  const FittedStepModel& fit = vllm_fit();
  std::vector<std::pair<std::string, std::string>> args = {
      {"runs", std::to_string(fit.runs)}, {"engine", fit.engine}, {"gpu", fit.gpu}, {"source", fit.source}};
  std::string message = "step_model = fitted: the step model's terms are fitted to " + args[0].second +
                        " published runs of " + fit.engine + " on " + fit.gpu + " (" + fit.source + "); held out one at a time, its median errors (%) are";
  const char* const families[] = {"ttft", "itl", "e2e", "e2e_p99", "throughput"};
  const double errors[] = {fit.ttft_err_pct, fit.itl_err_pct, fit.e2e_err_pct, fit.e2e_p99_err_pct, fit.throughput_err_pct};
  for (int i = 0; i < 5; ++i) {
    if (errors[i] < 0) continue;  // the source publishes no figure of the kind
    args.emplace_back(std::string(families[i]) + "_err_pct", one_decimal(errors[i]));
    message += std::string(" ") + families[i] + " " + args.back().second;
  }
  result.notice("step_model_fitted", message + ".", std::move(args));
  if (gpu != fit.gpu)
    result.notice("step_model_other_gpu", "gpu = " + gpu + ": no published " + fit.engine + " run on it is in the fit; the terms fitted on " +
                                              fit.gpu + " are used.",
                  {{"gpu", gpu}, {"fit_gpu", fit.gpu}, {"engine", fit.engine}});
}

}  // namespace sl::llm
