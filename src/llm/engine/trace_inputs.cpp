#include "llm/engine/trace_inputs.h"

#include <algorithm>

#include "core/error.h"

namespace sl::llm {

DataAsset sample_trace_asset(bool when_chosen) {
  DataAsset a{"sample-trace", "data/azure-conv-2023-sample.csv", false};
  if (when_chosen) {
    a.used_when_param = "workload";
    a.used_when_values = {"trace"};
  }
  return a;
}

namespace {

/// The sample's bytes: the host's asset if it passed one, else the compiled-in copy (native builds), else null.
const std::string* sample_bytes(const Inputs& in) {
  if (const std::string* bytes = in.asset(sample_trace_asset().name)) return bytes;
#if SL_SAMPLE_TRACE_BUILTIN
  return &sample_trace_csv();
#else
  return nullptr;
#endif
}

}  // namespace

std::vector<ParamSpec> trace_params(bool with_choice) {
  const auto replay = [with_choice](ParamSpec p) {
    return with_choice ? used_when(std::move(p), "workload", {"trace"}) : p;
  };
  std::vector<ParamSpec> params = {replay(bytes("trace", "text/csv,.csv,text/plain", kMaxTraceBytes)),
                                   replay(explored(real("rate_scale", "", 1, 0.001, 1000), 0.1, 10)),
                                   replay(real("trace_start_s", "s", 0, 0, 1e9)),
                                   replay(real("trace_window_s", "s", 0, 0, 1e9)),
                                   replay(choice("trace_loop", {"off", "on"}, "off"))};
  if (with_choice) params.insert(params.begin(), choice("workload", {"laws", "trace"}, "laws"));
  return params;
}

Result<std::optional<TraceInput>> validate_trace(const Inputs& in, std::int64_t num_requests, std::int64_t max_model_len) {
  const std::string& file = in.bytes("trace");
  if (in.choice("workload") != "trace") {
    if (!file.empty())
      return Error{"trace_needs_workload", "workload",
                   "a trace file was given but workload = laws draws the requests from the length laws; choose "
                   "workload = trace to replay it",
                   {}};
    return std::optional<TraceInput>{};
  }
  auto replay = validate_replay(in, num_requests, max_model_len);
  if (!replay.ok()) return replay.error();
  return std::optional<TraceInput>{std::move(replay.value())};
}

Result<TraceInput> validate_replay(const Inputs& in, std::int64_t num_requests, std::int64_t max_model_len) {
  const std::string& file = in.bytes("trace");
  TraceInput t;
  t.is_sample = file.empty();
  const std::string* text = t.is_sample ? sample_bytes(in) : &file;
  if (text == nullptr)
    return Error{"missing_asset", "asset." + sample_trace_asset().name,
                 "the sample trace (" + sample_trace_asset().path + ") was not passed in as asset." +
                     sample_trace_asset().name + "; choose a trace file of your own instead",
                 {}};
  auto parsed = parse_workload_trace(*text, "trace");
  if (!parsed.ok()) return parsed.error();
  const WorkloadTrace& trace = parsed.value();
  t.layout = trace.layout;
  t.num_file_rows = static_cast<std::int64_t>(trace.rows.size());
  t.has_class = trace.has_class;
  t.has_prefix = trace.has_prefix;
  TraceReplay replay;
  replay.rate_scale = in.real("rate_scale");
  replay.window_start_s = in.real("trace_start_s");
  replay.window_s = in.real("trace_window_s");
  replay.num_requests = num_requests;
  replay.loop = in.choice("trace_loop") == "on";
  replay.max_model_len = max_model_len;
  t.rate_scale = replay.rate_scale;
  auto rows = select_rows(trace, replay);
  if (!rows.ok()) return rows.error();
  t.replayed = std::move(rows.value());
  make_trace_workload(t.replayed.rows, max_model_len, &t.adjusted);
  return t;
}

EngineWork trace_work(const TraceInput& trace, std::int64_t max_model_len, const EnginePool& pool, double replicas) {
  return workload_work(trace.workload(max_model_len), pool, replicas);
}

void replay_notices(const TraceInput& t, std::int64_t num_requests, std::int64_t max_model_len, RunResult& result) {
  const auto n = static_cast<std::int64_t>(t.replayed.rows.size());
  if (t.adjusted.num_cut > 0)
    result.notice("trace_cut", std::to_string(t.adjusted.num_cut) + " of the " + std::to_string(n) +
                                   " requests replayed are longer than max_model_len = " + std::to_string(max_model_len) +
                                   " tokens and were cut to fit (as vLLM caps max_tokens); raise max_model_len to keep them whole.");
  if (t.adjusted.num_raised > 0)
    result.notice("trace_raised", std::to_string(t.adjusted.num_raised) +
                                      " rows of the trace ask for no prompt or no output token (failed requests, in some "
                                      "traces); each is replayed with one token.");
  if (t.replayed.num_passes > 1)
    result.notice("trace_looped", "the window holds " + std::to_string(t.replayed.num_window_rows) +
                                      " requests: it is replayed " + std::to_string(t.replayed.num_passes) +
                                      " times, each pass " + format_number(t.replayed.period_s) + " s after the one before.");
  else if (n < num_requests)
    result.notice("trace_short", "the window holds " + std::to_string(n) + " requests, fewer than n = " +
                                     std::to_string(num_requests) + ": all of them are replayed (trace_loop = on repeats the window).");
}

void replay_outputs(const TraceInput& t, RunResult& result) {
  const std::vector<TraceRow>& rows = t.replayed.rows;
  const double span = rows.back().arrival_s - rows.front().arrival_s;
  result.output("trace_rows", static_cast<double>(rows.size()));
  result.output("trace_span_s", span);
  result.output("trace_rate_per_s", span > 0 ? static_cast<double>(rows.size() - 1) / span : 0.0);
}

std::vector<OutputSpec> replay_output_specs() {
  return {sometimes(out("trace_rows", "requests")), sometimes(out("trace_span_s", "s")),
          sometimes(out("trace_rate_per_s", "1/s"))};
}

}  // namespace sl::llm
