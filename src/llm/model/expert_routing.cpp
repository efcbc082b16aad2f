#include "llm/model/expert_routing.h"

#include <algorithm>

namespace sl::llm {
namespace {

// Token counts whose expectations are kept (a step has at most max_num_batched_tokens + max_num_seqs tokens).
constexpr std::int64_t kMaxCachedTokens = std::int64_t{1} << 21;

}  // namespace

double power_of_complement(double q, std::int64_t n) {
  double base = 1.0 - q, result = 1.0;
  for (; n > 0; n >>= 1) {
    if (n & 1) result *= base;
    base *= base;
  }
  return result;
}

double expected_distinct_experts(std::int64_t num_experts, std::int64_t experts_per_token, std::int64_t num_tokens) {
  const double e = static_cast<double>(num_experts);
  return e * (1.0 - power_of_complement(static_cast<double>(experts_per_token) / e, num_tokens));
}

ExpertRouting::ExpertRouting(std::int64_t num_experts, std::int64_t experts_per_token, double skew,
                             std::int64_t num_gpus)
    : num_experts_(num_experts), experts_per_token_(experts_per_token), num_gpus_(std::max<std::int64_t>(1, num_gpus)) {
  is_uniform_ = skew <= 0;
  if (is_uniform_) {
    busiest_token_share_ = 1.0 / static_cast<double>(num_gpus_);
    return;
  }
  // Geometric popularity p_i = r^i / sum r^j, r = 1 - skew; a token picks expert i with q_i = min(1, k p_i).
  const double r = 1.0 - skew;
  std::vector<double> weight(static_cast<std::size_t>(num_experts));
  double w = 1.0, sum = 0.0;
  for (double& x : weight) {
    x = w;
    sum += w;
    w *= r;
  }
  pick_prob_.resize(weight.size());
  double total_q = 0.0;
  for (std::size_t i = 0; i < weight.size(); ++i) {
    pick_prob_[i] = std::min(1.0, static_cast<double>(experts_per_token) * weight[i] / sum);
    total_q += pick_prob_[i];
  }
  std::vector<double> per_gpu(static_cast<std::size_t>(num_gpus_), 0.0);
  for (std::size_t i = 0; i < pick_prob_.size(); ++i) per_gpu[i % per_gpu.size()] += pick_prob_[i];
  busiest_token_share_ = *std::max_element(per_gpu.begin(), per_gpu.end()) / total_q;
}

void ExpertRouting::fill(std::int64_t num_tokens) const {
  const auto n = static_cast<std::size_t>(num_tokens);
  if (distinct_cache_.size() <= n) {
    distinct_cache_.resize(n + 1, -1.0);
    busiest_cache_.resize(n + 1, -1.0);
  }
  std::vector<double> per_gpu(static_cast<std::size_t>(num_gpus_), 0.0);
  double total = 0.0;
  for (std::size_t i = 0; i < pick_prob_.size(); ++i) {
    const double touched = 1.0 - power_of_complement(pick_prob_[i], num_tokens);
    per_gpu[i % per_gpu.size()] += touched;
    total += touched;
  }
  distinct_cache_[n] = total;
  busiest_cache_[n] = *std::max_element(per_gpu.begin(), per_gpu.end());
}

double ExpertRouting::distinct_experts(std::int64_t num_tokens) const {
  if (num_tokens <= 0) return 0.0;
  if (is_uniform_) return expected_distinct_experts(num_experts_, experts_per_token_, num_tokens);
  if (num_tokens >= kMaxCachedTokens) {
    fill(kMaxCachedTokens - 1);  // beyond it every expert is touched to the last bit
    return distinct_cache_[kMaxCachedTokens - 1];
  }
  const auto n = static_cast<std::size_t>(num_tokens);
  if (n >= distinct_cache_.size() || distinct_cache_[n] < 0) fill(num_tokens);
  return distinct_cache_[n];
}

double ExpertRouting::busiest_gpu_distinct_experts(std::int64_t num_tokens) const {
  if (num_tokens <= 0) return 0.0;
  if (is_uniform_) {
    // Round-robin placement of equally popular experts: ceil(E / p) on the fullest GPU, each touched alike.
    const double per_gpu = static_cast<double>((num_experts_ + num_gpus_ - 1) / num_gpus_);
    return distinct_experts(num_tokens) / static_cast<double>(num_experts_) * per_gpu;
  }
  const std::int64_t n = std::min(num_tokens, kMaxCachedTokens - 1);
  distinct_experts(n);
  return busiest_cache_[static_cast<std::size_t>(n)];
}

}  // namespace sl::llm
