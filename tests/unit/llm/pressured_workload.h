#pragma once
// A workload and an engine shared by the engine's tests.
#include "llm/engine/engine.h"
#include "llm/lognormal_workload.h"

namespace sl::llm::test {

/// 300 requests of up to 512 tokens arriving at 400/s, faster than they are served, with a shared 64-token
/// system prompt: on a small pool it runs dry, requests are preempted, and prefixes hit.
inline OpenLoopParams pressured_workload() {
  OpenLoopParams w = lognormal_workload(300, 400, 150, 0.8, 100, 1.0, 512);
  w.shared_prefix_tokens = 64;
  return w;
}

/// The engine those tests starve: 120 blocks of 16 tokens, a 512-token budget and at most 32 sequences, chunked
/// prefill; series in 10 ms buckets. `reserve_tokens` > 0: naive reservation (caching must be off).
inline EngineConfig pressured_engine(bool caching = true, std::int64_t reserve_tokens = 0) {
  EngineConfig c;
  c.model = llama3_8b();
  c.gpu = h100();
  c.scheduler = {32, 512, true, 0};
  c.kv_cache = {120, 16, caching, reserve_tokens};
  c.series_bucket_s = 0.01;
  return c;
}

}  // namespace sl::llm::test
