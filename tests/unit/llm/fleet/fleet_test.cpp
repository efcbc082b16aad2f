#include "llm/fleet/fleet.h"

#include <catch2/catch.hpp>

#include <cmath>

#include "llm/pressured_workload.h"
#include "llm/same_records.h"

#include "core/stats.h"
#include "llm/engine/serving_metrics.h"

namespace SL_UNITY_ID {

using namespace sl::llm;

namespace {

using sl::llm::test::check_same_records;
using sl::llm::test::lognormal_workload;
using sl::llm::test::pressured_engine;
using sl::llm::test::pressured_workload;

/// Every `n`-th request of `w` from `k` on, renumbered from 0, as a workload of its own.
Workload every_nth(const Workload& w, std::size_t k, std::size_t n) {
  Workload sub;
  for (std::size_t i = k; i < w.requests.size(); i += n) {
    Request r = w.requests[i];
    r.request_id = static_cast<std::int32_t>(sub.requests.size());
    sub.initial.push_back(r.request_id);
    sub.requests.push_back(r);
    sub.next_turn.push_back(-1);
    sub.think_s.push_back(0);
  }
  return sub;
}

/// Mean TTFT of a run's records and its batch-means standard error (records in arrival order).
std::pair<double, double> mean_ttft(std::vector<RequestRecord> records) {
  std::sort(records.begin(), records.end(),
            [](const RequestRecord& a, const RequestRecord& b) { return a.arrival_at_s < b.arrival_at_s; });
  std::vector<double> ttft;
  double sum = 0;
  for (const RequestRecord& r : records) ttft.push_back(r.ttft_s()), sum += r.ttft_s();
  return {sum / static_cast<double>(ttft.size()), sl::batch_means_se(ttft)};
}

}  // namespace

TEST_CASE("One replica under any router is run_continuous exactly", "[llm][fleet]") {
  const Router router = GENERATE(Router::RoundRobin, Router::LeastTokens, Router::PrefixAffinity, Router::Random);
  const OpenLoopParams p = pressured_workload();
  Workload a = make_open_loop(p, 3), b = make_open_loop(p, 3);
  sl::RunControl ctl;
  const EngineRun alone = run_continuous(pressured_engine(), a, ctl);
  const FleetRun fleet = run_fleet({pressured_engine(), 1, router, 3}, b, ctl);
  REQUIRE(alone.num_preemptions > 0);  // the case is the hard one: preemptions and prefix hits
  REQUIRE(alone.prefix_cache.num_hit_tokens > 0);
  const EngineRun merged = merge_runs(fleet);
  check_same_records(alone.records, merged.records);
  CHECK(merged.end_s == alone.end_s);
  CHECK(merged.num_steps == alone.num_steps);
  CHECK(merged.busy_s == alone.busy_s);
  CHECK(merged.used_block_s == alone.used_block_s);
  CHECK(merged.token_gaps.count() == alone.token_gaps.count());
  CHECK(merged.token_gaps.quantile(0.99) == alone.token_gaps.quantile(0.99));
  CHECK(fleet.replicas[0].running.area() == alone.running.area());
}

TEST_CASE("Round-robin over N replicas: replica k is run_continuous on arrivals k, k + N, k + 2N, ...", "[llm][fleet]") {
  OpenLoopParams p = pressured_workload();
  p.num_requests = 600;
  p.rate_per_s = 1200;  // each of the 3 replicas at 400/s: as starved as the engine tests
  Workload w = make_open_loop(p, 8);
  const Workload copy = w;
  sl::RunControl ctl;
  const FleetRun fleet = run_fleet({pressured_engine(), 3, Router::RoundRobin, 8}, w, ctl);
  for (std::size_t k = 0; k < 3; ++k) {
    Workload sub = every_nth(copy, k, 3);
    const EngineRun alone = run_continuous(pressured_engine(), sub, ctl);
    // The fleet's records carry the fleet's ids: compare them renumbered.
    std::vector<RequestRecord> mine = fleet.replicas[k].records;
    for (RequestRecord& r : mine) r.request_id = static_cast<std::int32_t>((r.request_id - k) / 3);
    INFO("replica " << k);
    check_same_records(alone.records, mine);
    CHECK(fleet.num_routed[k] == 200);
  }
}

TEST_CASE("Random routing over N replicas at lambda is one replica at lambda / N, in distribution", "[llm][fleet]") {
  // A Poisson stream split at random is Poisson at lambda / N on each replica (thinning), so the fleet's TTFT
  // law is one replica's at lambda / N: their means agree within the runs' own standard errors.
  OpenLoopParams p = pressured_workload();
  p.shared_prefix_tokens = 0;
  p.num_requests = 8000;
  p.rate_per_s = 4 * 30.0;  // 30/s a replica: busy, but stable on this pool
  Workload w = make_open_loop(p, 11);
  sl::RunControl ctl;
  const FleetRun fleet = run_fleet({pressured_engine(), 4, Router::Random, 11}, w, ctl);
  p.num_requests = 4000;
  p.rate_per_s = 30.0;
  Workload one = make_open_loop(p, 12);
  const EngineRun alone = run_continuous(pressured_engine(), one, ctl);
  const auto [fleet_mean, fleet_se] = mean_ttft(merge_runs(fleet).records);
  const auto [alone_mean, alone_se] = mean_ttft(alone.records);
  INFO("fleet " << fleet_mean << " +- " << fleet_se << ", one replica " << alone_mean << " +- " << alone_se);
  REQUIRE(alone_mean > 2 * prefill_s(llama3_8b(), h100(), 150));  // queueing matters: the test could fail
  CHECK(std::abs(fleet_mean - alone_mean) <= 3 * std::hypot(fleet_se, alone_se));
  // Round-robin gives each replica every N-th arrival: gaps of CV 1 / sqrt(N), calmer than Poisson.
  Workload again = make_open_loop([&] { OpenLoopParams q = p; q.num_requests = 8000; q.rate_per_s = 120; return q; }(), 11);
  const FleetRun rr = run_fleet({pressured_engine(), 4, Router::RoundRobin, 11}, again, ctl);
  CHECK(mean_ttft(merge_runs(rr).records).first < fleet_mean);
}

TEST_CASE("Prefix affinity keeps each shared prefix on its replica: more prefix hits than round-robin", "[llm][fleet]") {
  OpenLoopParams p = lognormal_workload(2000, 40, 200, 0.5, 50, 0.5, 2048);
  p.shared_prefix_tokens = 512;
  p.num_prefixes = 8;
  EngineConfig c = pressured_engine();
  c.kv_cache.num_blocks = 400;  // a pool that holds about 3 of the 8 prefixes beside the running requests
  sl::RunControl ctl;
  double hit[2];
  for (const Router router : {Router::PrefixAffinity, Router::RoundRobin}) {
    Workload w = make_open_loop(p, 5);
    const ServingSummary s = summarize(merge_runs(run_fleet({c, 4, router, 5}, w, ctl)));
    hit[router == Router::RoundRobin] = s.prefix_hit_frac;
  }
  INFO("affinity " << hit[0] << ", round-robin " << hit[1]);
  CHECK(hit[0] > hit[1] + 0.05);
}

TEST_CASE("Least-outstanding-tokens routing keeps replicas within a few requests of each other", "[llm][fleet]") {
  OpenLoopParams p = pressured_workload();
  p.num_requests = 2000;
  p.rate_per_s = 800;
  Workload w = make_open_loop(p, 2);
  sl::RunControl ctl;
  const FleetRun fleet = run_fleet({pressured_engine(), 4, Router::LeastTokens, 2}, w, ctl);
  for (const std::int64_t n : fleet.num_routed) CHECK(std::abs(static_cast<double>(n) - 500) < 50);
  CHECK(static_cast<std::int64_t>(merge_runs(fleet).records.size()) == 2000);
}

TEST_CASE("Expected tokens per verify step: 1 + a + ... + a^k", "[llm][speculative]") {
  CHECK(expected_tokens_per_step(0, 0.7) == 1.0);
  CHECK_THAT(expected_tokens_per_step(4, 0.7), Catch::Matchers::WithinRel(1 + 0.7 + 0.49 + 0.343 + 0.2401, 1e-12));
  CHECK(expected_tokens_per_step(3, 0.0) == 1.0);
  CHECK(expected_tokens_per_step(3, 1.0) == 4.0);
}

TEST_CASE("Disaggregated: a request's TTFT is its prefill alone, its next token one KV transfer and one decode step "
          "later", "[llm][fleet][disaggregation]") {
  OpenLoopParams p;
  p.num_requests = 1;
  p.prompt_tokens = sl::Distribution::deterministic(1000);
  p.output_tokens = sl::Distribution::deterministic(3);
  EngineConfig c = pressured_engine();
  c.kv_cache.num_blocks = 1024;
  c.scheduler.max_num_batched_tokens = 2048;  // the prompt in one chunk
  FleetConfig f{c, 2, Router::RoundRobin, 1};
  f.num_prefill_replicas = 1;
  f.kv_link_bytes_per_s = 25e9;
  f.kv_link_latency_s = 20e-6;
  f.kv_bytes_per_token_per_gpu = 131'072;
  Workload w = make_open_loop(p, 1);
  sl::RunControl ctl;
  const FleetRun fleet = run_fleet(f, w, ctl);
  REQUIRE(fleet.replicas[1].records.size() == 1);
  CHECK(fleet.replicas[0].records.empty());  // the prefill replica hands the request off
  const RequestRecord& r = fleet.replicas[1].records[0];
  CHECK_THAT(r.ttft_s(), Catch::Matchers::WithinRel(prefill_s(c.model, c.gpu, 1000), 1e-12));
  // 1,000 tokens x 131,072 B over 25 GB/s = 5.243 ms, plus 20 us; then decode steps at 1,001 and 1,002 tokens.
  const double transfer_s = 1000 * 131'072.0 / 25e9 + 20e-6;
  CHECK(fleet.transfer_s == transfer_s);
  CHECK(fleet.num_transfers == 1);
  const double decode_s = decode_step_s(c.model, c.gpu, 1, 1001) + decode_step_s(c.model, c.gpu, 1, 1002);
  CHECK_THAT(r.finished_at_s - r.first_token_at_s, Catch::Matchers::WithinRel(transfer_s + decode_s, 1e-12));
  CHECK(r.num_output_tokens == 3);
  CHECK(fleet.num_routed == std::vector<std::int64_t>{1, 1});
}

TEST_CASE("Disaggregated under load: every answer is finished on a decode replica, which never prefills a prompt",
          "[llm][fleet][disaggregation]") {
  OpenLoopParams p = lognormal_workload(1500, 60, 1500, 0.5, 100, 1, 8192);
  EngineConfig c = pressured_engine();
  c.kv_cache.num_blocks = 20'000;
  c.scheduler.max_num_batched_tokens = 2048;
  FleetConfig f{c, 3, Router::LeastTokens, 4};
  f.num_prefill_replicas = 1;
  f.kv_bytes_per_token_per_gpu = 131'072;
  Workload w = make_open_loop(p, 4);
  const Workload copy = w;
  sl::RunControl ctl;
  const FleetRun fleet = run_fleet(f, w, ctl);
  const EngineRun merged = merge_runs(fleet);
  REQUIRE(merged.records.size() == 1500);
  for (const RequestRecord& r : merged.records) CHECK(r.num_output_tokens == copy.requests[r.request_id].max_tokens);
  std::int64_t ones = 0;
  for (const Request& r : copy.requests) ones += r.max_tokens == 1;
  CHECK(fleet.num_routed[0] == 1500);
  CHECK(fleet.num_routed[1] + fleet.num_routed[2] == 1500 - ones);
  CHECK(fleet.num_transfers == 1500 - ones);
  for (int k : {1, 2}) CHECK(fleet.replicas[k].prefix_cache.num_requests == 0);  // no lookups: no prompt computed
  // Mixed, the same 3 replicas: decode steps share the GPU with prompts, so the p99 token gap is far longer.
  Workload again = make_open_loop(p, 4);
  const EngineRun mixed = merge_runs(run_fleet({c, 3, Router::LeastTokens, 4}, again, ctl));
  INFO("p99 token gap: disaggregated " << merged.token_gaps.quantile(0.99) << " s, mixed " << mixed.token_gaps.quantile(0.99));
  CHECK(merged.token_gaps.quantile(0.99) < 0.5 * mixed.token_gaps.quantile(0.99));
}

}  // namespace SL_UNITY_ID
