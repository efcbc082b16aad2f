#include "llm/engine/request_trace.h"

#include <catch2/catch.hpp>

#include "llm/pressured_workload.h"
#include "llm/same_records.h"

#include <algorithm>
#include <map>

#include "llm/engine/engine.h"

namespace SL_UNITY_ID {

using namespace sl::llm;

namespace {

using sl::llm::test::pressured_engine;
using sl::llm::test::pressured_workload;

EngineRun run_with(RequestTrace* trace) {
  Workload w = make_open_loop(pressured_workload(), 7);
  sl::RunControl ctl;
  return run_continuous(pressured_engine(), w, ctl, {}, trace);
}

}  // namespace

TEST_CASE("Tracing changes nothing in the run", "[llm][trace]") {
  RequestTrace trace(40, 100'000);
  const EngineRun a = run_with(nullptr), b = run_with(&trace);
  sl::llm::test::check_same_records(a.records, b.records);
  CHECK(a.num_steps == b.num_steps);
  CHECK(a.end_s == b.end_s);
  CHECK(a.busy_s == b.busy_s);
  CHECK(a.bytes_read == b.bytes_read);
  CHECK(a.num_preemptions == b.num_preemptions);
}

TEST_CASE("The trace's spans and token times agree with the records", "[llm][trace]") {
  constexpr std::int32_t kTraced = 40;
  RequestTrace trace(kTraced, 100'000);
  const EngineRun run = run_with(&trace);
  REQUIRE(run.num_preemptions > 0);
  std::map<std::int32_t, const RequestRecord*> records;
  for (const RequestRecord& r : run.records) records[r.request_id] = &r;

  std::map<std::int32_t, std::vector<const TraceSpan*>> spans;
  bool saw_preempted = false;
  for (const TraceSpan& s : trace.spans()) {
    REQUIRE(s.request_id < kTraced);  // K bounds what is kept
    CHECK(s.start_s <= s.end_s);
    saw_preempted |= s.kind == TraceSpanKind::Preempted;
    spans[s.request_id].push_back(&s);
  }
  CHECK(saw_preempted);
  std::map<std::int32_t, std::vector<const TraceToken*>> tokens;
  for (const TraceToken& t : trace.tokens()) tokens[t.request_id].push_back(&t);

  REQUIRE(spans.size() == static_cast<std::size_t>(kTraced));
  for (const auto& [id, list] : spans) {
    const RequestRecord& r = *records.at(id);
    const TraceSpan& queue = *list.front();
    REQUIRE(queue.kind == TraceSpanKind::Queue);
    CHECK(queue.start_s == r.arrival_at_s);
    CHECK(queue.end_s == r.first_scheduled_at_s);
    REQUIRE(list.size() >= 2);  // admitted in the step that ends the wait, with a prefill chunk
    CHECK(list[1]->kind == TraceSpanKind::Prefill);
    CHECK(list[1]->start_s == queue.end_s);
    for (std::size_t i = 1; i < list.size(); ++i) {
      CHECK(list[i - 1]->end_s <= list[i]->start_s);  // a request does one thing at a time
      CHECK(list[i]->kind != TraceSpanKind::Queue);   // it queues once, on arrival
      if (list[i - 1]->kind == TraceSpanKind::Preempted) CHECK(list[i]->start_s == list[i - 1]->end_s);
    }
    if (r.num_preemptions == 0) {  // the chunks before the first token cover the prompt beyond the cached tokens
      std::int64_t prefilled = 0;
      for (const TraceSpan* s : list)
        if (s->kind == TraceSpanKind::Prefill) prefilled += s->num_tokens;
      CHECK(prefilled + r.num_cached_tokens == r.num_prompt_tokens);
    }
    const auto& times = tokens.at(id);
    REQUIRE(static_cast<std::int64_t>(times.size()) == r.num_output_tokens);
    for (std::size_t i = 0; i < times.size(); ++i) {
      CHECK(times[i]->index == static_cast<std::int64_t>(i));
      if (i > 0) CHECK(times[i - 1]->at_s < times[i]->at_s);
    }
    CHECK(times.front()->at_s - queue.start_s == r.ttft_s());
    // The first token is sampled in the step that completes the prompt: at the end of a prefill chunk.
    CHECK(std::any_of(list.begin(), list.end(), [&](const TraceSpan* s) {
      return s->kind == TraceSpanKind::Prefill && s->end_s == times.front()->at_s;
    }));
    CHECK(times.back()->at_s == r.finished_at_s);
  }
}

TEST_CASE("The trace keeps at most its token budget and says so", "[llm][trace]") {
  RequestTrace trace(40, 50);
  run_with(&trace);
  CHECK(trace.tokens().size() == 50);
  CHECK(trace.is_truncated());
  RequestTrace none(0, 100);
  run_with(&none);
  CHECK(none.spans().empty());
  CHECK(none.tokens().empty());
}

}  // namespace SL_UNITY_ID
