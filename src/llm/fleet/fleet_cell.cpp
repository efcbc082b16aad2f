// Cell llm/fleet: design a fleet. N replicas of the continuous-batching engine (engine.h, the hardware and step
// model of llm/continuous-batching) behind a router (fleet.h), optionally with speculative decoding
// (scheduler.h) and prefill/decode disaggregation (fleet.h), serving two request classes: chat and long
// documents, each with its own length laws and its own TTFT and TPOT targets (or a trace replayed, trace_inputs.h,
// whose class column picks the class). One configuration is run and
// reported (latency, SLO attainment and goodput per class, $ per million output tokens, J per token); then one
// knob (replicas, lambda, draft tokens or their acceptance, or the prefill replicas of a disaggregated fleet) is
// swept over a range, and the cheapest point whose classes all meet their SLOs is named.
#include <algorithm>
#include <cmath>
#include <optional>

#include "core/checked_run.h"
#include "core/preset.h"
#include "core/table_columns.h"
#include "core/units.h"
#include "llm/engine/engine_budget.h"
#include "llm/fleet/fleet_point.h"
#include "llm/simulator_cells.h"

namespace sl::llm {
namespace {

void point_outputs(RunResult& result, const FleetParams& p, const PointResult& r) {
  const ServingSummary& s = r.summary;
  result.output({{"goodput_req_per_s", r.classes[2].goodput_req_per_s},
                 {"slo_attainment_frac", r.classes[2].attainment_frac},
                 {"chat_attainment_frac", r.classes[0].attainment_frac},
                 {"doc_attainment_frac", r.classes[1].attainment_frac},
                 {"meets_slo", r.meets_slo ? 1.0 : 0.0}});
  result.output_scaled(units::kMsPerS, {{"ttft_p50_ms", s.ttft_p50_s}, {"ttft_p99_ms", s.ttft_p99_s},
                                        {"tpot_p99_ms", s.tpot_p99_s}, {"itl_p50_ms", s.itl_p50_s},
                                        {"itl_p99_ms", s.itl_p99_s}, {"queue_p99_ms", s.queue_p99_s}});
  result.output({{"e2e_p99_s", s.e2e_p99_s}, {"tok_per_s", s.output_tok_per_s}, {"busy_frac", s.busy_frac},
                 {"usd_per_m_tokens", r.usd_per_m_tokens}, {"j_per_token", r.j_per_token},
                 {"preemptions_per_request", s.preemptions_per_request}, {"prefix_hit_frac", s.prefix_hit_frac}});
  result.output("rejected", static_cast<double>(s.num_rejected));
  if (s.num_rejected > 0)
    result.notice("rejected", std::to_string(s.num_rejected) + " requests arrived while max_waiting = " +
                                  std::to_string(p.scheduler.max_waiting) + " waited at their replica and were turned away; they "
                                  "count as missing their SLO.");
  result.output("num_gpus", static_cast<double>(p.point.num_replicas * p.hw.tp.size));
  const auto& routed = r.fleet.num_routed;
  double num_routed = 0;
  for (const std::int64_t k : routed) num_routed += static_cast<double>(k);
  const double mean = num_routed / static_cast<double>(routed.size());
  result.output("routed_max_over_mean", static_cast<double>(*std::max_element(routed.begin(), routed.end())) / mean);
  if (r.fleet.num_transfers > 0) {
    const auto transfers = static_cast<double>(r.fleet.num_transfers);
    result.output("kv_transfer_ms", r.fleet.transfer_s / transfers * units::kMsPerS);
    result.output("kv_transfer_wait_ms", r.fleet.transfer_wait_s / transfers * units::kMsPerS);
  }
  const SpeculativeStats& spec = r.merged.speculative;
  if (spec.num_verify_steps > 0) {
    result.output("spec_tokens_per_step", 1.0 + static_cast<double>(spec.num_accepted_tokens) /
                                                     static_cast<double>(spec.num_verify_steps));
    result.output("spec_expected_tokens", expected_tokens_per_step(p.point.num_spec_tokens, p.point.spec_accept_frac));
    result.output("spec_draft_frac", r.merged.busy_s > 0 ? r.merged.draft_s / r.merged.busy_s : 0.0);
  }
}

void tables(RunResult& result, const PointResult& r, std::int64_t num_prefill) {
  TableColumns replicas;
  for (std::size_t k = 0; k < r.fleet.replicas.size(); ++k) {
    const EngineRun& run = r.fleet.replicas[k];
    const ServingSummary s = summarize(run);
    replicas.put({{"replica", static_cast<double>(k)}, {"prefill", k < static_cast<std::size_t>(num_prefill) ? 1.0 : 0.0},
                  {"routed", static_cast<double>(r.fleet.num_routed[k])},
                  {"busy_frac", r.summary.makespan_s > 0 ? run.busy_s / r.summary.makespan_s : 0.0},
                  {"ttft_p99_ms", s.ttft_p99_s * units::kMsPerS}, {"mean_batch", s.mean_batch}});
  }
  replicas.into(result.table("replicas"));
  TableColumns classes;
  for (int k = 0; k < 3; ++k) {
    const SloClass& c = r.classes[k];
    classes.put({{"request_class", static_cast<double>(k)}, {"requests", static_cast<double>(c.num_arrived)},
                 {"slo_attainment_frac", c.attainment_frac}, {"goodput_req_per_s", c.goodput_req_per_s},
                 {"ttft_p99_ms", c.ttft_p99_s * units::kMsPerS}, {"tpot_p99_ms", c.tpot_p99_s * units::kMsPerS}});
  }
  classes.into(result.table("classes"));
}

Result<RunResult> run_fleet_cell(const FleetParams& p, std::uint64_t seed, RunControl& ctl) {
  const auto num_runs = static_cast<double>(1 + p.sweep_values.size());
  RunResult result;
  result.output("kv_pool_tokens", static_cast<double>(p.hw.pool_tokens));
  result.output("kv_pool_blocks", static_cast<double>(p.hw.num_blocks));
  RunControl base_part([&ctl, num_runs](double f) { ctl.report(f, num_runs); });
  const PointResult base = run_point(p, p.point, seed, base_part);
  result.output("max_concurrency", max_concurrency(p.hw.pool_tokens, base.mean_request_tokens));
  point_outputs(result, p, base);
  tables(result, base, p.point.num_prefill_replicas);
  if (!p.sweep_values.empty()) {
    TableColumns sweep;
    double best_usd = 0, best_value = 0;
    bool found = false;
    for (std::size_t i = 0; i < p.sweep_values.size(); ++i) {
      RunControl part([&ctl, i, num_runs](double f) { ctl.report(static_cast<double>(i + 1) + f, num_runs); });
      const double v = p.sweep_values[i];
      const FleetPoint pt = with_value(p.point, p.sweep, v);
      // A point that is the base run's configuration (the default sweep, replicas 1..8, holds replicas = 4) would
      // run the same workload on the same seed again (run_point reads nothing but p, the point and the seed): its
      // result is the base run's.
      std::optional<PointResult> fresh;
      const PointResult& r = pt == p.point ? base : fresh.emplace(run_point(p, pt, seed, part));
      sweep.put({{"value", v}, {"goodput_req_per_s", r.classes[2].goodput_req_per_s},
                 {"slo_attainment_frac", r.classes[2].attainment_frac},
                 {"chat_attainment_frac", r.classes[0].attainment_frac},
                 {"doc_attainment_frac", r.classes[1].attainment_frac}});
      sweep.put_scaled(units::kMsPerS, {{"ttft_p99_ms", r.summary.ttft_p99_s}, {"itl_p99_ms", r.summary.itl_p99_s},
                                        {"tpot_p99_ms", r.summary.tpot_p99_s}});
      sweep.put({{"tok_per_s", r.summary.output_tok_per_s}, {"usd_per_m_tokens", r.usd_per_m_tokens},
                 {"j_per_token", r.j_per_token}, {"meets_slo", r.meets_slo ? 1.0 : 0.0}});
      if (r.meets_slo && (!found || r.usd_per_m_tokens < best_usd)) best_usd = r.usd_per_m_tokens, best_value = v, found = true;
    }
    sweep.into(result.table("sweep"));
    if (found) {
      result.output("best_value", best_value);
      result.output("best_usd_per_m_tokens", best_usd);
    } else {
      result.notice("no_point_meets_slo",
                    "no point of the sweep has every class meeting its TTFT and TPOT targets for " +
                        format_number(p.slo_target_frac * 100) + " % of its requests: widen the range or relax the targets.");
    }
  }
  add_hardware_outputs(p.hw, result);
  if (p.trace) {
    replay_outputs(*p.trace, result);
    replay_notices(*p.trace, p.workload.num_requests, p.workload.max_model_len, result);
  }
  return result;
}

}  // namespace

CellSpec fleet_cell() {
  std::vector<ParamSpec> params = engine_hardware_params();
  const auto law = [](ParamSpec spec) { return used_when(std::move(spec), "workload", {"laws"}); };
  const std::vector<ParamSpec> rest = {
      explored(count("replicas", "replicas", 4, 1, 64), 1, 16),
      choice("router", {"least-tokens", "round-robin", "prefix-affinity", "random"}, "least-tokens"),
      law(explored(real("lambda", "1/s", 40, 0.001, 10000), 1, 200)),
      count("n", "requests", 4000, 1, 100000),
      law(real("arrival_cv", "", 1, 0, 20)),
      law(real("prompt_mean", "tokens", 1000, 1, 1e6)), law(real("prompt_cv", "", 0.5, 0, 10)),
      law(real("output_mean", "tokens", 256, 1, 1e6)), law(real("output_cv", "", 1, 0, 10)),
      law(real("doc_frac", "", 0.1, 0, 1)),
      law(real("doc_prompt_mean", "tokens", 6000, 1, 1e6)), law(real("doc_prompt_cv", "", 0.5, 0, 10)),
      law(real("doc_output_mean", "tokens", 300, 1, 1e6)), law(real("doc_output_cv", "", 0.5, 0, 10)),
      law(count("prefix_tokens", "tokens", 0, 0, 131072)), law(count("num_prefixes", "prefixes", 1, 1, 100000)),
      count("max_model_len", "tokens", 16384, 2, 131072),
      choice("prefix_caching", {"off", "on"}, "off"),
      choice("disaggregation", {"off", "on"}, "off"),
      used_when(count("prefill_replicas", "replicas", 1, 1, 63), "disaggregation", {"on"}),
      used_when(real("kv_link_gb_per_s", "GB/s", 50, 0.001, 1e5), "disaggregation", {"on"}),
      used_when(real("kv_link_latency_us", "µs", 10, 0, 1e6), "disaggregation", {"on"}),
      explored(count("spec_tokens", "tokens", 0, 0, 16), 0, 8), real("spec_accept", "", 0.7, 0, 0.99),
      real("draft_cost_frac", "", 0.05, 0, 1),
      real("ttft_slo_ms", "ms", 500, 0.001, 1e7), real("tpot_slo_ms", "ms", 50, 0.001, 1e6),
      real("doc_ttft_slo_ms", "ms", 5000, 0.001, 1e7), real("doc_tpot_slo_ms", "ms", 100, 0.001, 1e6),
      real("slo_target_frac", "", 0.9, 0.01, 1),
      choice("sweep", {"replicas", "lambda", "spec_tokens", "spec_accept", "prefill_replicas", "none"}, "replicas"),
      used_when(real("sweep_from", "", 1, 0, 10000), "sweep", {"replicas", "lambda", "spec_tokens", "spec_accept", "prefill_replicas"}),
      used_when(real("sweep_to", "", 8, 0, 10000), "sweep", {"replicas", "lambda", "spec_tokens", "spec_accept", "prefill_replicas"}),
      used_when(count("sweep_points", "points", 8, 2, 20), "sweep", {"replicas", "lambda", "spec_tokens", "spec_accept", "prefill_replicas"})};
  params.insert(params.end(), rest.begin(), rest.end());
  const std::vector<ParamSpec> replay = trace_params();  // after n: the workload choice, then how a trace is replayed
  const auto after_n = std::find_if(params.begin(), params.end(), [](const ParamSpec& q) { return q.name == "n"; });
  params.insert(after_n + 1, replay.begin(), replay.end());
  const std::vector<ParamSpec> scheduler = scheduler_params();  // beside max_model_len, as continuous-batching has them
  const auto after = std::find_if(params.begin(), params.end(), [](const ParamSpec& q) { return q.name == "max_model_len"; });
  params.insert(after + 1, scheduler.begin(), scheduler.end());
  const std::vector<ParamSpec> economics = economics_params();  // before the sweep, as continuous-batching has them
  const auto sweep = std::find_if(params.begin(), params.end(), [](const ParamSpec& q) { return q.name == "sweep"; });
  params.insert(sweep, economics.begin(), economics.end());
  CellSpec cell = checked_cell<&validate_fleet, &run_fleet_cell>("llm/fleet", std::move(params));
  cell.presets = presets_of({{"chat-h100", "model=llama3.1-8b gpu=h100 replicas=1 lambda=8 doc_frac=0 sweep=lambda "
                                           "sweep_from=2 sweep_to=16"},
                             {"long-docs-a100", "model=llama3.1-70b gpu=a100 weights=fp16 tensor_parallel_size=4 "
                                                "kv_pool=fill replicas=2 lambda=2 n=1000 doc_frac=0.8 "
                                                "max_model_len=32768 sweep=none"}});
  cell.outputs = {out("kv_pool_tokens", "tokens"), out("kv_pool_blocks", "blocks"), out("max_concurrency", "requests"),
                  out("goodput_req_per_s", "1/s"), out("slo_attainment_frac", ""),
                  out("chat_attainment_frac", ""), out("doc_attainment_frac", ""), out("meets_slo", ""),
                  out("ttft_p50_ms", "ms"), out("ttft_p99_ms", "ms"), out("tpot_p99_ms", "ms"), out("itl_p50_ms", "ms"),
                  out("itl_p99_ms", "ms"), out("queue_p99_ms", "ms"), out("e2e_p99_s", "s"), out("tok_per_s", "tokens/s"),
                  out("busy_frac", ""), out("usd_per_m_tokens", "$"), out("j_per_token", "J"),
                  out("preemptions_per_request", ""), out("prefix_hit_frac", ""), out("rejected", "requests"),
                  out("num_gpus", "GPUs"),
                  out("routed_max_over_mean", ""), sometimes(out("spec_tokens_per_step", "tokens")),
                  sometimes(out("spec_expected_tokens", "tokens")), sometimes(out("spec_draft_frac", "")),
                  sometimes(out("kv_transfer_ms", "ms")), sometimes(out("kv_transfer_wait_ms", "ms")),
                  sometimes(out("best_value", "")), sometimes(out("best_usd_per_m_tokens", "$"))};
  for (OutputSpec& spec : model_outputs()) cell.outputs.push_back(std::move(spec));
  for (OutputSpec& spec : replay_output_specs()) cell.outputs.push_back(std::move(spec));
  cell.tables = {table("replicas"), table("classes"), table("sweep", Presence::SomeInputs)};
  cell.budget = {describe_engine_budget() + ", over the base run and every point of the sweep"};
  cell.assets = {sample_trace_asset()};
  return cell;
}

}  // namespace sl::llm
