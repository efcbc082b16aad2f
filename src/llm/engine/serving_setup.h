#pragma once
// The hardware side of llm/prefix-caching: a model and a GPU (model_inputs.h) and the KV pool. The
// pool is the KV reserve in GiB (the book's case study reserves 72 GiB of the H100's 80 GiB: 72 x 2^30 B /
// 131,072 B per token = 589,824 tokens, §21), cut into blocks of block_size tokens; it must fit beside the
// weights.
#include <cstdint>
#include <string>
#include <vector>

#include "core/cell.h"
#include "llm/model/model_inputs.h"
#include "llm/model/step_time.h"

namespace sl::llm {

struct ServingHardware : ModelAndGpu {
  std::int64_t kv_bytes_per_token = 0;
  std::int64_t pool_tokens = 0;  ///< floor(kv reserve / KV bytes per token)
  std::int64_t block_size = 16;
  std::int64_t num_blocks = 0;   ///< floor(pool_tokens / block_size)
};

/// Parameters: model_and_gpu_params() (model_inputs.h: every model preset, a config.json or a
/// custom model; every GPU preset or a custom one), `kv_gib`, `block_size`.
std::vector<ParamSpec> serving_hardware_params();

/// Checked hardware: the KV reserve plus the weights must fit the GPU's memory ("too_large", param kv_gib), and
/// the pool must hold the longest request, `min_tokens` ("invalid", param kv_gib; `shorten` says what the user may
/// shorten instead, e.g. "max_model_len").
Result<ServingHardware> validate_serving_hardware(const Inputs& in, std::int64_t min_tokens, const std::string& shorten);

}  // namespace sl::llm
