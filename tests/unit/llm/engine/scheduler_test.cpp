#include "llm/engine/scheduler.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

namespace SL_UNITY_ID {

using namespace sl::llm;

namespace {

Request make(std::int32_t id, std::int64_t prompt_tokens, std::int64_t max_tokens) {
  Request r;
  r.request_id = id;
  r.prompt = {{100 + static_cast<std::uint64_t>(id), prompt_tokens}};
  r.num_prompt_tokens = prompt_tokens;
  r.output_content_id = 5000 + static_cast<std::uint64_t>(id);
  r.max_tokens = max_tokens;
  return r;
}

void add(Scheduler& s, std::initializer_list<Request*> requests) {
  for (Request* r : requests) s.add_request(*r);
}

std::vector<std::int32_t> ids(const std::vector<Request*>& v) {
  std::vector<std::int32_t> out;
  for (const Request* r : v) out.push_back(r->request_id);
  return out;
}

std::vector<std::int32_t> ids(const std::deque<Request*>& v) { return ids(std::vector<Request*>(v.begin(), v.end())); }

std::int64_t tokens_for(const SchedulerOutput& out, std::int32_t id) {
  for (const auto& s : out.scheduled)
    if (s.request->request_id == id) return s.num_new_tokens;
  return 0;
}

}  // namespace

TEST_CASE("A step prefills new requests under the token budget and then decodes them one token each",
          "[llm][scheduler]") {
  KvCacheManager kv({100, 16, false, 0});
  Scheduler s({8, 100, true, 0}, kv);
  Request a = make(0, 60, 3), b = make(1, 60, 3);
  add(s, {&a, &b});
  SchedulerOutput out = s.schedule();
  CHECK(tokens_for(out, 0) == 60);
  CHECK(tokens_for(out, 1) == 40);  // chunked: the budget of 100 leaves 40 for b
  CHECK(out.work.num_prefill_tokens == 100);
  CHECK(out.work.num_prefill_chunks == 2);
  CHECK(out.work.prefill_attention_pairs == 60 * 60 + 40 * 40);
  s.update_from_output(out, 1.0);
  CHECK(a.num_output_tokens == 1);  // a's prompt is done: its first token is sampled
  CHECK(a.first_token_at_s == 1.0);
  CHECK(b.num_output_tokens == 0);  // b's was a chunk: nothing sampled
  out = s.schedule();
  CHECK(tokens_for(out, 0) == 1);   // a decodes
  CHECK(tokens_for(out, 1) == 20);  // b finishes its prompt
  CHECK(out.work.num_decode_seqs == 1);
  CHECK(out.work.decode_context_tokens == 61);
  CHECK(out.work.prefill_context_tokens == 40);
}

TEST_CASE("Without chunked prefill a prompt that does not fit the remaining budget waits, and nobody overtakes it",
          "[llm][scheduler]") {
  KvCacheManager kv({100, 16, false, 0});
  Scheduler s({8, 100, false, 0}, kv);
  Request a = make(0, 60, 3), b = make(1, 60, 3), c = make(2, 10, 3);
  add(s, {&a, &b, &c});
  const SchedulerOutput out = s.schedule();
  CHECK(ids(s.running()) == std::vector<std::int32_t>{0});
  CHECK(ids(s.waiting()) == std::vector<std::int32_t>{1, 2});
  CHECK(out.total_num_scheduled_tokens == 60);
}

TEST_CASE("max_num_seqs caps the running requests", "[llm][scheduler]") {
  KvCacheManager kv({100, 16, false, 0});
  Scheduler s({2, 1000, true, 0}, kv);
  Request r[3] = {make(0, 10, 5), make(1, 10, 5), make(2, 10, 5)};
  for (auto& q : r) s.add_request(q);
  s.schedule();
  CHECK(s.running().size() == 2);
  CHECK(s.waiting().size() == 1);
}

TEST_CASE("When blocks run out the latest admitted request is preempted, reset, and put at the head of waiting",
          "[llm][scheduler]") {
  // 6 blocks of 16 tokens. a, b, c (admitted in that order) each hold 2 blocks after their 32-token prompts.
  KvCacheManager kv({6, 16, false, 0});
  Scheduler s({8, 1000, true, 0}, kv);
  Request a = make(0, 32, 10), b = make(1, 32, 10), c = make(2, 32, 10), d = make(3, 16, 5);
  add(s, {&a, &b, &c});
  s.update_from_output(s.schedule(), 1.0);
  s.add_request(d);
  REQUIRE(kv.block_pool().num_free_blocks() == 0);
  // Next step: a's 33rd token needs a third block. The victim is c (the last admitted), not d's admission.
  const SchedulerOutput out = s.schedule();
  CHECK(ids(out.preempted) == std::vector<std::int32_t>{2});
  CHECK(c.status == RequestStatus::Preempted);
  CHECK(c.num_computed_tokens == 0);
  CHECK(c.num_output_tokens == 1);  // its generated token is kept, to be recomputed with the prompt
  CHECK(c.num_preemptions == 1);
  CHECK(ids(s.waiting()) == std::vector<std::int32_t>{2, 3});  // at the head, ahead of d which came earlier
  // a and b were served; nothing was admitted in a step that preempted (d stays waiting).
  CHECK(tokens_for(out, 0) == 1);
  CHECK(tokens_for(out, 1) == 1);
  CHECK(ids(s.running()) == std::vector<std::int32_t>{0, 1});
  s.update_from_output(out, 2.0);
  CHECK(kv.check_invariants({&a, &b, &c, &d}).empty());
}

TEST_CASE("If the request being served is itself the last one, it preempts itself and the running pass stops",
          "[llm][scheduler]") {
  // a (31-token prompt) and b (32) hold 2 blocks each and fill the pool. Next step a's 32nd token still fits its
  // second block, but b's 33rd needs a third: b is both the request served and the last admitted.
  KvCacheManager kv({4, 16, false, 0});
  Scheduler s({8, 1000, true, 0}, kv);
  Request a = make(0, 31, 10), b = make(1, 32, 10);
  add(s, {&a, &b});
  s.update_from_output(s.schedule(), 1.0);
  REQUIRE(kv.block_pool().num_free_blocks() == 0);
  const SchedulerOutput out = s.schedule();
  CHECK(ids(out.preempted) == std::vector<std::int32_t>{1});
  CHECK(out.scheduled.size() == 1);
  CHECK(out.scheduled[0].request == &a);
  CHECK(ids(s.waiting()) == std::vector<std::int32_t>{1});
}

TEST_CASE("A finished request frees its blocks and leaves running; the others keep their admission order",
          "[llm][scheduler]") {
  KvCacheManager kv({20, 16, true, 0});
  Scheduler s({8, 1000, true, 0}, kv);
  Request a = make(0, 20, 5), b = make(1, 20, 1), c = make(2, 20, 5);
  add(s, {&a, &b, &c});
  const auto finished = s.update_from_output(s.schedule(), 0.5);
  REQUIRE(finished.size() == 1);
  CHECK(finished[0] == &b);
  CHECK(b.status == RequestStatus::Finished);
  CHECK(b.finished_at_s == 0.5);
  CHECK(ids(s.running()) == std::vector<std::int32_t>{0, 2});
  CHECK(kv.blocks_of(b).empty());
  CHECK(kv.check_invariants({&a, &b, &c}).empty());
}

TEST_CASE("The priority policy admits interactive requests before earlier batch ones; FCFS keeps arrival order",
          "[llm][scheduler][policy]") {
  const auto admitted_first = [](SchedulingPolicy policy) {
    KvCacheManager kv({100, 16, false, 0});
    SchedulerConfig config{1, 100, true, 0};  // one running request at a time
    config.policy = policy;
    Scheduler s(config, kv);
    Request a = make(0, 50, 2), b = make(1, 30, 2), c = make(2, 10, 2);
    a.arrival_at_s = 0.1, b.arrival_at_s = 0.2, c.arrival_at_s = 0.3;
    a.request_class = 1;  // batch
    b.request_class = 1;
    c.request_class = 0;  // interactive, arrived last
    add(s, {&a, &b, &c});
    return ids(s.waiting());
  };
  CHECK(admitted_first(SchedulingPolicy::Fcfs) == std::vector<std::int32_t>{0, 1, 2});
  CHECK(admitted_first(SchedulingPolicy::Priority) == std::vector<std::int32_t>{2, 0, 1});
  CHECK(admitted_first(SchedulingPolicy::ShortestPromptFirst) == std::vector<std::int32_t>{2, 1, 0});
}

TEST_CASE("Under shortest-prompt-first a preempted request goes back at its place, not to the head",
          "[llm][scheduler][policy]") {
  KvCacheManager kv({4, 16, false, 0});  // 64 tokens of KV
  SchedulerConfig config{8, 256, true, 0};
  config.policy = SchedulingPolicy::ShortestPromptFirst;
  Scheduler s(config, kv);
  Request a = make(0, 16, 40), b = make(1, 32, 40), c = make(2, 20, 5);
  add(s, {&a, &b});
  SchedulerOutput out = s.schedule();  // a (1 block) and b (2 blocks) admitted
  s.update_from_output(out, 1.0);
  s.add_request(c);  // c waits: the pool has one block left
  for (int step = 0; step < 40 && out.preempted.empty(); ++step) {
    out = s.schedule();
    s.update_from_output(out, 2.0 + step);
  }
  REQUIRE_FALSE(out.preempted.empty());
  // b, the latest admitted, was preempted; its 32-token prompt sorts after c's 20 tokens.
  CHECK(ids(out.preempted) == std::vector<std::int32_t>{1});
  const auto waiting = ids(s.waiting());
  REQUIRE(waiting.size() >= 1);
  CHECK(waiting.back() == 1);
}

TEST_CASE("Each sampled token's gap since the request's previous token is recorded", "[llm][scheduler]") {
  KvCacheManager kv({100, 16, false, 0});
  Scheduler s({8, 100, true, 0}, kv);
  Request a = make(0, 20, 3);
  s.add_request(a);
  GapHistogram gaps;
  double now_s = 0;
  for (const double step_s : {0.5, 0.25, 0.25}) {
    const SchedulerOutput out = s.schedule();
    now_s += step_s;
    s.update_from_output(out, now_s, &gaps);
  }
  CHECK(a.is_finished());
  CHECK(gaps.count() == 2);  // 3 tokens, 2 gaps of 0.25 s
  CHECK(gaps.quantile(0.5) == 0.25);
}

namespace {

/// One request alone on a roomy pool under speculative decoding with k drafts accepted with probability a,
/// stepped until it finishes; returns its scheduler's statistics and checks every step on the way.
SpeculativeStats speculate_alone(std::int64_t k, double a, std::int64_t max_tokens, std::uint64_t seed) {
  KvCacheManager kv({4096, 16, false, 0});
  SchedulerConfig config{256, 8192, true, 0};
  config.speculative = {k, a, seed};
  Scheduler s(config, kv);
  Request r = make(0, 100, max_tokens);
  s.add_request(r);
  double now_s = 0;
  while (s.has_unfinished_requests()) {
    const SchedulerOutput out = s.schedule();
    const std::int64_t before = r.num_output_tokens;
    if (before > 0) {  // a decoding step: its token and min(k, tokens left - 1) drafts, verified together
      CHECK(tokens_for(out, 0) == 1 + std::min(k, max_tokens - before - 1));
      CHECK(out.work.num_decode_seqs == 1);
      CHECK(out.work.num_spec_tokens == tokens_for(out, 0) - 1);
    }
    s.update_from_output(out, now_s += 0.01);
    // Every emitted token but the last sampled one has its KV computed; never past max_tokens.
    CHECK(r.num_computed_tokens == r.num_tokens() - 1);
    CHECK(r.num_output_tokens <= max_tokens);
  }
  CHECK(r.num_output_tokens == max_tokens);
  return s.speculative_stats();
}

}  // namespace

TEST_CASE("Speculative decoding emits (1 - a^(k+1)) / (1 - a) tokens a full verify step, within its standard error",
          "[llm][scheduler][speculative]") {
  const auto [k, a] = GENERATE(table<std::int64_t, double>({{4, 0.7}, {2, 0.9}, {8, 0.5}, {3, 0.0}}));
  const SpeculativeStats st = speculate_alone(k, a, 20'000, 7);
  const auto n = static_cast<double>(st.num_full_steps);
  REQUIRE(n > 1000);
  const double mean = st.full_emitted_sum / n;
  const double var = st.full_emitted_sq_sum / n - mean * mean;
  const double se = std::sqrt(var / n);
  const double expected = (1 - std::pow(a, static_cast<double>(k + 1))) / (1 - a);
  INFO("k " << k << " a " << a << ": " << mean << " +- " << se << " vs " << expected);
  CHECK(std::abs(mean - expected) <= 4 * se + 1e-12);
  CHECK(st.num_accepted_tokens <= st.num_draft_tokens);
  if (a == 0.0) CHECK(st.num_accepted_tokens == 0);
}

TEST_CASE("Without drafts (k = 0) nothing is speculated and each decode step emits one token", "[llm][scheduler][speculative]") {
  const SpeculativeStats st = speculate_alone(0, 0.9, 50, 1);
  CHECK(st.num_verify_steps == 0);
  CHECK(st.num_draft_tokens == 0);
}

}  // namespace SL_UNITY_ID
