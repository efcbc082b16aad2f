#include "matchers.h"

#include <algorithm>
#include <cstdint>

#include "llm/model/step_time.h"

namespace SL_UNITY_ID {

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

TEST_CASE("Tensor parallelism over 2 GPUs halves each GPU's weight bytes and adds the all-reduces as stated",
          "[llm][model][tensor_parallel]") {
  const ModelSpec m = llama3_8b();
  const GpuSpec g = h100();
  StepWork w;  // 64 sequences decoding with 1,256 tokens of context each
  w.num_decode_seqs = 64;
  w.decode_context_tokens = 64 * 1256;
  TensorParallel tp2;
  tp2.size = 2;
  const StepTime one = step_time(m, g, w);
  const StepTime two = step_time(m, g, w, tp2);
  // Weights: 4.015e9 B / 2 per GPU; KV: 8 KV heads / 2 = 4 per GPU, so 65,536 B per token.
  CHECK_THAT(two.bytes - two.kv_bytes, WithinRel(4.015e9 / 2, 1e-12));
  CHECK(tp2.kv_bytes_per_token_per_gpu(m) == 65'536);
  CHECK(two.kv_bytes == 65'536.0 * 64 * 1256);
  CHECK(two.flop == one.flop / 2);
  // All-reduces: 32 layers x 2, each a ring over p = 2 GPUs of 64 tokens x 4,096 x 2 B = 524,288 B:
  // 2 (p - 1) / p x 524,288 B / 450e9 B/s + 2 (p - 1) x 5 us = 1.1651 us + 10 us, so 64 x 11.165 us = 0.71457 ms.
  const double one_all_reduce_s = 524'288.0 / 450e9 + 2 * 5e-6;
  CHECK_THAT(two.all_reduce_s, WithinRel(64 * one_all_reduce_s, 1e-12));
  CHECK_THAT(two.all_reduce_s * 1e3, WithinRel(0.71457, 1e-4));
  CHECK(two.total_s == std::max(two.memory_s, two.compute_s) + two.overhead_s + two.all_reduce_s);
  CHECK(one.all_reduce_s == 0.0);
  // Memory-bound here: each GPU reads half the bytes, so the roofline part halves.
  CHECK_THAT(two.memory_s, WithinRel(one.memory_s / 2, 1e-12));
}

TEST_CASE("KV heads fewer than the tensor-parallel GPUs are replicated, one per GPU", "[llm][model][tensor_parallel]") {
  TensorParallel tp16;
  tp16.size = 16;
  // Llama-3-8B has 8 KV heads: over 16 GPUs each keeps one, 2 x 32 x 1 x 128 x 2 B = 16,384 B per token.
  CHECK(tp16.kv_bytes_per_token_per_gpu(llama3_8b()) == 16'384);
}

TEST_CASE("Bandwidth efficiency stretches the memory time; at 1 the step is the book's", "[llm][model]") {
  GpuSpec g = h100();
  StepWork w;
  w.num_decode_seqs = 1;
  w.decode_context_tokens = 1256;
  const StepTime full = step_time(llama3_8b(), g, w);
  g.bandwidth_efficiency = 0.8;
  const StepTime slow = step_time(llama3_8b(), g, w);
  CHECK_THAT(slow.memory_s, WithinRel(full.memory_s / 0.8, 1e-12));
  CHECK(slow.kv_bytes == 131'072.0 * 1256);
}

TEST_CASE("Draft tokens verified in a step cost their FLOPs and KV writes, not another read of the weights",
          "[llm][model][speculative]") {
  const ModelSpec m = llama3_8b();
  const GpuSpec g = h100();
  StepWork plain;  // one sequence decoding at 1,000 tokens of context
  plain.num_decode_seqs = 1;
  plain.decode_context_tokens = 1000;
  StepWork spec = plain;  // and 4 drafts, which attend to 1,001..1,004 tokens
  spec.num_spec_tokens = 4;
  spec.spec_context_tokens = 1001 + 1002 + 1003 + 1004;
  const StepTime a = step_time(m, g, plain), b = step_time(m, g, spec);
  CHECK(b.bytes - a.bytes == 4.0 * 131'072);  // the drafts' KV written; the weights (4.015e9 B) once
  CHECK_THAT(b.flop - a.flop, WithinRel(2.0 * 8.03e9 * 4 + 4.0 * 32 * 32 * 128 * 4010, 1e-9));
  // Still memory-bound at batch 1: five tokens cost about what one does (0.013 % more: the drafts' KV writes).
  CHECK(b.total_s > a.total_s);
  CHECK(b.total_s < a.total_s * 1.001);
}

// ---- A real server's mechanisms (issue 37): each term's closed form on a small case, and off = the book's step.

namespace {

/// Llama-3-8B FP16 on an H100 at the book's knobs, one step of 8 decodes (1,000 tokens of context each) beside a
/// 300-token prefill chunk.
struct MixedStep {
  ModelSpec m = [] {
    ModelSpec spec = llama3_8b();
    spec.bytes_per_weight = 2.0;
    return spec;
  }();
  GpuSpec g = h100();
  StepWork w = [] {
    StepWork work;
    work.num_decode_seqs = 8;
    work.decode_context_tokens = 8000;
    work.num_prefill_tokens = 300;
    work.num_prefill_chunks = 1;
    work.prefill_attention_pairs = prefill_attention_pairs(0, 300);
    return work;
  }();
};

/// A dense model of `params` parameters with multi-head attention (as many KV heads as heads).
ModelSpec dense_mha(std::int64_t params, std::int64_t layers, std::int64_t heads, std::int64_t head_dim) {
  ModelSpec m;
  m.params = params;
  m.num_layers = layers;
  m.num_heads = m.num_kv_heads = heads;
  m.head_dim = head_dim;
  return m;
}

}  // namespace

TEST_CASE("Mechanisms off are the book's step, to the bit", "[llm][model][mechanisms]") {
  const MixedStep s;
  GpuSpec off = s.g;
  off.step_host_s = 0;
  off.half_efficiency_tokens = 0;
  off.request_overhead_s = 0;
  off.low_precision_efficiency = 0.5;  // no FP8 peak in use: not applied
  const StepTime book = step_time(s.m, s.g, s.w), same = step_time(s.m, off, s.w);
  CHECK(same.total_s == book.total_s);
  CHECK(book.total_s == std::max(book.memory_s, book.compute_s) + book.overhead_s + book.all_reduce_s);
  CHECK(book.host_s == 0);
}

TEST_CASE("Host time adds to a step, or overlaps it: GPU + host, or max(GPU, host)", "[llm][model][mechanisms]") {
  const MixedStep s;
  const StepTime gpu = step_time(s.m, s.g, s.w);
  GpuSpec g = s.g;
  g.step_host_s = 4e-3;
  const StepTime serial = step_time(s.m, g, s.w);
  CHECK(serial.total_s == Approx(gpu.total_s + 4e-3).epsilon(1e-12));
  g.host_overlapped = true;
  CHECK(step_time(s.m, g, s.w).total_s == gpu.total_s);  // the GPU's step is the longer: the host hides behind it
  g.step_host_s = 1.0;
  CHECK(step_time(s.m, g, s.w).total_s == 1.0);  // a host slower than the GPU bounds the step
  // The host time is paid by every step, prefill-only ones too, and not by an empty step.
  CHECK(step_time(s.m, g, StepWork{}).total_s == 0.0);
}

TEST_CASE("Short steps compute less efficiently: efficiency x n / (n + n_half)", "[llm][model][mechanisms]") {
  const MixedStep s;
  const StepTime full = step_time(s.m, s.g, s.w);
  GpuSpec g = s.g;
  g.half_efficiency_tokens = 308;  // as many as the step's own 8 + 300 tokens: half the efficiency, twice the time
  const StepTime half = step_time(s.m, g, s.w);
  CHECK(half.compute_s == Approx(2 * full.compute_s).epsilon(1e-12));
  CHECK(half.memory_s == full.memory_s);
  // A long prefill barely notices: 8,192 tokens at n_half = 308 compute 1 + 308/8,192 = 1.0376 times as long.
  StepWork long_prefill;
  long_prefill.num_prefill_tokens = 8192;
  long_prefill.num_prefill_chunks = 1;
  long_prefill.prefill_attention_pairs = prefill_attention_pairs(0, 8192);
  CHECK(step_time(s.m, g, long_prefill).compute_s ==
        Approx(step_time(s.m, s.g, long_prefill).compute_s * (8192.0 + 308) / 8192).epsilon(1e-12));
}

TEST_CASE("The layer tax on every step charges a prefill-only step the decode's per-layer time",
          "[llm][model][mechanisms]") {
  const MixedStep s;
  StepWork prefill = s.w;
  prefill.num_decode_seqs = 0;
  prefill.decode_context_tokens = 0;
  GpuSpec g = s.g;
  const double book = step_time(s.m, g, prefill).overhead_s;
  CHECK(book == Approx(1e-5));  // the book: one dispatch tax a chunk, no layer tax
  g.layer_tax_every_step = true;
  CHECK(step_time(s.m, g, prefill).overhead_s == Approx(1e-5 + 32 * 1e-5).epsilon(1e-12));
}

TEST_CASE("CUDA-graph padding multiplies as many rows as the next capture size", "[llm][model][mechanisms]") {
  CHECK(cuda_graph_tokens(1) == 1);
  CHECK(cuda_graph_tokens(3) == 4);
  CHECK(cuda_graph_tokens(5) == 8);
  CHECK(cuda_graph_tokens(9) == 16);
  CHECK(cuda_graph_tokens(256) == 256);
  CHECK(cuda_graph_tokens(257) == 272);  // multiples of 16 beyond 256
  CHECK(cuda_graph_tokens(512) == 512);
  CHECK(cuda_graph_tokens(513) == 513);  // beyond the largest graph: eager, unpadded
  const MixedStep s;
  StepWork decode;
  decode.num_decode_seqs = 9;
  decode.decode_context_tokens = 9000;
  GpuSpec g = s.g;
  const StepTime plain = step_time(s.m, g, decode);
  g.cuda_graph_padding = true;
  const StepTime padded = step_time(s.m, g, decode);
  // 16 rows of 2 x params FLOPs in place of 9; attention and the KV read are the 9 sequences'.
  const double attention = 4.0 * 32 * 32 * 128 * 9000;
  CHECK(padded.flop - attention == Approx((plain.flop - attention) * 16 / 9).epsilon(1e-12));
  CHECK(padded.bytes == plain.bytes);
}

TEST_CASE("FP8 steps reach compute_efficiency x low_precision_efficiency of the FP8 peak", "[llm][model][mechanisms]") {
  const MixedStep s;
  GpuSpec g = s.g;
  g.peak_flop_per_s = 1979e12;
  g.low_precision_peak = true;
  const StepTime at_full = step_time(s.m, g, s.w);
  g.low_precision_efficiency = 0.5;
  CHECK(step_time(s.m, g, s.w).compute_s == Approx(2 * at_full.compute_s).epsilon(1e-12));
}

TEST_CASE("A direct all-reduce takes 2 hops of latency where a ring of p GPUs takes 2 (p - 1)",
          "[llm][model][tensor_parallel][mechanisms]") {
  TensorParallel ring;
  ring.size = 4;
  TensorParallel direct = ring;
  direct.direct_all_reduce = true;
  const double bytes = 64 * 4096 * 2.0;
  const double transfer = 2.0 * 3 / 4 * bytes / 450e9;
  CHECK(ring.ring_all_reduce_s(bytes) == Approx(transfer + 6 * 5e-6).epsilon(1e-12));
  CHECK(direct.ring_all_reduce_s(bytes) == Approx(transfer + 2 * 5e-6).epsilon(1e-12));
}

TEST_CASE("The LM head stays 16-bit and multiplies sampled rows only; the embedding is not read whole",
          "[llm][model][mechanisms]") {
  // Llama-2-7B-like, untied: a 32,000 x 4,096 embedding and as large an LM head inside 6.74e9 parameters.
  ModelSpec m = dense_mha(6'740'000'000, 32, 32, 128);
  m.embedding_params = 32'000LL * 4096;
  const double table = 32'000.0 * 4096;
  StepWork prefill;  // one 300-token chunk: one sampled row
  prefill.num_prefill_tokens = 300;
  prefill.num_prefill_chunks = 1;
  prefill.prefill_attention_pairs = prefill_attention_pairs(0, 300);
  for (const double bytes_per_weight : {2.0, 1.0, 0.5}) {
    m.bytes_per_weight = bytes_per_weight;
    GpuSpec g = h100();
    const StepTime off = step_time(m, g, prefill);
    g.lm_head_and_embedding = true;
    const StepTime on = step_time(m, g, prefill);
    // Bytes: both tables out at the weights' precision, the LM head back at 2 B.
    CHECK(on.bytes - off.bytes == Approx(2.0 * table - 2.0 * table * bytes_per_weight).epsilon(1e-9));
    // FLOPs: the embedding multiplies nothing, the LM head only the chunk's last row: 2 x table x (2 x 300 - 1) fewer.
    CHECK(off.flop - on.flop == Approx(2.0 * table * (2 * 300 - 1)).epsilon(1e-9));
  }
  // Tied (one table), and unknown tables (a model given by its total count alone): unknown changes nothing.
  m.bytes_per_weight = 1.0;
  m.tied_embeddings = true;
  GpuSpec g = h100();
  const StepTime off = step_time(m, g, prefill);
  g.lm_head_and_embedding = true;
  CHECK(step_time(m, g, prefill).bytes - off.bytes == Approx(table).epsilon(1e-9));  // the table read at 2 B, not 1
  m.embedding_params = 0;
  CHECK(step_time(m, g, prefill).total_s == step_time(m, h100(), prefill).total_s);
}

TEST_CASE("Attention on its own roofline: max(weights, matrix products) + max(KV, attention)",
          "[llm][model][mechanisms]") {
  // 1e9 one-byte weights and 1e9 KV bytes at 1e12 B/s: 1 ms each; 2e12 FLOP of matrix products and 1e9 of attention
  // at 1e15 FLOP/s: 2 ms and 1 us. One max over the totals hides the KV read under the compute (2.001 ms); split at
  // attention, the KV read is the attention kernel's own time and adds to the matrix products' (2 + 1 = 3 ms).
  // KV: 2 x 10 x 10 x 100 x 2 B = 40,000 B a token; attention: 4 x 10 x 10 x 100 = 40,000 FLOP a pair.
  ModelSpec m = dense_mha(1'000'000'000, 10, 10, 100);
  m.bytes_per_weight = 1.0;
  GpuSpec g;
  g.peak_flop_per_s = 1e15;
  g.hbm_bytes_per_s = 1e12;
  g.compute_efficiency = 1.0;
  g.layer_tax_s = 0;
  g.dispatch_tax_s = 0;
  StepWork decode;
  decode.num_decode_seqs = 1000;
  decode.decode_context_tokens = 25'000;  // 25,000 x 40,000 B = 1e9 B; 25,000 x 40,000 FLOP = 1e9 FLOP
  const StepTime one_max = step_time(m, g, decode);
  CHECK(one_max.memory_s == Approx(2e-3).epsilon(1e-12));
  CHECK(one_max.compute_s == Approx(2.001e-3).epsilon(1e-12));
  CHECK(one_max.attention_flop == Approx(1e9).epsilon(1e-12));
  CHECK(one_max.total_s == Approx(2.001e-3).epsilon(1e-12));
  g.attention_roofline = true;
  const StepTime split = step_time(m, g, decode);
  CHECK(split.total_s == Approx(3e-3).epsilon(1e-12));
  CHECK(split.memory_s == one_max.memory_s);  // the parts are the same; only how they add changes
  CHECK(split.compute_s == one_max.compute_s);
  // A step bound by the same resource in both parts is the same either way: batch 1 reads 1 ms of weights, 2 us of
  // matrix products, and its 25,000-token KV (1 ms) for 1 us of attention: 2 ms.
  decode.num_decode_seqs = 1;
  CHECK(step_time(m, g, decode).total_s == Approx(2e-3).epsilon(1e-12));
  g.attention_roofline = false;
  CHECK(step_time(m, g, decode).total_s == Approx(2e-3).epsilon(1e-12));
}

}  // namespace SL_UNITY_ID
