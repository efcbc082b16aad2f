#pragma once
// A replayed trace beside the length laws fitted to it (trace_stats.h), in llm/workload-trace: the same
// engine serves both workloads, and one table sets their statistics and their latencies side by side, so that a
// reader sees what the laws keep and what they hide. The fitted laws are offered as a fill ("fit_laws") that
// switches every cell of the page that has a workload choice to them.
#include <cstdint>

#include "core/cell.h"
#include "llm/engine/engine.h"
#include "llm/engine/serving_metrics.h"
#include "llm/workload/trace_stats.h"

namespace sl::llm {

/// The rows of the "trace_vs_laws" table, by their `stat` code.
enum class TraceStat {
  RatePerS, GapCv, Dispersion10s, Dispersion60s, PromptMean, PromptCv, PromptP50, PromptP99, OutputMean, OutputCv,
  OutputP50, OutputP99, RankCorr, TtftP50Ms, TtftP99Ms, TpotP99Ms, ItlP99Ms, QueueP99Ms
};

/// The laws fitted to `replayed` (the trace's requests as the engine got them), a run of `config` on a workload
/// drawn from them (n and seed as the trace's run), and the comparison: table trace_vs_laws (stat, trace, laws),
/// outputs trace_gap_cv, trace_dispersion_10s, trace_rank_corr, laws_ttft_p99_ms, and the fill fit_laws. A trace
/// whose requests all arrive at once has no rate to fit: a notice says so and nothing else is added.
void compare_with_fitted_laws(const Workload& replayed, const ServingSummary& replayed_run, const OpenLoopParams& base,
                              const EngineConfig& config, std::uint64_t seed, RunControl& ctl, RunResult& result);

/// The outputs compare_with_fitted_laws may add (sometimes: while a trace is replayed).
std::vector<OutputSpec> fitted_laws_output_specs();

}  // namespace sl::llm
