#include "llm/workload/trace_stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/distributions.h"
#include "core/stats.h"

namespace sl::llm {
namespace {

LengthStats length_stats(std::vector<double> xs) {
  LengthStats s;
  const auto n = static_cast<double>(xs.size());
  double sum = 0, sum_sq = 0;
  for (double x : xs) sum += x, sum_sq += x * x;
  s.mean = sum / n;
  const double var = std::max(0.0, sum_sq / n - s.mean * s.mean);
  s.cv = s.mean > 0 ? std::sqrt(var) / s.mean : 0;
  sort_ascending(xs);
  s.p50 = quantile_sorted(xs, 0.5);
  s.p90 = quantile_sorted(xs, 0.9);
  s.p99 = quantile_sorted(xs, 0.99);
  return s;
}

/// Index of dispersion of the counts of arrivals in consecutive windows of w seconds over [first, last]:
/// variance / mean of the counts; 0 when the span holds fewer than four windows.
double dispersion(const std::vector<double>& arrivals_s, double w) {
  const double first = arrivals_s.front(), span = arrivals_s.back() - first;
  const auto windows = static_cast<std::int64_t>(std::floor(span / w));
  if (windows < 4) return 0;
  std::vector<double> counts(static_cast<std::size_t>(windows), 0.0);
  for (double t : arrivals_s) {
    const auto k = static_cast<std::int64_t>(std::floor((t - first) / w));
    if (k < windows) counts[static_cast<std::size_t>(k)] += 1;
  }
  RunningStats c;
  for (double x : counts) c.add(x);
  return c.mean() > 0 ? c.variance() / c.mean() : 0;
}

/// Ranks 1..n, ties given their mean rank.
std::vector<double> ranks(const std::vector<double>& xs) {
  std::vector<std::size_t> order(xs.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return xs[a] < xs[b]; });
  std::vector<double> r(xs.size());
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j + 1 < order.size() && xs[order[j + 1]] == xs[order[i]]) ++j;
    const double mean_rank = 0.5 * static_cast<double>(i + j) + 1;
    for (std::size_t k = i; k <= j; ++k) r[order[k]] = mean_rank;
    i = j + 1;
  }
  return r;
}

/// Pearson's correlation of two samples (0 when either is constant).
double correlation(const std::vector<double>& a, const std::vector<double>& b) {
  const auto n = static_cast<double>(a.size());
  double ma = 0, mb = 0;
  for (std::size_t i = 0; i < a.size(); ++i) ma += a[i], mb += b[i];
  ma /= n, mb /= n;
  double sab = 0, saa = 0, sbb = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) * (a[i] - ma);
    sbb += (b[i] - mb) * (b[i] - mb);
  }
  return saa > 0 && sbb > 0 ? sab / std::sqrt(saa * sbb) : 0;
}

}  // namespace

WorkloadStats workload_stats(const Workload& w) {
  WorkloadStats s;
  std::vector<double> arrivals, prompts, outputs;
  double batch = 0;
  for (const std::int32_t id : w.initial) {
    const Request& r = w.requests[static_cast<std::size_t>(id)];
    arrivals.push_back(r.arrival_at_s);
    prompts.push_back(static_cast<double>(r.num_prompt_tokens));
    outputs.push_back(static_cast<double>(r.max_tokens));
    batch += r.request_class == 1 ? 1 : 0;
  }
  s.num_requests = static_cast<std::int64_t>(arrivals.size());
  if (s.num_requests == 0) return s;
  const auto n = static_cast<double>(s.num_requests);
  s.batch_frac = batch / n;
  s.prompt = length_stats(prompts);
  s.output = length_stats(outputs);
  s.rank_corr = correlation(ranks(prompts), ranks(outputs));
  const double span = arrivals.back() - arrivals.front();
  if (span > 0) {
    s.rate_per_s = (n - 1) / span;
    RunningStats gaps;
    for (std::size_t i = 1; i < arrivals.size(); ++i) gaps.add(arrivals[i] - arrivals[i - 1]);
    s.gap_cv = gaps.mean() > 0 ? std::sqrt(gaps.variance()) / gaps.mean() : 0;
    s.dispersion_1s = dispersion(arrivals, 1);
    s.dispersion_10s = dispersion(arrivals, 10);
    s.dispersion_60s = dispersion(arrivals, 60);
  }
  return s;
}

OpenLoopParams fitted_laws(const WorkloadStats& s, const OpenLoopParams& base) {
  OpenLoopParams p = base;
  p.rate_per_s = s.rate_per_s;
  p.arrival_cv = s.gap_cv;
  p.prompt_tokens = Distribution::lognormal_mean_cv(s.prompt.mean, s.prompt.cv);
  p.output_tokens = Distribution::lognormal_mean_cv(s.output.mean, s.output.cv);
  p.batch_frac = s.batch_frac;
  p.has_batch_lengths = false;
  return p;
}

}  // namespace sl::llm
