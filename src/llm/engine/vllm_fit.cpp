// The numbers between the markers are written by tools/fit_defaults.mjs from `serving-lab run llm/validation --json`
// at its defaults: do not edit them by hand.
// The refit test (tests/unit/llm/calibration/vllm_fit_test.cpp) runs the validation again and checks every number
// here against it. Knobs no vLLM run moves (the FP8/FP4 share: no run used FP8; the expert layers' share: fitted
// only on request) keep the book's values.
#include "llm/engine/step_model.h"

namespace sl::llm {

const FittedStepModel& vllm_fit() {
  static const FittedStepModel fit = [] {
    FittedStepModel f;
    f.engine = "vLLM";
    f.gpu = "h100";
    f.source = "inference-sim-training";
    // fit_defaults.mjs: begin
    f.runs = 21;
    f.ttft_err_pct = 6.409639135983269;
    f.itl_err_pct = -1;
    f.e2e_err_pct = 5.8621068768634155;
    f.e2e_p99_err_pct = 4.366258316045246;
    f.throughput_err_pct = 0.5524111683870125;
    f.knobs.compute_efficiency = 0.6539200864813978;
    f.knobs.bandwidth_efficiency = 0.8093075945579659;
    f.knobs.layer_tax_s = 0.00004080990582126458;
    f.knobs.dispatch_tax_s = 0;
    f.knobs.step_host_s = 0;
    f.knobs.request_overhead_s = 0.0010481067998922395;
    f.knobs.half_efficiency_tokens = 0;
    f.knobs.low_precision_efficiency = 1;
    f.knobs.expert_efficiency = 1;
    // fit_defaults.mjs: end
    return f;
  }();
  return fit;
}

}  // namespace sl::llm
