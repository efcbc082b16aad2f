#include "llm/engine/batching_waste.h"

#include <algorithm>
#include <functional>
#include <queue>

#include "core/error.h"

namespace sl::llm {

double static_slot_waste_frac(std::int64_t short_tokens, std::int64_t long_tokens) {
  SL_ASSERT(0 < short_tokens && short_tokens <= long_tokens);
  return 1.0 - static_cast<double>(short_tokens) / static_cast<double>(long_tokens);
}

double static_batch_util_frac(std::int64_t batch, std::int64_t short_tokens, std::int64_t long_tokens) {
  SL_ASSERT(batch >= 1 && 0 < short_tokens && short_tokens <= long_tokens);
  const double useful = static_cast<double>(short_tokens + (batch - 1) * long_tokens);
  return useful / static_cast<double>(batch * long_tokens);
}

SlotStepUtil slot_step_utilisation(const std::vector<std::int64_t>& answer_tokens, std::int64_t batch) {
  SL_ASSERT(batch >= 1 && !answer_tokens.empty());
  SlotStepUtil u;
  double useful = 0;
  for (const std::int64_t n : answer_tokens) useful += static_cast<double>(n);
  // Static: consecutive groups of `batch`; each group runs until its longest answer is done.
  for (std::size_t i = 0; i < answer_tokens.size(); i += static_cast<std::size_t>(batch)) {
    const std::size_t end = std::min(answer_tokens.size(), i + static_cast<std::size_t>(batch));
    u.static_steps += *std::max_element(answer_tokens.begin() + static_cast<std::ptrdiff_t>(i),
                                        answer_tokens.begin() + static_cast<std::ptrdiff_t>(end));
  }
  // Continuous: the next answer takes the slot that frees first (a min-heap of slot free times).
  std::priority_queue<std::int64_t, std::vector<std::int64_t>, std::greater<std::int64_t>> free_at;
  for (std::int64_t s = 0; s < batch; ++s) free_at.push(0);
  for (const std::int64_t n : answer_tokens) {
    const std::int64_t start = free_at.top();
    free_at.pop();
    free_at.push(start + n);
    u.continuous_steps = std::max(u.continuous_steps, start + n);
  }
  const auto b = static_cast<double>(batch);
  u.static_frac = useful / (b * static_cast<double>(u.static_steps));
  u.continuous_frac = useful / (b * static_cast<double>(u.continuous_steps));
  return u;
}

namespace {

/// Reservation waste of num_samples sequences whose lengths next(sizes) gives in turn.
template <class NextLengths>
ReservationWaste waste_of(NextLengths next, std::int64_t max_model_len, std::int64_t block_size,
                          std::int64_t reserve_tokens, std::int64_t num_samples, std::uint64_t seed) {
  SL_ASSERT(num_samples > 0 && block_size > 0);
  Rng sizes = Rng::stream(seed, Stream::Sizes);
  Rng point = Rng::stream(seed, Stream::Misc);
  double tokens = 0, slots = 0;
  for (std::int64_t i = 0; i < num_samples; ++i) {
    const RequestLengths l = next(i, sizes);
    // Generated so far: uniform on 1..output (the first token comes with the prefill).
    const auto generated = 1 + static_cast<std::int64_t>(point.below(static_cast<std::uint64_t>(l.output_tokens)));
    const std::int64_t held = l.prompt_tokens + generated;
    tokens += static_cast<double>(held);
    slots += static_cast<double>((held + block_size - 1) / block_size * block_size);
  }
  ReservationWaste w;
  const auto n = static_cast<double>(num_samples);
  w.mean_tokens = tokens / n;
  w.mean_paged_slots = slots / n;
  w.naive_waste_frac = 1.0 - w.mean_tokens / static_cast<double>(max_model_len);
  w.paged_waste_frac = 1.0 - tokens / slots;
  w.naive_fit_seqs = reserve_tokens / max_model_len;
  w.paged_fit_seqs = static_cast<std::int64_t>(static_cast<double>(reserve_tokens) / w.mean_paged_slots);
  return w;
}

}  // namespace

ReservationWaste reservation_waste(const OpenLoopParams& lengths, std::int64_t block_size, std::int64_t reserve_tokens,
                                   std::int64_t num_samples, std::uint64_t seed) {
  return waste_of([&lengths](std::int64_t, Rng& sizes) { return sample_request_lengths(lengths, sizes); },
                  lengths.max_model_len, block_size, reserve_tokens, num_samples, seed);
}

ReservationWaste reservation_waste(const std::vector<RequestLengths>& requests, std::int64_t max_model_len,
                                   std::int64_t block_size, std::int64_t reserve_tokens, std::int64_t num_samples,
                                   std::uint64_t seed) {
  SL_ASSERT(!requests.empty());
  return waste_of([&requests](std::int64_t i, Rng&) { return requests[static_cast<std::size_t>(i) % requests.size()]; },
                  max_model_len, block_size, reserve_tokens, num_samples, seed);
}

}  // namespace sl::llm
