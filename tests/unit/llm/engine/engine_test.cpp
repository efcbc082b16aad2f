#include "llm/engine/engine.h"

#include <catch2/catch.hpp>

#include "llm/conversation_workload.h"
#include "llm/pressured_workload.h"
#include "llm/same_records.h"

#include "llm/engine/serving_metrics.h"
#include "llm/engine/static_batching.h"

namespace SL_UNITY_ID {

using namespace sl::llm;

namespace {

/// A small, memory-starved setup: 120 blocks of 16 tokens for requests of up to 512 tokens, arriving faster
/// than they are served, so the pool runs dry, requests are preempted, and a shared 64-token system prompt
/// exercises prefix hits (and hits on a preempted request's own blocks).
using sl::llm::test::pressured_engine;
using sl::llm::test::pressured_workload;

struct InvariantWatch {
  std::int64_t num_steps = 0;
  std::string first_error;
  void operator()(const Scheduler&, const KvCacheManager& kv, const Workload& w) {
    ++num_steps;
    if (!first_error.empty()) return;
    std::vector<const Request*> all;
    for (const Request& r : w.requests) all.push_back(&r);
    first_error = kv.check_invariants(all);
    if (!first_error.empty()) first_error = "step " + std::to_string(num_steps) + ": " + first_error;
  }
};

void check_drained(const EngineRun& run, const Workload& w, const OpenLoopParams& p) {
  CHECK(static_cast<std::int64_t>(run.records.size()) == p.num_requests);
  for (const Request& r : w.requests) {
    CHECK(r.status == RequestStatus::Finished);
    CHECK(r.num_output_tokens == r.max_tokens);
  }
}

}  // namespace

TEST_CASE("Allocator invariants hold after every step of a whole run with preemptions and prefix hits",
          "[llm][scheduler][engine]") {
  const OpenLoopParams p = pressured_workload();
  const bool caching = GENERATE(true, false);
  Workload w = make_open_loop(p, 3);
  InvariantWatch watch;
  sl::RunControl ctl;
  const EngineRun run = run_continuous(pressured_engine(caching, 0), w, ctl, std::ref(watch));
  INFO(watch.first_error);
  CHECK(watch.first_error.empty());
  CHECK(watch.num_steps == run.num_steps);
  CHECK(run.num_preemptions > 0);  // the scenario does exercise preemption
  if (caching) CHECK(run.prefix_cache.num_hit_tokens > 0);
  check_drained(run, w, p);
}

TEST_CASE("The counters the engine reads each step equal the sums they stand for, after every step",
          "[llm][scheduler][engine]") {
  // KV occupancy and the least-tokens router read counters kept as tokens and blocks change; here they are
  // recomputed the long way (walking running and waiting) through preemptions, prefix hits, drafts and reservations.
  const OpenLoopParams p = pressured_workload();
  const int variant = GENERATE(0, 1, 2, 3);  // caching, no caching, speculative decoding, naive reservation
  EngineConfig c = pressured_engine(variant != 1 && variant != 3, variant == 3 ? 512 : 0);
  if (variant == 2) c.scheduler.speculative = {4, 0.7, 9};
  Workload w = make_open_loop(p, 3);
  std::int64_t num_steps = 0, num_wrong = 0;
  const StepObserver watch = [&](const Scheduler& s, const KvCacheManager& kv, const Workload&) {
    ++num_steps;
    std::int64_t computed = 0, outstanding = 0, blocks = 0;
    for (const Request* r : s.running()) {
      computed += r->num_computed_tokens;
      blocks += static_cast<std::int64_t>(kv.blocks_of(*r).size());
    }
    for (const Request* r : s.running()) outstanding += r->num_prompt_tokens + r->max_tokens - 1 - r->num_computed_tokens;
    for (const Request* r : s.waiting()) outstanding += r->num_prompt_tokens + r->max_tokens - 1 - r->num_computed_tokens;
    num_wrong += computed != s.num_running_computed_tokens() || outstanding != s.num_outstanding_tokens() ||
                 blocks != kv.num_table_blocks();
  };
  sl::RunControl ctl;
  const EngineRun run = run_continuous(c, w, ctl, watch);
  CHECK(num_steps == run.num_steps);
  CHECK(num_wrong == 0);
  if (variant != 3) CHECK(run.num_preemptions > 0);  // the counters went through preemptions
  check_drained(run, w, p);
}

TEST_CASE("After a run every block is free and every reference count is zero", "[llm][scheduler][engine]") {
  const OpenLoopParams p = pressured_workload();
  Workload w = make_open_loop(p, 5);
  std::int64_t free_at_end = -1, refs_at_end = -1;
  sl::RunControl ctl;
  run_continuous(pressured_engine(true, 0), w, ctl, [&](const Scheduler& s, const KvCacheManager& kv, const Workload&) {
    if (s.has_unfinished_requests()) return;
    free_at_end = kv.block_pool().num_free_blocks();
    refs_at_end = 0;
    for (BlockId b = 0; b < kv.block_pool().num_blocks(); ++b) refs_at_end += kv.block_pool().ref_cnt(b);
  });
  CHECK(free_at_end == 120);
  CHECK(refs_at_end == 0);
}

TEST_CASE("Naive max-length reservation keeps its invariants and never preempts", "[llm][scheduler][engine]") {
  const OpenLoopParams p = pressured_workload();
  Workload w = make_open_loop(p, 3);
  InvariantWatch watch;
  sl::RunControl ctl;
  const EngineRun run = run_continuous(pressured_engine(false, p.max_model_len), w, ctl, std::ref(watch));
  INFO(watch.first_error);
  CHECK(watch.first_error.empty());
  CHECK(run.num_preemptions == 0);  // a reservation covers every token the request can ever hold
  check_drained(run, w, p);
  // 120 blocks hold 3 reservations of 32 blocks: never more than 3 sequences in a step.
  CHECK(summarize(run).mean_batch <= 3.0);
}

TEST_CASE("Continuous batching outruns static batching, and paged KV outruns naive reservation when memory binds",
          "[llm][scheduler][engine]") {
  // Saturated: everything arrives within the first millisecond, so tokens/s measures capacity.
  OpenLoopParams p = pressured_workload();
  p.rate_per_s = 1e6;
  p.num_requests = 200;
  sl::RunControl ctl;
  EngineConfig paged = pressured_engine(true, 0);
  paged.kv_cache.num_blocks = 512;  // room for 16 reservations of 512 tokens
  paged.scheduler.max_num_seqs = 64;
  Workload w1 = make_open_loop(p, 9), w2 = make_open_loop(p, 9), w3 = make_open_loop(p, 9);
  const ServingSummary continuous = summarize(run_continuous(paged, w1, ctl));
  EngineConfig naive = paged;
  naive.kv_cache.enable_caching = false;
  naive.kv_cache.reserve_tokens_per_request = p.max_model_len;
  const ServingSummary reserved = summarize(run_continuous(naive, w2, ctl));
  const ServingSummary fixed = summarize(run_static({paged.model, paged.gpu, 16, p.max_model_len, 512, 16, 0.01}, w3, ctl));
  CHECK(continuous.output_tok_per_s > reserved.output_tok_per_s);
  CHECK(reserved.output_tok_per_s > fixed.output_tok_per_s);
  CHECK(continuous.mean_batch > reserved.mean_batch);
  // Reservation wastes the unused part of every 512-token reservation; blocks waste under one block each.
  CHECK(reserved.kv_waste_frac > 0.3);
  CHECK(continuous.kv_waste_frac < 0.1);
}

TEST_CASE("Static batching holds a finished sequence's slot until the batch's longest is done",
          "[llm][scheduler][engine]") {
  // Two requests at t = 0: answers of 2 and 6 tokens. Prefill gives both first tokens; 5 decode steps follow.
  Workload w;
  for (std::int32_t i = 0; i < 2; ++i) {
    Request r;
    r.request_id = i;
    r.prompt = {{10 + static_cast<std::uint64_t>(i), 100}};
    r.num_prompt_tokens = 100;
    r.max_tokens = i == 0 ? 2 : 6;
    w.requests.push_back(r);
    w.next_turn.push_back(-1);
    w.think_s.push_back(0);
    w.initial.push_back(i);
  }
  sl::RunControl ctl;
  const EngineRun run = run_static({llama3_8b(), h100(), 8, 512, 256, 16, 0.01}, w, ctl);
  CHECK(run.num_steps == 6);
  REQUIRE(run.records.size() == 2);
  CHECK(run.records[0].request_id == 0);
  CHECK(run.records[0].finished_at_s < run.records[1].finished_at_s);  // tokens stream: 0 is done first
  // ... but its slot is occupied for all 6 steps: 2 useful of 6 slot-steps for it, 6 of 6 for the other.
  CHECK(run.seq_step_s == Approx(2 * run.busy_s).epsilon(1e-12));
}

TEST_CASE("Multi-turn conversations: each turn finds the whole previous turn in the cache, in full blocks",
          "[llm][scheduler][engine]") {
  const ConversationParams c = sl::llm::test::conversations(6, 3, 0.5, 100, 30, 40, 2);
  Workload w = make_conversations(c, 4);
  sl::RunControl ctl;
  EngineConfig e = pressured_engine(true, 0);
  e.kv_cache.num_blocks = 2000;  // ample: nothing is evicted
  const EngineRun run = run_continuous(e, w, ctl);
  // Turn 0 finds the system prompt's 6 full blocks (96 tokens; none for the very first request). Turn k >= 1
  // finds the previous turn's prompt and answer: its KV holds all but the last generated token, so
  // floor((P_{k-1} + answer - 1) / 16) blocks, where P_k = 100 + (k + 1) 30 + 40 k.
  std::int64_t expected = 0;
  for (std::int64_t k = 0; k < c.num_turns; ++k) {
    const std::int64_t prev = 100 + k * 30 + (k - 1) * 40;  // P_{k-1}
    const std::int64_t hit = k == 0 ? 96 : (prev + 40 - 1) / 16 * 16;
    expected += c.num_conversations * hit;
  }
  expected -= 96;
  std::int64_t saved = 0;
  for (const RequestRecord& r : run.records) saved += r.num_cached_tokens;
  CHECK(saved == expected);
}

TEST_CASE("The engine is deterministic: the same seed gives identical records", "[llm][scheduler][engine]") {
  const OpenLoopParams p = pressured_workload();
  Workload a = make_open_loop(p, 21), b = make_open_loop(p, 21);
  sl::RunControl ctl;
  const EngineRun ra = run_continuous(pressured_engine(true, 0), a, ctl);
  const EngineRun rb = run_continuous(pressured_engine(true, 0), b, ctl);
  sl::llm::test::check_same_records(ra.records, rb.records);
  CHECK(ra.num_preemptions == rb.num_preemptions);
}

TEST_CASE("max_waiting turns away arrivals while the queue is full, and the rest are served", "[llm][scheduler][engine]") {
  const OpenLoopParams p = pressured_workload();
  EngineConfig c = pressured_engine(true, 0);
  c.max_waiting = 5;
  Workload w = make_open_loop(p, 4);
  sl::RunControl ctl;
  const EngineRun run = run_continuous(c, w, ctl);
  const std::int64_t rejected = run.num_rejected[0] + run.num_rejected[1];
  CHECK(rejected > 0);
  CHECK(static_cast<std::int64_t>(run.records.size()) + rejected == p.num_requests);
  const SloSummary slo = summarize_slo(run, 1e9, 1e9);  // targets nobody misses: only the rejected fail
  CHECK(slo.by_class[2].num_arrived == p.num_requests);
  CHECK(slo.by_class[2].num_met == static_cast<std::int64_t>(run.records.size()));
}

TEST_CASE("Every token after a request's first leaves one gap, and the queue ends at the first admission",
          "[llm][scheduler][engine]") {
  const OpenLoopParams p = pressured_workload();
  Workload w = make_open_loop(p, 5);
  sl::RunControl ctl;
  const EngineRun run = run_continuous(pressured_engine(true, 0), w, ctl);
  std::int64_t gaps = 0;
  for (const RequestRecord& r : run.records) {
    gaps += r.num_output_tokens - 1;
    CHECK(r.queue_s() >= 0);
    CHECK(r.first_scheduled_at_s <= r.first_token_at_s);
  }
  CHECK(run.token_gaps.count() == gaps);
  const ServingSummary s = summarize(run);
  // One gap per step at least as long as the shortest step; p99 over gaps includes preemption stalls.
  CHECK(s.itl_p50_s > 0);
  CHECK(s.itl_p99_s >= s.itl_p50_s);
  CHECK(s.kv_read_frac > 0);
  CHECK(s.kv_read_frac < 1);
}

TEST_CASE("With tensor parallelism the engine's steps pay the all-reduces, and no more", "[llm][engine][tensor_parallel]") {
  const OpenLoopParams p = pressured_workload();
  EngineConfig c = pressured_engine(false, 0);
  c.tp.size = 2;
  Workload w = make_open_loop(p, 6);
  sl::RunControl ctl;
  const EngineRun run = run_continuous(c, w, ctl);
  CHECK(run.all_reduce_s > 0);
  CHECK(run.all_reduce_s < run.busy_s);
  // Each step has at least one token: at least 32 layers x 2 x (2 x 5 us latency) of all-reduce per step.
  CHECK(run.all_reduce_s >= static_cast<double>(run.num_steps) * 64 * 10e-6);
}

TEST_CASE("Speculative decoding keeps the allocator's invariants through preemptions, and every answer its length",
          "[llm][engine][speculative]") {
  const OpenLoopParams p = pressured_workload();
  EngineConfig c = pressured_engine(true, 0);
  c.scheduler.speculative = {4, 0.7, 9};
  Workload w = make_open_loop(p, 3);
  InvariantWatch watch;
  sl::RunControl ctl;
  const EngineRun run = run_continuous(c, w, ctl, std::ref(watch));
  INFO(watch.first_error);
  CHECK(watch.first_error.empty());
  CHECK(run.num_preemptions > 0);
  CHECK(run.speculative.num_accepted_tokens > 0);
  check_drained(run, w, p);
}

TEST_CASE("One request alone: speculative decoding divides its TPOT by the tokens a step emits, less the draft's cost",
          "[llm][engine][speculative]") {
  OpenLoopParams p;
  p.num_requests = 1;
  p.prompt_tokens = sl::Distribution::deterministic(100);
  p.output_tokens = sl::Distribution::deterministic(4000);
  p.max_model_len = 8192;
  EngineConfig c = pressured_engine(false, 0);
  c.kv_cache.num_blocks = 1024;
  sl::RunControl ctl;
  Workload plain_w = make_open_loop(p, 1);
  const double plain = run_continuous(c, plain_w, ctl).records[0].tpot_s();
  c.scheduler.speculative = {4, 0.8, 2};
  c.draft_step_s = 0.05 * decode_step_s(c.model, c.gpu, 1, 0);
  Workload spec_w = make_open_loop(p, 1);
  const EngineRun run = run_continuous(c, spec_w, ctl);
  const double spec = run.records[0].tpot_s();
  // Batch 1 is memory-bound: a verify step of 5 tokens costs a decode step (plus 0.013 %), the draft 4 x 5 %
  // of one; the step emits 1 + 0.8 + ... + 0.8^4 = 3.3616 tokens on average (less at the end, where fewer
  // drafts fit), so TPOT falls to about 1.2 / 3.3616 = 0.357 of plain.
  const double expected = 1.2 / 3.3616;
  INFO("plain " << plain * 1e3 << " ms, speculative " << spec * 1e3 << " ms: " << spec / plain);
  CHECK(std::abs(spec / plain - expected) < 0.02);
  CHECK(run.draft_s > 0);
}

}  // namespace SL_UNITY_ID
