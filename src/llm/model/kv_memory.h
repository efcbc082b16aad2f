#pragma once
// How many sequences an accelerator's KV cache holds, the one memory model of the llm cells (§21): the book
// reserves 72 GiB of the H100's 80 GiB for the KV cache (the rest holds the weights, activations and the
// runtime), so the cache holds round(reserve / KV per token) tokens and floor(tokens / sequence length)
// sequences at once: 72 GiB / 131,072 B = 589,824 tokens, 469 requests of 1,256 tokens.
#include <cstdint>

#include "core/cell.h"
#include "llm/model/step_time.h"

namespace sl::llm {

/// The book's KV reserve on one H100 (§21: "72 GB", read as GiB like the book's code).
inline constexpr double kBookKvReserveGib = 72;

/// The `kv_reserve_gib` parameter (GiB, default the book's 72).
ParamSpec kv_reserve_param();

/// The reserve in bytes, or an error naming kv_reserve_gib when it exceeds the memory left beside the weights.
Result<double> validate_kv_reserve(const ModelSpec& model, const GpuSpec& gpu, double reserve_gib);

/// Tokens the reserve holds: round(reserve / KV bytes per token).
std::int64_t kv_token_capacity(const ModelSpec& model, double reserve_bytes);

/// Sequences of tokens_per_seq tokens the reserve holds at once: floor(kv_token_capacity / tokens_per_seq).
std::int64_t max_resident_sequences(const ModelSpec& model, double reserve_bytes, std::int64_t tokens_per_seq);

}  // namespace sl::llm
