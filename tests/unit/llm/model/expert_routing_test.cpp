// Mixture-of-experts routing: the expected distinct experts a step touches, against a routed simulation, and what
// it does to a step's bytes, FLOPs and collectives.
#include "matchers.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "core/rng.h"
#include "llm/model/expert_routing.h"
#include "llm/model/step_time.h"

namespace SL_UNITY_ID {

using namespace sl::llm;

namespace {

struct Sample {
  double mean = 0, std_error = 0;
};

/// Routes `tokens` tokens `trials` times, each token to k distinct experts drawn uniformly (a partial Fisher-Yates
/// shuffle), and counts the distinct experts touched.
Sample routed_distinct(std::int64_t experts, std::int64_t k, std::int64_t tokens, int trials, std::uint64_t seed) {
  sl::Rng rng(seed);
  std::vector<std::int64_t> order(static_cast<std::size_t>(experts));
  double sum = 0, sum_sq = 0;
  for (int t = 0; t < trials; ++t) {
    std::vector<bool> touched(static_cast<std::size_t>(experts), false);
    for (std::int64_t token = 0; token < tokens; ++token) {
      std::iota(order.begin(), order.end(), 0);
      for (std::int64_t j = 0; j < k; ++j) {
        const auto pick = j + static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(experts - j)));
        std::swap(order[static_cast<std::size_t>(j)], order[static_cast<std::size_t>(pick)]);
        touched[static_cast<std::size_t>(order[static_cast<std::size_t>(j)])] = true;
      }
    }
    const double n = static_cast<double>(std::count(touched.begin(), touched.end(), true));
    sum += n;
    sum_sq += n * n;
  }
  const double mean = sum / trials;
  const double var = (sum_sq - trials * mean * mean) / (trials - 1);
  return {mean, std::sqrt(var / trials)};
}

/// A Mixtral-like MoE: 8 experts, 2 a token, 32 layers; 44e9 of its 46.7e9 weights in the experts (toy numbers:
/// the counts come from model_architecture in the cells, these only need to be an MoE).
ModelSpec toy_moe() {
  ModelSpec m{"toy-moe", 46'700'000'000, 32, 32, 8, 128, 2.0, 2.0};
  m.num_experts = 8;
  m.experts_per_token = 2;
  m.num_moe_layers = 32;
  m.expert_params = 45'100'000'000;
  m.flop_params = 12'900'000'000 - 131'072'000;
  m.hidden_size = 4096;
  return m;
}

}  // namespace

TEST_CASE("Uniform routing: E (1 - (1 - k/E)^T) distinct experts, as a routed simulation counts them", "[llm][moe]") {
  struct Case { std::int64_t experts, k, tokens; };
  // Mixtral (8, 2), Qwen3-30B-A3B and gpt-oss-120b (128, 8 / 4), DeepSeek-V3 (256, 8), over batch sizes.
  for (const Case c : {Case{8, 2, 1}, Case{8, 2, 3}, Case{8, 2, 16}, Case{128, 8, 1}, Case{128, 8, 8},
                       Case{128, 8, 64}, Case{128, 4, 32}, Case{256, 8, 16}, Case{256, 8, 256}}) {
    CAPTURE(c.experts, c.k, c.tokens);
    const Sample s = routed_distinct(c.experts, c.k, c.tokens, 4000, 17 + static_cast<std::uint64_t>(c.tokens));
    const double closed = expected_distinct_experts(c.experts, c.k, c.tokens);
    // Within 4 standard errors of the simulation's mean (or exact, when every trial touches the same number).
    CHECK(std::fabs(s.mean - closed) <= std::max(4 * s.std_error, 1e-9));
  }
  CHECK(expected_distinct_experts(8, 2, 1) == 2.0);  // one token: exactly its k experts
  CHECK_THAT(expected_distinct_experts(128, 8, 1000), WithinRel(128.0, 1e-12));  // a large batch touches all
}

TEST_CASE("Powers by repeated squaring equal the product they stand for", "[llm][moe]") {
  double product = 1;
  for (int n = 0; n <= 300; ++n) {
    CHECK_THAT(power_of_complement(0.0625, n), WithinRel(product, 1e-13));
    product *= 0.9375;
  }
}

TEST_CASE("Skewed routing touches fewer experts, and expert parallelism waits for the busiest GPU", "[llm][moe]") {
  const ExpertRouting uniform(128, 8, 0.0, 1), skewed(128, 8, 0.05, 1), ep(128, 8, 0.05, 4), ep_uniform(128, 8, 0, 4);
  CHECK(uniform.distinct_experts(16) == expected_distinct_experts(128, 8, 16));
  CHECK(skewed.distinct_experts(16) < uniform.distinct_experts(16));
  CHECK(skewed.distinct_experts(1) <= 8.0 + 1e-12);
  // Uniform experts split evenly over 4 GPUs; skewed ones load GPU 0 (experts 0, 4, 8...) the most.
  CHECK_THAT(ep_uniform.busiest_gpu_distinct_experts(16), WithinRel(uniform.distinct_experts(16) / 4, 1e-12));
  CHECK(ep_uniform.busiest_gpu_token_share() == 0.25);
  CHECK(ep.busiest_gpu_token_share() > 0.25);
  CHECK(ep.busiest_gpu_distinct_experts(16) > ep.distinct_experts(16) / 4);
  // The skewed expectation is sum_i 1 - (1 - q_i)^T: a routed simulation of that model agrees.
  sl::Rng rng(5);
  const ExpertRouting one_gpu(16, 2, 0.2, 1);
  std::vector<double> q(16);
  double w = 1, sum = 0;
  for (double& x : q) { x = w; sum += w; w *= 0.8; }
  for (double& x : q) x = std::min(1.0, 2 * x / sum);
  double total = 0, total_sq = 0;
  const int trials = 20000;
  for (int t = 0; t < trials; ++t) {
    int touched = 0;
    for (double qi : q) {
      bool hit = false;
      for (int token = 0; token < 6; ++token) hit = hit || rng.uniform() < qi;
      touched += hit;
    }
    total += touched;
    total_sq += touched * touched;
  }
  const double mean = total / trials, se = std::sqrt((total_sq / trials - mean * mean) / trials);
  CHECK(std::fabs(mean - one_gpu.distinct_experts(6)) <= 4 * se);
}

TEST_CASE("An MoE decode step reads the experts its batch touches: cheap at batch 1, every expert at 64", "[llm][moe]") {
  const ModelSpec m = toy_moe();
  const GpuSpec g = h100();
  const double shared_bytes = 2.0 * (46.7e9 - 45.1e9), expert_bytes = 2.0 * 45.1e9 / 8;
  StepWork w;
  w.num_decode_seqs = 1;
  w.decode_context_tokens = 1000;
  const StepTime one = step_time(m, g, w);
  CHECK_THAT(one.bytes - one.kv_bytes, WithinRel(shared_bytes + 2 * expert_bytes, 1e-12));
  w.num_decode_seqs = 64;
  w.decode_context_tokens = 64'000;
  const StepTime many = step_time(m, g, w);
  CHECK_THAT(many.bytes - many.kv_bytes, WithinRel(shared_bytes + 8 * expert_bytes * (1 - std::pow(0.75, 64)), 1e-12));
  // FLOPs: 2 x the active weights a token (12.9e9 less the embedding) plus attention, whatever the batch.
  CHECK_THAT(one.flop, WithinRel(2.0 * static_cast<double>(m.flop_params) + 4.0 * 32 * 32 * 128 * 1000, 1e-12));
  // A dense model of the same total would read all 93.4e9 B at batch 1.
  ModelSpec dense = m;
  dense.num_experts = 0;
  w.num_decode_seqs = 1;
  w.decode_context_tokens = 1000;
  CHECK(step_time(dense, g, w).memory_s > 3 * one.memory_s);
}

TEST_CASE("Expert parallelism: the same expert bytes under uniform routing, all-to-alls instead of MLP all-reduces",
          "[llm][moe]") {
  const ModelSpec m = toy_moe();
  TensorParallel tp;
  tp.size = 4;
  TensorParallel ep = tp;
  ep.expert_parallel = true;
  StepWork w;
  w.num_decode_seqs = 32;
  w.decode_context_tokens = 32'000;
  const StepTime a = step_time(m, h100(), w, tp), b = step_time(m, h100(), w, ep);
  // 8 experts over 4 GPUs: 2 each, touched alike; TP slices every touched expert 4 ways: the same bytes.
  CHECK_THAT(b.bytes, WithinRel(a.bytes, 1e-12));
  CHECK_THAT(b.flop, WithinRel(a.flop, 1e-12));
  // Collectives: TP 32 layers x 2 all-reduces; EP 32 attention all-reduces + 32 x 2 all-to-alls of k = 2 copies.
  const double p = 4, bytes = 32 * 4096 * 2.0, link = tp.link_bytes_per_s, lat = tp.link_latency_s;
  const double all_reduce = 2 * (p - 1) / p * bytes / link + 2 * (p - 1) * lat;
  const double all_to_all = (p - 1) / p * 2 * bytes / link + (p - 1) * lat;
  CHECK_THAT(a.all_reduce_s, WithinRel(32 * 2 * all_reduce, 1e-12));
  CHECK_THAT(b.all_reduce_s, WithinRel(32 * all_reduce + 32 * 2 * all_to_all, 1e-12));
  // A dense model ignores the switch.
  ModelSpec dense = m;
  dense.num_experts = 0;
  CHECK(step_time(dense, h100(), w, ep).total_s == step_time(dense, h100(), w, tp).total_s);
}

TEST_CASE("Expert layers at their own efficiency: their bytes and FLOPs take 1 / e times as long, the rest as before",
          "[llm][moe][mechanisms]") {
  // At batch 1 the step reads the shared weights (3.2e9 B), 2 of 8 experts (2 x 11.275e9 B) and its KV; at e = 0.5
  // the experts' 22.55e9 B take twice as long, so the memory time grows by exactly their time at the full rate.
  const ModelSpec m = toy_moe();
  GpuSpec g = h100();
  StepWork w;
  w.num_decode_seqs = 1;
  w.decode_context_tokens = 1000;
  const StepTime dense_rate = step_time(m, g, w);
  CHECK_THAT(dense_rate.expert_bytes, WithinRel(2 * 2.0 * 45.1e9 / 8, 1e-12));
  CHECK(dense_rate.expert_flop > 0);
  g.expert_efficiency = 0.5;
  const StepTime own = step_time(m, g, w);
  CHECK(own.bytes == dense_rate.bytes);  // what the step reads is unchanged; only how fast
  CHECK(own.flop == dense_rate.flop);
  CHECK_THAT(own.memory_s, WithinRel(dense_rate.memory_s + dense_rate.expert_bytes / g.hbm_bytes_per_s, 1e-12));
  CHECK_THAT(own.compute_s, WithinRel(dense_rate.compute_s * (dense_rate.flop + dense_rate.expert_flop) / dense_rate.flop,
                                      1e-12));
  // A dense model has no expert part: the knob moves nothing, to the bit.
  ModelSpec dense = m;
  dense.num_experts = 0;
  GpuSpec book = h100();
  CHECK(step_time(dense, g, w).total_s == step_time(dense, book, w).total_s);
}

}  // namespace SL_UNITY_ID
