// The cell times this machine, so no test asserts a time: they check that it runs, that every time is
// positive and finite with p10 <= median <= p90, that the fits are the least-squares lines of the cell's
// own points, that FLOP counts follow their formulas, and that bad inputs are refused.
#include <catch2/catch.hpp>

#include <cmath>

#include "batching/cpu_batch_measure.h"
#include "cell_runner.h"

namespace SL_UNITY_ID {

using cell_test::column;
using cell_test::out;

namespace {

// Small and quick: depths 1, 2, 5, 10, 20; batches 1, 2, 4, 8; conv batches 1, 2, 4; short samples.
const std::map<std::string, std::string> kQuick = {{"max_depth", "20"},    {"max_batch", "8"},
                                                   {"conv_max_batch", "4"}, {"min_sample_ms", "0.05"},
                                                   {"samples", "3"}};

const cell_test::Cell cell{"batching/cpu-batch-measure"};

/// The cell at kQuick's settings (explicit values win), seed 3.
sl::Result<sl::RunResult> run(std::map<std::string, std::string> raw) {
  for (const auto& [k, v] : kQuick) raw.emplace(k, v);
  return cell.try_run(std::move(raw), "3");
}

/// (Weighted) least squares by the normal equations in raw sums, independent of fit_line's centred form.
std::pair<double, double> ols(const std::vector<double>& x, const std::vector<double>& y, bool relative = false) {
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double w = relative ? 1.0 / (y[i] * y[i]) : 1.0;  // the cell fits batch times on relative error
    n += w;
    sx += w * x[i];
    sy += w * y[i];
    sxx += w * x[i] * x[i];
    sxy += w * x[i] * y[i];
  }
  const double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  return {(sy - slope * sx) / n, slope};
}

void check_times(const sl::RunResult& r, const std::string& table, const std::string& unit) {
  const auto& median = column(r, table, "median_" + unit);
  const auto& p10 = column(r, table, "p10_" + unit);
  const auto& p90 = column(r, table, "p90_" + unit);
  for (std::size_t i = 0; i < median.size(); ++i) {
    CHECK(std::isfinite(median[i]));
    CHECK(p10[i] > 0);
    CHECK(p10[i] <= median[i]);
    CHECK(median[i] <= p90[i]);
  }
}

}  // namespace

TEST_CASE("CPU batch measurement runs and returns positive, finite, ordered times", "[batching][measure]") {
  const auto r = run({});
  REQUIRE(r.ok());
  const auto& res = r.value();
  CHECK(column(res, "depth", "depth") == std::vector<double>{1, 2, 5, 10, 20});  // 1 and 10, 25, 50, 100 % of 20
  CHECK(column(res, "mlp", "batch") == std::vector<double>{1, 2, 4, 8});
  CHECK(column(res, "conv", "batch") == std::vector<double>{1, 2, 4});
  check_times(res, "depth", "us");
  check_times(res, "mlp", "ms");
  check_times(res, "conv", "ms");
  CHECK(out(res, "timer_resolution_us") > 0);
  CHECK(out(res, "sample_min_ms") >= 0.05);
  for (const auto& [name, value] : res.outputs) CHECK(std::isfinite(value));
}

TEST_CASE("The cell's lines are the least-squares fits of its own medians (batch times on relative error)",
          "[batching][measure]") {
  const auto r = run({});
  REQUIRE(r.ok());
  const auto& res = r.value();
  const auto [a_ms, b_ms] = ols(column(res, "mlp", "batch"), column(res, "mlp", "median_ms"), /*relative=*/true);
  CHECK_THAT(out(res, "mlp_fit_a_ms"), WithinAbs(a_ms, 1e-9 * std::fabs(b_ms) + 1e-12));  // raw sums round more
  CHECK_THAT(out(res, "mlp_fit_b_ms"), WithinRel(b_ms, 1e-9));
  const auto [a_us, b_us] = ols(column(res, "depth", "depth"), column(res, "depth", "median_us"));
  CHECK_THAT(out(res, "per_layer_call_us"), WithinRel(b_us, 1e-9));
  CHECK_THAT(out(res, "stack_intercept_us"), WithinAbs(a_us, 1e-9 * std::fabs(b_us) + 1e-12));
  // fit_ms column = a + b B; per-item time relative to batch 1 = (T(B) / B) / T(1).
  const auto& batch = column(res, "conv", "batch");
  const auto& median = column(res, "conv", "median_ms");
  for (std::size_t i = 0; i < batch.size(); ++i) {
    CHECK_THAT(column(res, "conv", "fit_ms")[i],
               WithinAbs(out(res, "conv_fit_a_ms") + out(res, "conv_fit_b_ms") * batch[i], 1e-12 + 1e-12 * median[i]));
    CHECK_THAT(column(res, "conv", "per_item_rel")[i], WithinRel(median[i] / batch[i] / median[0], 1e-12));
  }
}

TEST_CASE("FLOP counts follow the layer formulas; the book's GPU model is 5.6 ms at B = 1 and 24.2 ms at 32",
          "[batching][measure][book]") {
  const auto r = run({});
  REQUIRE(r.ok());
  const auto& res = r.value();
  // 784 -> 256 x 4 -> 10: 2 (784 x 256 + 3 x 256^2 + 256 x 10) = 799,744 FLOP per item.
  CHECK(out(res, "mlp_flop_per_item") == 799'744);
  // 16 -> 32 channels, 3x3, 28x28, stride 1, pad 1: 2 x 32 x 28 x 28 x 16 x 9 = 7,225,344 FLOP per image.
  CHECK(out(res, "conv_flop_per_item") == 7'225'344);
  // Table 11: T_svc = 5 + 0.6 B ms; a/b = 8.33 items, throughput ceiling 1 + a/b = 9.33x batch 1.
  CHECK_THAT(out(res, "gpu_t_batch1_ms"), WithinRel(5.6, 1e-12));
  CHECK_THAT(out(res, "gpu_t_batch32_ms"), WithinRel(24.2, 1e-12));
  CHECK_THAT(out(res, "gpu_a_over_b"), WithinRel(5.0 / 0.6, 1e-12));
  CHECK_THAT(out(res, "gpu_max_gain"), WithinRel(1.0 + 5.0 / 0.6, 1e-12));
  const auto& gpu_ms = column(res, "mlp", "gpu_model_ms");
  CHECK_THAT(gpu_ms.back(), WithinRel(5.0 + 0.6 * 8, 1e-12));
}

TEST_CASE("The MLP FLOP and memory formulas match a hand count", "[batching][measure]") {
  CHECK(sl::batching::mlp_flop_per_item({784, 256, 4, 10}) == 799'744);
  CHECK(sl::batching::mlp_flop_per_item({3, 5, 1, 2}) == 2 * (15 + 10));  // no hidden-to-hidden layer
  sl::batching::CpuBatchParams p;
  p.width = 16;
  p.max_depth = 100;
  p.mlp = {784, 256, 4, 10};
  p.max_batch = 256;
  p.conv = {1, 16, 28, 28, 32, 3, 3, 1, 1};
  p.conv_max_batch = 16;
  const auto bytes = sl::batching::cpu_batch_bytes(p);
  CHECK(bytes.stack == 4.0 * (100 * (256 + 16) + 32));
  CHECK(bytes.mlp_weights == 4.0 * (399'872 + 4 * 256 + 10));  // weights + biases
  CHECK(bytes.mlp_activations == 4.0 * 256 * (784 + 512));
  // Sweep 1, 2, 4, ..., 128, 256: 511 items of 799,744 FLOP.
  CHECK(sl::batching::mlp_sweep_flop(p) == 511.0 * 799'744);
}

TEST_CASE("CPU batch measurement refuses impossible or oversized inputs", "[batching][measure]") {
  struct Row {
    const char* what;
    std::map<std::string, std::string> raw;
    const char* code;
    const char* param;
  };
  const auto row = GENERATE(values<Row>({
      {"a kernel larger than the padded image", {{"conv_size", "4"}, {"conv_kernel", "9"}, {"conv_padding", "1"}},
       "invalid", "conv_kernel"},
      // The cell names the per-item time here (fixed-window and pareto name svc_fixed_ms for their zero model).
      {"a GPU model with no time at all", {{"gpu_fixed_ms", "0"}, {"gpu_per_item_ms", "0"}}, "invalid",
       "gpu_per_item_ms"},
      // 15 x 4096^2 x 4 B ~ 0.94 GiB: within the 1 GiB budget, but its sweep's FLOPs are minutes of measuring
      {"weights near the memory limit are refused by the measuring time", {{"mlp_hidden", "4096"}, {"mlp_layers", "16"}},
       "too_large", "max_batch"},
      // 8,191 items x 0.8 MFLOP = 6.6 GFLOP > 4 GFLOP
      {"a sweep with too much arithmetic names the batch", {{"max_batch", "4096"}}, "too_large", "max_batch"},
      {"out-of-range values are caught by the parameter ranges", {{"width", "0"}}, "out_of_range", "width"},
  }));
  INFO(row.what);
  const auto r = run(row.raw);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == row.code);
  CHECK(r.error().param == row.param);
}

TEST_CASE("CPU batch measurement reports progress that only grows and ends at 1", "[batching][measure]") {
  std::vector<double> seen;
  sl::RunControl ctl([&](double f) { seen.push_back(f); });
  auto raw = kQuick;
  auto r = sl::run_cell("batching/cpu-batch-measure", raw, "3", ctl);
  REQUIRE(r.ok());
  REQUIRE_FALSE(seen.empty());
  CHECK(seen.back() == 1.0);
  for (std::size_t i = 1; i < seen.size(); ++i) CHECK(seen[i] >= seen[i - 1]);
}

TEST_CASE("The JS -> wasm call cost comes from the browser's samples; natively the cell says it was not measured",
          "[batching][measure]") {
  SECTION("native: no samples, a notice and no JS outputs") {
    const auto r = run({});
    REQUIRE(r.ok());
    CHECK(r.value().find_output("js_layer_call_us") == nullptr);
    CHECK(cell_test::has_notice(r.value(), "js_call_not_measured"));
  }
  SECTION("browser: medians of the samples, and the boundary is a JS call minus the slope inside wasm") {
    const auto r = run({{"measured.js_call.layer", "4e-6 2e-6 3e-6"}, {"measured.js_call.empty", "1e-6 1e-6 5e-6"}});
    REQUIRE(r.ok());
    CHECK_THAT(out(r.value(), "js_layer_call_us"), WithinRel(3.0, 1e-12));
    CHECK_THAT(out(r.value(), "js_empty_call_us"), WithinRel(1.0, 1e-12));
    const double slope = out(r.value(), "per_layer_call_us");
    CHECK_THAT(out(r.value(), "js_boundary_us"), WithinAbs(3.0 - slope, 1e-12));
    CHECK(column(r.value(), "calls", "median_us") == std::vector<double>{slope, 3.0, 1.0});
  }
  SECTION("the plan asks for both calls at the cell's width, `samples` repeats each") {
    auto plan = sl::plan_probes("batching/cpu-batch-measure", {{"width", "32"}, {"samples", "7"}});
    REQUIRE(plan.ok());
    REQUIRE(plan.value().size() == 2);
    for (const auto& task : plan.value()) {
      CHECK(task.probe == "js_call");
      CHECK(task.arg == 32);
      CHECK(task.repeats == 7);
    }
  }
}

TEST_CASE("A fixed cost a / b is claimed only when the fit resolves a positive intercept", "[batching][measure]") {
  const auto r = run({});
  REQUIRE(r.ok());
  const auto& res = r.value();
  for (const std::string w : {"mlp", "conv"}) {
    const double a = out(res, w + "_fit_a_ms"), se = out(res, w + "_fit_a_se_ms");
    CHECK(se >= 0);
    const bool resolved = a > 0 && a > 2 * se;
    CHECK((res.find_output(w + "_a_over_b") != nullptr) == resolved);
    CHECK((res.find_output(w + "_max_gain") != nullptr) == resolved);
    CHECK(cell_test::has_notice(res, w + "_negative_intercept") == (a < 0));
    CHECK(cell_test::has_notice(res, w + "_intercept_in_noise") == (a >= 0 && !resolved));
  }
}

TEST_CASE("A run that could measure for more than 10 s is refused, naming min_sample_ms", "[batching][measure]") {
  // Defaults: 5 depths + 9 MLP batches + 5 conv batches = 19 series x (5 samples + 4) x 100 ms = 17 s.
  const auto r = cell.try_run({{"min_sample_ms", "100"}}, "3");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == "too_large");
  CHECK(r.error().param == "min_sample_ms");
}

}  // namespace SL_UNITY_ID
