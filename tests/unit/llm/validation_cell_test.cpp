// llm/validation: the simulator against published runs, default and calibrated (leave-one-out). The calibrated
// median errors are pinned: a change that makes any of them grow past its recorded value fails here.
#include <catch2/catch.hpp>

#include "cell_runner.h"

using namespace cell_test;

namespace {

const Cell kCell{"llm/validation"};

}  // namespace

TEST_CASE("llm/validation compares every figure of the 49 modelled points, default and leave-one-out",
          "[llm][validation]") {
  const sl::RunResult& r = shared_run(kCell.id);
  CHECK(out(r, "points_modelled") == 49);
  CHECK(out(r, "points_excluded") == 30);  // 15 + 10 mixture-of-experts + 5 dense on H200/B200/L40S
  const auto& metric = column(r, "validation", "metric");
  const auto& measured = column(r, "validation", "measured");
  const auto& err = column(r, "validation", "calibrated_err_pct");
  const auto& calibrated = column(r, "validation", "calibrated");
  // Every target of every modelled point: inference-sim 11 x 3 (TTFT, E2E, throughput) + 2 saturated (throughput),
  // TensorRT-LLM online 12 x 3 (TTFT, ITL, throughput), offline 12 and static 4 (throughput), batch-1 8 (TTFT).
  REQUIRE(metric.size() == 95);
  for (std::size_t i = 0; i < metric.size(); ++i) CHECK(err[i] == Approx(100 * (calibrated[i] / measured[i] - 1)));
  CHECK(column(r, "excluded", "exclusion").size() == 30);
  // The default-knob errors are reported beside the calibrated ones.
  for (const char* name : {"ttft_median_err_default_pct", "itl_median_err_default_pct", "e2e_median_err_default_pct",
                           "throughput_median_err_default_pct"})
    CHECK(out(r, name) > 0);
  CHECK(has_notice(r, "points_excluded"));
  CHECK(has_notice(r, "latency_dropped"));
}

TEST_CASE("llm/validation offers the knobs fitted on all points to every cell, within their parameters' ranges",
          "[llm][validation]") {
  const sl::RunResult& r = shared_run(kCell.id);
  REQUIRE(r.fills.size() == 1);
  const sl::InputFill& f = r.fills[0];
  CHECK(f.name == "fitted_knobs");
  CHECK(f.whole_page);
  std::map<std::string, std::string> raw(f.values.begin(), f.values.end());
  CHECK(raw.size() == 4);
  CHECK(std::stod(raw.at("efficiency_frac")) == Approx(out(r, "fitted_efficiency_frac")).epsilon(1e-3));
  CHECK(std::stod(raw.at("layer_tax_ms")) == Approx(out(r, "fitted_layer_tax_ms")).epsilon(1e-3));
  // Every cell that has the knobs takes them (llm/continuous-batching runs with them).
  REQUIRE(try_run("llm/continuous-batching", {{"efficiency_frac", raw.at("efficiency_frac")},
                                               {"bw_efficiency_frac", raw.at("bw_efficiency_frac")},
                                               {"layer_tax_ms", raw.at("layer_tax_ms")},
                                               {"dispatch_tax_ms", raw.at("dispatch_tax_ms")}, {"n", "50"}})
              .ok());
  const auto& knob = column(r, "knobs", "knob");
  CHECK(knob.size() == 4);
  CHECK(column(r, "knobs", "default") == std::vector<double>{0.4, 1.0, 0.01, 0.01});  // the page's defaults
}

TEST_CASE("llm/validation with one engine's points has no figure that engine does not publish", "[llm][validation]") {
  const sl::RunResult vllm = kCell.run({{"engines", "vllm"}, {"iterations", "2"}, {"max_requests", "100"}});
  CHECK(out(vllm, "points_modelled") == 13);
  CHECK(vllm.find_output("itl_median_err_pct") == nullptr);  // inference-sim's TPOT counts stream chunks: left out
  for (const double e : column(vllm, "validation", "engine")) CHECK(e == 0);
  const sl::RunResult trt = kCell.run({{"engines", "tensorrt-llm"}, {"iterations", "2"}, {"max_requests", "100"}});
  CHECK(out(trt, "points_modelled") == 36);
  CHECK(trt.find_output("e2e_median_err_pct") == nullptr);
  // Every TensorRT-LLM point on an H100 or A100 is modelled but the mixture-of-experts ones; the others are on H200,
  // B200 or L40S.
  CHECK(column(trt, "excluded", "exclusion").size() == 15);
}

TEST_CASE("llm/validation refuses a request cap over the run budget, naming it", "[llm][validation]") {
  const sl::Error e = kCell.error({{"max_requests", "100000"}});
  CHECK(e.code == "too_large");
  CHECK(e.param == "max_requests");
}

TEST_CASE("llm/validation's median errors do not grow past their recorded values", "[llm][validation]") {
  // Recorded 2026-12-06 at 9ef537f (the fit's logs made portable, core/portable_log.h), defaults, seed 1: 49
  // points, 95 figures. Each is the median |predicted / measured - 1| of one
  // family, in %, rounded up in its 4th digit. A change that makes a median grow fails here; one that shrinks it
  // should record the new value. (The fit ends where a noisy objective lets it: a change of the last bit in its
  // logs moved these medians by up to 10 points, e.g. E2E 47.9 -> 38.3 -> 43.1 %.)
  const sl::RunResult& r = shared_run(kCell.id);
  // Calibrated on the other points (leave-one-out): what the cell claims.
  CHECK(out(r, "ttft_median_err_pct") <= 19.47);
  CHECK(out(r, "itl_median_err_pct") <= 18.99);
  CHECK(out(r, "e2e_median_err_pct") <= 43.11);
  CHECK(out(r, "throughput_median_err_pct") <= 2.020);
  // At the page's default knobs: the simulator as every other cell runs it.
  CHECK(out(r, "ttft_median_err_default_pct") <= 52.73);
  CHECK(out(r, "itl_median_err_default_pct") <= 18.42);
  CHECK(out(r, "e2e_median_err_default_pct") <= 21.99);
  CHECK(out(r, "throughput_median_err_default_pct") <= 5.506);
}
