#include "llm/workload/workload_trace.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "core/text.h"
#include "llm/engine/engine.h"
#include "cell_runner.h"
#include "llm/lognormal_workload.h"
#include "llm/same_records.h"

namespace SL_UNITY_ID {

using namespace sl::llm;

namespace {

std::string arg(const sl::Error& e, const std::string& key) { return cell_test::error_arg(e, key); }

WorkloadTrace parsed(const std::string& text) { return cell_test::value_of(parse_workload_trace(text, "trace")); }

struct Case {
  std::string text, code, line, column, message;
};

const char* const kWholeTokens = "a whole number in [0, 1e+09]";
const char* const kSeconds = "a number in [0, 1e+09]";

/// `text` refused for a value: "trace line <line>, column <column>: expected <expected>, got <got>".
Case bad_value(const std::string& text, const std::string& line, const std::string& column, const std::string& expected,
               const std::string& got) {
  return {text, "trace_value", line, column,
          "trace line " + line + ", column " + column + ": expected " + expected + ", got " + got};
}

}  // namespace

TEST_CASE("A plain trace reads arrival times as written, with classes and shared prefixes", "[llm][trace]") {
  const WorkloadTrace t = parsed(
      "# a comment\r\narrival_s,prompt_tokens,output_tokens,class,prefix_group,prefix_tokens\r\n"
      "0.5,100,20,0,,\r\n0.75,300,1,1,3,200\r\n0.75, 7 ,9,0,0,6\r\n");
  CHECK(t.layout == TraceLayout::Plain);
  CHECK(t.has_class);
  CHECK(t.has_prefix);
  REQUIRE(t.rows.size() == 3);
  CHECK(t.rows[0].arrival_s == 0.5);
  CHECK(t.rows[0].prefix_group == -1);
  CHECK(t.rows[1].request_class == 1);
  CHECK(t.rows[1].prefix_group == 3);
  CHECK(t.rows[1].prefix_tokens == 200);
  CHECK(t.rows[2].prompt_tokens == 7);
  CHECK(t.rows[2].line == 5);
}

TEST_CASE("Azure and BurstGPT traces count time from their first row", "[llm][trace]") {
  const WorkloadTrace azure = parsed(
      "TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.6805900,374,44\n"
      "2023-11-16 18:15:50.9951690,396,109\n2023-11-17T00:00:00Z,5,6\n");
  CHECK(azure.layout == TraceLayout::Azure);
  REQUIRE(azure.rows.size() == 3);
  CHECK(azure.rows[0].arrival_s == 0);
  // 50.9951690 - 46.6805900 = 4.314579 s: whole seconds and fractions are differenced apart, exact to ~1e-15.
  CHECK_THAT(azure.rows[1].arrival_s, WithinAbs(4.314579, 1e-12));
  // To midnight: 5 h 44 min 13.31941 s.
  CHECK_THAT(azure.rows[2].arrival_s, WithinAbs(5 * 3600 + 44 * 60 + 13.31941, 1e-9));
  CHECK(azure.rows[1].prompt_tokens == 396);
  CHECK(azure.rows[1].output_tokens == 109);

  const WorkloadTrace burst = parsed(
      "Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n5,ChatGPT,472,18,490,Conversation log\n"
      "45,GPT-4,1087,0,1087,Conversation log\n");
  CHECK(burst.layout == TraceLayout::BurstGpt);
  CHECK(burst.rows[0].arrival_s == 0);
  CHECK(burst.rows[1].arrival_s == 40);
  CHECK(burst.rows[1].output_tokens == 0);  // a failed request: the replay gives it one token
}

TEST_CASE("Every malformed trace is refused whole, with one message naming its line and column", "[llm][trace]") {
  const std::string plain = "arrival_s,prompt_tokens,output_tokens\n";
  const std::vector<Case> cases = {
      {"", "trace_empty", "1", "<none>", "trace holds no header and no request"},
      {plain, "trace_empty", "1", "<none>", "trace has a header but no request"},
      {"time,in,out\n1,2,3\n", "trace_header", "1", "<none>",
       "trace line 1: the header time,in,out names no known layout; a trace starts with arrival_s,prompt_tokens,"
       "output_tokens (seconds), TIMESTAMP,ContextTokens,GeneratedTokens (Azure) or Timestamp,Request tokens,"
       "Response tokens (BurstGPT)"},
      {"arrival_s,prompt_tokens\n1,2\n", "trace_missing_column", "1", "output_tokens",
       "trace line 1: no column output_tokens (the plain layout needs arrival_s, prompt_tokens, output_tokens)"},
      {"TIMESTAMP,ContextTokens\n2023-11-16 18:15:46,3\n", "trace_missing_column", "1", "generatedtokens",
       "trace line 1: no column generatedtokens (the azure layout needs timestamp, contexttokens, generatedtokens)"},
      {"arrival_s,prompt_tokens,output_tokens,prefix_group\n1,2,3,4\n", "trace_missing_column", "1", "prefix_tokens",
       "trace line 1: no column prefix_tokens (a shared prefix needs both prefix_group and prefix_tokens)"},
      {"arrival_s,prompt_tokens,output_tokens,Prompt_Tokens\n1,2,3,4\n", "trace_duplicate_column", "1",
       "Prompt_Tokens", "trace line 1: the column Prompt_Tokens appears twice"},
      bad_value(plain + "0,10,5\n1,-3,5\n", "3", "prompt_tokens", kWholeTokens, "-3"),
      bad_value(plain + "0,10,5\n1,ten,5\n", "3", "prompt_tokens", kWholeTokens, "ten"),
      bad_value(plain + "0,10.5,5\n", "2", "prompt_tokens", kWholeTokens, "10.5"),
      bad_value(plain + "0x10,10,5\n", "2", "arrival_s", kSeconds, "0x10"),
      bad_value(plain + "nan,10,5\n", "2", "arrival_s", kSeconds, "nan"),
      bad_value(plain + "-1,10,5\n", "2", "arrival_s", kSeconds, "-1"),
      bad_value(plain + "0,10,\n", "2", "output_tokens", kWholeTokens, ""),
      {plain + "2,10,5\n1,10,5\n", "trace_unsorted", "3", "arrival_s",
       "trace line 3: this request arrives at 1 s, before the one on line 2 (2 s); sort the trace by time"},
      {plain + "1,10,5\n2,10\n", "trace_field_count", "3", "<none>", "trace line 3: 2 fields where the header has 3"},
      bad_value("TIMESTAMP,ContextTokens,GeneratedTokens\n2023-02-30 00:00:00,1,2\n", "2", "TIMESTAMP",
                "a date and time like 2023-11-16 18:15:46.68", "2023-02-30 00:00:00"),
      bad_value("arrival_s,prompt_tokens,output_tokens,class\n0,10,5,2\n", "2", "class", "a whole number in [0, 1]",
                "2"),
      {"arrival_s,prompt_tokens,output_tokens,prefix_group,prefix_tokens\n0,10,5,1,10\n", "trace_value", "2",
       "prefix_tokens",
       "trace line 2, column prefix_tokens: a shared prefix must be shorter than its prompt (10 tokens), got 10"},
      {plain + "0,\"10\n", "csv_syntax", "2", "<none>", "trace line 2: a quoted field opened here is never closed"},
  };
  for (const Case& c : cases) {
    INFO(sl::echo(c.text, 80));
    auto t = parse_workload_trace(c.text, "trace");
    REQUIRE_FALSE(t.ok());
    const sl::Error& e = t.error();
    CHECK(e.code == c.code);
    CHECK(e.param == "trace");
    CHECK(arg(e, "line") == c.line);
    CHECK(arg(e, "column") == c.column);
    CHECK(e.message == c.message);
    CHECK(sl::echo(e.message, static_cast<std::size_t>(-1)) == e.message);
  }
}

TEST_CASE("A trace longer than its row limit is refused at the first row past it", "[llm][trace]") {
  std::string text = "arrival_s,prompt_tokens,output_tokens\n";
  for (int i = 0; i < 11; ++i) text += std::to_string(i) + ",10,5\n";
  auto t = parse_workload_trace(text, "trace", 10);
  REQUIRE_FALSE(t.ok());
  CHECK(t.error().code == "trace_too_many_rows");
  CHECK(arg(t.error(), "line") == "12");
  CHECK(t.error().message == "trace line 12: a trace may have at most 10 requests; cut the file to a window of them");
  CHECK(parse_workload_trace(text, "trace", 11).ok());
}

TEST_CASE("A replay takes a window, scales its times and loops it until it has n requests", "[llm][trace]") {
  // Four requests a second apart, from t = 1 s.
  const WorkloadTrace t = parsed("arrival_s,prompt_tokens,output_tokens\n1,10,1\n2,20,2\n3,30,3\n4,40,4\n");
  TraceReplay r;
  SECTION("every row as written") {
    const ReplayedRows got = select_rows(t, r).value();
    REQUIRE(got.rows.size() == 4);
    CHECK(got.rows[0].arrival_s == 1);
    CHECK(got.rows[3].arrival_s == 4);
  }
  SECTION("a window [2, 4) shifted to 0, twice as fast") {
    r.window_start_s = 2;
    r.window_s = 2;
    r.rate_scale = 2;
    const ReplayedRows got = select_rows(t, r).value();
    REQUIRE(got.rows.size() == 2);
    CHECK(got.rows[0].arrival_s == 0);
    CHECK(got.rows[1].arrival_s == 0.5);
    CHECK(got.rows[1].prompt_tokens == 30);
  }
  SECTION("the first n, and a loop past the end at the trace's own rate") {
    r.num_requests = 3;
    CHECK(select_rows(t, r).value().rows.size() == 3);
    r.num_requests = 10;
    CHECK(select_rows(t, r).value().rows.size() == 4);  // no loop: the trace is all there is
    r.loop = true;
    const ReplayedRows got = select_rows(t, r).value();
    REQUIRE(got.rows.size() == 10);
    CHECK(got.num_passes == 3);
    CHECK(got.period_s == 4);  // the span 1..4 s (3 s) + the mean gap (1 s)
    CHECK(got.rows[4].arrival_s == 5);  // the second pass's first request, one gap after the last
    CHECK(got.rows[9].arrival_s == 10);  // pass 3 (starts 8 s later), its second request
    CHECK(got.rows[9].output_tokens == 2);
  }
  SECTION("an empty window is an error naming its start") {
    r.window_start_s = 10;
    auto got = select_rows(t, r);
    REQUIRE_FALSE(got.ok());
    CHECK(got.error().code == "trace_window");
    CHECK(got.error().param == "trace_start_s");
  }
}

TEST_CASE("A replay cuts requests to max_model_len and raises empty ones to a token, counting both", "[llm][trace]") {
  const WorkloadTrace t = parsed(
      "arrival_s,prompt_tokens,output_tokens,class,prefix_group,prefix_tokens\n"
      "0,100,50,0,,\n0,3000,10,0,,\n0,1000,2000,1,2,900\n0,0,0,0,,\n0,2047,5,0,7,2046\n");
  TraceAdjustments a;
  const Workload w = make_trace_workload(t.rows, 2048, &a);
  REQUIRE(w.requests.size() == 5);
  CHECK(a.num_cut == 3);
  CHECK(a.num_raised == 1);
  CHECK(w.requests[0].num_prompt_tokens == 100);
  CHECK(w.requests[0].max_tokens == 50);
  CHECK(w.requests[1].num_prompt_tokens == 2047);  // cut to max_model_len - 1
  CHECK(w.requests[1].max_tokens == 1);
  CHECK(w.requests[2].num_prompt_tokens == 1000);
  CHECK(w.requests[2].max_tokens == 1048);
  CHECK(w.requests[2].request_class == 1);
  REQUIRE(w.requests[2].prompt.size() == 2);
  CHECK(w.requests[2].prompt[0].content_id == prefix_content(2));
  CHECK(w.requests[2].prompt[0].length == 900);
  CHECK(w.requests[3].num_prompt_tokens == 1);
  CHECK(w.requests[3].max_tokens == 1);
  for (const Request& r : w.requests) CHECK(r.num_prompt_tokens + r.max_tokens <= 2048);
}

TEST_CASE("Replaying the trace written from a generated workload serves it record for record", "[llm][trace]") {
  OpenLoopParams p = sl::llm::test::lognormal_workload(600, 30, 700, 1.2, 150, 1, 2048);
  p.arrival_cv = 2;
  p.batch_frac = 0.2;
  p.shared_prefix_tokens = 64;
  p.num_prefixes = 5;
  const std::uint64_t seed = GENERATE(1, 7);
  Workload generated = make_open_loop(p, seed);
  const std::string csv = write_trace(generated);
  const WorkloadTrace t = parsed(csv);
  TraceReplay replay;
  replay.max_model_len = p.max_model_len;
  TraceAdjustments a;
  Workload replayed = make_trace_workload(select_rows(t, replay).value().rows, p.max_model_len, &a);
  CHECK(a.num_cut == 0);
  CHECK(a.num_raised == 0);
  REQUIRE(replayed.requests.size() == generated.requests.size());
  for (std::size_t i = 0; i < generated.requests.size(); ++i) {
    const Request &g = generated.requests[i], &r = replayed.requests[i];
    INFO("request " << i);
    CHECK(r.arrival_at_s == g.arrival_at_s);
    CHECK(r.num_prompt_tokens == g.num_prompt_tokens);
    CHECK(r.max_tokens == g.max_tokens);
    CHECK(r.request_class == g.request_class);
    CHECK(r.output_content_id == g.output_content_id);
    REQUIRE(r.prompt.size() == g.prompt.size());
    for (std::size_t k = 0; k < g.prompt.size(); ++k) {
      CHECK(r.prompt[k].content_id == g.prompt[k].content_id);
      CHECK(r.prompt[k].length == g.prompt[k].length);
    }
  }
  // Both through the same engine (small KV pool: preemptions and prefix hits both happen).
  EngineConfig c;
  c.model = llama3_8b();
  c.gpu = h100();
  c.kv_cache.num_blocks = 600;
  c.kv_cache.block_size = 16;
  sl::RunControl ctl;
  const EngineRun a_run = run_continuous(c, generated, ctl);
  const EngineRun b_run = run_continuous(c, replayed, ctl);
  CHECK(a_run.num_preemptions > 0);
  CHECK(a_run.prefix_cache.num_hit_tokens > 0);
  sl::llm::test::check_same_records(a_run.records, b_run.records);
  CHECK(a_run.num_steps == b_run.num_steps);
  CHECK(a_run.end_s == b_run.end_s);
}

}  // namespace SL_UNITY_ID
