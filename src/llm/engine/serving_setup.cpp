#include "llm/engine/serving_setup.h"

#include <cmath>

#include "core/units.h"

namespace sl::llm {

using units::kGiB;

std::vector<ParamSpec> serving_hardware_params() {
  std::vector<ParamSpec> params = model_and_gpu_params();
  params.push_back(real("kv_gib", "GiB", 72, 0.001, 1024));
  params.push_back(count("block_size", "tokens", 16, 1, 1024));
  return params;
}

Result<ServingHardware> validate_serving_hardware(const Inputs& in, std::int64_t min_tokens, const std::string& shorten) {
  auto choices = validate_model_and_gpu(in);
  if (!choices.ok()) return choices.error();
  ServingHardware hw{choices.value()};
  if (auto e = check_weights_fit(hw.model, hw.gpu)) return *e;
  hw.kv_bytes_per_token = hw.model.kv_bytes_per_token();
  hw.block_size = in.count("block_size");
  const double kv_gib = in.real("kv_gib");
  const double room_gib = static_cast<double>(hw.gpu.memory_bytes - hw.model.weight_bytes()) / kGiB;
  if (kv_gib > room_gib)
    return too_large("kv_gib", kv_gib, std::floor(room_gib * 100) / 100, "GiB",
                     "the KV cache beside the " + format_number(static_cast<double>(hw.model.weight_bytes()) / units::kGB) +
                         " GB of " + hw.model.name + " weights on the " + hw.gpu.name + " (" +
                         format_number(static_cast<double>(hw.gpu.memory_bytes) / kGiB) + " GiB)");
  hw.pool_tokens = static_cast<std::int64_t>(std::floor(kv_gib * kGiB / static_cast<double>(hw.kv_bytes_per_token)));
  hw.num_blocks = hw.pool_tokens / hw.block_size;
  if (hw.num_blocks * hw.block_size < min_tokens)
    return Error{"invalid", "kv_gib",
                 "kv_gib = " + format_number(kv_gib) + " GiB holds " + std::to_string(hw.num_blocks * hw.block_size) +
                     " tokens in whole blocks, fewer than the " + std::to_string(min_tokens) +
                     " tokens the longest request needs; raise kv_gib or shorten " + shorten,
                 {{"min", std::to_string(min_tokens)}, {"unit", "tokens"}, {"got", format_number(kv_gib)}, {"problem", "pool_below_request"},
                  {"tokens", std::to_string(hw.num_blocks * hw.block_size)}}};
  return hw;
}

}  // namespace sl::llm
