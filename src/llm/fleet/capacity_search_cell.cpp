// Cell llm/capacity-search: many knobs at once (capacity_search.h). Every design of the grid is run at each fleet
// size, pruned where a smaller fleet of it already met every request's SLO for less; the page shows the frontier of
// cost against SLO attainment (and against p99 TTFT), the cheapest point meeting every class's SLO, how many points
// were run, pruned and refused, and what binds the winner: the same design one replica smaller, and why it misses.
#include <algorithm>
#include <optional>

#include "core/checked_run.h"
#include "core/preset.h"
#include "core/table_columns.h"
#include "llm/fleet/capacity_search.h"
#include "llm/engine/engine_budget.h"
#include "llm/engine/step_model.h"
#include "llm/simulator_cells.h"
#include "llm/engine/trace_inputs.h"

namespace sl::llm {
namespace {

/// What keeps the same design one replica smaller from meeting its SLOs (capacity_search_cell's explanation).
enum class Binding { Range, Compute, KvMemory, Link, Queue };

/// Link: the KV transfers waited a tenth of the p99 TTFT; KV memory: requests were preempted (over one in twenty)
/// or turned away; compute: the replicas were busy 90 % of the time; else the queue: bursts of arrivals wait
/// though the replicas have time on average.
Binding binding_of(const Design& d, const SearchPoint& fewer) {
  if (d.disaggregated && fewer.kv_transfer_wait_ms > 0.1 * fewer.ttft_p99_ms) return Binding::Link;
  if (fewer.preemptions_per_request > 0.05 || fewer.rejected > 0) return Binding::KvMemory;
  if (fewer.busy_frac >= 0.9) return Binding::Compute;
  return Binding::Queue;
}

const char* binding_code(Binding b) {
  switch (b) {
    case Binding::Range: return "binding_range";
    case Binding::Compute: return "binding_compute";
    case Binding::KvMemory: return "binding_kv";
    case Binding::Link: return "binding_link";
    case Binding::Queue: return "binding_queue";
  }
  return "";
}

void put_points(TableColumns& table, const SearchParams& p, const std::vector<SearchPoint>& points,
                const std::vector<std::size_t>& which, const std::vector<bool>& on_front, const std::vector<bool>& on_ttft) {
  for (std::size_t i : which) {
    table.put(point_fields(p, points[i]));
    table.put({{"on_frontier", on_front[i] ? 1.0 : 0.0}, {"on_ttft_frontier", on_ttft[i] ? 1.0 : 0.0}});
  }
}

Result<RunResult> run_search(const SearchParams& p, std::uint64_t seed, RunControl& ctl) {
  std::vector<SearchPoint> points;
  const auto num_designs = static_cast<double>(p.designs.size());
  if (p.loaded) {
    points = *p.loaded;  // a search run elsewhere (serving-lab search --format csv): its frontier, nothing run
  } else {
    const std::pair<std::size_t, std::size_t> range = shard_designs(p.designs.size(), p.part, p.parts);
    const std::size_t first = range.first, last = range.second;
    const auto share = static_cast<double>(last - first);
    for (std::size_t d = first; d < last; ++d) {
      RunControl part([&ctl, d, first, share](double f) { ctl.report(static_cast<double>(d - first) + f, share); });
      for (SearchPoint& pt : evaluate_design(p, d, seed, part)) points.push_back(std::move(pt));
    }
  }
  std::int64_t counts[3] = {0, 0, 0};
  for (const SearchPoint& pt : points) ++counts[static_cast<int>(pt.status)];
  const std::vector<std::size_t> front = attainment_frontier(points), ttft_front = ttft_frontier(points);
  std::vector<bool> on_front(points.size(), false), on_ttft(points.size(), false);
  for (std::size_t i : front) on_front[i] = true;
  for (std::size_t i : ttft_front) on_ttft[i] = true;
  RunResult result;
  const std::pair<const char*, double> counted[] = {
      {"designs", num_designs}, {"points_total", static_cast<double>(points.size())},
      {"points_evaluated", static_cast<double>(counts[0])}, {"points_pruned", static_cast<double>(counts[1])},
      {"points_refused", static_cast<double>(counts[2])}, {"frontier_points", static_cast<double>(front.size())}};
  for (const auto& [name, value] : counted) result.output(name, value);
  std::vector<std::size_t> all(points.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  TableColumns every, frontier;
  put_points(every, p, points, all, on_front, on_ttft);
  put_points(frontier, p, points, front, on_front, on_ttft);
  every.into(result.table("points"));
  frontier.into(result.table("frontier"));
  if (p.loaded)
    result.notice("points_from_file", std::to_string(points.size()) + " of the grid's " + std::to_string(p.num_points()) +
                                          " points were read from the points file; none was run here.");
  for (const SearchPoint& pt : points)
    if (pt.status == PointStatus::Refused) {
      result.notice("refused", "some points were refused before any run (the first: " + pt.refusal + ")");
      break;
    }
  const std::optional<std::size_t> winner = cheapest_meeting(points);
  if (!winner) {
    result.notice("no_point_meets_slo",
                  "no evaluated point has every class meeting its TTFT and TPOT targets for " +
                      format_number(p.slo_target_frac * 100) + " % of its requests: widen the grid or relax the targets.");
    return result;
  }
  const SearchPoint& w = points[*winner];
  const Design& d = p.designs[static_cast<std::size_t>(w.design)];
  // The same design one replica smaller: it was run (it is cheaper, so pruning never skips it) unless it is below
  // the range or refused.
  const SearchPoint* fewer = nullptr;
  if (*winner > 0 && points[*winner - 1].index == w.index - 1 && w.replicas > p.replicas_min &&
      points[*winner - 1].status == PointStatus::Evaluated)
    fewer = &points[*winner - 1];
  const Binding binding = fewer ? binding_of(d, *fewer) : Binding::Range;
  const std::pair<const char*, double> winner_outputs[] = {
      {"winner_index", static_cast<double>(w.index)}, {"winner_usd_per_m_tokens", w.usd_per_m_tokens},
      {"winner_gpu", gpu_index(d.gpu)}, {"winner_tp", static_cast<double>(d.tp)},
      {"winner_replicas", static_cast<double>(w.replicas)}, {"winner_num_gpus", static_cast<double>(w.num_gpus)},
      {"winner_attainment_frac", w.slo_attainment_frac}, {"winner_ttft_p99_ms", w.ttft_p99_ms},
      {"winner_tpot_p99_ms", w.tpot_p99_ms}, {"winner_busy_frac", w.busy_frac},
      {"winner_gpu_price_usd_per_h", w.price_usd_per_h}};
  for (const auto& [name, value] : winner_outputs) result.output(name, value);
  if (fewer) {
    const std::pair<const char*, double> fewer_outputs[] = {
        {"fewer_attainment_frac", fewer->slo_attainment_frac}, {"fewer_chat_attainment_frac", fewer->chat_attainment_frac},
        {"fewer_doc_attainment_frac", fewer->doc_attainment_frac}, {"fewer_busy_frac", fewer->busy_frac},
        {"fewer_preemptions_per_request", fewer->preemptions_per_request}, {"fewer_ttft_p99_ms", fewer->ttft_p99_ms},
        {"fewer_queue_p99_ms", fewer->queue_p99_ms}, {"fewer_kv_transfer_wait_ms", fewer->kv_transfer_wait_ms}};
    for (const auto& [name, value] : fewer_outputs) result.output(name, value);
  }
  result.output("binding", static_cast<double>(binding));
  // Every design runs the step model chosen; the fit's caveat names the first GPU of the grid the fit has no run on.
  const auto other = std::find_if(p.designs.begin(), p.designs.end(), [](const Design& d) { return d.gpu != vllm_fit().gpu; });
  note_step_model(p.step_model, other != p.designs.end() ? other->gpu : std::string(vllm_fit().gpu), result);
  result.notice(binding_code(binding), binding == Binding::Range
                                           ? "the smallest fleet of the range already meets every SLO: lower replicas_min"
                                           : "one replica fewer misses its SLOs");
  return result;
}

}  // namespace

CellSpec capacity_search_cell() {
  CellSpec cell = checked_cell<&validate_search, &run_search>("llm/capacity-search", search_params());
  cell.presets = presets_of({{"llama-70b-h100-h200", "model=llama3.1-70b gpus=h100+h200 weights_set=fp8"}});
  cell.outputs = {out("designs", "designs"), out("points_total", "points"), out("points_evaluated", "points"),
                  out("points_pruned", "points"), out("points_refused", "points"), out("frontier_points", "points")};
  for (const char* name : {"winner_index", "winner_gpu", "winner_tp", "winner_attainment_frac", "binding",
                           "fewer_attainment_frac", "fewer_chat_attainment_frac", "fewer_doc_attainment_frac",
                           "fewer_busy_frac", "fewer_preemptions_per_request", "winner_busy_frac"})
    cell.outputs.push_back(sometimes(out(name, "")));
  cell.outputs.push_back(sometimes(out("winner_usd_per_m_tokens", "$")));
  cell.outputs.push_back(sometimes(out("winner_gpu_price_usd_per_h", "$/h")));
  cell.outputs.push_back(sometimes(out("winner_replicas", "replicas")));
  cell.outputs.push_back(sometimes(out("winner_num_gpus", "GPUs")));
  for (const char* name : {"winner_ttft_p99_ms", "winner_tpot_p99_ms", "fewer_ttft_p99_ms", "fewer_queue_p99_ms",
                           "fewer_kv_transfer_wait_ms"})
    cell.outputs.push_back(sometimes(out(name, "ms")));
  cell.tables = {table("points"), table("frontier")};
  cell.budget = {describe_engine_budget() + ", over every point of the grid (pruning not counted on)"};
  cell.assets = {sample_trace_asset()};
  return cell;
}

}  // namespace sl::llm
