#include "llm/fleet/capacity_search.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "core/csv.h"
#include "core/text.h"
#include "core/units.h"
#include "llm/engine/engine_budget.h"
#include "llm/fleet/fleet_point.h"
#include "llm/model/model_architecture.h"
#include "llm/simulator_cells.h"

namespace sl::llm {
namespace {

/// llm/fleet's parameters the grid sets itself (the search does not declare them).
const std::set<std::string>& set_by_grid() {
  static const std::set<std::string> names = {
      "replicas", "gpu", "peak_tflop_per_s", "peak_fp8_tflop_per_s", "bw_tb_per_s", "mem_gib", "tensor_parallel_size",
      "weights", "prefill_replicas", "disaggregation", "price_usd_per_h", "gpu_w", "sweep", "sweep_from", "sweep_to",
      "sweep_points"};
  return names;
}

const std::vector<std::string> kGpuSets = {"h100+a100+h200+l40s", "h100+a100", "h100+h200", "h100", "a100", "h200", "all"};
const std::vector<std::string> kWeightSets = {"fp16", "fp8", "int8", "fp16+fp8", "fp16+int8", "fp16+fp8+int8"};
const std::vector<std::string> kWeights = {"fp16", "fp8", "int8", "int4", "fp4"};

std::vector<std::string> split_plus(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find('+', start);
    parts.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return parts;
    start = end + 1;
  }
}

/// from, 2 from, 4 from, ... up to `to`.
std::vector<std::int64_t> doubling(std::int64_t from, std::int64_t to) {
  std::vector<std::int64_t> values;
  for (std::int64_t v = from; v <= to; v *= 2) values.push_back(v);
  return values;
}

Error end_below_start(const std::string& end, const std::string& start, std::int64_t got, std::int64_t min) {
  return Error{"invalid", end,
               end + " must be at least " + start + " = " + std::to_string(min) + ", got " + std::to_string(got),
               {{"min", std::to_string(min)}, {"got", std::to_string(got)}, {"unit", ""}, {"problem", "at_least_other"}, {"other", start}}};
}

std::int64_t prefill_replicas_of(const SearchParams& p, const Design& d, std::int64_t replicas) {
  if (!d.disaggregated) return 0;
  const auto n = static_cast<double>(replicas);
  return std::clamp<std::int64_t>(std::llround(n * p.prefill_frac), 1, std::max<std::int64_t>(1, replicas - 1));
}

/// llm/fleet's inputs for one point: the search's value of every parameter the two cells share, the design's and
/// the point's for the others, each GPU at its preset's price and TDP, no sweep.
Inputs fleet_inputs(const SearchParams& p, const Design& d, std::int64_t replicas) {
  const GpuPreset* preset = find_gpu_preset(d.gpu);
  Inputs fleet;
  for (const ParamSpec& spec : p.fleet_params) {
    const auto shared = std::find_if(p.in.values().begin(), p.in.values().end(),
                                     [&spec](const Inputs::Value& v) { return v.name == spec.name; });
    const auto number = [&](double x) { fleet.set_number(spec, x); };
    const auto text = [&](std::string x) { fleet.set_choice(spec, std::move(x)); };
    if (spec.name == "replicas") number(static_cast<double>(replicas));
    else if (spec.name == "gpu") text(d.gpu);
    else if (spec.name == "tensor_parallel_size") number(static_cast<double>(d.tp));
    else if (spec.name == "weights") text(d.weights);
    else if (spec.name == "max_num_seqs") number(static_cast<double>(d.max_num_seqs));
    else if (spec.name == "max_num_batched_tokens") number(static_cast<double>(d.max_num_batched_tokens));
    else if (spec.name == "spec_tokens") number(static_cast<double>(d.spec_tokens));
    else if (spec.name == "disaggregation") text(d.disaggregated ? "on" : "off");
    else if (spec.name == "prefill_replicas") number(static_cast<double>(std::max<std::int64_t>(1, prefill_replicas_of(p, d, replicas))));
    else if (spec.name == "price_usd_per_h") number(preset->spec.price_usd_per_h);
    else if (spec.name == "gpu_w") number(std::max(preset->spec.tdp_w, p.idle_w));
    else if (spec.name == "sweep") text("none");
    else if (shared != p.in.values().end() && spec.kind == ParamSpec::Kind::Bytes) fleet.set_bytes(spec, shared->text);
    else if (shared != p.in.values().end() && spec.kind == ParamSpec::Kind::Choice) text(shared->text);
    else if (shared != p.in.values().end()) number(shared->number);
    else if (spec.kind == ParamSpec::Kind::Choice) text(spec.default_choice);
    else if (spec.kind == ParamSpec::Kind::Bytes) fleet.set_bytes(spec, "");
    else number(spec.default_value);
  }
  if (p.sample_trace) fleet.set_asset(sample_trace_asset().name, *p.sample_trace);
  return fleet;
}

}  // namespace

std::vector<ParamSpec> search_params() {
  std::vector<ParamSpec> params;
  for (ParamSpec& spec : fleet_cell().params) {
    if (set_by_grid().count(spec.name)) continue;
    if (spec.used_when_param == "disaggregation") spec.used_when_values = {"on", "both"};
    if (spec.name == "n") spec.default_value = 2000;
    // Each GPU's KV pool is what its memory leaves (vLLM's sizing), not one stated reserve for every GPU.
    if (spec.name == "kv_pool") spec.default_choice = "fill";
    params.push_back(std::move(spec));
  }
  const auto split = [](ParamSpec spec) { return used_when(std::move(spec), "disaggregation", {"on", "both"}); };
  const std::vector<ParamSpec> grid = {
      choice("gpus", kGpuSets, kGpuSets.front()),
      count("tp_min", "GPUs", 1, 1, 8), count("tp_max", "GPUs", 8, 1, 8),
      choice("weights_set", kWeightSets, "fp16"),
      count("max_num_seqs_to", "requests", 256, 1, 4096),
      count("max_num_batched_tokens_to", "tokens", 8192, 1, 1 << 20),
      count("spec_tokens_to", "tokens", 0, 0, 16),
      choice("disaggregation", {"off", "on", "both"}, "off"),
      split(real("prefill_frac", "", 0.5, 0.01, 0.99)),
      explored(count("replicas_min", "replicas", 1, 1, 64), 1, 16),
      explored(count("replicas_max", "replicas", 10, 1, 64), 1, 16),
      choice("pruning", {"on", "off"}, "on"),
      bytes("points", "text/csv,.csv", kMaxPointsFileBytes),
      count("part", "", 1, 1, kMaxParts), count("parts", "", 1, 1, kMaxParts)};
  // The grid first: it is what a reader of this cell changes.
  params.insert(params.begin(), grid.begin(), grid.end());
  return params;
}

Result<SearchParams> validate_search(const Inputs& in) {
  SearchParams p;
  p.fleet_params = fleet_cell().params;
  p.in = in;
  p.step_model.model = in.choice("step_model");
  if (const std::string* trace = in.asset(sample_trace_asset().name)) p.sample_trace = *trace;
  std::vector<std::string> gpus;
  if (in.choice("gpus") == "all")
    for (const GpuPreset& g : gpu_presets()) gpus.push_back(g.id);
  else
    gpus = split_plus(in.choice("gpus"));
  const std::int64_t tp_min = in.count("tp_min"), tp_max = in.count("tp_max");
  if (tp_max < tp_min) return end_below_start("tp_max", "tp_min", tp_max, tp_min);
  std::vector<std::int64_t> tps;
  for (std::int64_t tp : {1, 2, 4, 8})
    if (tp >= tp_min && tp <= tp_max) tps.push_back(tp);
  if (tps.empty())
    return Error{"invalid", "tp_max",
                 "tp_min..tp_max must hold a power of two (1, 2, 4 or 8), got " + std::to_string(tp_min) + ".." +
                     std::to_string(tp_max),
                 {{"got", std::to_string(tp_max)}, {"problem", "tp_power_of_two"}, {"other", "tp_min"},
                  {"from", std::to_string(tp_min)}}};
  const std::vector<std::string> weights = split_plus(in.choice("weights_set"));
  const std::int64_t seqs = in.count("max_num_seqs"), seqs_to = in.count("max_num_seqs_to");
  if (seqs_to < seqs) return end_below_start("max_num_seqs_to", "max_num_seqs", seqs_to, seqs);
  const std::int64_t tokens = in.count("max_num_batched_tokens"), tokens_to = in.count("max_num_batched_tokens_to");
  if (tokens_to < tokens) return end_below_start("max_num_batched_tokens_to", "max_num_batched_tokens", tokens_to, tokens);
  const std::int64_t spec = in.count("spec_tokens"), spec_to = in.count("spec_tokens_to");
  if (spec_to < spec) return end_below_start("spec_tokens_to", "spec_tokens", spec_to, spec);
  p.replicas_min = in.count("replicas_min");
  p.replicas_max = in.count("replicas_max");
  if (p.replicas_max < p.replicas_min) return end_below_start("replicas_max", "replicas_min", p.replicas_max, p.replicas_min);
  const std::string& split = in.choice("disaggregation");
  std::vector<bool> splits;
  if (split != "on") splits.push_back(false);
  if (split != "off") splits.push_back(true);
  p.prefill_frac = in.real("prefill_frac");
  p.prune = in.choice("pruning") == "on";
  p.part = in.count("part");
  p.parts = in.count("parts");
  if (p.part > p.parts) return end_below_start("parts", "part", p.parts, p.part);
  p.slo_target_frac = in.real("slo_target_frac");
  p.idle_w = in.real("idle_w");
  // Every combination, in grid order; counted first, so a huge grid is refused before it is built.
  const double num_designs = static_cast<double>(gpus.size() * tps.size() * weights.size()) *
                             static_cast<double>(doubling(seqs, seqs_to).size() * doubling(tokens, tokens_to).size()) *
                             static_cast<double>((spec_to - spec + 1) * static_cast<std::int64_t>(splits.size()));
  const double num_points = num_designs * static_cast<double>(p.num_replica_counts());
  if (num_points > static_cast<double>(kMaxSearchPoints))
    return too_large("replicas_max", num_points, static_cast<double>(kMaxSearchPoints), "points",
                     "the grid (designs x replica counts; narrow a range or pick fewer GPUs)");
  for (const std::string& gpu : gpus)
    for (std::int64_t tp : tps)
      for (const std::string& w : weights)
        for (std::int64_t s : doubling(seqs, seqs_to))
          for (std::int64_t t : doubling(tokens, tokens_to))
            for (std::int64_t k = spec; k <= spec_to; ++k)
              for (bool disaggregated : splits) p.designs.push_back({gpu, tp, w, s, t, k, disaggregated});
  if (const std::string& file = in.bytes("points"); !file.empty()) {
    auto points = read_points(p, file, "points");
    if (!points.ok()) return points.error();
    p.loaded = std::move(points.value());
    return p;  // nothing is run
  }
  // The whole grid's cost, every point run (pruning saves what it saves): llm/fleet's cost model of each point.
  EngineWork total, largest;
  std::vector<EngineWork> by_replicas(static_cast<std::size_t>(p.num_replica_counts()));  // for a coarser grid
  std::int64_t runnable = 0;
  // Each point's own check goes to a scratch tally: the search's cost is the one estimate below, over all points.
  std::optional<budget::Tally> points_tally;
  points_tally.emplace();
  for (const Design& d : p.designs)
    for (std::int64_t n = p.replicas_min; n <= p.replicas_max; ++n) {
      auto point = validate_fleet(fleet_inputs(p, d, n));
      if (!point.ok()) {
        // A point over llm/fleet's own budget is a search that is too large, not a refused design.
        if (point.error().code == "too_large" && point.error().param == "n") return point.error();
        continue;
      }
      const EngineWork work = fleet_point_work(point.value(), point.value().point);
      total += work;
      by_replicas[static_cast<std::size_t>(n - p.replicas_min)] += work;
      if (work.bytes() > largest.bytes()) largest = work;
      ++runnable;
    }
  points_tally.reset();
  if (auto e = check_engine_budget(total, largest, "n", "the search's runs, every point of the grid run (" +
                                                          std::to_string(runnable) + " points x n requests x their tokens)",
                                    budget::kMaxSearchSeconds)) {
    const double fits = std::floor(static_cast<double>(runnable) * budget::kMaxSearchSeconds /
                                   (total.work_units() * kEngineUnitCost.native_s * budget::kWasmSlowdown));
    e->message += "; about " + format_number(fits) + " of the " + std::to_string(runnable) +
                  " points fit at this n: narrow the grid (fewer GPUs, TP sizes or replica counts) or lower n";
    e->args.emplace_back("points_fit", format_number(fits));
    e->args.emplace_back("problem", "search");  // the page's own wording: errors.too_large_search
    // Coarser grids that fit, which the page offers as buttons (args "set.<param>"): the most replica counts whose
    // points fit by the same cost model, and n scaled down (the work is about linear in n) to two digits.
    EngineWork fewer;
    std::int64_t replicas_fit = 0;
    for (std::int64_t n = p.replicas_min; n < p.replicas_max; ++n) {
      fewer += by_replicas[static_cast<std::size_t>(n - p.replicas_min)];
      if (check_engine_budget(fewer, largest, "n", "", budget::kMaxSearchSeconds)) break;
      replicas_fit = n;
    }
    if (replicas_fit > 0) e->args.emplace_back("set.replicas_max", std::to_string(replicas_fit));
    double n_fit = 0.9 * static_cast<double>(in.count("n")) * fits / static_cast<double>(runnable);
    double step = 1;
    while (n_fit >= 100 * step) step *= 10;
    n_fit = std::floor(n_fit / step) * step;
    const auto n_spec = std::find_if(p.fleet_params.begin(), p.fleet_params.end(), [](const ParamSpec& s) { return s.name == "n"; });
    if (n_spec != p.fleet_params.end() && n_fit >= n_spec->min) e->args.emplace_back("set.n", format_number(n_fit));
    return *e;
  }
  return p;
}

std::vector<SearchPoint> evaluate_design(const SearchParams& p, std::size_t d, std::uint64_t seed, RunControl& ctl) {
  const Design& design = p.designs[d];
  const GpuPreset* preset = find_gpu_preset(design.gpu);
  std::vector<SearchPoint> points;
  // The smallest fleet of this design that met every request's SLO, its cost, and the workload every point of the
  // design serves (the same requests: the same inputs but the replicas, on the same seed).
  std::optional<double> full_cost;
  WorkloadBounds bounds;
  const auto counts = static_cast<double>(p.num_replica_counts());
  for (std::int64_t n = p.replicas_min; n <= p.replicas_max; ++n) {
    SearchPoint pt;
    pt.design = static_cast<std::int64_t>(d);
    pt.index = pt.design * p.num_replica_counts() + (n - p.replicas_min);
    pt.replicas = n;
    pt.prefill_replicas = prefill_replicas_of(p, design, n);
    pt.num_gpus = n * design.tp;
    pt.price_usd_per_h = preset->spec.price_usd_per_h;
    auto checked = validate_fleet(fleet_inputs(p, design, n));
    if (!checked.ok()) {
      pt.status = PointStatus::Refused;
      pt.refusal = checked.error().message;
      points.push_back(std::move(pt));
      continue;
    }
    const FleetParams& fleet = checked.value();
    if (full_cost && bounds.arrival_span_s > 0) {
      // No request is turned away at any size (max_waiting holds the whole workload), so every point serves the
      // same output tokens over at least the arrivals' span: its cost is at least this.
      const double cost_floor = fleet.economics.usd_per_m_tokens(static_cast<double>(pt.num_gpus),
                                                                 bounds.output_tokens / bounds.arrival_span_s);
      if (cost_floor > *full_cost) {
        pt.status = PointStatus::Pruned;
        points.push_back(std::move(pt));
        continue;
      }
    }
    const auto k = static_cast<double>(n - p.replicas_min);
    RunControl part([&ctl, k, counts](double f) { ctl.report(k + f, counts); });
    const PointResult r = run_point(fleet, fleet.point, seed, part);
    pt.usd_per_m_tokens = r.usd_per_m_tokens;
    pt.slo_attainment_frac = r.classes[2].attainment_frac;
    pt.chat_attainment_frac = r.classes[0].attainment_frac;
    pt.doc_attainment_frac = r.classes[1].attainment_frac;
    pt.ttft_p99_ms = r.summary.ttft_p99_s * units::kMsPerS;
    pt.tpot_p99_ms = r.summary.tpot_p99_s * units::kMsPerS;
    pt.itl_p99_ms = r.summary.itl_p99_s * units::kMsPerS;
    pt.queue_p99_ms = r.summary.queue_p99_s * units::kMsPerS;
    pt.tok_per_s = r.summary.output_tok_per_s;
    pt.busy_frac = r.summary.busy_frac;
    pt.preemptions_per_request = r.summary.preemptions_per_request;
    pt.rejected = static_cast<double>(r.summary.num_rejected);
    pt.j_per_token = r.j_per_token;
    pt.meets_slo = r.meets_slo;
    if (r.fleet.num_transfers > 0)
      pt.kv_transfer_wait_ms = r.fleet.transfer_wait_s / static_cast<double>(r.fleet.num_transfers) * units::kMsPerS;
    bounds = r.bounds;
    const bool all_met = r.classes[2].num_met == bounds.num_requests;
    if (p.prune && !full_cost && all_met && fleet.scheduler.max_waiting >= bounds.num_requests) full_cost = r.usd_per_m_tokens;
    points.push_back(std::move(pt));
  }
  return points;
}

namespace {

/// Whether `a` is at least as good as `b` on the second axis (attainment, higher; or p99 TTFT, lower), and
/// strictly better.
bool no_worse(const SearchPoint& a, const SearchPoint& b, bool by_ttft) {
  return by_ttft ? a.ttft_p99_ms <= b.ttft_p99_ms : a.slo_attainment_frac >= b.slo_attainment_frac;
}
bool better(const SearchPoint& a, const SearchPoint& b, bool by_ttft) {
  return by_ttft ? a.ttft_p99_ms < b.ttft_p99_ms : a.slo_attainment_frac > b.slo_attainment_frac;
}

/// Evaluated points no evaluated point dominates (cost no higher and the second axis no worse, one strictly),
/// cheapest first (ties in grid order). Every pair is compared: a grid holds at most kMaxSearchPoints points.
/// (No std::sort here: each instantiation of it is ~2 kB of the wasm module every page downloads.)
std::vector<std::size_t> frontier(const std::vector<SearchPoint>& points, bool by_ttft) {
  std::vector<std::size_t> front;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const SearchPoint& p = points[i];
    if (p.status != PointStatus::Evaluated) continue;
    bool dominated = false;
    for (std::size_t j = 0; j < points.size() && !dominated; ++j) {
      const SearchPoint& q = points[j];
      dominated = q.status == PointStatus::Evaluated && q.usd_per_m_tokens <= p.usd_per_m_tokens &&
                  no_worse(q, p, by_ttft) && (q.usd_per_m_tokens < p.usd_per_m_tokens || better(q, p, by_ttft));
    }
    if (dominated) continue;
    // Insert by cost (a frontier is short): after every point no dearer.
    std::size_t at = front.size();
    while (at > 0 && points[front[at - 1]].usd_per_m_tokens > p.usd_per_m_tokens) --at;
    front.insert(front.begin() + static_cast<std::ptrdiff_t>(at), i);
  }
  return front;
}

}  // namespace

std::vector<std::size_t> attainment_frontier(const std::vector<SearchPoint>& points) { return frontier(points, false); }

std::vector<std::size_t> ttft_frontier(const std::vector<SearchPoint>& points) { return frontier(points, true); }

std::optional<std::size_t> cheapest_meeting(const std::vector<SearchPoint>& points) {
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const SearchPoint& pt = points[i];
    if (pt.status != PointStatus::Evaluated || !pt.meets_slo) continue;
    if (!best || pt.usd_per_m_tokens < points[*best].usd_per_m_tokens) best = i;
  }
  return best;
}

std::pair<std::size_t, std::size_t> shard_designs(std::size_t num_designs, std::int64_t shard, std::int64_t num_shards) {
  const auto n = static_cast<std::size_t>(num_shards), i = static_cast<std::size_t>(shard - 1);
  return {num_designs * i / n, num_designs * (i + 1) / n};
}

const char* status_name(PointStatus status) {
  switch (status) {
    case PointStatus::Evaluated: return "evaluated";
    case PointStatus::Pruned: return "pruned";
    case PointStatus::Refused: return "refused";
  }
  return "";
}

std::vector<std::string> csv_columns() {
  std::vector<std::string> names;
  for (const auto& [name, value] : point_fields_of(Design{}, SearchPoint{})) names.emplace_back(name);
  names.emplace_back("refusal");
  return names;
}

namespace {

Error points_error(const std::string& param, std::int64_t line, const std::string& what, const std::string& problem) {
  return Error{"points_file", param, param + " line " + std::to_string(line) + ": " + what,
               {{"line", std::to_string(line)}, {"problem", problem}}};
}

}  // namespace

Result<std::vector<SearchPoint>> read_points(const SearchParams& p, const std::string& text, const std::string& param) {
  const std::vector<std::string> columns = csv_columns();
  // Or the cell's own `points` table written back as CSV (what the page's workers return, web/js/spread_run.js):
  // the GPU, the weights and the status as indices, no refusal, then the frontier flags (recomputed here).
  std::vector<std::string> table_columns(columns.begin(), columns.end() - 1);
  table_columns.insert(table_columns.end(), {"on_frontier", "on_ttft_frontier"});
  csv::Reader reader(text, param, csv::Limits{static_cast<std::int64_t>(table_columns.size()) + 1, 4096});
  std::vector<std::string> fields;
  auto got = reader.next(fields);
  if (!got.ok()) return got.error();
  const bool as_table = got.value() && fields == table_columns;
  if (!got.value() || (fields != columns && !as_table))
    return points_error(param, got.value() ? reader.line() : 1,
                        "expected the header serving-lab search --format csv writes (index,gpu,tp,...,refusal)", "header");
  std::vector<std::string> gpu_ids;
  for (const GpuPreset& g : gpu_presets()) gpu_ids.push_back(g.id);
  const std::vector<std::string> statuses = {"evaluated", "pruned", "refused"};
  const auto at = [&](const char* name) {
    return static_cast<std::size_t>(std::find(columns.begin(), columns.end(), name) - columns.begin());
  };
  // An index into `names` as its name; anything else as it is (refused below as a design or a status).
  const auto name_at = [](std::string& field, const std::vector<std::string>& names) {
    const double i = is_decimal(field) && !names_non_finite(field) ? std::strtod(field.c_str(), nullptr) : -1;
    if (i >= 0 && i < static_cast<double>(names.size()) && i == std::floor(i)) field = names[static_cast<std::size_t>(i)];
  };
  // Each point at its grid index (no sort: each std::sort is ~1 kB of the module every page downloads).
  std::vector<SearchPoint> at_index(static_cast<std::size_t>(p.num_points()));
  std::vector<bool> seen(at_index.size(), false);
  std::int64_t num_read = 0;
  while (true) {
    got = reader.next(fields);
    if (!got.ok()) return got.error();
    if (!got.value()) break;
    const std::int64_t line = reader.line();
    const std::size_t width = as_table ? table_columns.size() : columns.size();
    if (fields.size() != width)
      return points_error(param, line, std::to_string(fields.size()) + " fields where the header has " +
                                           std::to_string(width), "field_count");
    if (as_table) {
      name_at(fields[at("gpu")], gpu_ids), name_at(fields[at("weights")], kWeights), name_at(fields[at("status")], statuses);
      fields.resize(columns.size());
      fields.back().clear();  // the refusal
    }
    // Every number as the search writes it: decimal, finite, not negative.
    std::vector<double> x(columns.size(), 0);
    for (std::size_t k = 0; k < columns.size(); ++k) {
      if (columns[k] == "gpu" || columns[k] == "weights" || columns[k] == "status" || columns[k] == "refusal") continue;
      const std::string& t = fields[k];
      const double v = is_decimal(t) && !names_non_finite(t) ? std::strtod(t.c_str(), nullptr) : -1;
      if (!(v >= 0) || !std::isfinite(v))
        return points_error(param, line, "column " + columns[k] + ": expected a number, at least 0, got " + echo(t), "number");
      x[k] = v;
    }
    const double index = x[at("index")];
    if (index != std::floor(index) || index >= static_cast<double>(p.num_points()))
      return points_error(param, line, "point " + echo(fields[at("index")]) + " is not a point of this grid of " +
                                           std::to_string(p.num_points()) + " (the same inputs as the search that wrote it)", "index");
    const auto i = static_cast<std::size_t>(index);
    if (seen[i]) return points_error(param, line, "point " + std::to_string(i) + " appears twice", "repeated");
    seen[i] = true;
    SearchPoint pt;
    pt.index = static_cast<std::int64_t>(i);
    pt.design = pt.index / p.num_replica_counts();
    pt.replicas = p.replicas_min + pt.index % p.num_replica_counts();
    const Design& d = p.designs[static_cast<std::size_t>(pt.design)];
    // The row's design is this grid's at its index, field for field.
    std::vector<std::pair<const char*, double>> expected = point_fields_of(d, pt);
    for (const auto& [name, value] : expected) {
      const std::string column = name;
      if (column != "tp" && column != "max_num_seqs" && column != "max_num_batched_tokens" && column != "spec_tokens" &&
          column != "replicas")
        continue;
      if (x[at(name)] != value)
        return points_error(param, line, "point " + std::to_string(i) + " has " + column + " = " + format_number(value) +
                                             " in this grid, the file says " + echo(fields[at(name)]), "design");
    }
    if (fields[at("gpu")] != d.gpu || fields[at("weights")] != d.weights)
      return points_error(param, line, "point " + std::to_string(i) + " is " + d.gpu + " " + d.weights +
                                           " in this grid, the file says " + echo(fields[at("gpu")]) + " " +
                                           echo(fields[at("weights")]), "design");
    const std::string& status = fields[at("status")];
    if (status == "evaluated") pt.status = PointStatus::Evaluated;
    else if (status == "pruned") pt.status = PointStatus::Pruned;
    else if (status == "refused") pt.status = PointStatus::Refused;
    else return points_error(param, line, "status must be evaluated, pruned or refused, got " + echo(status), "status");
    pt.refusal = fields[at("refusal")];
    pt.prefill_replicas = static_cast<std::int64_t>(x[at("prefill_replicas")]);
    pt.num_gpus = pt.replicas * d.tp;
    pt.price_usd_per_h = find_gpu_preset(d.gpu)->spec.price_usd_per_h;
    pt.usd_per_m_tokens = x[at("usd_per_m_tokens")];
    pt.slo_attainment_frac = x[at("slo_attainment_frac")];
    pt.chat_attainment_frac = x[at("chat_attainment_frac")];
    pt.doc_attainment_frac = x[at("doc_attainment_frac")];
    pt.meets_slo = x[at("meets_slo")] == 1;
    pt.ttft_p99_ms = x[at("ttft_p99_ms")];
    pt.tpot_p99_ms = x[at("tpot_p99_ms")];
    pt.itl_p99_ms = x[at("itl_p99_ms")];
    pt.queue_p99_ms = x[at("queue_p99_ms")];
    pt.tok_per_s = x[at("tok_per_s")];
    pt.busy_frac = x[at("busy_frac")];
    pt.preemptions_per_request = x[at("preemptions_per_request")];
    pt.kv_transfer_wait_ms = x[at("kv_transfer_wait_ms")];
    pt.j_per_token = x[at("j_per_token")];
    pt.rejected = x[at("rejected")];
    // The cell's own table has no refusal column: its message is llm/fleet's, asked again.
    if (pt.status == PointStatus::Refused && pt.refusal.empty())
      if (auto checked = validate_fleet(fleet_inputs(p, d, pt.replicas)); !checked.ok()) pt.refusal = checked.error().message;
    at_index[i] = std::move(pt);
    ++num_read;
  }
  if (num_read == 0) return points_error(param, reader.line(), "a header and no point", "empty");
  std::vector<SearchPoint> points;
  points.reserve(static_cast<std::size_t>(num_read));
  for (std::size_t i = 0; i < at_index.size(); ++i)
    if (seen[i]) points.push_back(std::move(at_index[i]));
  return points;
}

double gpu_index(const std::string& id) {
  const auto& presets = gpu_presets();
  for (std::size_t i = 0; i < presets.size(); ++i)
    if (presets[i].id == id) return static_cast<double>(i);
  return -1;
}

double weights_index(const std::string& weights) {
  return static_cast<double>(std::find(kWeights.begin(), kWeights.end(), weights) - kWeights.begin());
}

std::vector<std::pair<const char*, double>> point_fields(const SearchParams& p, const SearchPoint& pt) {
  return point_fields_of(p.designs[static_cast<std::size_t>(pt.design)], pt);
}

std::vector<std::pair<const char*, double>> point_fields_of(const Design& d, const SearchPoint& pt) {
  return {{"index", static_cast<double>(pt.index)}, {"gpu", gpu_index(d.gpu)}, {"tp", static_cast<double>(d.tp)},
          {"weights", weights_index(d.weights)}, {"max_num_seqs", static_cast<double>(d.max_num_seqs)},
          {"max_num_batched_tokens", static_cast<double>(d.max_num_batched_tokens)},
          {"spec_tokens", static_cast<double>(d.spec_tokens)}, {"replicas", static_cast<double>(pt.replicas)},
          {"prefill_replicas", static_cast<double>(pt.prefill_replicas)}, {"num_gpus", static_cast<double>(pt.num_gpus)},
          {"status", static_cast<double>(pt.status)}, {"usd_per_m_tokens", pt.usd_per_m_tokens},
          {"slo_attainment_frac", pt.slo_attainment_frac}, {"chat_attainment_frac", pt.chat_attainment_frac},
          {"doc_attainment_frac", pt.doc_attainment_frac}, {"meets_slo", pt.meets_slo ? 1.0 : 0.0},
          {"ttft_p99_ms", pt.ttft_p99_ms}, {"tpot_p99_ms", pt.tpot_p99_ms}, {"itl_p99_ms", pt.itl_p99_ms},
          {"queue_p99_ms", pt.queue_p99_ms}, {"tok_per_s", pt.tok_per_s}, {"busy_frac", pt.busy_frac},
          {"preemptions_per_request", pt.preemptions_per_request}, {"kv_transfer_wait_ms", pt.kv_transfer_wait_ms},
          {"j_per_token", pt.j_per_token}, {"rejected", pt.rejected}};
}

}  // namespace sl::llm
