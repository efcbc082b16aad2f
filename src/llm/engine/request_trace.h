#pragma once
// A per-request trace of the first requests of a run, for a Gantt chart and a CSV: each traced request's time in
// `waiting` (queued before its first admission, or preempted until its re-admission), each prefill chunk with its
// tokens, its decode steps (consecutive steps merged into one span) and the time of each output token. The engine
// calls on_step with every step before applying it; only requests with id < num_requests are looked at, and the
// token times stop at max_tokens, so the trace's memory is bounded by its parameters, not by the run.
#include <cstdint>
#include <vector>

#include "core/cell.h"
#include "llm/engine/scheduler.h"
#include "llm/engine/step_listener.h"

namespace sl::llm {

/// What a traced request was doing over a span (the codes of the `kind` column).
enum class TraceSpanKind { Queue = 0, Prefill = 1, Decode = 2, Preempted = 3 };

struct TraceSpan {
  std::int32_t request_id = 0;
  TraceSpanKind kind = TraceSpanKind::Queue;
  double start_s = 0, end_s = 0;
  std::int64_t num_tokens = 0;  ///< prefill: the chunk's tokens; decode: tokens sampled; queue, preempted: 0
};

struct TraceToken {
  std::int32_t request_id = 0;
  std::int64_t index = 0;  ///< 0 for the first output token
  double at_s = 0;
};

class RequestTrace : public StepListener {
 public:
  /// Traces requests 0 .. num_requests - 1, keeping at most max_tokens token times in all.
  RequestTrace(std::int32_t num_requests, std::int64_t max_tokens);
  /// A step from start_s to end_s, as scheduled (before update_from_output applies it).
  void on_step(const SchedulerOutput& out, double start_s, double end_s) override;

  const std::vector<TraceSpan>& spans() const { return spans_; }
  const std::vector<TraceToken>& tokens() const { return tokens_; }
  /// True when token times were dropped because max_tokens was reached.
  bool is_truncated() const { return is_truncated_; }

 private:
  struct Traced {
    bool is_waiting = true;
    TraceSpanKind waiting_kind = TraceSpanKind::Queue;
    double waiting_since_s = -1;  ///< -1: since its arrival
    std::int64_t open_decode = -1;  ///< index in spans_ of the decode span the next step may extend
  };
  bool is_traced(const Request& r) const { return r.request_id >= 0 && r.request_id < num_requests_; }
  void on_scheduled(const Request& r, std::int64_t num_new_tokens, double start_s, double end_s);

  std::int32_t num_requests_;
  std::int64_t max_tokens_;
  std::vector<Traced> traced_;
  std::vector<TraceSpan> spans_;
  std::vector<TraceToken> tokens_;
  bool is_truncated_ = false;
};

/// The trace as two result tables, times in ms for the Gantt chart and its CSV: "trace_spans" (request, kind,
/// start_ms, end_ms, tokens; one row per span, in the order the spans began) and "trace_tokens" (request, token,
/// t_ms; one row per output token).
void trace_tables(const RequestTrace& trace, RunResult& result);

}  // namespace sl::llm
