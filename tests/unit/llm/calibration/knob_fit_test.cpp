// Fitting the step-time knobs (knob_fit.h): measured decode steps made by the step-time model at known knobs give
// those knobs back; the robust weighting is the log-error near 0 and grows like a log beyond.
#include "llm/calibration/knob_fit.h"

#include <catch2/catch.hpp>

namespace SL_UNITY_ID {

using namespace sl::llm;

TEST_CASE("The robust log-error is log(predicted / measured) near 0, odd, and grows like log(2|r|) far off",
          "[llm][knob-fit]") {
  CHECK(robust_log_error(1.0, 1.0) == 0.0);
  CHECK(robust_log_error(1.01, 1.0) == Approx(std::log(1.01)).epsilon(1e-4));
  CHECK(robust_log_error(2.0, 1.0) == -robust_log_error(1.0, 2.0));
  // 100 x off: r = 4.6, asinh(r) = 2.23 ~ log(2 r) = 2.22.
  CHECK(robust_log_error(100.0, 1.0) == Approx(std::log(2 * std::log(100.0))).epsilon(0.01));
}

TEST_CASE("Decode steps timed by the step-time model at known knobs give the knobs back within 2 %",
          "[llm][knob-fit]") {
  // Llama-3-8B FP16 on one H100: batches 1 to 512 over contexts 128 to 4,096, so some steps are bound by the
  // weights (bandwidth efficiency and the layer tax, told apart by batch 1's fixed cost against the KV reads of
  // long contexts) and the largest by compute (compute efficiency). Decode steps have no prefill chunk: the
  // dispatch tax is unseen and stays at its start.
  ModelSpec model = llama3_8b();
  model.bytes_per_weight = 2.0;
  const StepKnobs truth{0.55, 0.7, 4e-5, 2e-3};
  const StepTimeModel timed(model, with_knobs(h100(), truth), TensorParallel{});
  std::vector<StepSample> samples;
  for (const std::int64_t batch : {1, 8, 64, 256, 512})
    for (const std::int64_t context : {128, 1024, 4096})
      samples.push_back({batch, context, timed(decode_work({batch, context, 0})).total_s});
  const StepKnobs start{};  // the page's defaults
  auto fit = fit_step_times(model, h100(), TensorParallel{}, samples, start, 100);
  REQUIRE(fit.ok());
  const StepKnobs& k = fit.value().knobs;
  CHECK_THAT(k.compute_efficiency, Catch::Matchers::WithinRel(truth.compute_efficiency, 0.02));
  CHECK_THAT(k.bandwidth_efficiency, Catch::Matchers::WithinRel(truth.bandwidth_efficiency, 0.02));
  CHECK_THAT(k.layer_tax_s, Catch::Matchers::WithinRel(truth.layer_tax_s, 0.02));
  CHECK(k.dispatch_tax_s == start.dispatch_tax_s);
  // The mechanisms' knobs are not freed here: unseen, kept at their start.
  CHECK(fit.value().is_unseen == std::vector<bool>{false, false, false, true, true, true, true, true, true, true});
}

}  // namespace SL_UNITY_ID
