#include <catch2/catch.hpp>

#include "cell_runner.h"

namespace SL_UNITY_ID {

const cell_test::Cell cell{"request/runtimes-precision"};

TEST_CASE("Table 19: speedups over PyTorch eager are 8.5 ms / latency, TensorRT INT8 9.4x",
          "[request][precision][book]") {
  const auto r = cell.run();
  CHECK_THAT(out(r, "speedup_torchscript"), WithinRel(8.5 / 6.2, 1e-12));
  // Printed to one decimal (half a unit: 0.05), except TensorRT FP32, printed "3x" (0.5).
  for (const char* name : {"speedup_torchscript", "speedup_onnx", "speedup_trt_fp32", "speedup_trt_fp16",
                           "speedup_trt_int8"})
    cell.check_book(r, name);
  const auto& speedup = column(r, "runtimes", "speedup");
  REQUIRE(speedup.size() == 6);
  CHECK(speedup[0] == 1.0);
  for (std::size_t i = 1; i < speedup.size(); ++i) CHECK(speedup[i] > speedup[i - 1]);
}

TEST_CASE("Table 20: INT8 is 3.1x FP32, FP16 2x, INT8 1.6x FP16; PTQ loses 0.33 points, QAT 0.08",
          "[request][precision][book]") {
  const auto r = cell.run();
  cell.check_book(r, "int8_vs_fp32");
  CHECK_THAT(out(r, "fp16_vs_fp32"), WithinRel(2.0, 1e-12));
  cell.check_book(r, "int8_vs_fp16");
  // Differences of two-decimal percentages: exact to rounding of the decimal inputs (1e-12).
  CHECK_THAT(out(r, "ptq_loss_pp"), WithinAbs(0.33, 1e-12));
  CHECK_THAT(out(r, "qat_loss_pp"), WithinAbs(0.08, 1e-12));
  CHECK_THAT(out(r, "qat_recovered_frac"), WithinRel(0.25 / 0.33, 1e-9));
  const auto& loss = column(r, "precision", "loss_pp");
  CHECK(loss[0] == 0);
  CHECK(loss[1] == 0);  // FP16 keeps 76.13 %
}

TEST_CASE("\"98 MB\" of FP32 ResNet-50 weights closes only in MiB: 102.4 MB = 97.66 MiB",
          "[request][precision][book]") {
  const auto r = cell.run();
  CHECK_THAT(out(r, "fp32_weights_mb"), WithinRel(102.4, 1e-12));
  CHECK_THAT(out(r, "fp32_weights_mib"), WithinRel(102.4e6 / 1048576.0, 1e-12));
  cell.check_book(r, "fp32_weights_mib");   // printed "98": half a unit
  CHECK_FALSE(std::fabs(out(r, "fp32_weights_mb") - 98) <= 0.5);  // the decimal reading does not close
  cell.check_book(r, "fp16_weights_mib");
  // "25 MB" for INT8 closes in neither unit: 24.41 MiB and 25.6 MB are both more than half a unit away.
  CHECK(std::fabs(out(r, "int8_weights_mib") - 25) > 0.5);
  CHECK(std::fabs(out(r, "int8_weights_mb") - 25) > 0.5);
}

TEST_CASE("Eq. 16: the bit ratio bounds the gain at 4x; the measured 3.1x is 78 % of it; 30 GPUs become 10",
          "[request][precision][book]") {
  const auto r = cell.run();
  CHECK_THAT(out(r, "theoretical_speedup"), WithinRel(4.0, 1e-12));
  CHECK_THAT(out(r, "measured_share_of_theoretical_frac"), WithinRel(2.8 / 0.9 / 4, 1e-12));
  CHECK(out(r, "low_bit_gpus") == 10);
  CHECK(out(cell.run({{"low_bits", "4"}}), "theoretical_speedup") == 8);
  CHECK(out(cell.run({{"fp32_gpus", "31"}}), "low_bit_gpus") == 11);  // whole GPUs: ceil(31 / 3)
  CHECK(r.notices.empty());
}

TEST_CASE("An INT8 latency that beats the bit-ratio bound is flagged", "[request][precision]") {
  const auto r = cell.run({{"trt_int8_ms", "0.5"}});
  REQUIRE(r.notices.size() == 1);
  CHECK(r.notices[0].code == "above_bound");
}

TEST_CASE("Runtime inputs are validated", "[request][precision]") {
  CHECK(cell.error({{"trt_int8_ms", "0"}}).code == "out_of_range");
  CHECK(cell.error({{"ptq_acc_pct", "101"}}).param == "ptq_acc_pct");
  CHECK(cell.error({{"low_bits", "2.5"}}).code == "not_integer");
}

TEST_CASE("The old accuracy ids (fp32_acc, ptq_acc, ...) still work", "[request][precision]") {
  const auto old = cell.run({{"ptq_acc", "75"}, {"fp32_acc", "76"}});
  const auto renamed = cell.run({{"ptq_acc_pct", "75"}, {"fp32_acc_pct", "76"}});
  CHECK(out(old, "ptq_loss_pp") == out(renamed, "ptq_loss_pp"));
  CHECK_THAT(out(old, "ptq_loss_pp"), Catch::Matchers::WithinAbs(1.0, 1e-12));
}

}  // namespace SL_UNITY_ID
