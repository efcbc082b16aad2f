#include "llm/engine/trace_vs_laws.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "core/table_columns.h"
#include "core/units.h"

namespace sl::llm {
namespace {

/// A fitted value to 4 significant digits (what a reader copies; the run of the laws uses the same), within its
/// parameter's range (the fill must be an input the cell accepts).
double fitted(double x, double lo, double hi) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", std::clamp(x, lo, hi));
  return std::strtod(text, nullptr);
}

void add_rows(TableColumns& table, const WorkloadStats& a, const WorkloadStats& b) {
  const std::pair<TraceStat, std::pair<double, double>> rows[] = {
      {TraceStat::RatePerS, {a.rate_per_s, b.rate_per_s}},
      {TraceStat::GapCv, {a.gap_cv, b.gap_cv}},
      {TraceStat::Dispersion10s, {a.dispersion_10s, b.dispersion_10s}},  // 0: fewer than 4 windows, no row
      {TraceStat::Dispersion60s, {a.dispersion_60s, b.dispersion_60s}},
      {TraceStat::PromptMean, {a.prompt.mean, b.prompt.mean}},
      {TraceStat::PromptCv, {a.prompt.cv, b.prompt.cv}},
      {TraceStat::PromptP50, {a.prompt.p50, b.prompt.p50}},
      {TraceStat::PromptP99, {a.prompt.p99, b.prompt.p99}},
      {TraceStat::OutputMean, {a.output.mean, b.output.mean}},
      {TraceStat::OutputCv, {a.output.cv, b.output.cv}},
      {TraceStat::OutputP50, {a.output.p50, b.output.p50}},
      {TraceStat::OutputP99, {a.output.p99, b.output.p99}},
      {TraceStat::RankCorr, {a.rank_corr, b.rank_corr}}};
  for (const auto& [stat, values] : rows) {
    const bool is_dispersion = stat == TraceStat::Dispersion10s || stat == TraceStat::Dispersion60s;
    if (is_dispersion && values.first == 0) continue;
    table.put({{"stat", static_cast<double>(stat)}, {"trace", values.first}, {"laws", values.second}});
  }
}

void add_latency_rows(TableColumns& table, const ServingSummary& a, const ServingSummary& b) {
  const std::pair<TraceStat, std::pair<double, double>> rows[] = {
      {TraceStat::TtftP50Ms, {a.ttft_p50_s, b.ttft_p50_s}}, {TraceStat::TtftP99Ms, {a.ttft_p99_s, b.ttft_p99_s}},
      {TraceStat::TpotP99Ms, {a.tpot_p99_s, b.tpot_p99_s}}, {TraceStat::ItlP99Ms, {a.itl_p99_s, b.itl_p99_s}},
      {TraceStat::QueueP99Ms, {a.queue_p99_s, b.queue_p99_s}}};
  for (const auto& [stat, values] : rows)
    table.put({{"stat", static_cast<double>(stat)}, {"trace", values.first * units::kMsPerS},
               {"laws", values.second * units::kMsPerS}});
}

}  // namespace

void compare_with_fitted_laws(const Workload& replayed, const ServingSummary& replayed_run, const OpenLoopParams& base,
                              const EngineConfig& config, std::uint64_t seed, RunControl& ctl, RunResult& result) {
  const WorkloadStats trace = workload_stats(replayed);
  if (trace.rate_per_s <= 0) {
    result.notice("trace_at_once", "every request of the replay arrives at the same instant: there is no arrival rate to "
                                   "fit laws to, so no comparison with them.");
    return;
  }
  // The laws as the fill writes them (4 significant digits), so that the fill reproduces this run.
  WorkloadStats fit = trace;
  fit.rate_per_s = fitted(trace.rate_per_s, 0.001, 10000);
  fit.gap_cv = fitted(trace.gap_cv, 0, 20);
  fit.prompt.mean = fitted(trace.prompt.mean, 1, 1e6);
  fit.prompt.cv = fitted(trace.prompt.cv, 0, 10);
  fit.output.mean = fitted(trace.output.mean, 1, 1e6);
  fit.output.cv = fitted(trace.output.cv, 0, 10);
  fit.batch_frac = fitted(trace.batch_frac, 0, 1);
  OpenLoopParams laws = fitted_laws(fit, base);
  laws.num_requests = trace.num_requests;
  Workload drawn = make_open_loop(laws, seed);
  const WorkloadStats law_stats = workload_stats(drawn);
  const ServingSummary law_run = summarize(run_continuous(config, drawn, ctl));
  TableColumns table;
  add_rows(table, trace, law_stats);
  add_latency_rows(table, replayed_run, law_run);
  table.into(result.table("trace_vs_laws"));
  result.output("trace_gap_cv", trace.gap_cv);
  result.output("trace_dispersion_10s", trace.dispersion_10s);
  result.output("trace_rank_corr", trace.rank_corr);
  result.output("laws_ttft_p99_ms", law_run.ttft_p99_s * units::kMsPerS);
  // For every cell of the page that draws from the laws, within the ranges llm/continuous-batching declares.
  result.fills.push_back(InputFill{
      "fit_laws", true,
      {{"workload", "laws"}, {"n", std::to_string(trace.num_requests)}, {"lambda", format_number(fit.rate_per_s)},
       {"arrival_cv", format_number(fit.gap_cv)}, {"prompt_mean", format_number(fit.prompt.mean)},
       {"prompt_cv", format_number(fit.prompt.cv)}, {"output_mean", format_number(fit.output.mean)},
       {"output_cv", format_number(fit.output.cv)}, {"batch_frac", format_number(fit.batch_frac)}}});
}

std::vector<OutputSpec> fitted_laws_output_specs() {
  return {sometimes(out("trace_gap_cv", "")), sometimes(out("trace_dispersion_10s", "")),
          sometimes(out("trace_rank_corr", "")), sometimes(out("laws_ttft_p99_ms", "ms"))};
}

}  // namespace sl::llm
