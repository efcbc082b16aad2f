// Cell llm/workload-trace: your traffic against the laws. A trace (the bundled Azure sample, or a CSV the reader
// gives) is replayed through one continuous-batching engine (the hardware and scheduler of
// llm/continuous-batching); the length laws fitted to it by moments (trace_stats.h) are drawn and served by the
// same engine; one table sets their statistics and their latencies side by side (trace_vs_laws.h). The fitted
// laws are offered to every cell of the page that draws from laws.
#include "core/checked_run.h"
#include "core/preset.h"
#include "core/units.h"
#include "llm/engine/engine_budget.h"
#include "llm/engine/engine_setup.h"
#include "llm/engine/serving_metrics.h"
#include "llm/simulator_cells.h"
#include "llm/engine/trace_inputs.h"
#include "llm/engine/trace_vs_laws.h"

namespace sl::llm {
namespace {

struct WorkloadTraceParams {
  EngineHardware hw;
  SchedulerInputs scheduler;
  std::int64_t num_requests = 1000;  ///< n: the first n requests of the window
  std::int64_t max_model_len = 8192;
  bool prefix_caching = true;
  TraceInput trace;
};

Result<WorkloadTraceParams> validate_workload_trace(const Inputs& in) {
  WorkloadTraceParams p;
  p.num_requests = in.count("n");
  p.max_model_len = in.count("max_model_len");
  auto server = validate_server(in, p.max_model_len);
  if (!server.ok()) return server.error();
  p.hw = server.value().hw;
  p.scheduler = server.value().scheduler;
  p.prefix_caching = in.choice("prefix_caching") == "on";
  auto trace = validate_replay(in, p.num_requests, p.max_model_len);
  if (!trace.ok()) return trace.error();
  p.trace = std::move(trace.value());
  // The replay, then the laws fitted to it: about the same work twice.
  const EnginePool pool{p.hw.model, p.hw.gpu, p.hw.num_blocks, p.hw.block_size, p.scheduler.scheduler, p.prefix_caching};
  const EngineWork once = trace_work(p.trace, p.max_model_len, pool);
  if (auto e = check_engine_budget(once.times(2), once, "n", "the trace and its fitted laws (n requests x their tokens)"))
    return *e;
  return p;
}

Result<RunResult> run_workload_trace(const WorkloadTraceParams& p, std::uint64_t seed, RunControl& ctl) {
  EngineConfig config = engine_config(p.hw, p.scheduler);
  config.kv_cache.enable_caching = p.prefix_caching;
  config.keep_series = false;  // no output reads the time series
  RunControl first([&ctl](double f) { ctl.report(f, 2); });
  Workload replayed = p.trace.workload(p.max_model_len);
  const ServingSummary s = summarize(run_continuous(config, replayed, first));
  RunResult result;
  replay_outputs(p.trace, result);
  result.output("ttft_p50_ms", s.ttft_p50_s * units::kMsPerS);
  result.output("ttft_p99_ms", s.ttft_p99_s * units::kMsPerS);
  result.output("tpot_p99_ms", s.tpot_p99_s * units::kMsPerS);
  result.output("tok_per_s", s.output_tok_per_s);
  RunControl second([&ctl](double f) { ctl.report(1 + f, 2); });
  OpenLoopParams base;
  base.max_model_len = p.max_model_len;
  compare_with_fitted_laws(p.trace.workload(p.max_model_len), s, base, config, seed, second, result);
  replay_notices(p.trace, p.num_requests, p.max_model_len, result);
  add_hardware_outputs(p.hw, result);
  return result;
}

}  // namespace

CellSpec workload_trace_cell() {
  std::vector<ParamSpec> params = trace_params(false);
  params.push_back(explored(count("n", "requests", 1000, 1, 100000), 1, 20000));
  params.push_back(count("max_model_len", "tokens", 8192, 2, 131072));
  for (ParamSpec& spec : engine_hardware_params()) params.push_back(std::move(spec));
  for (ParamSpec& spec : scheduler_params()) params.push_back(std::move(spec));
  params.push_back(choice("prefix_caching", {"on", "off"}, "on"));
  CellSpec cell = checked_cell<&validate_workload_trace, &run_workload_trace>("llm/workload-trace", std::move(params));
  cell.presets = presets_of({{"qwen-h200", "model=qwen3-8b gpu=h200"}});
  cell.outputs = replay_output_specs();
  for (OutputSpec& spec : model_outputs()) cell.outputs.push_back(std::move(spec));
  for (OutputSpec& spec : cell.outputs) spec.presence = Presence::Always;
  for (const char* name : {"ttft_p50_ms", "ttft_p99_ms", "tpot_p99_ms"}) cell.outputs.push_back(out(name, "ms"));
  cell.outputs.push_back(out("tok_per_s", "tokens/s"));
  for (OutputSpec& spec : fitted_laws_output_specs()) cell.outputs.push_back(std::move(spec));
  cell.tables = {table("trace_vs_laws", Presence::SomeInputs)};
  cell.fills = {"fit_laws"};
  cell.assets = {sample_trace_asset(false)};
  cell.budget = {describe_engine_budget() + ", over the replay and a run of its fitted laws"};
  return cell;
}

}  // namespace sl::llm
