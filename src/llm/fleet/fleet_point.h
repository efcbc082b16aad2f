#pragma once
// One configuration of llm/fleet (fleet.h), checked and run: the fleet cell's parameters read once into
// FleetParams, and one point of it (the replicas, lambda, draft tokens and prefill split of FleetPoint) run on a
// seed into its latency, SLO attainment per class, cost and energy. llm/fleet runs its base point and its sweep
// with these; llm/capacity-search (capacity_search.h) runs each point of its grid as an llm/fleet run.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/cell.h"
#include "llm/engine/engine_budget.h"
#include "llm/engine/engine_setup.h"
#include "llm/fleet/fleet.h"
#include "llm/fleet/fleet_sweep.h"
#include "llm/engine/serving_metrics.h"
#include "llm/engine/trace_inputs.h"

namespace sl::llm {

struct ClassSlo {
  double ttft_s = 0.5, tpot_s = 0.05;
};

struct FleetParams {
  EngineHardware hw;
  OpenLoopParams workload;  ///< class 0 chat, class 1 documents (batch_frac, the batch length laws)
  SchedulerInputs scheduler;  ///< max_waiting per replica (a disaggregated fleet's decode replicas never turn one away)
  Router router = Router::LeastTokens;
  FleetPoint point;
  double kv_link_bytes_per_s = 50e9, kv_link_latency_s = 10e-6;
  double draft_cost_frac = 0.05;  ///< a draft forward pass / the target's batch-1 decode step
  bool prefix_caching = false;
  ClassSlo slo[2];
  double slo_target_frac = 0.9;
  ServingEconomics economics;
  SweepKnob sweep = SweepKnob::Replicas;
  std::vector<double> sweep_values;
  std::optional<TraceInput> trace;  ///< a replayed trace instead of the length laws (workload = trace)
};

/// llm/fleet's inputs, checked (every error a run of llm/fleet returns for bad input).
Result<FleetParams> validate_fleet(const Inputs& in);

/// What every point of the same inputs shares: its workload's requests, their output tokens (each request stops
/// after exactly max_tokens) and the span from the first arrival to the last.
struct WorkloadBounds {
  std::int64_t num_requests = 0;
  double output_tokens = 0;
  double arrival_span_s = 0;
};

/// One configuration's results.
struct PointResult {
  ServingSummary summary;   ///< of all replicas' records (busy_frac: a replica's average)
  SloClass classes[3];      ///< chat, documents (each against its own SLOs), all
  double usd_per_m_tokens = 0, j_per_token = 0;
  bool meets_slo = false;   ///< every class with arrivals attains slo_target_frac
  FleetRun fleet;
  EngineRun merged;
  double mean_request_tokens = 0;  ///< prompt + max_tokens of the point's requests (engine_setup.h)
  WorkloadBounds bounds;
};

/// The simulator's work for one point, as llm/fleet's budget check counts it (engine_budget.h).
EngineWork fleet_point_work(const FleetParams& p, const FleetPoint& pt);

/// One configuration run on `seed`: the same workload (or trace) and seeds for every point of the same inputs.
PointResult run_point(const FleetParams& p, const FleetPoint& pt, std::uint64_t seed, RunControl& ctl);

}  // namespace sl::llm
