// Cell request/latency-budget. One request's milliseconds, phase by phase: ResNet-50 on a GPU (Table 3) and
// a DLRM recommender against its 10 ms p99 budget (Table 4). Amdahl's law (Systems Perspective 1.3) says
// what a faster model buys: a share f of the time made k times faster speeds the request up by
// 1 / ((1 - f) + f / k), never more than 1 / (1 - f). The serving tax (Table 5) is an interval sum: the
// microseconds of serialization, dispatch and copies that every request pays around a 5 ms model call.
#include <cmath>
#include <numeric>
#include <tuple>
#include <vector>

#include "core/checked_run.h"
#include "core/outputs.h"
#include "request/budget/amdahl.h"
#include "request/cells.h"
#include "request/budget/checks.h"

namespace sl::request {
namespace {

// Phase ids of the `phases` table (the lab file names them): Table 3's six, then Table 4's four.
enum Phase { kJpeg, kResize, kNormalize, kHostToDevice, kForward, kPost, kParse, kEmbed, kMlp, kRank };
// Scenario ids of the `phases` table: Table 3, Table 3 with the 2 ms TensorRT model, Table 3 with the model
// k times faster, Table 4.
enum Scenario { kResnet, kResnetFastModel, kResnetModelTimesK, kDlrm };

constexpr int kAmdahlLevels = 6;  // 65 points
constexpr double kAmdahlMinK = 1.0;
constexpr double kAmdahlMaxK = 1000.0;

struct PhaseTime {
  Phase phase;
  double ms;
};

double total_ms(const std::vector<PhaseTime>& phases) {
  return std::accumulate(phases.begin(), phases.end(), 0.0, [](double s, const PhaseTime& p) { return s + p.ms; });
}

void add_bar(Table& table, Scenario scenario, const std::vector<PhaseTime>& phases) {
  const double total = total_ms(phases);
  double start = 0;
  auto column = [&](std::size_t i) -> std::vector<double>& { return table.columns[i].second; };
  for (const auto& p : phases) {
    column(0).push_back(scenario);
    column(1).push_back(p.phase);
    column(2).push_back(p.ms);
    column(3).push_back(start);
    column(4).push_back(p.ms / total);
    start += p.ms;
  }
}

/// Table 5's components as low and high ends of a typical range.
struct TaxRange {
  double lo, hi;
};

struct LatencyBudgetParams {
  // Table 3, ResNet-50 on a GPU, ms.
  double jpeg_ms, resize_ms, normalize_ms, h2d_ms, forward_ms, post_ms;
  double fast_forward_ms;
  double speedup_k;  ///< the model made k times faster
  // Table 4, DLRM, ms.
  double parse_ms, embed_ms, mlp_ms, rank_ms;
  double dlrm_budget_ms;
  // Table 5, the serving tax.
  TaxRange net_ms, ser_us, queue_ms, dispatch_us, copy_us;
  double model_ms;
};

Result<LatencyBudgetParams> validate_latency_budget(const Inputs& in) {
  LatencyBudgetParams p{};
  p.jpeg_ms = in.real("jpeg_ms");
  p.resize_ms = in.real("resize_ms");
  p.normalize_ms = in.real("normalize_ms");
  p.h2d_ms = in.real("h2d_ms");
  p.forward_ms = in.real("forward_ms");
  p.post_ms = in.real("post_ms");
  p.fast_forward_ms = in.real("fast_forward_ms");
  p.speedup_k = in.real("speedup_k");
  p.parse_ms = in.real("parse_ms");
  p.embed_ms = in.real("embed_ms");
  p.mlp_ms = in.real("mlp_ms");
  p.rank_ms = in.real("rank_ms");
  p.dlrm_budget_ms = in.real("dlrm_budget_ms");
  p.net_ms = {in.real("net_lo_ms"), in.real("net_hi_ms")};
  p.ser_us = {in.real("ser_lo_us"), in.real("ser_hi_us")};
  p.queue_ms = {in.real("queue_lo_ms"), in.real("queue_hi_ms")};
  p.dispatch_us = {in.real("dispatch_lo_us"), in.real("dispatch_hi_us")};
  p.copy_us = {in.real("copy_lo_us"), in.real("copy_hi_us")};
  p.model_ms = in.real("model_ms");
  for (const auto& [lo, hi, range, unit] :
       {std::tuple{"ser_lo_us", "ser_hi_us", p.ser_us, "us"}, {"dispatch_lo_us", "dispatch_hi_us", p.dispatch_us, "us"},
        {"copy_lo_us", "copy_hi_us", p.copy_us, "us"}, {"net_lo_ms", "net_hi_ms", p.net_ms, "ms"},
        {"queue_lo_ms", "queue_hi_ms", p.queue_ms, "ms"}})
    if (auto e = check_ordered(lo, range.lo, hi, range.hi, unit)) return *e;
  return p;
}

void resnet_outputs(const LatencyBudgetParams& p, RunResult& result, Table& bars) {
  const std::vector<PhaseTime> resnet{{kJpeg, p.jpeg_ms},     {kResize, p.resize_ms},   {kNormalize, p.normalize_ms},
                                      {kHostToDevice, p.h2d_ms}, {kForward, p.forward_ms}, {kPost, p.post_ms}};
  const double total = total_ms(resnet);
  const double pre = resnet[kJpeg].ms + resnet[kResize].ms + resnet[kNormalize].ms;
  const double model = resnet[kForward].ms;
  const double k = p.speedup_k;
  result.output("resnet_total_ms", total);
  result.output("preprocess_ms", pre);
  result.output("preprocess_frac", pre / total);
  // The book's "non-model 49.5 %" is preprocessing + transfer (5.0 of 10.1 ms); with the 0.1 ms of
  // postprocessing the non-model time is 5.1 ms, and the model's own share is 5.0 / 10.1 = 49.5 % too.
  result.output("pre_and_transfer_frac", (pre + resnet[kHostToDevice].ms) / total);
  result.output("model_frac", model / total);

  std::vector<PhaseTime> fast = resnet;
  fast[kForward].ms = p.fast_forward_ms;
  result.output("fast_total_ms", total_ms(fast));
  result.output("fast_preprocess_frac", pre / total_ms(fast));

  const double f = model / total;
  result.output("amdahl_speedup", amdahl_speedup(f, k));
  std::vector<PhaseTime> faster = resnet;
  faster[kForward].ms = model / k;
  result.output("amdahl_total_ms", total_ms(faster));
  if (f < 1.0) result.output("amdahl_ceiling", amdahl_ceiling(f));

  add_bar(bars, kResnet, resnet);
  add_bar(bars, kResnetFastModel, fast);
  add_bar(bars, kResnetModelTimesK, faster);

  std::vector<double> ks = log_grid(kAmdahlMinK, std::fmax(kAmdahlMaxK, k), kAmdahlLevels), speedups, ceilings;
  for (double kk : ks) {
    speedups.push_back(amdahl_speedup(f, kk));
    ceilings.push_back(f < 1.0 ? amdahl_ceiling(f) : speedups.back());
  }
  result.table("amdahl").column("k", std::move(ks)).column("speedup", std::move(speedups)).column("ceiling", std::move(ceilings));
  result.table("amdahl_at_k").column("k", {k}).column("speedup", {amdahl_speedup(f, k)});
}

void dlrm_outputs(const LatencyBudgetParams& p, RunResult& result, Table& bars) {
  const std::vector<PhaseTime> dlrm{{kParse, p.parse_ms}, {kEmbed, p.embed_ms}, {kMlp, p.mlp_ms}, {kRank, p.rank_ms}};
  const double total = total_ms(dlrm);
  const double f_mlp = dlrm[2].ms / total;
  result.output("dlrm_total_ms", total);
  result.output("dlrm_headroom_ms", p.dlrm_budget_ms - total);
  result.output("dlrm_mlp_frac", f_mlp);
  result.output("dlrm_embed_frac", dlrm[1].ms / total);
  if (f_mlp < 1.0) result.output("dlrm_mlp_ceiling", amdahl_ceiling(f_mlp));
  if (total > p.dlrm_budget_ms)
    result.notice("over_budget", "The DLRM phases add up to " + format_number(total) + " ms, over the " +
                                     format_number(p.dlrm_budget_ms) + " ms p99 budget.");
  add_bar(bars, kDlrm, dlrm);
}

void serving_tax_outputs(const LatencyBudgetParams& p, RunResult& result) {
  // Table 5 components in table order: network, serialization, queuing, dispatch, copy (all in us).
  const std::vector<double> lo_us{p.net_ms.lo * 1e3, p.ser_us.lo, p.queue_ms.lo * 1e3, p.dispatch_us.lo, p.copy_us.lo};
  const std::vector<double> hi_us{p.net_ms.hi * 1e3, p.ser_us.hi, p.queue_ms.hi * 1e3, p.dispatch_us.hi, p.copy_us.hi};
  const double model_us = p.model_ms * 1e3;
  // The "killer microseconds": serialization + dispatch + copy, before network and queuing.
  const double tax_lo = lo_us[1] + lo_us[3] + lo_us[4];
  const double tax_hi = hi_us[1] + hi_us[3] + hi_us[4];
  result.output("tax_low_us", tax_lo);
  result.output("tax_high_us", tax_hi);
  result.output("tax_low_frac", tax_lo / model_us);
  result.output("tax_high_frac", tax_hi / model_us);
  result.output("tax_all_low_ms", std::accumulate(lo_us.begin(), lo_us.end(), 0.0) * 1e-3);
  result.output("tax_all_high_ms", std::accumulate(hi_us.begin(), hi_us.end(), 0.0) * 1e-3);
  result.table("serving_tax").column("component", {0, 1, 2, 3, 4}).column("low_us", lo_us).column("high_us", hi_us);
}

Result<RunResult> run_latency_budget(const LatencyBudgetParams& p, std::uint64_t /*seed*/, RunControl& /*ctl*/) {
  RunResult result;
  Table bars{"phases", {{"scenario", {}}, {"phase", {}}, {"ms", {}}, {"start_ms", {}}, {"share_frac", {}}}};
  resnet_outputs(p, result, bars);
  dlrm_outputs(p, result, bars);
  serving_tax_outputs(p, result);
  result.tables.insert(result.tables.begin(), std::move(bars));
  return result;
}

}  // namespace

CellSpec latency_budget_cell() {
  CellSpec cell = checked_cell<&validate_latency_budget, &run_latency_budget>("request/latency-budget",
      {explored(real("jpeg_ms", "ms", 3, 0, 1e5), 0, 30), real("resize_ms", "ms", 1, 0, 1e5),
       real("normalize_ms", "ms", 0.5, 0, 1e5), real("h2d_ms", "ms", 0.5, 0, 1e5),
       explored(real("forward_ms", "ms", 5, 1e-6, 1e5), 0.1, 100), real("post_ms", "ms", 0.1, 0, 1e5),
       real("fast_forward_ms", "ms", 2, 1e-6, 1e5), explored(real("speedup_k", "×", 10, 1, 1e6), 1, 1000),
       real("parse_ms", "ms", 0.5, 0, 1e5), real("embed_ms", "ms", 6, 0, 1e5),
       real("mlp_ms", "ms", 1.5, 1e-6, 1e5), real("rank_ms", "ms", 1, 0, 1e5),
       real("dlrm_budget_ms", "ms", 10, 1e-6, 1e6),
       real("net_lo_ms", "ms", 1, 0, 1e5), real("net_hi_ms", "ms", 5, 0, 1e5),
       real("ser_lo_us", "us", 50, 0, 1e8), real("ser_hi_us", "us", 500, 0, 1e8),
       real("queue_lo_ms", "ms", 0.1, 0, 1e5), real("queue_hi_ms", "ms", 10, 0, 1e5),
       real("dispatch_lo_us", "us", 10, 0, 1e8), real("dispatch_hi_us", "us", 50, 0, 1e8),
       real("copy_lo_us", "us", 100, 0, 1e8), real("copy_hi_us", "us", 500, 0, 1e8),
       real("model_ms", "ms", 5, 1e-6, 1e5)});
  cell.uses_seed = false;
  cell.outputs = outputs({"resnet_total_ms", "preprocess_ms", "preprocess_frac", "pre_and_transfer_frac", "model_frac",
                  "fast_total_ms", "fast_preprocess_frac", out("amdahl_speedup", "×"), "amdahl_total_ms",
                  sometimes(out("amdahl_ceiling", "×")), "dlrm_total_ms", "dlrm_headroom_ms", "dlrm_mlp_frac",
                  "dlrm_embed_frac", sometimes(out("dlrm_mlp_ceiling", "×")), "tax_low_us", "tax_high_us",
                  "tax_low_frac", "tax_high_frac", "tax_all_low_ms", "tax_all_high_ms"});
  cell.tables = {table("phases"), table("amdahl"), table("amdahl_at_k"), table("serving_tax")};
  return cell;
}

}  // namespace sl::request
