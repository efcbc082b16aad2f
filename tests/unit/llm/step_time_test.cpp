#include <catch2/catch.hpp>

#include "llm/step_time.h"

using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using namespace sl::llm;

TEST_CASE("Preset sizes: Llama-3-8B INT4 weighs 4.015e9 B and keeps 131,072 B of FP16 KV per token",
          "[llm][model][book]") {
  CHECK(llama3_8b().weight_bytes() == 4'015'000'000);
  CHECK(llama3_8b().kv_bytes_per_token() == 131'072);  // 2 x 32 x 8 x 128 x 2 B (§21)
  CHECK(llama31_70b().kv_bytes_per_token() == 327'680);  // 2 x 80 x 8 x 128 x 2 B (§20)
  CHECK(llama31_70b().weight_bytes() == 35'300'000'000);
  CHECK(h100().memory_bytes == 85'899'345'920);
}

TEST_CASE("Decode at batch 1 reproduces the case study's TPOT of 1.57 ms on an H100", "[llm][model][book]") {
  // (4.015e9 + 131,072 x 1,256) / 3.35e12 + 32 x 0.01 ms = 1.5676 ms, printed "1.57 ms" (abs 0.005).
  const StepTime t = [] {
    StepWork w;
    w.num_decode_seqs = 1;
    w.decode_context_tokens = 1256;
    return step_time(llama3_8b(), h100(), w);
  }();
  CHECK_THAT(t.total_s * 1e3, WithinAbs(1.57, 0.005));
  CHECK_THAT(t.overhead_s * 1e3, WithinRel(0.32, 1e-12));
  CHECK_FALSE(t.is_compute_bound());
  CHECK(decode_step_s(llama3_8b(), h100(), 1, 1256) == t.total_s);
}

TEST_CASE("Prefill of 1,000 tokens reproduces the case study's TTFT of 41.9 ms", "[llm][model][book]") {
  // (2 x 8.03e9 x 1000 + 4 x 32 x 32 x 128 x 1000^2) / (989e12 x 0.4) + 0.01 ms = 41.93 ms ("41.9", abs 0.05).
  CHECK_THAT(prefill_s(llama3_8b(), h100(), 1000) * 1e3, WithinAbs(41.9, 0.05));
  // The cost calculation's TTFT(1,256) = 53.09 ms (§21), printed to 0.01 ms.
  CHECK_THAT(prefill_s(llama3_8b(), h100(), 1256) * 1e3, WithinAbs(53.09, 0.005));
}

TEST_CASE("Chunked prefill attention pairs add up to the whole prompt's S^2", "[llm][model]") {
  CHECK(prefill_attention_pairs(0, 512) + prefill_attention_pairs(512, 488) == 1000 * 1000);
  CHECK(prefill_attention_pairs(100, 0) == 0);
}

TEST_CASE("Step time is the larger roof plus the tax, and grows with batch and context", "[llm][model]") {
  const ModelSpec m = llama3_8b();
  const GpuSpec g = h100();
  StepWork empty;
  CHECK(step_time(m, g, empty).total_s == 0.0);
  // Weights-only decode floor: 4.015e9 / 3.35e12 = 1.1985 ms (eq. 18).
  StepWork w;
  w.num_decode_seqs = 1;
  const StepTime t1 = step_time(m, g, w);
  CHECK_THAT(t1.memory_s * 1e3, WithinRel(1.19851, 1e-5));
  CHECK(t1.total_s == t1.memory_s + t1.overhead_s);
  // A large batch with no context turns compute-bound: FLOP grow with B, bytes do not.
  w.num_decode_seqs = 4096;
  const StepTime big = step_time(m, g, w);
  CHECK(big.is_compute_bound());
  CHECK(big.total_s == big.compute_s + big.overhead_s);
  CHECK(decode_step_s(m, g, 8, 8 * 2000) > decode_step_s(m, g, 8, 8 * 1000));
  CHECK(decode_step_s(m, g, 16, 16 * 1000) > decode_step_s(m, g, 8, 8 * 1000));
}
