#pragma once
// The parameters that replay a trace (workload_trace.h) instead of drawing requests from the length laws, shared
// by the engine cells: `workload` (laws | trace), the `trace` file (a CSV the reader gives: on the page it never
// leaves the browser; on the CLI --trace @file.csv; none: the bundled sample), and how to replay it: rate_scale,
// a time window (trace_start_s, trace_window_s) and trace_loop. The cell's n caps the requests replayed.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/cell.h"
#include "llm/engine/engine_budget.h"
#include "llm/workload/workload_trace.h"

namespace sl::llm {

/// The bundled sample: the first 1,000 requests of the Azure LLM inference trace 2023, conversation service
/// (assets/traces/azure-conv-2023-sample.csv, CC BY 4.0; 48 KB), fetched by the page when a run replays it.
/// `when_chosen`: needed only while workload = trace (a cell that also draws from the laws); else always.
DataAsset sample_trace_asset(bool when_chosen = true);
/// Its bytes, compiled in (native builds only: cmake/SampleTrace.cmake).
const std::string& sample_trace_csv();

/// Parameters: workload, trace, rate_scale, trace_start_s, trace_window_s, trace_loop; without the workload
/// choice (the rest then always used) for a cell that only replays.
std::vector<ParamSpec> trace_params(bool with_choice = true);

/// A checked replay: the rows it takes and what it changed.
struct TraceInput {
  bool is_sample = false;  ///< the bundled sample (no file given)
  TraceLayout layout = TraceLayout::Plain;
  std::int64_t num_file_rows = 0;
  bool has_class = false, has_prefix = false;
  ReplayedRows replayed;
  TraceAdjustments adjusted;  ///< at the cell's max_model_len
  double rate_scale = 1;
  /// A fresh workload of the replayed rows at max_model_len (each run consumes its own).
  Workload workload(std::int64_t max_model_len) const { return make_trace_workload(replayed.rows, max_model_len); }
};

/// The replay the inputs ask for, or nothing when workload = laws; `num_requests` (the cell's n) caps it. Errors:
/// the file's (parse_workload_trace, param trace); a file given while workload = laws ("trace_needs_workload"); an
/// empty window ("trace_window", trace_start_s); the sample missing in a host that passed no asset
/// ("missing_asset").
Result<std::optional<TraceInput>> validate_trace(const Inputs& in, std::int64_t num_requests, std::int64_t max_model_len);
/// The same for a cell that only replays (no workload choice): always a replay, or an error.
Result<TraceInput> validate_replay(const Inputs& in, std::int64_t num_requests, std::int64_t max_model_len);

/// The simulator's work for a replay on `pool` (engine_budget.h), the requests spread over `replicas` engines.
EngineWork trace_work(const TraceInput& trace, std::int64_t max_model_len, const EnginePool& pool, double replicas = 1);

/// Notices for the reader: requests cut to max_model_len or raised to one token, a loop, a replay shorter than n.
void replay_notices(const TraceInput& trace, std::int64_t num_requests, std::int64_t max_model_len, RunResult& result);

/// Outputs describing the replay: trace_rows (requests replayed), trace_span_s (first to last arrival) and
/// trace_rate_per_s (requests / span).
void replay_outputs(const TraceInput& trace, RunResult& result);
/// Their declarations (sometimes: only while replaying), for a cell's outputs.
std::vector<OutputSpec> replay_output_specs();

}  // namespace sl::llm
