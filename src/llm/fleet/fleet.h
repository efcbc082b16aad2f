#pragma once
// A fleet of identical engine replicas (engine.h) behind a router, on one clock. Each event is an arrival or the
// end of one replica's step, taken in time order (an arrival first on a tie, as run_continuous admits the
// arrivals of a step's end before the next step): an arrival is routed at once and waits in that replica's
// `waiting`; a replica whose step ended starts its next one when nothing else happens at that instant, and an
// idle replica starts when a request reaches it. Replicas share nothing but the clock and the arrival queue,
// so one replica under any router is run_continuous exactly.
//
// Prefill/decode disaggregation (DistServe, Splitwise; vLLM's disaggregated prefill): the first P replicas only
// prefill. A request is routed to one of them and served there up to its first token; then its prompt's KV
// crosses that replica's link (one transfer at a time per link: prompt tokens x KV bytes per token per GPU /
// link bandwidth, plus the link's latency; each tensor-parallel GPU sends its own shard over its own link) and
// the request is routed among the D = N - P decode replicas, where it waits decoding: it needs blocks for its KV
// and decodes from its first token on (a preempted request recomputes there). TTFT ends at the prefill replica.
//
// Routers (as vLLM's production stack and llm-d route): round-robin; least outstanding tokens (the prompt and
// answer tokens a replica still has to compute: the simulator knows each answer's length, a real router
// estimates it); prefix affinity (a request whose prompt starts with shared prefix j goes to replica j mod N,
// unless that replica's outstanding tokens exceed the least loaded's by more than kAffinitySlackSteps token
// budgets, when it goes to the least loaded); random (uniform, for the thinning test: a Poisson stream split at
// random is Poisson at lambda / N on each replica).
#include <cstdint>
#include <vector>

#include "core/cell.h"
#include "llm/engine/engine.h"

namespace sl::llm {

enum class Router { RoundRobin, LeastTokens, PrefixAffinity, Random };

struct FleetConfig {
  EngineConfig engine;  ///< every replica's (speculative seeds are drawn per replica from `seed`)
  std::int64_t num_replicas = 1;
  Router router = Router::RoundRobin;
  std::uint64_t seed = 1;  ///< of the random router and the replicas' draft acceptance
  /// Prefill/decode disaggregation: replicas 0..P-1 prefill, the others decode; 0 = every replica does both.
  std::int64_t num_prefill_replicas = 0;
  double kv_link_bytes_per_s = 50e9;      ///< a prefill replica's link to the decode replicas (per GPU)
  double kv_link_latency_s = 10e-6;
  double kv_bytes_per_token_per_gpu = 0;  ///< what one GPU sends per prompt token
  /// Prefix affinity's tolerance, in steps of max_num_batched_tokens tokens of outstanding work.
  static constexpr double kAffinitySlackSteps = 4;
};

struct FleetRun {
  std::vector<EngineRun> replicas;
  std::vector<std::int64_t> num_routed;  ///< requests routed to each replica (rejected ones included)
  double end_s = 0;                      ///< the last finish of any replica
  std::int64_t num_transfers = 0;        ///< KV transfers from prefill to decode replicas
  double transfer_s = 0;                 ///< their time on the links, latency included
  double transfer_wait_s = 0;            ///< time transfers waited for a busy link
};

/// Runs the fleet over the workload (consumed, as run_continuous). Progress counts finished requests.
FleetRun run_fleet(const FleetConfig& config, Workload& workload, RunControl& ctl);

/// The replicas' runs as one: records of all (in finishing order, ties by request id), token gaps merged, every
/// count, byte and time integral summed (busy_s is replica-seconds busy, so busy_frac of its summary is N times
/// a replica's average; the pool is all replicas' blocks); series are left empty.
EngineRun merge_runs(const FleetRun& fleet);

/// Expected tokens a verify step emits with k drafts each accepted with probability a (scheduler.h):
/// 1 + a + ... + a^k = (1 - a^(k+1)) / (1 - a); k + 1 when a = 1.
double expected_tokens_per_step(std::int64_t num_drafts, double accept_frac);

}  // namespace sl::llm
