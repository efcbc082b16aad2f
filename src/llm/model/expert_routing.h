#pragma once
// Which experts a step's tokens touch in one mixture-of-experts layer. Each token is routed to k of E experts; the
// step reads the weights of every expert at least one of its T tokens chose, once. Under uniform routing a token
// picks a given expert with probability k / E, independently of the other tokens, so the expected number of distinct
// experts is E (1 - (1 - k/E)^T): about k T while T is small (a small batch of an MoE is cheap), all E once T >> E/k.
// Routing is rarely uniform: with skew s in [0, 1) each expert is picked (1 - s) times as often as the one before it
// (a geometric popularity), a token's chance of expert i is q_i = min(1, k p_i), and the expectation is
// sum_i 1 - (1 - q_i)^T. Expert parallelism over p GPUs places expert i on GPU i mod p (the popular ones spread
// out); a step then waits for the GPU with the most distinct experts and the most routed tokens.
// Powers are taken by repeated squaring (+ and x only), so native and wasm builds compute the same doubles.
#include <cstdint>
#include <vector>

namespace sl::llm {

/// (1 - q)^n by repeated squaring: the same bits on every platform.
double power_of_complement(double q, std::int64_t n);

/// E (1 - (1 - k/E)^T): the expected distinct experts T uniformly routed tokens touch in one layer.
double expected_distinct_experts(std::int64_t num_experts, std::int64_t experts_per_token, std::int64_t num_tokens);

class ExpertRouting {
 public:
  /// num_experts E >= 1, experts_per_token k in [1, E], skew in [0, 1), num_gpus p >= 1 (expert parallelism; 1:
  /// every GPU holds a slice of every expert, as tensor parallelism does).
  ExpertRouting(std::int64_t num_experts, std::int64_t experts_per_token, double skew, std::int64_t num_gpus);

  /// Expected distinct experts T tokens touch in one layer, over all GPUs.
  double distinct_experts(std::int64_t num_tokens) const;
  /// The same, on the GPU holding the most of them (expert parallelism); distinct_experts / p otherwise.
  double busiest_gpu_distinct_experts(std::int64_t num_tokens) const;
  /// The share of the routed tokens' expert work that GPU does: max over GPUs of sum q_i / sum q_i (1/p with
  /// uniform routing).
  double busiest_gpu_token_share() const { return busiest_token_share_; }
  bool is_uniform() const { return is_uniform_; }

 private:
  std::int64_t num_experts_, experts_per_token_, num_gpus_;
  bool is_uniform_ = true;
  std::vector<double> pick_prob_;  ///< q_i, most popular first (skewed routing only)
  double busiest_token_share_ = 1;
  // Expectations already computed, by token count (skewed routing: E powers each), -1 when not yet.
  mutable std::vector<double> distinct_cache_, busiest_cache_;
  void fill(std::int64_t num_tokens) const;
};

}  // namespace sl::llm
