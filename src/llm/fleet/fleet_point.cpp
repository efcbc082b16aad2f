#include "llm/fleet/fleet_point.h"

#include <algorithm>
#include <cmath>

#include "core/units.h"
#include "llm/engine/engine_budget.h"
#include "llm/model/power_model.h"

namespace sl::llm {
namespace {

Router router_of(const std::string& name) {
  if (name == "round-robin") return Router::RoundRobin;
  if (name == "prefix-affinity") return Router::PrefixAffinity;
  if (name == "random") return Router::Random;
  return Router::LeastTokens;
}

EngineConfig engine_config(const FleetParams& p, const FleetPoint& pt) {
  EngineConfig c = engine_config(p.hw, p.scheduler);
  c.scheduler.speculative.num_speculative_tokens = pt.num_spec_tokens;
  c.scheduler.speculative.accept_frac = pt.spec_accept_frac;
  c.kv_cache.enable_caching = p.prefix_caching;
  StepWork one;
  one.num_decode_seqs = 1;
  c.draft_step_s = p.draft_cost_frac * step_time(c.model, c.gpu, one, c.tp).total_s;
  return c;
}

}  // namespace

/// Each replica serves its share of both classes at its share of lambda.
EngineWork fleet_point_work(const FleetParams& p, const FleetPoint& pt) {
  const EnginePool pool{p.hw.model, p.hw.gpu, p.hw.num_blocks, p.hw.block_size, p.scheduler.scheduler, p.prefix_caching};
  const auto replicas = static_cast<double>(pt.num_replicas);
  if (p.trace) return trace_work(*p.trace, p.workload.max_model_len, pool, replicas);
  EngineWork work;
  for (int k = 0; k < 2; ++k) {
    const double share = k == 0 ? 1 - p.workload.batch_frac : p.workload.batch_frac;
    if (share <= 0) continue;
    OpenLoopParams w = p.workload;
    w.num_requests = static_cast<std::int64_t>(std::ceil(static_cast<double>(w.num_requests) * share / replicas));
    w.rate_per_s = pt.rate_per_s / replicas;
    if (k == 1) w.prompt_tokens = w.batch_prompt_tokens, w.output_tokens = w.batch_output_tokens;
    work += open_loop_work(w, pool).times(replicas);
  }
  return work;
}

Result<FleetParams> validate_fleet(const Inputs& in) {
  FleetParams p;
  OpenLoopParams& w = p.workload;
  w.num_requests = in.count("n");
  w.arrival_cv = in.real("arrival_cv");
  w.prompt_tokens = Distribution::lognormal_mean_cv(in.real("prompt_mean"), in.real("prompt_cv"));
  w.output_tokens = Distribution::lognormal_mean_cv(in.real("output_mean"), in.real("output_cv"));
  w.batch_frac = in.real("doc_frac");
  w.has_batch_lengths = true;
  w.batch_prompt_tokens = Distribution::lognormal_mean_cv(in.real("doc_prompt_mean"), in.real("doc_prompt_cv"));
  w.batch_output_tokens = Distribution::lognormal_mean_cv(in.real("doc_output_mean"), in.real("doc_output_cv"));
  w.shared_prefix_tokens = in.count("prefix_tokens");
  w.num_prefixes = in.count("num_prefixes");
  w.max_model_len = in.count("max_model_len");
  if (w.shared_prefix_tokens + 1 >= w.max_model_len)
    return Error{"invalid", "prefix_tokens",
                 "prefix_tokens must leave room for a prompt's own text and one answer token in max_model_len = " +
                     std::to_string(w.max_model_len) + " tokens, got " + std::to_string(w.shared_prefix_tokens),
                 {{"max", std::to_string(w.max_model_len - 2)}, {"unit", "tokens"}, {"got", std::to_string(w.shared_prefix_tokens)},
                  {"problem", "prefix_room"}, {"other", "max_model_len"}, {"length", std::to_string(w.max_model_len)}}};
  auto server = validate_server(in, w.max_model_len);
  if (!server.ok()) return server.error();
  p.hw = server.value().hw;
  p.scheduler = server.value().scheduler;
  auto trace = validate_trace(in, w.num_requests, w.max_model_len);
  if (!trace.ok()) return trace.error();
  p.trace = std::move(trace.value());
  p.router = router_of(in.choice("router"));
  p.prefix_caching = in.choice("prefix_caching") == "on";
  p.point = {in.count("replicas"), in.real("lambda"), in.count("spec_tokens"), in.real("spec_accept"),
             in.choice("disaggregation") == "on" ? in.count("prefill_replicas") : 0};
  p.kv_link_bytes_per_s = in.real("kv_link_gb_per_s") * units::kGB;
  p.kv_link_latency_s = in.real("kv_link_latency_us") / units::kUsPerS;
  if (p.point.num_prefill_replicas >= p.point.num_replicas)
    return Error{"invalid", "prefill_replicas",
                 "prefill_replicas must leave at least one decode replica: fewer than replicas = " +
                     std::to_string(p.point.num_replicas) + ", got " + std::to_string(p.point.num_prefill_replicas),
                 {{"max", std::to_string(p.point.num_replicas - 1)}, {"got", std::to_string(p.point.num_prefill_replicas)},
                  {"problem", "decode_replica"}, {"other", "replicas"}, {"replicas", std::to_string(p.point.num_replicas)}}};
  p.draft_cost_frac = in.real("draft_cost_frac");
  p.slo[0] = {in.real("ttft_slo_ms") * units::kSPerMs, in.real("tpot_slo_ms") * units::kSPerMs};
  p.slo[1] = {in.real("doc_ttft_slo_ms") * units::kSPerMs, in.real("doc_tpot_slo_ms") * units::kSPerMs};
  p.slo_target_frac = in.real("slo_target_frac");
  auto economics = validate_economics(in);
  if (!economics.ok()) return economics.error();
  p.economics = economics.value();
  p.sweep = knob_of(in.choice("sweep"));
  if (p.trace && p.sweep == SweepKnob::Lambda)
    return Error{"trace_sweep_lambda", "sweep",
                 "a replayed trace brings its own arrival times: sweep = lambda needs workload = laws (scale the trace's "
                 "rate with rate_scale instead)",
                 {}};
  if (p.sweep != SweepKnob::None) {
    auto values = sweep_values(p.sweep, in.real("sweep_from"), in.real("sweep_to"), in.count("sweep_points"));
    if (!values.ok()) return values.error();
    p.sweep_values = values.value();
    // Each point keeps a decode replica: P < N.
    for (double v : p.sweep_values) {
      const FleetPoint pt = with_value(p.point, p.sweep, v);
      if (pt.num_prefill_replicas < pt.num_replicas) continue;
      const bool of_p = p.sweep == SweepKnob::PrefillReplicas;
      const char* param = of_p ? "sweep_to" : "sweep_from";
      return Error{"invalid", param,
                   std::string(of_p ? "a sweep of prefill_replicas must stay below replicas = " + std::to_string(pt.num_replicas)
                                    : "a sweep of replicas must stay above prefill_replicas = " + std::to_string(pt.num_prefill_replicas)) +
                       ", got " + format_number(v),
                   {{"got", format_number(v)}, {"problem", of_p ? "sweep_prefill_replicas" : "sweep_replicas"},
                    {"limit", std::to_string(of_p ? pt.num_replicas : pt.num_prefill_replicas)}}};
    }
  }
  // The base run and every point of the sweep, one after another (each point's workload is freed before the next).
  EngineWork total = fleet_point_work(p, p.point), largest = total;
  for (double v : p.sweep_values) {
    const EngineWork work = fleet_point_work(p, with_value(p.point, p.sweep, v));
    total += work;
    if (work.bytes() > largest.bytes()) largest = work;
  }
  if (auto e = check_engine_budget(total, largest, "n", "the fleet's run and its sweep (n requests x their tokens)"))
    return *e;
  return p;
}

PointResult run_point(const FleetParams& p, const FleetPoint& pt, std::uint64_t seed, RunControl& ctl) {
  OpenLoopParams w = p.workload;
  w.rate_per_s = pt.rate_per_s;
  Workload workload = p.trace ? p.trace->workload(w.max_model_len) : make_open_loop(w, seed);
  FleetConfig config{engine_config(p, pt), pt.num_replicas, p.router, seed};
  config.engine.keep_series = false;  // no output of this cell reads a replica's series
  config.num_prefill_replicas = pt.num_prefill_replicas;
  config.kv_link_bytes_per_s = p.kv_link_bytes_per_s;
  config.kv_link_latency_s = p.kv_link_latency_s;
  config.kv_bytes_per_token_per_gpu = p.hw.kv_bytes_per_token_per_gpu;
  PointResult r;
  r.mean_request_tokens = mean_request_tokens(workload);
  r.bounds.num_requests = static_cast<std::int64_t>(workload.requests.size());
  if (!workload.requests.empty()) {
    double first_s = workload.requests.front().arrival_at_s, last_s = first_s;
    for (const Request& q : workload.requests) {
      r.bounds.output_tokens += static_cast<double>(q.max_tokens);
      first_s = std::min(first_s, q.arrival_at_s);
      last_s = std::max(last_s, q.arrival_at_s);
    }
    r.bounds.arrival_span_s = last_s - first_s;
  }
  r.fleet = run_fleet(config, workload, ctl);
  r.merged = merge_runs(r.fleet);
  r.summary = summarize(r.merged);
  const auto replicas = static_cast<double>(pt.num_replicas);
  r.summary.busy_frac /= replicas;
  SloClass& all = r.classes[2];
  r.meets_slo = true;
  for (int k = 0; k < 2; ++k) {
    r.classes[k] = summarize_slo(r.merged, p.slo[k].ttft_s, p.slo[k].tpot_s).by_class[k];
    all.num_arrived += r.classes[k].num_arrived;
    all.num_met += r.classes[k].num_met;
    all.goodput_req_per_s += r.classes[k].goodput_req_per_s;
    if (r.classes[k].num_arrived > 0 && r.classes[k].attainment_frac < p.slo_target_frac) r.meets_slo = false;
  }
  all.attainment_frac = all.num_arrived > 0 ? static_cast<double>(all.num_met) / static_cast<double>(all.num_arrived) : 0;
  all.ttft_p99_s = r.summary.ttft_p99_s;
  all.tpot_p99_s = r.summary.tpot_p99_s;
  const double tok_per_s = r.summary.output_tok_per_s;
  const auto gpus = static_cast<double>(p.hw.tp.size);
  if (tok_per_s > 0 && r.summary.makespan_s > 0) {
    r.usd_per_m_tokens = p.economics.usd_per_m_tokens(replicas * gpus, tok_per_s);
    double power_w = 0;
    for (const EngineRun& run : r.fleet.replicas)
      power_w += p.economics.power_w(run.busy_s / r.summary.makespan_s, gpus);
    r.j_per_token = power_w / tok_per_s;
  }
  return r;
}


}  // namespace sl::llm
