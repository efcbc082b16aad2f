// llm/calibration: the step-time knobs fitted to a reader's measurements. Measurements the simulator made at known
// knobs give those knobs back within 2 %: the bundled serving example (Poisson points), decode steps, and a vllm
// bench serve file; bad files and settings are refused naming their parameter.
#include <catch2/catch.hpp>

#include "cell_runner.h"
#include "llm/engine/step_model.h"

#include "llm/model/step_time.h"

namespace SL_UNITY_ID {

namespace {

const Cell kCell{"llm/calibration"};

void check_knobs(const sl::RunResult& r, double efficiency, double bandwidth, double layer_tax_ms, double chunk_tax_ms) {
  CHECK_THAT(out(r, "fitted_efficiency_frac"), WithinRel(efficiency, 0.02));
  CHECK_THAT(out(r, "fitted_bw_efficiency_frac"), WithinRel(bandwidth, 0.02));
  CHECK_THAT(out(r, "fitted_layer_tax_ms"), WithinRel(layer_tax_ms, 0.02));
  CHECK_THAT(out(r, "fitted_dispatch_tax_ms"), WithinRel(chunk_tax_ms, 0.02));
}

/// The knobs assets/calibration/serving-example.csv was made at (tools/make_calibration_example.cpp): the default
/// step model's mechanisms and terms (step_model = fitted), with its four book terms moved.
std::map<std::string, std::string> truth() {
  const auto fields = sl::llm::vllm_step_model_fields(sl::llm::vllm_fit().knobs);
  std::map<std::string, std::string> inputs(fields.begin(), fields.end());
  inputs["efficiency_frac"] = "0.5", inputs["bw_efficiency_frac"] = "0.8";
  inputs["layer_tax_ms"] = "0.03", inputs["dispatch_tax_ms"] = "1";
  return inputs;
}

}  // namespace

TEST_CASE("llm/calibration finds the knobs its bundled serving example was made at, within 2 %", "[llm][calibration-cell]") {
  const sl::RunResult& r = shared_run(kCell.id);
  CHECK(has_notice(r, "calib_example"));
  CHECK(out(r, "points") == 5);
  check_knobs(r, 0.5, 0.8, 0.03, 1.0);
  CHECK(out(r, "median_err_start_pct") > 5);  // the page's defaults are off ...
  CHECK(out(r, "median_err_pct") < 0.5);      // ... the fit is not
  REQUIRE(r.fills.size() == 1);
  CHECK(r.fills[0].whole_page);
  // step_model = custom with every term and mechanism of the model it fitted: the four fitted terms, and the
  // default model's mechanisms and other terms as they were.
  std::map<std::string, std::string> filled(r.fills[0].values.begin(), r.fills[0].values.end());
  CHECK(filled.size() == truth().size());
  CHECK(filled["step_model"] == "custom");
  CHECK(filled["cuda_graph_padding"] == "on");
  CHECK(filled["request_overhead_ms"] == truth()["request_overhead_ms"]);
  CHECK(column(r, "fit", "line").front() == 8);  // six comment lines and the header above the first row
}

TEST_CASE("llm/calibration fits decode steps on the step-time model: the chunk tax, unseen, keeps its start",
          "[llm][calibration-cell]") {
  // The cell's default deployment: Llama-3-8B, INT4 weights, FP16 KV, one H100; steps timed at known knobs.
  sl::llm::ModelSpec model = sl::llm::llama3_8b();
  sl::llm::GpuSpec gpu = sl::llm::h100();
  gpu.compute_efficiency = 0.6, gpu.bandwidth_efficiency = 0.75, gpu.layer_tax_s = 5e-5, gpu.dispatch_tax_s = 3e-3;
  std::string csv = "batch,context,step_ms\n";
  for (const std::int64_t batch : {1, 16, 128, 512, 1024})
    for (const std::int64_t context : {256, 2048})
      csv += std::to_string(batch) + "," + std::to_string(context) + "," +
             sl::format_number(sl::llm::decode_step_s(model, gpu, batch, batch * context) * 1e3) + "\n";
  // The steps are the book's step model's (no mechanism), so the cell fits that model.
  const sl::RunResult r = kCell.run({{"measurements", csv}, {"step_model", "book"}});
  check_knobs(r, 0.6, 0.75, 0.05, 0.01);  // 0.01 ms: the book's chunk tax, its start
  CHECK(has_notice(r, "calib_unseen"));
  CHECK(column(r, "knobs", "unseen") == std::vector<double>{0, 0, 0, 1});
  CHECK(r.find_output("simulations") == nullptr);  // no simulation: the model itself
  for (const double m : column(r, "fit", "metric")) CHECK(m == 5);  // decode steps
}

TEST_CASE("llm/calibration fits a vllm bench serve file: a burst, a closed loop and Poisson runs", "[llm][calibration-cell]") {
  // Runs of every kind whose figures the cell itself predicts at known knobs (its fit table's start column).
  const auto bench = [](const std::vector<double>& f) {
    const char* const shape[] = {
        R"({"num_prompts": 300, "request_rate": "inf", "max_concurrency": null, "completed": 300, "duration": 10, "total_input_tokens": 150000, "total_output_tokens": 38400)",
        R"({"num_prompts": 100, "request_rate": "inf", "max_concurrency": 4, "completed": 100, "duration": 10, "total_input_tokens": 6400, "total_output_tokens": 25600)",
        R"({"num_prompts": 300, "request_rate": 4.0, "max_concurrency": null, "completed": 300, "duration": 10, "total_input_tokens": 600000, "total_output_tokens": 76800)",
        R"({"num_prompts": 300, "request_rate": 1.0, "max_concurrency": null, "completed": 300, "duration": 10, "total_input_tokens": 19200, "total_output_tokens": 38400)"};
    std::string text;
    for (int i = 0; i < 4; ++i)
      text += std::string(shape[i]) + ", \"mean_ttft_ms\": " + sl::format_number(f[3 * i]) + ", \"mean_tpot_ms\": " +
              sl::format_number(f[3 * i + 1]) + ", \"output_throughput\": " + sl::format_number(f[3 * i + 2]) + "}\n";
    return text;
  };
  std::map<std::string, std::string> at_truth = truth();
  at_truth["measurements"] = bench(std::vector<double>(12, 1.0));
  at_truth["iterations"] = "1";
  const sl::RunResult truth = kCell.run(at_truth);
  const sl::RunResult r = kCell.run({{"measurements", bench(column(truth, "fit", "start"))}, {"iterations", "10"}});
  CHECK(out(r, "points") == 4);
  check_knobs(r, 0.5, 0.8, 0.03, 1.0);
  CHECK(column(r, "fit", "line") == std::vector<double>{1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4});
}

TEST_CASE("llm/calibration refuses bad files, short contexts and runs over the budget, naming the parameter",
          "[llm][calibration-cell]") {
  CHECK(kCell.error({{"measurements", "rate,ttft_p50_ms\n1,2\n"}}).param == "measurements");
  const sl::Error bench = kCell.error({{"measurements", R"({"completed": 0, "duration": 1})"}});
  CHECK(bench.code == "bench_no_request");
  CHECK(bench.param == "measurements");
  const sl::Error longer = kCell.error({{"max_model_len", "2048"}});  // the example's 3,000 + 512-token row
  CHECK(longer.code == "calib_too_long");
  CHECK(longer.param == "max_model_len");
  const sl::Error budget = kCell.error({{"n", "100000"}});
  CHECK(budget.code == "too_large");
  CHECK(budget.param == "n");
}

}  // namespace SL_UNITY_ID
