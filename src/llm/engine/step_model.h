#pragma once
// Where an engine cell's step-time terms come from (its step_model parameter, issue 37):
//   fitted  the default: the terms llm/validation fits to published vLLM runs (vllm_fit.cpp, written by
//           tools/fit_defaults.mjs from `serving-lab run llm/validation --json`, checked by a refit test), with the
//           mechanisms those runs were simulated with (real_server_mechanisms);
//   book    the book's roofline: 0.4 of the tensor peak, all of the HBM bandwidth, 0.01 ms taxes, no mechanism;
//   custom  the fields as the reader sets them, starting from the book's values.
#include <string>
#include <vector>

#include "core/cell.h"
#include "llm/engine/step_schedule.h"
#include "llm/model/step_time.h"

namespace sl::llm {

/// A fit of the step model's terms to one source's published runs, and how well it predicts them held out.
struct FittedStepModel {
  const char* engine = "";  ///< the server the runs measured, as named on the page ("vLLM")
  const char* gpu = "";     ///< the GPU preset its runs ran on
  const char* source = "";  ///< where the runs are published (labs/llm/measured/<source>.json)
  int runs = 0;             ///< the published runs fitted to
  /// Leave-one-out median absolute errors over those runs, in % (-1: the source publishes no figure of the kind).
  double ttft_err_pct = -1, itl_err_pct = -1, e2e_err_pct = -1, e2e_p99_err_pct = -1, throughput_err_pct = -1;
  StepKnobs knobs;  ///< the fitted terms; a term no run could move keeps the book's value
};

/// llm/validation's fit to the vLLM runs of inference-sim's training set (generated: vllm_fit.cpp).
const FittedStepModel& vllm_fit();

/// The mechanisms every real server has, as llm/validation simulates its points: kernels launched layer by layer
/// in every step, the LM head and embedding, attention on its own roofline, the engine's own all-reduce where the
/// GPUs share NVLink-class links, and (vLLM, not TensorRT-LLM's runtime) CUDA graphs padded to their capture sizes.
void real_server_mechanisms(bool cuda_graphs, GpuSpec& gpu, TensorParallel& tp);
/// `gpu` with `knobs` and vLLM's mechanisms: the shape of the fitted model (step_model = fitted is vllm_fit()'s).
void vllm_step_model(const StepKnobs& knobs, GpuSpec& gpu, TensorParallel& tp);

/// Appends step_model (fitted | book | custom) to `params`, then the fields custom takes, each shown only then: the
/// GPU's terms already in `params` (gpu_params: efficiency_frac, layer_tax_ms, dispatch_tax_ms), moved there, then
/// bw_efficiency_frac, all_reduce (ring | direct) and the mechanisms: layer_tax_every_step (off | on), host_step_ms,
/// host_overlap (off | on), half_efficiency_tokens, cuda_graph_padding (off | on), request_overhead_ms (added to
/// each request's TTFT and E2E), low_precision_efficiency_frac (the share of compute efficiency an FP8 or FP4 step
/// reaches), expert_efficiency_frac (the share of both efficiencies a mixture of experts' expert layers reach),
/// lm_head_and_embedding (off | on), attention_roofline (off | on). Every default is the book's.
void add_step_model_params(std::vector<ParamSpec>& params);

/// What a run's step_model chose.
struct StepModelChoice {
  std::string model = "fitted";
  bool ignored_fields = false;  ///< a field set away from its default while the choice is not custom
};
/// Sets `gpu`'s terms and mechanisms and `tp`'s all-reduce from step_model: the fit, the book's, or the fields.
StepModelChoice validate_step_model(const Inputs& in, GpuSpec& gpu, TensorParallel& tp);
/// The inputs that set step_model = custom to `gpu`'s terms and mechanisms and `tp`'s all-reduce, each as the
/// CLI takes it (4 significant digits): what a fitted calibration offers the page (InputFill).
std::vector<std::pair<std::string, std::string>> step_model_fields(const GpuSpec& gpu, const TensorParallel& tp);
/// step_model_fields of vllm_step_model with `knobs` on the default link (NVLink-class: the direct all-reduce).
std::vector<std::pair<std::string, std::string>> vllm_step_model_fields(const StepKnobs& knobs);
/// Notices: where the step model's terms come from (the fit's runs and held-out errors; a GPU the fit has no run
/// on, `gpu` naming the run's), and fields the choice ignored.
void note_step_model(const StepModelChoice& choice, const std::string& gpu, RunResult& result);

}  // namespace sl::llm
