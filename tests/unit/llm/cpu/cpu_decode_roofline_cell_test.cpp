// The cell times this machine, so no test asserts a time: they check that it runs with positive, finite
// results, that the tables use the FLOP and byte formulas (tested in cpu_decode_probes_test.cpp), that the roof
// and knee are computed from the measured peaks, and that bad inputs are refused.
#include <catch2/catch.hpp>

#include <cmath>

#include "cell_runner.h"
#include "llm/cpu/cpu_decode_roofline.h"

namespace SL_UNITY_ID {

using cell_test::column;
using cell_test::find_column;
using cell_test::out;
using sl::llm::DecodeShape;

namespace {

const cell_test::Cell cell{"llm/cpu-decode-roofline"};

// 1 MiB of FP32 weights as four 256 x 256 matrices, batches 1, 2, 4: a few milliseconds.
const std::map<std::string, std::string> kQuick = {
    {"weights_mib", "1"}, {"hidden", "256"}, {"max_batch", "4"}, {"min_sample_ms", "0.05"}, {"samples", "7"}};

sl::Result<sl::RunResult> run(std::map<std::string, std::string> raw) {
  for (const auto& [k, v] : kQuick) raw.emplace(k, v);
  return cell.try_run(std::move(raw), "5");
}

}  // namespace

TEST_CASE("CPU decode roofline runs and returns positive, finite times and rates", "[llm][measure]") {
  const auto r = run({});
  REQUIRE(r.ok());
  const auto& res = r.value();
  CHECK(out(res, "num_layers") == 4);  // 1 MiB / (4 B x 256^2)
  CHECK(out(res, "fp32_weight_bytes") == 1'048'576);
  CHECK(out(res, "int8_weight_bytes") == 262'144);
  for (const auto& [name, value] : res.outputs) CHECK(std::isfinite(value));
  for (const char* roof : {"read_gb_per_s", "fma_gflop_per_s", "int8_probe_gop_per_s", "peak_fp32_gflop_per_s",
                           "peak_int8_gop_per_s"})
    CHECK(out(res, roof) > 0);
  // The roofs drawn are the probes, raised to the sweep's best rate where the sweep beat them.
  CHECK(out(res, "roof_gb_per_s") >= out(res, "read_gb_per_s"));
  CHECK(out(res, "peak_fp32_gflop_per_s") >= out(res, "fma_gflop_per_s"));
  CHECK(out(res, "peak_int8_gop_per_s") >= out(res, "int8_probe_gop_per_s"));
  CHECK((out(res, "vector_bits") == 128 || out(res, "vector_bits") == 256));
  CHECK(out(res, "stream_mib") == 1);  // the FP32 weight buffer
  CHECK(out(res, "max_spread") >= 1);
  const DecodeShape s{256, 4};
  for (const auto& [table, prec] : {std::pair{"fp32", sl::llm::kFp32}, std::pair{"int8", sl::llm::kInt8}}) {
    CHECK(column(res, table, "batch") == std::vector<double>{1, 2, 4});
    const auto& step_ms = column(res, table, "step_ms");
    for (std::size_t i = 0; i < step_ms.size(); ++i) {
      const auto b = static_cast<std::int64_t>(column(res, table, "batch")[i]);
      CHECK(step_ms[i] > 0);  // the best sample
      CHECK(step_ms[i] <= column(res, table, "p10_ms")[i]);
      CHECK(column(res, table, "p10_ms")[i] <= column(res, table, "p90_ms")[i]);
      // Every rate in the table is a formula count over the measured median.
      CHECK_THAT(column(res, table, "ai_flop_per_byte")[i],
                 WithinRel(sl::llm::decode_step_flop(s, b) / sl::llm::decode_step_bytes(s, prec, b), 1e-12));
      CHECK_THAT(column(res, table, "gflop_per_s")[i], WithinRel(sl::llm::decode_step_flop(s, b) / step_ms[i] * 1e-6, 1e-12));
      CHECK_THAT(column(res, table, "tok_per_s")[i], WithinRel(static_cast<double>(b) / step_ms[i] * 1e3, 1e-12));
      CHECK(column(res, table, "roof_gflop_per_s")[i] > 0);
      // No point above the roof drawn: its rate, its bandwidth and its share of the roof.
      CHECK(column(res, table, "gflop_per_s")[i] <= column(res, table, "roof_gflop_per_s")[i] * (1 + 1e-12));
      CHECK(column(res, table, "gb_per_s")[i] <= out(res, "roof_gb_per_s") * (1 + 1e-12));
      CHECK(column(res, table, "roof_frac")[i] <= 1.0);
      CHECK(column(res, table, "roof_frac")[i] > 0.0);
    }
  }
}

TEST_CASE("A verdict only from a steady run whose knee is past batch 1", "[llm][measure]") {
  const auto r = run({});
  REQUIRE(r.ok());
  const auto& res = r.value();
  const bool noisy = cell_test::has_notice(res, "noisy_run");
  // Steady means the timings that set the roofs (the verdict compares a counted intensity with their ratio)
  // spread at most kMaxSpread; a wider spread elsewhere is only reported.
  CHECK(noisy == (out(res, "verdict_spread") > sl::llm::kMaxSpread));
  CHECK(out(res, "verdict_spread") >= 1);
  CHECK(out(res, "verdict_spread") <= out(res, "max_spread"));
  CHECK(cell_test::has_notice(res, "noisy_steps") == (!noisy && out(res, "max_spread") > sl::llm::kMaxSpread));
  for (const char* p : {"fp32", "int8"}) {
    const std::string prefix = p;
    const bool knee_low = cell_test::has_notice(res, prefix + "_knee_below_one");
    CHECK(knee_low == (out(res, prefix + "_b1_ai_over_ridge") >= 1));
    // The verdict is given exactly when the run is steady and the knee lies past batch 1.
    CHECK((res.find_output(prefix + "_b1_memory_bound") != nullptr) == (!noisy && !knee_low));
  }
}

TEST_CASE("The roof is min(peak, bandwidth x intensity) and the ridge is peak / bandwidth", "[llm][measure]") {
  const auto r = run({{"precision", "fp32"}});
  REQUIRE(r.ok());
  const auto& res = r.value();
  const double bw = out(res, "roof_gb_per_s"), peak = out(res, "peak_fp32_gflop_per_s");
  CHECK_THAT(out(res, "ridge_fp32_flop_per_byte"), WithinRel(peak / bw, 1e-12));
  const auto& ai = column(res, "roof", "ai_flop_per_byte");
  const auto& roof = column(res, "roof", "fp32_gflop_per_s");
  for (std::size_t i = 0; i < ai.size(); ++i) CHECK_THAT(roof[i], WithinRel(std::min(peak, bw * ai[i]), 1e-12));
  // eq. 18 on this CPU: weight bytes / measured bandwidth.
  CHECK_THAT(out(res, "fp32_eq18_step_ms"), WithinRel(1'048'576 / (bw * 1e9) * 1e3, 1e-12));
  // Only the precision asked for is measured.
  CHECK(res.find_output("int8_b1_step_ms") == nullptr);
  CHECK(find_column(res, "int8", "batch") == nullptr);
}

TEST_CASE("Book GPU points beside the CPU: H100 ridge 295 FLOP/B, V100 15.6, INT4 batch-1 decode 4 FLOP/B",
          "[llm][measure][book]") {
  const auto r = run({{"precision", "int8"}});
  REQUIRE(r.ok());
  // 989e12 / 3.35e12 = 295.2; 14.0e12 / 900e9 = 15.56 (printed 15.6); 2 FLOP / 0.5 B = 4 (eq. 18 text).
  CHECK_THAT(out(r.value(), "h100_ridge_flop_per_byte"), WithinRel(989.0 / 3.35, 1e-12));
  CHECK_THAT(out(r.value(), "v100_ridge_flop_per_byte"), WithinRel(14.0e12 / 900e9, 1e-12));
  CHECK(out(r.value(), "int4_b1_ai_flop_per_byte") == 4.0);  // constants: no longer book rows
}

TEST_CASE("CPU decode roofline refuses impossible or oversized inputs", "[llm][measure]") {
  const auto row = GENERATE(values<cell_test::BadInput>({
      // one 1024^2 FP32 matrix is 4 MiB
      {"weights smaller than one matrix", {{"weights_mib", "1"}, {"hidden", "1024"}}, "invalid", "weights_mib"},
      {"weights the wasm heap cannot hold", {{"weights_mib", "2048"}, {"hidden", "1024"}, {"precision", "fp32"}},
       "too_large", "weights_mib"},
      // 1,300 MiB FP32 + 325 MiB INT8 = 1,625 MiB > 1,536 MiB (the FP32-only run is not made: too slow here).
      {"FP32 plus INT8 copies over the limit, though FP32 alone (1,300 MiB) would fit",
       {{"weights_mib", "1300"}, {"hidden", "1024"}, {"max_batch", "2"}}, "too_large", "weights_mib"},
      {"a sweep with too much arithmetic names the batch",
       {{"weights_mib", "64"}, {"hidden", "1024"}, {"max_batch", "1024"}}, "too_large", "max_batch"},
      {"an unknown precision", {{"precision", "fp16"}}, "bad_choice", ""},
      // 12 timed calls x (5 batches x (640 + 160 MiB) + 640 MiB) = 60 GB at 5 GB/s: 12 s, over 10 s. The FLOP
      // cost alone said 9.3 s, and 512 MiB took 9.3-10 s here.
      {"weights whose reads alone outlast the budget name weights_mib",
       {{"weights_mib", "640"}, {"hidden", "1024"}, {"max_batch", "16"}, {"min_sample_ms", "1"}}, "too_large",
       "weights_mib"},
      // 3 probes + 2 x 5 batches = 13 series x (7 samples + 4 calibration timings) x 1 s >> 10 s.
      {"samples so long the run could not end in 10 s name min_sample_ms",
       {{"weights_mib", "64"}, {"hidden", "1024"}, {"max_batch", "16"}, {"min_sample_ms", "1000"}}, "too_large",
       "min_sample_ms"},
      {"fewer than 7 samples", {{"samples", "5"}}, "out_of_range", "samples"},
  }));
  INFO(row.what);
  const auto r = run(row.raw);
  REQUIRE_FALSE(r.ok());
  cell_test::check_error(r.error(), row);
}

}  // namespace SL_UNITY_ID
