#include "llm/fleet/fleet.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "core/error.h"
#include "core/rng.h"
#include "queues/event_queue.h"

namespace sl::llm {
namespace {

/// Picks a replica for each arrival.
class RouterState {
 public:
  explicit RouterState(const FleetConfig& config)
      : router_(config.router),
        slack_tokens_(FleetConfig::kAffinitySlackSteps *
                      static_cast<double>(config.engine.scheduler.max_num_batched_tokens)),
        // A stream of its own: the workload's prefixes draw from Stream::Routing of the same seed.
        rng_(Rng::stream(config.seed ^ 0x726f75746572ULL, Stream::Routing)) {}

  /// A replica among replicas[first, first + n).
  std::size_t pick(const Request& request, const std::vector<std::unique_ptr<EngineReplica>>& replicas,
                   std::size_t first, std::size_t n) {
    switch (router_) {
      case Router::RoundRobin: return first + next_++ % n;
      case Router::Random: return first + std::min(n - 1, static_cast<std::size_t>(rng_.uniform() * static_cast<double>(n)));
      case Router::LeastTokens: return least_loaded(replicas, first, n);
      case Router::PrefixAffinity: break;
    }
    const std::size_t least = least_loaded(replicas, first, n);
    if (request.prompt.size() < 2) return least;  // no shared prefix: nothing to be affine to
    const std::size_t home = first + static_cast<std::size_t>(prefix_of(request.prompt.front().content_id)) % n;
    const double excess = static_cast<double>(replicas[home]->outstanding_tokens() - replicas[least]->outstanding_tokens());
    return excess > slack_tokens_ ? least : home;
  }

 private:
  static std::size_t least_loaded(const std::vector<std::unique_ptr<EngineReplica>>& replicas, std::size_t first,
                                  std::size_t n) {
    std::size_t best = first;
    std::int64_t best_tokens = replicas[first]->outstanding_tokens();
    for (std::size_t k = first + 1; k < first + n; ++k) {
      const std::int64_t t = replicas[k]->outstanding_tokens();
      if (t < best_tokens) best = k, best_tokens = t;
    }
    return best;
  }

  Router router_;
  double slack_tokens_;
  Rng rng_;
  std::size_t next_ = 0;
};

constexpr double kNever = std::numeric_limits<double>::infinity();

}  // namespace

double expected_tokens_per_step(std::int64_t num_drafts, double accept_frac) {
  if (accept_frac >= 1) return static_cast<double>(num_drafts + 1);
  return (1 - std::pow(accept_frac, static_cast<double>(num_drafts + 1))) / (1 - accept_frac);
}

FleetRun run_fleet(const FleetConfig& config, Workload& workload, RunControl& ctl) {
  SL_ASSERT(config.num_replicas >= 1);
  SL_ASSERT(config.num_prefill_replicas >= 0 && config.num_prefill_replicas < std::max<std::int64_t>(2, config.num_replicas));
  const auto n = static_cast<std::size_t>(config.num_replicas);
  const auto num_prefill = static_cast<std::size_t>(config.num_prefill_replicas);
  const bool disaggregated = num_prefill > 0;
  std::vector<std::unique_ptr<EngineReplica>> replicas;
  Rng seeds = Rng::stream(config.seed, Stream::Service);
  for (std::size_t k = 0; k < n; ++k) {
    EngineConfig c = config.engine;
    c.scheduler.speculative.seed = seeds.next_u64();
    if (disaggregated && k >= num_prefill) c.max_waiting = std::int64_t{1} << 40;  // a prefilled request is never turned away
    replicas.push_back(std::make_unique<EngineReplica>(c));
    if (k < num_prefill) replicas.back()->set_hands_off(true);
  }
  RouterState router(config), decode_router(config);
  ArrivalQueue arrivals(workload);
  // KV transfers in flight to the decode replicas, by arrival (ties in the order they left).
  queues::EventQueue<Request*> transfers;
  // Each request's answer length, kept while a prefill replica serves it with max_tokens 1.
  std::vector<std::int64_t> answer_tokens(disaggregated ? workload.requests.size() : 0, 0);
  std::vector<double> link_free_at_s(num_prefill, 0);
  FleetRun fleet;
  fleet.num_routed.assign(n, 0);
  const auto num_requests = static_cast<double>(workload.requests.size());
  std::int64_t num_finished = 0, num_steps = 0;
  double now_s = 0;

  // Each replica's step in progress ends then (kNever: none), side by side: the loop scans them at every event.
  std::vector<double> step_end_at_s(n, kNever);
  // The earliest end of a step in progress, and whose it is (the lowest index on a tie).
  const auto next_step_end = [&step_end_at_s, n](std::size_t& which) {
    double end_s = kNever;
    for (std::size_t k = 0; k < n; ++k)
      if (step_end_at_s[k] < end_s) end_s = step_end_at_s[k], which = k;
    return end_s;
  };
  const auto finish = [&](Request& r) {
    arrivals.on_finished(r, now_s);
    ++num_finished;
    fleet.end_s = now_s;
  };
  // A prefill replica's request at its first token: it ends here, or its KV leaves over the replica's link.
  const auto hand_off = [&](std::size_t k, Request& r) {
    const auto id = static_cast<std::size_t>(r.request_id);
    if (answer_tokens[id] == 1) {
      replicas[k]->add_record(r);
      return finish(r);
    }
    r.max_tokens = answer_tokens[id];
    r.finished_at_s = -1;
    const double start_s = std::max(now_s, link_free_at_s[k]);
    const double send_s = static_cast<double>(r.num_prompt_tokens) * config.kv_bytes_per_token_per_gpu / config.kv_link_bytes_per_s;
    link_free_at_s[k] = start_s + send_s;
    transfers.schedule(start_s + send_s + config.kv_link_latency_s, &r);
    ++fleet.num_transfers;
    fleet.transfer_s += send_s + config.kv_link_latency_s;
    fleet.transfer_wait_s += start_s - now_s;
  };
  while (true) {
    std::size_t ending = 0;
    const double end_s = next_step_end(ending);
    const double arrival_s = arrivals.empty() ? kNever : arrivals.next_at_s();
    const double transfer_s = transfers.empty() ? kNever : transfers.next_time();
    if (arrival_s == kNever && end_s == kNever && transfer_s == kNever) break;  // nothing arrives, nothing runs
    if (arrival_s <= end_s && arrival_s <= transfer_s) {
      now_s = arrival_s;
      Request& request = arrivals.pop();
      const std::size_t k = router.pick(request, replicas, 0, disaggregated ? num_prefill : n);
      if (disaggregated) {
        answer_tokens[static_cast<std::size_t>(request.request_id)] = request.max_tokens;
        request.max_tokens = 1;
      }
      ++fleet.num_routed[k];
      replicas[k]->add(request);
    } else if (transfer_s <= end_s) {
      now_s = transfer_s;
      Request& request = *transfers.step();
      const std::size_t k = decode_router.pick(request, replicas, num_prefill, n - num_prefill);
      ++fleet.num_routed[k];
      replicas[k]->add(request);
    } else {
      now_s = end_s;
      step_end_at_s[ending] = kNever;
      for (Request* r : replicas[ending]->end_step()) {
        if (ending < num_prefill) hand_off(ending, *r);
        else finish(*r);
      }
      // Progress every 64 steps: report() reads the wall clock, a call into JS in the browser.
      if ((++num_steps & 63) == 0) ctl.report(static_cast<double>(num_finished), num_requests);
    }
    // Start the replicas that can, once every event of this instant is taken.
    std::size_t unused = 0;
    const bool more_now = (!arrivals.empty() && arrivals.next_at_s() <= now_s) ||
                          (!transfers.empty() && transfers.next_time() <= now_s) || next_step_end(unused) <= now_s;
    if (more_now) continue;
    for (std::size_t k = 0; k < n; ++k) {
      EngineReplica& replica = *replicas[k];
      if (step_end_at_s[k] != kNever || !replica.has_unfinished_requests()) continue;  // stepping, or idle
      if (replica.clock_s() < now_s) replica.idle_until(now_s);
      step_end_at_s[k] = replica.begin_step(now_s);
    }
  }
  for (const auto& replica : replicas) fleet.replicas.push_back(replica->finish(replica->clock_s()));
  return fleet;
}

EngineRun merge_runs(const FleetRun& fleet) {
  EngineRun m;
  m.block_size = fleet.replicas.empty() ? 16 : fleet.replicas.front().block_size;
  for (const EngineRun& r : fleet.replicas) {
    m.records.insert(m.records.end(), r.records.begin(), r.records.end());
    m.num_steps += r.num_steps;
    m.num_preemptions += r.num_preemptions;
    m.num_rejected[0] += r.num_rejected[0];
    m.num_rejected[1] += r.num_rejected[1];
    m.token_gaps.merge(r.token_gaps);
    m.bytes_read += r.bytes_read;
    m.kv_bytes_read += r.kv_bytes_read;
    m.all_reduce_s += r.all_reduce_s;
    m.prefix_cache.num_requests += r.prefix_cache.num_requests;
    m.prefix_cache.num_query_tokens += r.prefix_cache.num_query_tokens;
    m.prefix_cache.num_hit_tokens += r.prefix_cache.num_hit_tokens;
    m.speculative.num_verify_steps += r.speculative.num_verify_steps;
    m.speculative.num_draft_tokens += r.speculative.num_draft_tokens;
    m.speculative.num_accepted_tokens += r.speculative.num_accepted_tokens;
    m.speculative.num_full_steps += r.speculative.num_full_steps;
    m.speculative.full_emitted_sum += r.speculative.full_emitted_sum;
    m.speculative.full_emitted_sq_sum += r.speculative.full_emitted_sq_sum;
    m.draft_s += r.draft_s;
    m.num_blocks += r.num_blocks;
    m.num_blocks_handed_out += r.num_blocks_handed_out;
    m.busy_s += r.busy_s;
    m.used_block_s += r.used_block_s;
    m.slot_token_s += r.slot_token_s;
    m.stored_token_s += r.stored_token_s;
    m.seq_step_s += r.seq_step_s;
  }
  m.end_s = fleet.end_s;
  std::stable_sort(m.records.begin(), m.records.end(), [](const RequestRecord& a, const RequestRecord& b) {
    return a.finished_at_s != b.finished_at_s ? a.finished_at_s < b.finished_at_s : a.request_id < b.request_id;
  });
  return m;
}

}  // namespace sl::llm
