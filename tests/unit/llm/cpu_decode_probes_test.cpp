// The model side of the CPU decode roofline (cpu_decode_probes.cpp): FLOPs and bytes of one decode step and the
// knee where its intensity meets a ridge. The probes themselves time this machine and are exercised by the cell
// test without asserting any time.
#include "llm/cpu_decode_roofline.h"

#include <catch2/catch.hpp>

using Catch::Matchers::WithinRel;
using sl::llm::DecodeShape;

TEST_CASE("Decode FLOPs and bytes follow the formulas", "[llm][cpu_decode_probes]") {
  const DecodeShape s{1024, 16};
  // 2 x B x 1024^2 x 16 layers.
  CHECK(sl::llm::decode_step_flop(s, 1) == 33'554'432.0);
  CHECK(sl::llm::decode_step_flop(s, 8) == 8 * 33'554'432.0);
  // FP32, B = 1: 16 x (4 x 1024^2 + 1 x 1024 x (4 + 4)) = 16 x 4,202,496 = 67,239,936 B.
  CHECK(sl::llm::decode_step_bytes(s, sl::llm::kFp32, 1) == 67'239'936.0);
  // INT8, B = 4: 16 x (1024^2 + 4 x 1024 x (1 + 4)) = 16 x 1,069,056 = 17,104,896 B.
  CHECK(sl::llm::decode_step_bytes(s, sl::llm::kInt8, 4) == 17'104'896.0);
  // Batch-1 intensity: 2 FLOP per weight over 4 B, less a little for the activations: 0.499 FLOP/B.
  CHECK_THAT(sl::llm::decode_step_flop(s, 1) / sl::llm::decode_step_bytes(s, sl::llm::kFp32, 1),
             WithinRel(2.0 / (4.0 + 8.0 / 1024), 1e-12));
}

TEST_CASE("The knee batch is where the step's intensity meets the ridge", "[llm][cpu_decode_probes]") {
  const DecodeShape s{1024, 16};
  for (const auto& prec : {sl::llm::kFp32, sl::llm::kInt8}) {
    for (double ridge : {0.5, 1.3, 7.0, 40.0}) {
      const double b = sl::llm::knee_batch(s, prec, ridge);
      REQUIRE(b > 0);
      // Intensity 2 B h / (w h + B (in + out)) at the knee equals the ridge.
      const double h = 1024, w = static_cast<double>(prec.weight_bytes), io = static_cast<double>(prec.input_bytes + prec.output_bytes);
      CHECK_THAT(2 * b * h / (w * h + b * io), WithinRel(ridge, 1e-12));
    }
  }
  // Intensity never exceeds 2 h / (in + out) = 256 FLOP/B in FP32 at h = 1024: no knee beyond it.
  CHECK(sl::llm::knee_batch(s, sl::llm::kFp32, 300.0) == 0.0);
}
