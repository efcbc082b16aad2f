#pragma once
// Three small experiments about where static batching and contiguous KV reservation lose capacity (§28):
//  * the book's example: in a static batch a sequence done after `short` tokens keeps its slot until the longest
//    is done at `long` tokens, so 1 - short/long of that slot is wasted (10 of 100: 90 %);
//  * slot-step utilisation of static vs continuous batching on answer lengths alone (decode steps, one token
//    per slot per step): static runs each group of B until its longest finishes; continuous refills a slot the
//    step after it frees. Utilisation = useful slot-steps / (B x steps);
//  * reservation waste: sequences caught at a random point of their generation (uniform over the tokens they
//    will produce) hold prompt + generated-so-far tokens, in a contiguous max-length reservation or in
//    block_size-token blocks; waste = 1 - tokens held / slots reserved, and the reserve fits reserve / (mean
//    slots per sequence) sequences.
#include <cstdint>
#include <vector>

#include "llm/workload/workload.h"

namespace sl::llm {

/// The book's example (§28): share of the short sequence's slot left idle, 1 - short/long.
double static_slot_waste_frac(std::int64_t short_tokens, std::int64_t long_tokens);
/// The same batch as a whole: useful slot-steps / (batch x long) with one short and batch - 1 long sequences.
double static_batch_util_frac(std::int64_t batch, std::int64_t short_tokens, std::int64_t long_tokens);

struct SlotStepUtil {
  double static_frac = 0;
  double continuous_frac = 0;
  std::int64_t static_steps = 0;
  std::int64_t continuous_steps = 0;
};

/// Slot-step utilisation of `batch` slots serving these answer lengths in order, static vs continuous.
SlotStepUtil slot_step_utilisation(const std::vector<std::int64_t>& answer_tokens, std::int64_t batch);

struct ReservationWaste {
  double mean_tokens = 0;        ///< tokens a sequence holds at the sampled point
  double mean_paged_slots = 0;   ///< block slots it holds (tokens rounded up to blocks)
  double naive_waste_frac = 0;   ///< 1 - mean_tokens / max_model_len
  double paged_waste_frac = 0;   ///< 1 - mean_tokens / mean_paged_slots
  std::int64_t naive_fit_seqs = 0;  ///< floor(reserve / max_model_len)
  std::int64_t paged_fit_seqs = 0;  ///< floor(reserve / mean_paged_slots)
};

/// Reservation waste of `num_samples` sequences drawn from the workload's length laws (Stream::Sizes for the
/// lengths, Stream::Misc for the point in the generation).
ReservationWaste reservation_waste(const OpenLoopParams& lengths, std::int64_t block_size, std::int64_t reserve_tokens,
                                   std::int64_t num_samples, std::uint64_t seed);
/// The same over given requests' lengths (a replayed trace's, each within max_model_len), taken in turn.
ReservationWaste reservation_waste(const std::vector<RequestLengths>& requests, std::int64_t max_model_len,
                                   std::int64_t block_size, std::int64_t reserve_tokens, std::int64_t num_samples,
                                   std::uint64_t seed);

}  // namespace sl::llm
