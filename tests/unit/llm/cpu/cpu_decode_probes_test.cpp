// The model side of the CPU decode roofline (cpu_decode_probes.cpp): FLOPs and bytes of one decode step and the
// knee where its intensity meets a ridge. The probes themselves time this machine and are exercised by the cell
// test without asserting any time.
#include "llm/cpu/cpu_decode_roofline.h"

#include "matchers.h"

#include <cstdint>
#include <vector>

#include "core/rng.h"
#include "kernels/fill.h"
#include "kernels/gemm.h"
#include "kernels/int8.h"

namespace SL_UNITY_ID {

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

TEST_CASE("The measurement-only decode layers compute x W^T, as the reference kernels do", "[llm][cpu_decode_probes]") {
  // Odd sizes exercise the 8-lane tails and the rows left after groups of 4.
  const std::int64_t batch = GENERATE(1, 3), n = 13, k = 37;
  sl::Rng rng(7);
  std::vector<float> w(n * k), x(batch * k), y(batch * n), ref(batch * n);
  sl::kernels::fill_uniform(rng, w.data(), n * k, 1.0f);
  sl::kernels::fill_uniform(rng, x.data(), batch * k, 1.0f);
  sl::llm::decode_layer_f32(batch, n, k, w.data(), x.data(), y.data());
  sl::kernels::gemm_f32_naive({batch, n, k, sl::kernels::BLayout::Transposed}, x.data(), k, w.data(), k, ref.data(), n);
  // Different summation orders and fused multiply-adds: equal to float rounding over 37 terms.
  for (std::size_t i = 0; i < y.size(); ++i) CHECK_THAT(y[i], Catch::Matchers::WithinAbs(ref[i], 1e-4));

  std::vector<std::int8_t> w8(n * k), x8(batch * k);
  std::vector<std::int16_t> x16(batch * k);
  std::vector<std::int32_t> y8(batch * n), ref8(batch * n);
  sl::kernels::fill_uniform(rng, w8.data(), n * k);
  sl::kernels::fill_uniform(rng, x8.data(), batch * k);
  sl::llm::decode_layer_i8(batch, n, k, w8.data(), x8.data(), x16.data(), y8.data());
  sl::kernels::gemm_i8_naive(batch, n, k, x8.data(), k, w8.data(), k, ref8.data(), n);
  CHECK(y8 == ref8);  // integer sums are exact
}

TEST_CASE("The peak probes count 2 operations per lane per multiply-add", "[llm][cpu_decode_probes]") {
  // 12 accumulators x 2,048 iterations; FP32 lanes = bits / 32, int16 lanes = bits / 16.
  CHECK(sl::llm::fma_probe_flop(128) == 2.0 * 12 * 4 * 2048);
  CHECK(sl::llm::fma_probe_flop(256) == 2.0 * 12 * 8 * 2048);
  CHECK(sl::llm::int8_probe_op(256) == 2.0 * 12 * 16 * 2048);
  const int bits = sl::llm::measure_vector_bits();
  CHECK((bits == 128 || bits == 256));
  CHECK(sl::llm::last_level_cache_bytes() >= 0);
}

}  // namespace SL_UNITY_ID
