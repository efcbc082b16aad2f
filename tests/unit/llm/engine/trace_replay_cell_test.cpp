// Trace replay in the engine cells (trace_inputs.h): the bundled sample, a file's errors, and the replay of a
// trace written from the laws' own workload, which must give the laws' run back, output for output.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "cell_runner.h"
#include "llm/lognormal_workload.h"

#include "llm/workload/workload.h"
#include "llm/workload/trace_stats.h"
#include "llm/engine/trace_vs_laws.h"
#include "llm/workload/workload_trace.h"

namespace SL_UNITY_ID {

namespace {

std::string arg(const sl::Error& e, const std::string& key) { return cell_test::error_arg(e, key); }

/// The workload llm/continuous-batching and llm/fleet draw at their defaults (their validate_* functions read
/// these inputs into the same OpenLoopParams), written as a trace.
std::string defaults_as_trace(std::int64_t n, double lambda, std::int64_t max_model_len, double doc_frac, std::uint64_t seed) {
  sl::llm::OpenLoopParams w = sl::llm::test::lognormal_workload(n, lambda, 1000, 0.5, 256, 1, max_model_len);
  w.batch_frac = doc_frac;
  if (doc_frac > 0) {
    w.has_batch_lengths = true;
    w.batch_prompt_tokens = sl::Distribution::lognormal_mean_cv(6000, 0.5);
    w.batch_output_tokens = sl::Distribution::lognormal_mean_cv(300, 0.5);
  }
  return sl::llm::write_trace(sl::llm::make_open_loop(w, seed));
}

}  // namespace

TEST_CASE("The engine cells replay the bundled Azure sample trace", "[llm][trace]") {
  const auto c = run("llm/continuous-batching", {{"workload", "trace"}});
  CHECK(out(c, "trace_rows") == 1000);  // n = 2000 asks for more: the whole sample, once
  CHECK(out(c, "trace_span_s") == Approx(216.027393).epsilon(1e-9));  // 18:15:46.6805900 to 18:19:22.7079830
  CHECK(out(c, "tok_per_s") > 0);
  bool short_notice = false;
  for (const auto& n : c.notices) short_notice = short_notice || n.code == "trace_short";
  CHECK(short_notice);
  // The book's reservation-waste rows are about the length laws: n/a while a trace is replayed.
  for (const auto& b : c.book)
    if (b.ref == "paged-attention") CHECK_FALSE(b.applies);
  const auto f = run("llm/fleet", {{"workload", "trace"}, {"trace_loop", "on"}, {"n", "3000"}, {"sweep", "replicas"},
                                   {"sweep_from", "1"}, {"sweep_to", "3"}, {"sweep_points", "3"}});
  CHECK(out(f, "trace_rows") == 3000);
  CHECK(column(f, "sweep", "value").size() == 3);
}

TEST_CASE("A replay of the trace written from the laws' own workload gives the laws' run back", "[llm][trace]") {
  const std::string seed = GENERATE(as<std::string>{}, "1", "5");
  SECTION("continuous batching at its defaults: every policy") {
    const auto laws = run("llm/continuous-batching", {}, seed);
    const auto replay = run("llm/continuous-batching",
                            {{"workload", "trace"}, {"trace", defaults_as_trace(2000, 18, 2048, 0, std::stoull(seed))}}, seed);
    for (const char* name : {"tok_per_s", "ttft_p99_ms", "static_ttft_p99_ms", "itl_p99_ms", "queue_mean_steps",
                             "mean_batch", "naive_mean_batch", "static_mean_batch", "preemptions", "kv_usage_frac",
                             "slo_attainment_frac", "usd_per_m_tokens", "trace_ttft_ms", "offered_tok_per_s"}) {
      INFO(name);
      CHECK(out(replay, name) == out(laws, name));
    }
    for (const char* name : {"ttft_p50_ms", "tpot_p99_ms", "e2e_p99_s", "kv_waste_frac"}) {
      INFO(name);
      CHECK(column(replay, "policies", name) == column(laws, "policies", name));
    }
  }
  SECTION("a fleet of four with both classes") {
    const std::map<std::string, std::string> knobs = {{"sweep", "none"}, {"n", "3000"}};
    const auto laws = run("llm/fleet", knobs, seed);
    auto replay_inputs = knobs;
    replay_inputs.insert({{"workload", "trace"}, {"trace", defaults_as_trace(3000, 40, 16384, 0.1, std::stoull(seed))}});
    const auto replay = run("llm/fleet", replay_inputs, seed);
    for (const char* name : {"goodput_req_per_s", "chat_attainment_frac", "doc_attainment_frac", "ttft_p99_ms",
                             "itl_p99_ms", "tok_per_s", "usd_per_m_tokens", "routed_max_over_mean"}) {
      INFO(name);
      CHECK(out(replay, name) == out(laws, name));
    }
  }
}

TEST_CASE("A bad trace file is refused in the cell with the file's line, and misused replays are named", "[llm][trace]") {
  const auto bad = error_of("llm/fleet", {{"workload", "trace"}, {"trace", "arrival_s,prompt_tokens,output_tokens\n0,5,5\n1,-3,5\n"}});
  CHECK(bad.code == "trace_value");
  CHECK(bad.param == "trace");
  CHECK(arg(bad, "line") == "3");
  CHECK(arg(bad, "problem") == "whole");
  const auto laws = error_of("llm/continuous-batching", {{"trace", "arrival_s,prompt_tokens,output_tokens\n0,5,5\n"}});
  CHECK(laws.code == "trace_needs_workload");
  CHECK(laws.param == "workload");
  const auto sweep = error_of("llm/fleet", {{"workload", "trace"}, {"sweep", "lambda"}});
  CHECK(sweep.code == "trace_sweep_lambda");
  CHECK(sweep.param == "sweep");
  const auto window = error_of("llm/continuous-batching", {{"workload", "trace"}, {"trace_start_s", "1e6"}});
  CHECK(window.code == "trace_window");
  CHECK(window.param == "trace_start_s");
}

TEST_CASE("llm/workload-trace sets the trace beside the laws fitted to it, and offers them to the page", "[llm][trace]") {
  const auto c = run("llm/workload-trace");
  const auto& stat = column(c, "trace_vs_laws", "stat");
  // A row by its stat code (trace_vs_laws.h TraceStat): the 60 s dispersion row is absent, the 216 s sample holding
  // fewer than four windows of 60 s.
  const auto row = [&](sl::llm::TraceStat code, const char* which) {
    for (std::size_t i = 0; i < stat.size(); ++i)
      if (stat[i] == static_cast<double>(code)) return column(c, "trace_vs_laws", which)[i];
    FAIL("no row " << static_cast<int>(code));
    return 0.0;
  };
  using S = sl::llm::TraceStat;
  CHECK(stat.size() == 17);
  CHECK(out(c, "trace_rows") == 1000);
  CHECK(out(c, "ttft_p99_ms") == row(S::TtftP99Ms, "trace"));
  CHECK(out(c, "laws_ttft_p99_ms") == row(S::TtftP99Ms, "laws"));
  CHECK(out(c, "trace_dispersion_10s") == row(S::Dispersion10s, "trace"));
  REQUIRE(c.fills.size() == 1);
  const sl::InputFill& fill = c.fills[0];
  CHECK(fill.name == "fit_laws");
  CHECK(fill.whole_page);
  std::map<std::string, std::string> inputs(fill.values.begin(), fill.values.end());
  CHECK(inputs.at("workload") == "laws");
  CHECK(inputs.at("n") == "1000");
  // The fill is an input llm/continuous-batching takes: with this cell's max_model_len, its paged engine draws and
  // serves the very workload this cell's second column did.
  inputs["max_model_len"] = "8192";
  const auto laws_run = run("llm/continuous-batching", inputs);
  CHECK(out(laws_run, "ttft_p99_ms") == out(c, "laws_ttft_p99_ms"));
  // Fitted by moments: the laws' sample mean of prompt and answer tokens is the trace's within 4 standard errors
  // of a lognormal sample of 1,000 (SE = CV x mean / sqrt(n)).
  for (const auto& [mean, cv] : {std::pair{S::PromptMean, S::PromptCv}, std::pair{S::OutputMean, S::OutputCv}})
    CHECK(std::abs(row(mean, "laws") - row(mean, "trace")) <= 4 * row(cv, "trace") * row(mean, "trace") / std::sqrt(1000.0));
}

TEST_CASE("Workload statistics: Poisson counts disperse by 1, ranks correlate, quantiles interpolate", "[llm][trace]") {
  using namespace sl::llm;
  OpenLoopParams p;
  p.num_requests = 20000;
  p.rate_per_s = 50;  // 400 s: 40 windows of 10 s, 400 of 1 s
  p.prompt_tokens = sl::Distribution::deterministic(100);
  p.output_tokens = sl::Distribution::deterministic(10);
  const WorkloadStats s = workload_stats(make_open_loop(p, 3));
  CHECK(s.num_requests == 20000);
  CHECK(std::abs(s.gap_cv - 1) < 0.05);  // exponential gaps: CV 1, SE about 1 / sqrt(n) x 1.1
  // The index of dispersion of k Poisson counts has SE about sqrt(2 / (k - 1)).
  CHECK(std::abs(s.dispersion_1s - 1) < 4 * std::sqrt(2.0 / 399));
  CHECK(std::abs(s.dispersion_10s - 1) < 4 * std::sqrt(2.0 / 39));
  CHECK(s.rank_corr == 0);  // constant lengths: no correlation to measure
  CHECK(s.prompt.p99 == 100);
  // Four requests whose outputs rise with their prompts (one tie): Spearman's rho from mean ranks.
  Workload w;
  const std::int64_t prompts[] = {10, 20, 20, 40}, outputs[] = {1, 2, 3, 4};
  for (int i = 0; i < 4; ++i) add_first_turn(w, open_loop_request(i, i, -1, 0, prompts[i], outputs[i], 0));
  const WorkloadStats t = workload_stats(w);
  // Prompt ranks 1, 2.5, 2.5, 4 against 1, 2, 3, 4: rho = 4.5 / sqrt(4.5 x 5) = 0.9487.
  CHECK(t.rank_corr == Approx(4.5 / std::sqrt(4.5 * 5.0)).epsilon(1e-12));
  CHECK(t.prompt.p50 == 20);
  CHECK(t.output.p90 == Approx(3.7).epsilon(1e-12));  // type 7: 3 + 0.7 x (4 - 3)
  CHECK(t.rate_per_s == 1);
}

}  // namespace SL_UNITY_ID
