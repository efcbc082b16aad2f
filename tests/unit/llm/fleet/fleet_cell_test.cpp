#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>

#include "cell_runner.h"

#include "llm/fleet/fleet.h"
#include "llm/fleet/fleet_sweep.h"

namespace SL_UNITY_ID {

namespace {

const cell_test::Cell cell{"llm/fleet"};
const cell_test::Cell continuous{"llm/continuous-batching"};

}  // namespace

TEST_CASE("One replica, no speculation, TP 1: llm/fleet gives llm/continuous-batching's numbers exactly",
          "[llm][fleet]") {
  // continuous-batching's defaults, as fleet inputs: one class, one replica, its prefix cache on.
  const std::map<std::string, std::string> same = {{"lambda", "18"}, {"n", "2000"}, {"max_model_len", "2048"}};
  std::map<std::string, std::string> one = same;
  one.insert({{"replicas", "1"}, {"doc_frac", "0"}, {"prefix_caching", "on"}, {"sweep", "none"}, {"spec_tokens", "0"}});
  const std::string seed = GENERATE(as<std::string>{}, "1", "4");
  const sl::RunResult f = cell_test::run("llm/fleet", one, seed);
  const sl::RunResult c = cell_test::run("llm/continuous-batching", same, seed);
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"ttft_p99_ms", "ttft_p99_ms"}, {"itl_p99_ms", "itl_p99_ms"},     {"tok_per_s", "tok_per_s"},
      {"goodput_req_per_s", "goodput_req_per_s"}, {"slo_attainment_frac", "slo_attainment_frac"},
      {"usd_per_m_tokens", "usd_per_m_tokens"},   {"j_per_token", "j_per_token"}};
  for (const auto& [ours, theirs] : pairs) {
    INFO(ours);
    CHECK(out(f, ours) == out(c, theirs));
  }
  // The rest of the policies table's first row (the paged engine).
  CHECK(out(f, "ttft_p50_ms") == column(c, "policies", "ttft_p50_ms")[0]);
  CHECK(out(f, "tpot_p99_ms") == column(c, "policies", "tpot_p99_ms")[0]);
  CHECK(out(f, "queue_p99_ms") == column(c, "policies", "queue_p99_ms")[0]);
  CHECK(out(f, "e2e_p99_s") == column(c, "policies", "e2e_p99_s")[0]);
  CHECK(out(f, "prefix_hit_frac") == column(c, "policies", "prefix_hit_frac")[0]);
  CHECK(out(f, "preemptions_per_request") == column(c, "policies", "preemptions_per_request")[0]);
  // vLLM's start-up figures: the same pool, and the same requests to divide it by.
  for (const char* name : {"kv_pool_tokens", "kv_pool_blocks", "max_concurrency"}) {
    INFO(name);
    CHECK(out(f, name) == out(c, name));
  }
}

TEST_CASE("The replica sweep: more replicas cut the tail, and the cheapest point meeting every SLO is named",
          "[llm][fleet]") {
  const auto r = cell.run({{"n", "3000"}});
  const auto& value = column(r, "sweep", "value");
  const auto& ttft = column(r, "sweep", "ttft_p99_ms");
  const auto& usd = column(r, "sweep", "usd_per_m_tokens");
  const auto& meets = column(r, "sweep", "meets_slo");
  REQUIRE(value == std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8});
  // One replica cannot keep up with 40 requests/s and eight idle most of the time: the tail falls by orders of
  // magnitude, and once every replica keeps up the cost per token grows with the replicas.
  CHECK(ttft.front() > 10 * ttft.back());
  CHECK(meets.front() == 0);
  CHECK(meets.back() == 1);
  CHECK(usd.back() > usd[value.size() / 2]);
  // best_value is the cheapest point that meets the SLOs.
  double best = 1e300, at = -1;
  for (std::size_t i = 0; i < value.size(); ++i)
    if (meets[i] == 1 && usd[i] < best) best = usd[i], at = value[i];
  CHECK(out(r, "best_value") == at);
  CHECK(out(r, "best_usd_per_m_tokens") == best);
  // Every point's cost: replicas x GPUs x $3/h over its tokens per second.
  const auto& tok = column(r, "sweep", "tok_per_s");
  for (std::size_t i = 0; i < value.size(); ++i)
    CHECK_THAT(usd[i], WithinRel(value[i] * 3.0 / 3600 / tok[i] * 1e6, 1e-12));
}

TEST_CASE("Speculative decoding in the fleet: measured tokens per step approach the formula; TPOT falls at light load",
          "[llm][fleet][speculative]") {
  const std::map<std::string, std::string> light = {{"n", "600"}, {"lambda", "4"}, {"sweep", "none"}, {"doc_frac", "0"}};
  std::map<std::string, std::string> spec = light;
  spec.insert({{"spec_tokens", "4"}, {"spec_accept", "0.8"}});
  const auto off = cell.run(light), on = cell.run(spec);
  const double expected = sl::llm::expected_tokens_per_step(4, 0.8);
  CHECK_THAT(out(on, "spec_expected_tokens"), WithinRel(expected, 1e-12));
  // Near an answer's end fewer drafts fit, so the measured mean is a little below the formula.
  CHECK(out(on, "spec_tokens_per_step") <= expected);
  CHECK(out(on, "spec_tokens_per_step") > 0.9 * expected);
  // A step emits 3.36 tokens at once but waits for 4 draft passes first: TPOT falls to about a third, while
  // the gap between a request's steps (its token gap, counted per step as vLLM counts it) grows.
  CHECK(out(on, "tpot_p99_ms") < 0.5 * out(off, "tpot_p99_ms"));
  CHECK(out(on, "itl_p50_ms") > out(off, "itl_p50_ms"));
  CHECK(out(on, "spec_draft_frac") > 0);
  CHECK(find_column(off, "sweep", "value") == nullptr);
}

TEST_CASE("llm/fleet refuses bad inputs, naming the parameter", "[llm][fleet]") {
  check_bad_inputs(cell, {
      {"sweep_from below the replicas' range", {{"sweep_from", "0"}}, "out_of_range", "sweep_from"},
      {"sweep_to above the replicas' range", {{"sweep_to", "65"}}, "out_of_range", "sweep_to"},
      {"sweep of alpha to 1", {{"sweep", "spec_accept"}, {"sweep_from", "0.5"}, {"sweep_to", "1"}}, "out_of_range", "sweep_to"},
      {"acceptance of 1", {{"spec_accept", "1"}}, "", "spec_accept"},
      {"too many replicas", {{"replicas", "65"}}, "", "replicas"},
      {"idle above busy power", {{"idle_w", "800"}}, "invalid", "idle_w"},
      {"prefix filling max_model_len", {{"prefix_tokens", "16383"}}, "invalid", "prefix_tokens"},
      {"budget below max_num_seqs", {{"max_num_batched_tokens", "100"}}, "invalid", "max_num_batched_tokens"},
      {"a sweep over the run budget", {{"n", "100000"}, {"sweep_points", "20"}}, "too_large", "n"},
      {"NaN arrival rate", {{"lambda", "nan"}}, "", "lambda"},
      {"a long-prefill cap without chunked prefill", {{"chunked_prefill", "off"}, {"long_prefill_token_threshold", "256"}},
       "invalid", "long_prefill_token_threshold"},
      {"whole prompts past the token budget", {{"chunked_prefill", "off"}}, "invalid", "max_num_batched_tokens"},
      {"no decode replica left", {{"disaggregation", "on"}, {"prefill_replicas", "4"}}, "invalid", "prefill_replicas"},
      {"a P:D sweep up to every replica", {{"disaggregation", "on"}, {"sweep", "prefill_replicas"}, {"sweep_from", "1"},
                                          {"sweep_to", "4"}}, "invalid", "sweep_to"},
      {"a replica sweep below P + 1", {{"disaggregation", "on"}, {"prefill_replicas", "2"}}, "invalid", "sweep_from"},
  });
}

TEST_CASE("A P:D sweep: prefill replicas trade TTFT for token gaps; transfers are reported", "[llm][fleet][disaggregation]") {
  const auto r = cell.run({{"n", "1500"}, {"disaggregation", "on"}, {"prefill_replicas", "2"}, {"sweep", "prefill_replicas"},
                           {"sweep_from", "1"}, {"sweep_to", "3"}, {"sweep_points", "3"}});
  const auto& ttft = column(r, "sweep", "ttft_p99_ms");
  REQUIRE(ttft.size() == 3);
  CHECK(ttft[0] > ttft[2]);  // one prefill replica for 40 requests/s is the bottleneck; three are not
  // Prompts of 1,500 tokens on average (chat 1,000; one in ten a 6,000-token document) x 131,072 B over 50 GB/s:
  // 3.9 ms a transfer on average, plus 10 us.
  CHECK(out(r, "kv_transfer_ms") > 1);
  CHECK(out(r, "kv_transfer_ms") < 10);
  CHECK(out(r, "kv_transfer_wait_ms") >= 0);
  CHECK(column(r, "replicas", "prefill") == std::vector<double>{1, 1, 0, 0});
}

TEST_CASE("max_waiting turns arrivals away at their replica; they count against the SLO", "[llm][fleet]") {
  const auto r = cell.run({{"n", "2000"}, {"replicas", "2"}, {"max_waiting", "5"}, {"sweep", "none"}});
  CHECK(out(r, "rejected") > 0);
  CHECK(has_notice(r, "rejected"));
  const auto& requests = column(r, "classes", "requests");
  CHECK(requests[2] == 2000);  // arrived: served or turned away
}

TEST_CASE("A sweep's bounds are its knob's parameter range, as the cell declares it", "[llm][fleet]") {
  const sl::CellSpec* spec = sl::find_cell("llm/fleet");
  REQUIRE(spec != nullptr);
  for (const char* name : {"replicas", "lambda", "spec_tokens", "spec_accept", "prefill_replicas"}) {
    INFO(name);
    const auto param = std::find_if(spec->params.begin(), spec->params.end(), [&](const sl::ParamSpec& q) { return q.name == name; });
    REQUIRE(param != spec->params.end());
    const sl::llm::SweepKnob knob = sl::llm::knob_of(name);
    CHECK(sl::llm::sweep_values(knob, param->min, param->max, 2).ok());
    CHECK_FALSE(sl::llm::sweep_values(knob, param->min - 1e-3, param->max, 2).ok());
    CHECK_FALSE(sl::llm::sweep_values(knob, param->min, param->max + 1e-3, 2).ok());
  }
}

}  // namespace SL_UNITY_ID
