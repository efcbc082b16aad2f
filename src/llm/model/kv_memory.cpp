#include "llm/model/kv_memory.h"

#include <cmath>

#include "core/units.h"

namespace sl::llm {

ParamSpec kv_reserve_param() { return real("kv_reserve_gib", "GiB", kBookKvReserveGib, 0.001, 100'000); }

Result<double> validate_kv_reserve(const ModelSpec& model, const GpuSpec& gpu, double reserve_gib) {
  const double left = static_cast<double>(gpu.memory_bytes - model.weight_bytes());
  const double reserve = reserve_gib * units::kGiB;
  if (reserve > left)
    // The largest reserve that fits, to the hundredth of a GiB below it: a value the reader can type back.
    return too_large("kv_reserve_gib", reserve_gib, std::floor(left / units::kGiB * 100) / 100, "GiB",
                     "kv_reserve_gib (the memory left after the weights)");
  return reserve;
}

std::int64_t kv_token_capacity(const ModelSpec& model, double reserve_bytes) {
  return std::llround(reserve_bytes / static_cast<double>(model.kv_bytes_per_token()));
}

std::int64_t max_resident_sequences(const ModelSpec& model, double reserve_bytes, std::int64_t tokens_per_seq) {
  return kv_token_capacity(model, reserve_bytes) / tokens_per_seq;
}

}  // namespace sl::llm
