#include "llm/model/model_architecture.h"

#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "cell_runner.h"
#include "llm/model/model_inputs.h"
#include "llm/model/preset_list.h"

namespace SL_UNITY_ID {

using namespace sl::llm;

namespace {

/// Checked inputs of a cell with just the model and GPU parameters (Llama-3-8B and H100 as defaults).
const InputsOf inputs{model_and_gpu_params()};

/// The fields step_time.h's h100() and a100() define, compared one by one.
void check_same_as_book(const GpuSpec& preset, const GpuSpec& book) {
  CHECK(preset.name == book.name);
  CHECK(preset.peak_flop_per_s == book.peak_flop_per_s);
  CHECK(preset.hbm_bytes_per_s == book.hbm_bytes_per_s);
  CHECK(preset.memory_bytes == book.memory_bytes);
  CHECK(preset.compute_efficiency == book.compute_efficiency);
  CHECK(preset.layer_tax_s == book.layer_tax_s);
  CHECK(preset.dispatch_tax_s == book.dispatch_tax_s);
  CHECK(preset.bandwidth_efficiency == book.bandwidth_efficiency);
  CHECK(preset.tdp_w == book.tdp_w);
}

}  // namespace

TEST_CASE("GPU presets: at least eight, the book's two first, each with its sources and whole figures",
          "[llm][gpu_presets]") {
  // What each preset promises beyond the list's own rules.
  const auto check_each = [](const GpuPreset& p) {
    CHECK(p.spec.name == p.id);
    CHECK_FALSE(p.source.empty());
    CHECK_FALSE(p.price_source.empty());
    CHECK(p.spec.peak_flop_per_s > 0);
    CHECK(p.spec.hbm_bytes_per_s > 0);
    CHECK(p.spec.memory_bytes > 0);
    CHECK(p.spec.tdp_w > 0);
    CHECK(p.spec.link_bytes_per_s > 0);
    CHECK(p.spec.price_usd_per_h > 0);
    // A narrower format is at least as fast where the GPU has it (dense figures, not the sparsity ones).
    if (p.spec.peak_fp8_flop_per_s > 0) CHECK(p.spec.peak_fp8_flop_per_s >= p.spec.peak_flop_per_s);
    if (p.spec.peak_fp4_flop_per_s > 0) CHECK(p.spec.peak_fp4_flop_per_s >= p.spec.peak_fp8_flop_per_s);
  };
  sl::llm::test::check_preset_list(gpu_presets(), 8, "h100", "a100", find_gpu_preset, "custom", check_each);
  for (const char* id : {"a100-40gb", "h100-pcie", "h200", "b200", "l40s", "mi300x"}) CHECK(find_gpu_preset(id));
}

TEST_CASE("The h100 and a100 presets are the book's h100() and a100() field for field, with FP8, link and price",
          "[llm][gpu_presets][book]") {
  const GpuSpec& h = find_gpu_preset("h100")->spec;
  const GpuSpec& a = find_gpu_preset("a100")->spec;
  check_same_as_book(h, h100());
  check_same_as_book(a, a100());
  CHECK(h.peak_fp8_flop_per_s == 1979e12);  // 3,958 TFLOPS with sparsity, halved
  CHECK(h.link_bytes_per_s == 450e9);        // NVLink 4: 900 GB/s both ways
  CHECK(a.peak_fp8_flop_per_s == 0);         // Ampere: no FP8 tensor cores
  CHECK(a.link_bytes_per_s == 300e9);        // NVLink 3: 600 GB/s both ways
  CHECK(find_gpu_preset("b200")->spec.peak_fp4_flop_per_s == 9e15);
  CHECK(find_gpu_preset("h200")->spec.peak_flop_per_s == h.peak_flop_per_s);  // the same GH100 tensor cores
}

TEST_CASE("The gpu choice lists every preset, then custom; a preset's spec is what validate_gpu returns",
          "[llm][gpu_presets][model_inputs]") {
  const auto params = gpu_params(h100());
  REQUIRE(params[0].name == "gpu");
  std::vector<std::string> expected;
  for (const GpuPreset& p : gpu_presets()) expected.push_back(p.id);
  expected.push_back("custom");
  CHECK(params[0].choices == expected);
  for (const GpuPreset& p : gpu_presets()) {
    INFO(p.id);
    const auto g = validate_gpu(inputs({{"gpu", p.id}}), h100());
    REQUIRE(g.ok());
    CHECK(g.value().gpu.memory_bytes == p.spec.memory_bytes);
    CHECK(g.value().gpu.peak_fp8_flop_per_s == p.spec.peak_fp8_flop_per_s);
    CHECK_FALSE(g.value().ignored_custom);
  }
}

TEST_CASE("Weights pick the peak: fp16, int8 and int4 run at the FP16 peak, fp8 at the FP8 one, fp4 at the FP4 one",
          "[llm][gpu_presets][model_inputs]") {
  const auto at = [](const std::string& gpu, const std::string& weights) {
    auto c = validate_model_and_gpu(inputs({{"gpu", gpu}, {"weights", weights}}));
    if (!c.ok()) FAIL(c.error().message);
    return c.value();
  };
  for (const char* w : {"fp16", "int8", "int4"}) CHECK(at("h100", w).gpu.peak_flop_per_s == 989e12);
  const ModelAndGpu fp8 = at("h100", "fp8");
  CHECK(fp8.gpu.peak_flop_per_s == 1979e12);
  CHECK(fp8.model.bytes_per_weight == 1.0);
  CHECK(fp8.gpu_choice.gpu.peak_flop_per_s == 989e12);  // the choice keeps the datasheet's FP16 figure
  const ModelAndGpu fp4 = at("b200", "fp4");
  CHECK(fp4.gpu.peak_flop_per_s == 9e15);
  CHECK(fp4.model.bytes_per_weight == 0.5);
  // The default (INT4 weights, FP8-capable H100) is the book's FP16 peak: every existing output stays the same.
  const auto defaults = validate_model_and_gpu(inputs({}));
  REQUIRE(defaults.ok());
  CHECK(defaults.value().gpu.peak_flop_per_s == h100().peak_flop_per_s);
}

TEST_CASE("A GPU without the weights' precision refuses it, naming weights", "[llm][gpu_presets][model_inputs]") {
  const auto a100_fp8 = validate_model_and_gpu(inputs({{"gpu", "a100"}, {"weights", "fp8"}}));
  REQUIRE_FALSE(a100_fp8.ok());
  CHECK(a100_fp8.error().code == "invalid");
  CHECK(a100_fp8.error().param == "weights");
  CHECK(a100_fp8.error().message ==
        "weights = fp8: the a100 has no FP8 tensor cores; choose fp16, int8 or int4, or a GPU with FP8 such as h100");
  const auto h100_fp4 = validate_model_and_gpu(inputs({{"weights", "fp4"}}));
  REQUIRE_FALSE(h100_fp4.ok());
  CHECK(h100_fp4.error().param == "weights");
  CHECK(h100_fp4.error().message.find("such as b200") != std::string::npos);
  // A custom GPU has FP8 only where its field says so.
  const std::map<std::string, std::string> custom = {{"gpu", "custom"}, {"weights", "fp8"}};
  CHECK_FALSE(validate_model_and_gpu(inputs(custom)).ok());
  auto with_fp8 = custom;
  with_fp8["peak_fp8_tflop_per_s"] = "2000";
  const auto ok = validate_model_and_gpu(inputs(with_fp8));
  REQUIRE(ok.ok());
  CHECK(ok.value().gpu.peak_flop_per_s == 2000e12);
}

TEST_CASE("FP8 KV halves the KV bytes on any GPU, with or without FP8 tensor cores", "[llm][gpu_presets][model_inputs]") {
  const auto c = validate_model_and_gpu(inputs({{"gpu", "a100"}, {"kv", "fp8"}}));
  REQUIRE(c.ok());
  CHECK(c.value().model.kv_bytes_per_token() == llama3_8b().kv_bytes_per_token() / 2);
  CHECK(c.value().gpu.peak_flop_per_s == 312e12);
}

TEST_CASE("The CLI path: h200 with fp8 weights runs the continuous-batching cell; a100 with fp8 is refused",
          "[llm][gpu_presets]") {
  const auto ok = try_run("llm/continuous-batching", {{"gpu", "h200"}, {"weights", "fp8"}, {"n", "20"}});
  REQUIRE(ok.ok());
  const auto refused = try_run("llm/continuous-batching", {{"gpu", "a100"}, {"weights", "fp8"}, {"n", "20"}});
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().param == "weights");
}

}  // namespace SL_UNITY_ID
