// Cell queues/fan-out. A request fans out to n leaves and waits for the slowest. If each leaf is slower
// than its own p-quantile with probability 1 - p, at least one of n is with probability 1 - p^n, and the
// request's quantiles are the leaf's at p^(1/n). We simulate the max of n leaf latencies for n = 1, 2, 5,
// ... up to the chosen n, with leaves drawn from an exponential or lognormal law or resampled from a
// simulated M/M/1 queue's times in system, and then the mitigation: hedging, where a leaf still silent at
// its un-hedged q-quantile (default p95) gets a backup and the earlier reply wins. For M/M/1 leaves the
// backups are extra load on the replicas, and the leaf load rises to rho (1 + h) (see mm1_hedge_share). An
// M/M/1 pool is itself one finite run: the un-hedged request quantiles' CIs add its batch-means error.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "core/checked_run.h"
#include "core/budget.h"
#include "core/outputs.h"
#include "core/preset.h"
#include "queues/cells.h"
#include "queues/confidence_intervals.h"
#include "queues/fan_out.h"
#include "queues/rounding.h"
#include "queues/sojourn_runs.h"
#include "queues/table_columns.h"

namespace sl::queues {
namespace {

/// A leaf latency drawn (requests x the sum of the sweep's fan-outs, un-hedged and hedged), natively: 55 ns measured
/// (leaves 10, requests 1e6: 3.6e7 draws in 1.97 s of CPU; the old 2e8-draw cap allowed ~11 s).
constexpr budget::UnitCost kLeafDrawCost{55e-9, 0};
constexpr const char* kDrawsWhat = "the leaf latencies drawn (2 x requests x the sum of the sweep's fan-outs)";
/// Measured M/M/1 leaves: times in system kept from the simulated queue, scaled like the mm1-md1 budget
/// (666,000 at rho = 0.7). Deep quantiles of a measured sample stay noisy: at n = 100 the request p99 is the
/// leaf's 99.99th percentile, which such a run pins down to about +-8 % (1 sd, over seeds).
constexpr double kPoolPerWeight = 200'000;
/// ... capped at 2 million (rho = 0.9 and above), 16 MB of measured latencies.
constexpr double kMaxPoolWeight = 10;
constexpr int kCurvePoints = 100;
/// Most leaves per request: the sweep 1, 2, 5, ..., 5,000 has 12 rows, the page's result table.
constexpr std::int64_t kMaxLeaves = 5000;

/// Where a leaf's latency comes from: a fixed law, or a simulated M/M/1 queue.
enum class LeafKind { Exponential, Lognormal, Mm1 };

struct FanOutParams {
  std::int64_t leaves;
  double p;        // percentile as a fraction
  LeafKind leaf;
  double leaf_mean_s, cv, service_s, rho;
  double q;        // hedge after this leaf quantile, as a fraction
  std::int64_t requests;
};

LeafKind leaf_kind(const std::string& choice) {
  if (choice == "exp") return LeafKind::Exponential;
  if (choice == "lognormal") return LeafKind::Lognormal;
  return LeafKind::Mm1;
}

/// Fan-out degrees simulated: 1, 2, 5, 10, ... below `leaves`, and `leaves` itself.
std::vector<std::int64_t> sweep_ns(std::int64_t leaves) {
  std::vector<std::int64_t> ns;
  for (std::int64_t decade = 1; decade < leaves; decade *= 10)
    for (std::int64_t m : {1, 2, 5})
      if (m * decade < leaves) ns.push_back(m * decade);
  ns.push_back(leaves);
  return ns;
}

Result<FanOutParams> validate_fan_out(const Inputs& in) {
  FanOutParams p{in.count("leaves"), in.real("percentile") / 100, leaf_kind(in.choice("leaf")), in.real("leaf_mean_ms") * 1e-3,
                 in.real("cv"), in.real("service_ms") * 1e-3, in.real("rho"), in.real("hedge_pct") / 100,
                 in.count("requests")};
  double leaf_sum = 0;
  for (std::int64_t n : sweep_ns(p.leaves)) leaf_sum += static_cast<double>(n);
  // The limit in requests: each draws 2 x leaf_sum leaf latencies (un-hedged and hedged runs).
  const budget::UnitCost per_request{2 * leaf_sum * kLeafDrawCost.native_s, 0};
  if (auto e = budget::check(budget::estimate("requests",
                                              "with fan-outs up to " + format_number(static_cast<double>(p.leaves)) +
                                                  " leaves, the requests per point",
                                              "requests", static_cast<double>(p.requests), per_request)))
    return *e;
  return p;
}

/// The leaf model of a run: the law behind the closed forms and the sampler the simulation draws from,
/// without and with hedging.
struct LeafModel {
  LeafLaw law;
  LeafSampler sampler;
  double slow_after_s;                // the leaf's p-quantile
  double hedge_after_s;               // the leaf's un-hedged q-quantile
  std::optional<LeafLaw> hedged_law;  // none: hedging has no steady state (M/M/1 leaves only)
  std::optional<LeafSampler> hedged_sampler;
  double hedge_share;                 // closed-form share of leaf requests that get a backup
  /// M/M/1 leaves: the pool's own quantiles at the levels the un-hedged request p50 and p99 resample, one per
  /// fan-out degree of the sweep (the max of n draws from the pool has the pool's p^(1/n)-quantile as its
  /// p-quantile), with batch-means CIs: the error of the pool the simulation resamples. Empty for laws.
  std::vector<Estimate> pool_p50, pool_p99;
};

/// Times in system of a simulated M/M/1 queue, sorted, and the CIs of their quantiles at `levels`.
std::vector<double> measured_mm1_s(double rho, double service_s, std::uint64_t seed, RunControl& ctl,
                                   const std::vector<double>& levels, std::vector<Estimate>& at_levels) {
  const auto kept = static_cast<std::int64_t>(kPoolPerWeight * std::fmin(kMaxPoolWeight, std::fmax(2.0, 1 / (1 - rho))));
  auto times = simulate_fifo_times(rho / service_s, Distribution::exponential(1 / service_s), kept, seed, ctl).time_in_system_s;
  std::vector<double> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  at_levels = series_quantiles(times, sorted, levels);
  return sorted;
}

LeafModel make_leaf_model(const FanOutParams& p, const std::vector<std::int64_t>& ns,
                          const std::vector<std::uint64_t>& seeds, ProgressSplitter& progress) {
  if (p.leaf != LeafKind::Mm1) {
    const LeafLaw law = p.leaf == LeafKind::Exponential ? LeafLaw::exponential(p.leaf_mean_s) : LeafLaw::lognormal(p.leaf_mean_s, p.cv);
    // A latency law that does not depend on load: backups come from the same law.
    return {law, LeafSampler(law), law.quantile(p.p), law.quantile(p.q), law, LeafSampler(law), 1 - p.q, {}, {}};
  }
  const LeafLaw law = LeafLaw::exponential(p.service_s / (1 - p.rho));  // M/M/1 FCFS time in system
  RunControl pool_ctl = progress.next(0);
  std::vector<double> levels;
  for (std::int64_t n : ns) {
    levels.push_back(std::pow(0.5, 1.0 / static_cast<double>(n)));
    levels.push_back(std::pow(0.99, 1.0 / static_cast<double>(n)));
  }
  std::vector<Estimate> at_levels;
  LeafSampler sampler(law, measured_mm1_s(p.rho, p.service_s, seeds[0], pool_ctl, levels, at_levels));
  LeafModel m{law, sampler, sampler.quantile(p.p), sampler.quantile(p.q), std::nullopt, std::nullopt, 0, {}, {}};
  for (std::size_t i = 0; i < ns.size(); ++i) {
    m.pool_p50.push_back(at_levels[2 * i]);
    m.pool_p99.push_back(at_levels[2 * i + 1]);
  }
  const auto share = mm1_hedge_share(p.rho, p.q);
  if (!share) return m;
  const double rho_hedged = p.rho * (1 + *share);
  m.hedged_law = LeafLaw::exponential(p.service_s / (1 - rho_hedged));
  std::vector<Estimate> unused;
  m.hedged_sampler = LeafSampler(*m.hedged_law, measured_mm1_s(rho_hedged, p.service_s, seeds[1], pool_ctl, {}, unused));
  m.hedge_share = *share;
  return m;
}

/// Simulated and closed-form numbers at one fan-out degree.
struct Point {
  std::int64_t n;
  FanOutSample plain;
  std::optional<FanOutSample> hedged;
};

/// The un-hedged request's simulated p-quantile (p = 0.5 or 0.99) at sweep index i: the resampling CI, widened
/// by the error of the measured pool for M/M/1 leaves.
Estimate plain_request_quantile(const LeafModel& m, std::size_t i, const Point& pt, double p) {
  const Estimate resampled = iid_quantile_sorted(pt.plain.request_s, p);
  const std::vector<Estimate>& pool = p == 0.5 ? m.pool_p50 : m.pool_p99;
  return pool.empty() ? resampled : with_pool_error(resampled, pool[i]);
}

void add_sweep_table(RunResult& r, const FanOutParams& p, const LeafModel& m, const std::vector<Point>& points) {
  TableColumns c;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Point& pt = points[i];
    c.put("n", static_cast<double>(pt.n));
    c.put("p_any_slow_frac", fan_out_slow_share(p.p, pt.n));
    c.put_estimate("sim_p_any_slow_frac", "sim_p_any_slow_lo_frac", "sim_p_any_slow_hi_frac",
                   binomial_share(pt.plain.num_any_slow, p.requests), 1.0);
    c.put("req_p50_ms", 1e3 * request_quantile_s(m.law, pt.n, 0.5));
    c.put_estimate("sim_req_p50_ms", "sim_req_p50_lo_ms", "sim_req_p50_hi_ms", plain_request_quantile(m, i, pt, 0.5), 1e3);
    c.put("req_p99_ms", 1e3 * request_quantile_s(m.law, pt.n, 0.99));
    c.put_estimate("sim_req_p99_ms", "sim_req_p99_lo_ms", "sim_req_p99_hi_ms", plain_request_quantile(m, i, pt, 0.99), 1e3);
    if (!pt.hedged) continue;
    c.put("hedged_p50_ms", 1e3 * hedged_request_quantile_s(*m.hedged_law, m.hedge_after_s, pt.n, 0.5));
    c.put_estimate("sim_hedged_p50_ms", "sim_hedged_p50_lo_ms", "sim_hedged_p50_hi_ms",
                   iid_quantile_sorted(pt.hedged->request_s, 0.5), 1e3);
    c.put("hedged_p99_ms", 1e3 * hedged_request_quantile_s(*m.hedged_law, m.hedge_after_s, pt.n, 0.99));
    c.put_estimate("sim_hedged_p99_ms", "sim_hedged_p99_lo_ms", "sim_hedged_p99_hi_ms",
                   iid_quantile_sorted(pt.hedged->request_s, 0.99), 1e3);
    c.put("sim_hedge_share_frac", static_cast<double>(pt.hedged->num_backups) / static_cast<double>(pt.hedged->num_leaf_requests));
  }
  c.into(r.table("sweep"));
}

void add_focus_outputs(RunResult& r, const FanOutParams& p, const LeafModel& m, const std::vector<Point>& points) {
  const std::size_t last = points.size() - 1;
  const Point& pt = points[last];
  const auto put = [&](const char* name, const char* lo_name, const char* hi_name, const Estimate& e, double scale) {
    r.output(name, scale * e.value);
    r.output(lo_name, scale * e.lo);
    r.output(hi_name, scale * e.hi);
  };
  r.output("p_any_slow_frac", fan_out_slow_share(p.p, p.leaves));
  const Estimate any_slow = binomial_share(pt.plain.num_any_slow, p.requests);
  put("sim_p_any_slow_frac", "sim_p_any_slow_lo_frac", "sim_p_any_slow_hi_frac", any_slow, 1.0);
  // Standard errors: the share's binomial sqrt(p (1 - p) / requests); the p50's half its 95 % interval / 1.96.
  r.output("sim_p_any_slow_se_frac", std::sqrt(any_slow.value * (1 - any_slow.value) / static_cast<double>(p.requests)));
  const Estimate p50 = plain_request_quantile(m, last, pt, 0.5);
  r.output("sim_req_p50_se_ms", 1e3 * (p50.hi - p50.lo) / (2 * kNormal975));
  r.output("leaf_mean_ms", 1e3 * m.law.mean_s());
  r.output("leaf_pctl_ms", 1e3 * m.law.quantile(p.p));
  r.output("req_p50_ms", 1e3 * request_quantile_s(m.law, p.leaves, 0.5));
  put("sim_req_p50_ms", "sim_req_p50_lo_ms", "sim_req_p50_hi_ms", p50, 1e3);
  r.output("req_p99_ms", 1e3 * request_quantile_s(m.law, p.leaves, 0.99));
  const Estimate plain_p99 = plain_request_quantile(m, last, pt, 0.99);
  put("sim_req_p99_ms", "sim_req_p99_lo_ms", "sim_req_p99_hi_ms", plain_p99, 1e3);
  if (!pt.hedged) return;
  r.output("hedge_after_ms", 1e3 * m.hedge_after_s);
  r.output("hedged_p99_ms", 1e3 * hedged_request_quantile_s(*m.hedged_law, m.hedge_after_s, p.leaves, 0.99));
  const Estimate hedged_p99 = iid_quantile_sorted(pt.hedged->request_s, 0.99);
  put("sim_hedged_p99_ms", "sim_hedged_p99_lo_ms", "sim_hedged_p99_hi_ms", hedged_p99, 1e3);
  r.output("hedge_share_frac", m.hedge_share);
  put("sim_hedge_share_frac", "sim_hedge_share_lo_frac", "sim_hedge_share_hi_frac",
      binomial_share(pt.hedged->num_backups, pt.hedged->num_leaf_requests), 1.0);
  const double share = static_cast<double>(pt.hedged->num_backups) / static_cast<double>(pt.hedged->num_leaf_requests);
  r.output("sim_hedge_share_se_frac", std::sqrt(share * (1 - share) / static_cast<double>(pt.hedged->num_leaf_requests)));
  r.output("p99_cut_x", plain_p99.value / hedged_p99.value);
}

void add_slow_share_curve(RunResult& r, const FanOutParams& p) {
  std::vector<double> n, share;
  const double top = static_cast<double>(std::max<std::int64_t>(p.leaves, 2));
  for (int i = 0; i < kCurvePoints; ++i) {
    const double x = std::round(std::exp(std::log(top) * i / (kCurvePoints - 1)));
    if (!n.empty() && x <= n.back()) continue;
    n.push_back(x);
    share.push_back(fan_out_slow_share(p.p, static_cast<std::int64_t>(x)));
  }
  r.table("slow_share").column("n", std::move(n)).column("p_any_slow_frac", std::move(share));
}

Result<RunResult> run_fan_out(const FanOutParams& p, std::uint64_t seed, RunControl& ctl) {
  const auto ns = sweep_ns(p.leaves);
  double total = 0;
  for (std::int64_t n : ns) total += 2.0 * static_cast<double>(n * p.requests);
  ProgressSplitter progress(ctl, total);
  const auto seeds = scenario_seeds(seed, 2 + 2 * static_cast<int>(ns.size()));
  const LeafModel m = make_leaf_model(p, ns, seeds, progress);

  std::vector<Point> points;
  for (std::size_t i = 0; i < ns.size(); ++i) {
    Rng plain_rng = Rng::stream(seeds[2 + 2 * i], Stream::Service);
    Point pt{ns[i], simulate_fan_out(m.sampler, ns[i], p.requests, m.slow_after_s, std::nullopt, plain_rng), std::nullopt};
    progress.next(static_cast<double>(ns[i] * p.requests)).report(1, 1);
    if (m.hedged_sampler) {
      Rng hedged_rng = Rng::stream(seeds[3 + 2 * i], Stream::Service);
      pt.hedged = simulate_fan_out(*m.hedged_sampler, ns[i], p.requests, m.slow_after_s, m.hedge_after_s, hedged_rng);
    }
    progress.next(static_cast<double>(ns[i] * p.requests)).report(1, 1);
    points.push_back(std::move(pt));
  }

  RunResult result;
  add_focus_outputs(result, p, m, points);
  if (!m.hedged_sampler)
    result.notice("hedge_unstable", "With M/M/1 leaves at rho = " + format_number(p.rho) + ", hedging after the leaf p" +
                                        format_number(100 * p.q) +
                                        " has no steady state: backups add load, which slows the leaves and triggers "
                                        "more backups. Lower rho or hedge later.");
  else if (p.leaf == LeafKind::Mm1)
    result.notice("hedge_load", "Backups raise each M/M/1 leaf's load from rho = " + format_number(p.rho) + " to " +
                                    format_number(round_significant(p.rho * (1 + m.hedge_share), 3)) + ", so " +
                                    format_number(round_significant(100 * m.hedge_share, 3)) + " % of leaf requests get a backup, not " +
                                    format_number(round_significant(100 * (1 - p.q), 3)) + " %.");
  add_sweep_table(result, p, m, points);
  add_slow_share_curve(result, p);
  return result;
}

}  // namespace

CellSpec fan_out_cell() {
  CellSpec cell = checked_cell<&validate_fan_out, &run_fan_out>("queues/fan-out",
      {explored(count("leaves", "leaves", 100, 1, kMaxLeaves), 1, 300), real("percentile", "%", 99, 50, 99.99),
       choice("leaf", {"exp", "lognormal", "mm1"}, "exp"), real("leaf_mean_ms", "ms", 10, 1e-3, 1e5),
       real("cv", "", 1.5, 0.05, 10), real("service_ms", "ms", 5, 1e-3, 1e5), real("rho", "", 0.7, 0.01, 0.95),
       real("hedge_pct", "%", 95, 50, 99.99), count("requests", "requests", 10'000, 1'000, 1'000'000)});
  cell.presets = presets_of({{"wide-fan-out", "leaves=1000 percentile=99.9"}});
  cell.outputs = outputs({"p_any_slow_frac", "sim_p_any_slow_frac", "sim_p_any_slow_lo_frac", "sim_p_any_slow_hi_frac",
                  "sim_p_any_slow_se_frac", "sim_req_p50_se_ms", "leaf_mean_ms", "leaf_pctl_ms", "req_p50_ms",
                  "sim_req_p50_ms", "sim_req_p50_lo_ms", "sim_req_p50_hi_ms", "req_p99_ms", "sim_req_p99_ms",
                  "sim_req_p99_lo_ms", "sim_req_p99_hi_ms", "hedge_after_ms", "hedged_p99_ms", "sim_hedged_p99_ms",
                  "sim_hedged_p99_lo_ms", "sim_hedged_p99_hi_ms", "hedge_share_frac", "sim_hedge_share_frac",
                  "sim_hedge_share_lo_frac", "sim_hedge_share_hi_frac", "p99_cut_x", "sim_hedge_share_se_frac"});
  cell.tables = {table("sweep"), table("slow_share")};
  cell.budget = {budget::describe(kDrawsWhat, "draws", kLeafDrawCost)};
  return cell;
}

}  // namespace sl::queues
