#pragma once
// Static (request-level) batching, the baseline continuous batching replaces. When the engine is free it takes up
// to `batch_size` waiting requests (it does not hold out for a full batch), prefills them together, and decodes
// them together until the longest has its last token. As in padded batched generation, prompts are padded to the
// longest one, and a sequence that has finished keeps its slot and is still computed until the batch ends: the
// slot-steps after its end are the waste the book describes (a sequence done at 10 tokens in a batch running to
// 100 wastes 90 % of its slot). Each slot reserves max_model_len tokens of KV. Tokens stream: a request's first
// token comes at the end of the prefill and its last when it is done, not when its batch ends.
#include <cstdint>

#include "core/cell.h"
#include "llm/engine/engine.h"

namespace sl::llm {

struct StaticBatchingConfig {
  ModelSpec model;
  GpuSpec gpu;
  std::int64_t batch_size = 8;
  std::int64_t max_model_len = 2048;  ///< KV reserved per slot
  std::int64_t num_blocks = 0;        ///< pool size, for the KV usage series (batch_size slots must fit)
  std::int64_t block_size = 16;
  double series_bucket_s = 1.0;
  TensorParallel tp;  ///< the steps run on tp.size GPUs (step_time.h)
};

/// Runs static batching over the workload (consumed, as run_continuous).
EngineRun run_static(const StaticBatchingConfig& config, Workload& workload, RunControl& ctl);

}  // namespace sl::llm
