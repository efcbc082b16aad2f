#include "llm/engine/request_trace.h"

#include "core/error.h"
#include "core/table_columns.h"
#include "core/units.h"

namespace sl::llm {

RequestTrace::RequestTrace(std::int32_t num_requests, std::int64_t max_tokens)
    : num_requests_(num_requests), max_tokens_(max_tokens), traced_(static_cast<std::size_t>(num_requests)) {
  SL_ASSERT(num_requests >= 0 && max_tokens >= 0);
}

void RequestTrace::on_step(const SchedulerOutput& out, double start_s, double end_s) {
  // A victim was running and not scheduled in this step: it waits from the step's start until re-admitted.
  for (const Request* victim : out.preempted) {
    if (!is_traced(*victim)) continue;
    Traced& t = traced_[static_cast<std::size_t>(victim->request_id)];
    t = Traced{true, TraceSpanKind::Preempted, start_s, -1};
  }
  for (const ScheduledRequest& s : out.scheduled)
    if (is_traced(*s.request)) on_scheduled(*s.request, s.num_new_tokens, start_s, end_s);
}

void RequestTrace::on_scheduled(const Request& r, std::int64_t num_new_tokens, double start_s, double end_s) {
  Traced& t = traced_[static_cast<std::size_t>(r.request_id)];
  if (t.is_waiting) {  // admitted in this step: its wait ends where the step starts
    spans_.push_back({r.request_id, t.waiting_kind, t.waiting_since_s < 0 ? r.arrival_at_s : t.waiting_since_s, start_s, 0});
    t.is_waiting = false;
  }
  if (is_decode_step(r, num_new_tokens)) {
    TraceSpan* open = t.open_decode >= 0 ? &spans_[static_cast<std::size_t>(t.open_decode)] : nullptr;
    if (open != nullptr && open->end_s == start_s) {  // decoded in the step just before: the same span
      open->end_s = end_s;
      open->num_tokens += 1;
    } else {
      t.open_decode = static_cast<std::int64_t>(spans_.size());
      spans_.push_back({r.request_id, TraceSpanKind::Decode, start_s, end_s, 1});
    }
  } else {
    t.open_decode = -1;
    spans_.push_back({r.request_id, TraceSpanKind::Prefill, start_s, end_s, num_new_tokens});
  }
  if (r.num_computed_tokens + num_new_tokens < r.num_tokens()) return;  // a prefill chunk: nothing sampled yet
  if (static_cast<std::int64_t>(tokens_.size()) < max_tokens_)
    tokens_.push_back({r.request_id, r.num_output_tokens, end_s});
  else
    is_truncated_ = true;
}

void trace_tables(const RequestTrace& trace, RunResult& result) {
  TableColumns spans, tokens;
  for (const TraceSpan& s : trace.spans()) {
    spans.put("request", s.request_id);
    spans.put("kind", static_cast<double>(static_cast<int>(s.kind)));
    spans.put("start_ms", s.start_s * units::kMsPerS);
    spans.put("end_ms", s.end_s * units::kMsPerS);
    spans.put("tokens", static_cast<double>(s.num_tokens));
  }
  for (const TraceToken& t : trace.tokens()) {
    tokens.put("request", t.request_id);
    tokens.put("token", static_cast<double>(t.index));
    tokens.put("t_ms", t.at_s * units::kMsPerS);
  }
  spans.into(result.table("trace_spans"));
  tokens.into(result.table("trace_tokens"));
}

}  // namespace sl::llm
