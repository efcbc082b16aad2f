// make_calibration_example: writes llm/calibration's bundled measurements (assets/calibration/serving-example.csv) to
// stdout. The rows' rates and lengths are fixed below; their figures are what llm/calibration itself predicts for
// them at known knobs, at its default deployment and seed: the "start" column of the cell's fit table when its own
// knobs are set to the truth. The truth is the default step model (step_model = fitted: llm/validation's fit to
// vLLM, step_model.h) with its four book terms moved, so that calibrating on the file from the defaults, which moves
// only those four, should find the truth again.
//   build/native/make_calibration_example > assets/calibration/serving-example.csv
#include <cstdio>
#include <map>
#include <string>

#include "core/registry.h"
#include "llm/engine/step_model.h"

namespace {

// rate (requests/s), prompt tokens, output tokens: long prompts alone (compute), short ones (the chunk tax and a
// batch of one), a moderate load, a load whose KV reads dominate.
const char* const kRows[][3] = {{"0.5", "4000", "16"}, {"1", "64", "128"}, {"4", "1000", "256"},
                                {"8", "1000", "256"},  {"4", "3000", "512"}};
const std::map<std::string, std::string> kTruth = {
    {"efficiency_frac", "0.5"}, {"bw_efficiency_frac", "0.8"}, {"layer_tax_ms", "0.03"}, {"dispatch_tax_ms", "1"}};

/// step_model = custom at the fitted model's mechanisms and terms, with kTruth's four terms in place of its.
std::map<std::string, std::string> truth_inputs() {
  const auto fields = sl::llm::vllm_step_model_fields(sl::llm::vllm_fit().knobs);
  std::map<std::string, std::string> inputs(fields.begin(), fields.end());
  for (const auto& [name, value] : kTruth) inputs[name] = value;
  return inputs;
}

const std::vector<double>& column(const sl::RunResult& r, const std::string& name) {
  for (const auto& t : r.tables)
    if (t.name == "fit")
      for (const auto& [c, values] : t.columns)
        if (c == name) return values;
  std::fprintf(stderr, "no column fit.%s\n", name.c_str());
  std::exit(1);
}

}  // namespace

int main() {
  std::string csv = "rate,ttft_p50_ms,tpot_p50_ms,tok_per_s,prompt_tokens,output_tokens\n";
  for (const auto& row : kRows) csv += std::string(row[0]) + ",1,1,1," + row[1] + "," + row[2] + "\n";
  std::map<std::string, std::string> inputs = truth_inputs();
  inputs["measurements"] = csv;
  inputs["iterations"] = "1";
  sl::RunControl ctl;
  auto r = sl::run_cell("llm/calibration", inputs, "1", ctl);
  if (!r.ok()) {
    std::fprintf(stderr, "error: %s\n", r.error().message.c_str());
    return 1;
  }
  const auto& point = column(r.value(), "row");
  const auto& start = column(r.value(), "start");  // row by row: TTFT, TPOT (ms), throughput (tokens/s)
  std::printf("# llm/calibration's bundled example: serving points made by this simulator, not measured on a GPU.\n"
              "# Made by tools/make_calibration_example.cpp (build/native/make_calibration_example > this file):\n"
              "# llm/calibration at its default deployment (Llama-3-8B, INT4 weights, FP16 KV, one H100 SXM, 72 GiB\n"
              "# of KV, vLLM's default scheduler), seed 1, 300 Poisson requests a row, at known knobs: the default step\n"
              "# model (fitted to vLLM runs) with compute efficiency 0.5, bandwidth efficiency 0.8, layer tax 0.03 ms,\n"
              "# chunk tax 1 ms. Calibrated from the page's defaults, the cell should find them again. Public domain (CC0).\n");
  std::printf("rate,ttft_p50_ms,tpot_p50_ms,tok_per_s,prompt_tokens,output_tokens\n");
  for (std::size_t i = 0; i < 5; ++i) {
    double f[3] = {0, 0, 0};
    std::size_t k = 0;
    for (std::size_t j = 0; j < point.size(); ++j)
      if (point[j] == static_cast<double>(i)) f[k++] = start[j];
    std::printf("%s,%.6g,%.6g,%.6g,%s,%s\n", kRows[i][0], f[0], f[1], f[2], kRows[i][1], kRows[i][2]);
  }
  return 0;
}
