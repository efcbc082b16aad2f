// Cell queues/burst-admission. A traffic spike (the book's Black Friday: 1,000 -> 10,000 QPS at 50 ms per
// request) goes through c workers behind one FCFS queue, twice on the same arrivals: with no limit on the
// queue, and with admission control that rejects an arrival when limit = k x workers requests already wait
// (the book suggests k = 2-3). Clients give up after a timeout. Per interval of arrival time we count
// goodput (served within the timeout), late answers (served after the client left: wasted work), drops and
// rejections, the exact time-average queue and the p99 latency of served requests. Beside them a fluid
// model: the spike leaves (spike - capacity) x duration requests behind, which take backlog / capacity to
// serve, so the last spike request waits about that long; its queue over time is drawn beside the simulated one.
// The whole run's p99 and maximum latency of served requests are reported too; a burst is one transient, so
// their sampling error (and the shares') comes from independent replications of the run (replicas).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/checked_run.h"
#include "core/budget.h"
#include "core/outputs.h"
#include "core/preset.h"
#include "core/rng.h"
#include "core/stats.h"
#include "core/table_columns.h"
#include "queues/admission.h"
#include "queues/capacity_plan.h"
#include "queues/cells.h"
#include "queues/erlang_c.h"

namespace sl::queues {
namespace {

/// An arrival of one policy's run (2 policies share the arrivals), natively, with the time in system it keeps for
/// its interval's percentiles: 262 ns measured (base_per_s 40000, spike_per_s 100000: 1.45e6 arrivals in 0.38 s of
/// CPU).
constexpr budget::UnitCost kArrivalCost{300e-9, 24};
constexpr const char* kArrivalsWhat = "the expected arrivals (each simulated under 2 admission policies)";

struct BurstParams {
  AdmissionParams sim;
  double service_s;
  bool exponential;
  std::int64_t queue_limit;
  double interval_s;                 // asked width of a timeline interval
  std::int64_t num_example_workers;  // the book's example of limit = 2-3 x workers
  std::int64_t num_replicas = 1;     // independent runs of the whole burst, for standard errors
  double bucket_s = 0;               // the interval used (widened for long runs), set by the run
  std::int64_t num_buckets = 0;
};

/// Counts per interval of arrival time, and the totals, for one admission policy.
struct PolicyTally {
  AdmissionRun run;
  std::vector<double> good, late, rejected, dropped;  // counts per bucket
  std::vector<std::vector<double>> served_s;           // time in system of served requests, per bucket
  std::int64_t num_offered = 0, num_good = 0, num_late = 0, num_rejected = 0, num_dropped = 0;
};

Result<BurstParams> validate_burst_admission(const Inputs& in) {
  BurstParams p;
  p.service_s = in.real("service_ms") * 1e-3;
  p.exponential = in.choice("service") == "exp";
  p.sim.arrivals = SpikeProfile{in.real("base_per_s"), in.real("spike_per_s"), in.real("spike_at_s"), in.real("spike_s"),
                                in.real("after_s")};
  p.sim.num_workers = in.count("workers");
  p.sim.service = p.exponential ? Distribution::exponential(1 / p.service_s) : Distribution::deterministic(p.service_s);
  p.sim.timeout_s = in.real("timeout_ms") * 1e-3;
  p.sim.drop_expired = in.choice("on_timeout") == "drop";
  p.queue_limit = static_cast<std::int64_t>(std::floor(in.real("queue_per_worker") * static_cast<double>(p.sim.num_workers) + 1e-9));
  p.interval_s = in.real("interval_ms") * 1e-3;
  p.num_example_workers = in.count("example_workers");
  p.num_replicas = in.count("replicas");
  const SpikeProfile& a = p.sim.arrivals;
  if (!(a.expected_arrivals() > 0))
    return Error{"invalid", "base_per_s", "no requests arrive: base_per_s and spike_per_s are both 0, or the spike and the time around it have zero length",
                 {{"got", format_number(a.base_per_s)}, {"problem", "no_arrivals"}}};
  const bool spike_dominates = a.spike_per_s * a.spike_s >= a.base_per_s * (a.spike_at_s + a.after_s);
  if (auto e = budget::check(budget::estimate(spike_dominates ? "spike_per_s" : "base_per_s", kArrivalsWhat, "requests",
                                              a.expected_arrivals(), kArrivalCost)))
    return *e;
  // Each replica runs the whole burst again (the standard errors come from their spread).
  if (auto e = budget::check(budget::estimate("replicas", "the expected arrivals over all replicas", "requests",
                                              a.expected_arrivals() * static_cast<double>(p.num_replicas), kArrivalCost)))
    return *e;
  return p;
}

/// At most max_points / 2 intervals (the p99 table has a row per interval and policy): widen them if the
/// run is long.
void set_buckets(BurstParams& p, int max_points) {
  p.bucket_s = std::max(p.interval_s, p.sim.arrivals.end_at_s() / std::max(1, max_points / 2));
  p.num_buckets = std::max<std::int64_t>(1, ceil_count(p.sim.arrivals.end_at_s() / p.bucket_s));
}

PolicyTally simulate_policy(const BurstParams& p, std::int64_t max_waiting, std::uint64_t seed, RunProgress& progress) {
  AdmissionParams sim = p.sim;
  sim.max_waiting = max_waiting;
  PolicyTally t;
  const auto n = static_cast<std::size_t>(p.num_buckets);
  t.good.assign(n, 0);
  t.late.assign(n, 0);
  t.rejected.assign(n, 0);
  t.dropped.assign(n, 0);
  t.served_s.assign(n, {});
  t.run = simulate_admission(sim, seed, p.bucket_s, progress, [&](const AdmissionRecord& r) {
    const auto b = std::min(n - 1, static_cast<std::size_t>(r.arrival_at_s / p.bucket_s));
    ++t.num_offered;
    switch (r.outcome) {
      case Outcome::Good: ++t.num_good, ++t.good[b], t.served_s[b].push_back(r.time_in_system_s()); break;
      case Outcome::Late: ++t.num_late, ++t.late[b], t.served_s[b].push_back(r.time_in_system_s()); break;
      case Outcome::Rejected: ++t.num_rejected, ++t.rejected[b]; break;
      case Outcome::Dropped: ++t.num_dropped, ++t.dropped[b]; break;
    }
  });
  return t;
}

/// Per-second rates of per-bucket counts (the last bucket may be shorter).
std::vector<double> per_s(const std::vector<double>& counts, const BurstParams& p) {
  std::vector<double> rates(counts.size());
  const double end_s = p.sim.arrivals.end_at_s();
  for (std::size_t b = 0; b < counts.size(); ++b) {
    const double width_s = std::min(p.bucket_s, end_s - static_cast<double>(b) * p.bucket_s);
    rates[b] = width_s > 0 ? counts[b] / width_s : 0.0;
  }
  return rates;
}

/// The queue series resized to the interval grid (the step series ends at the same time).
std::vector<double> queue_series(const PolicyTally& t, const BurstParams& p) {
  std::vector<double> q = t.run.waiting.bucket_means();
  q.resize(static_cast<std::size_t>(p.num_buckets), 0.0);
  return q;
}

/// The fluid model's queue per interval (its time average): arrivals flow in at the profile's rate and
/// c/S flow out while anything waits, so the queue grows at (rate - capacity) when that is positive and
/// drains at (capacity - rate) down to 0; an admission limit caps it (the excess is rejected). Integrated in
/// kFluidSteps steps per interval; timeouts are ignored.
std::vector<double> fluid_queue(const BurstParams& p, std::int64_t max_waiting) {
  constexpr int kFluidSteps = 64;
  const SpikeProfile& a = p.sim.arrivals;
  const double capacity = static_cast<double>(p.sim.num_workers) / p.service_s;
  const double dt = p.bucket_s / kFluidSteps;
  std::vector<double> means(static_cast<std::size_t>(p.num_buckets));
  double q = 0;
  for (std::size_t b = 0; b < means.size(); ++b) {
    double sum = 0;
    for (int k = 0; k < kFluidSteps; ++k) {
      const double t_s = (static_cast<double>(b) + (k + 0.5) / kFluidSteps) * p.bucket_s;
      q = std::max(0.0, q + (a.rate_at(t_s) - capacity) * dt);
      if (max_waiting >= 0) q = std::min(q, static_cast<double>(max_waiting));
      sum += q;
    }
    means[b] = sum / kFluidSteps;
  }
  return means;
}

void output_closed_forms(const BurstParams& p, RunResult& result) {
  const SpikeProfile& a = p.sim.arrivals;
  const double capacity = static_cast<double>(p.sim.num_workers) / p.service_s;
  if (a.base_per_s > 0) result.output("spike_factor", a.spike_per_s / a.base_per_s);
  result.output("capacity_per_s", capacity);
  result.output("base_rho", a.base_per_s / capacity);
  result.output("spike_rho", a.spike_per_s / capacity);
  if (p.exponential && a.base_per_s > 0 && a.base_per_s < capacity)
    result.output("normal_latency_ms", 1e3 * mmc_mean_time_in_system_s(p.sim.num_workers, a.base_per_s, 1 / p.service_s));
  if (a.base_per_s < capacity) {
    const double backlog = std::max(0.0, (a.spike_per_s - capacity) * a.spike_s);
    result.output("fluid_backlog", backlog);
    result.output("fluid_peak_latency_s", backlog / capacity + p.service_s);
    result.output("fluid_drain_s", backlog / (capacity - a.base_per_s));
    // The simulated peak p99 (peak_p99_none_s) is about the drain time of the spike's backlog, arrivals minus
    // departures over the spike: Poisson counts with variances spike x duration and (exponential service)
    // capacity x duration, so its sampling SD is sqrt(their sum) / capacity (0.087 s at the book's numbers).
    if (backlog > 0)
      result.output("peak_p99_none_se_s",
                    std::sqrt(a.spike_per_s * a.spike_s + (p.exponential ? capacity * a.spike_s : 0.0)) / capacity);
  }
  result.output("queue_limit", static_cast<double>(p.queue_limit));
  const double example = static_cast<double>(p.num_example_workers);
  result.output("example_limit_low", 2 * example);
  result.output("example_limit_high", 3 * example);
}

/// Output names of one policy's totals, written out so that grep finds them.
struct PolicyNames {
  const char* good_frac;
  const char* late_frac;
  const char* rejected_frac;
  const char* dropped_frac;
  const char* peak_p99_s;
  const char* max_queue;
  const char* busy_spike_frac;
};
constexpr PolicyNames kNoLimitNames{"good_none_frac",  "late_none_frac", "rejected_none_frac",  "dropped_none_frac",
                                    "peak_p99_none_s", "max_queue_none", "busy_spike_none_frac"};
constexpr PolicyNames kLimitNames{"good_limit_frac",  "late_limit_frac", "rejected_limit_frac",  "dropped_limit_frac",
                                  "peak_p99_limit_s", "max_queue_limit", "busy_spike_limit_frac"};

/// Totals of one policy, under its names.
void output_totals(const PolicyTally& t, const BurstParams& p, const PolicyNames& names, RunResult& result) {
  const auto n = static_cast<double>(t.num_offered);
  result.output(names.good_frac, static_cast<double>(t.num_good) / n);
  result.output(names.late_frac, static_cast<double>(t.num_late) / n);
  result.output(names.rejected_frac, static_cast<double>(t.num_rejected) / n);
  if (p.sim.drop_expired) result.output(names.dropped_frac, static_cast<double>(t.num_dropped) / n);
  double peak_p99_s = 0;
  bool any_served = false;
  for (const auto& bucket : t.served_s)
    if (!bucket.empty()) peak_p99_s = std::max(peak_p99_s, quantile(bucket, 0.99)), any_served = true;
  if (any_served) result.output(names.peak_p99_s, peak_p99_s);
  result.output(names.max_queue, static_cast<double>(t.run.max_waiting_seen));
  const SpikeProfile& a = p.sim.arrivals;
  if (a.spike_s > 0)
    result.output(names.busy_spike_frac, t.run.busy_in_spike_s / (static_cast<double>(p.sim.num_workers) * a.spike_s));
}

/// The whole run's p99 and maximum time in system of served requests (every arrival time), and the shares.
struct RunSummary {
  bool any_served = false;
  double p99_s = 0, max_s = 0;
  double good_frac = 0, rejected_frac = 0;
};

RunSummary summarize_run(const PolicyTally& t) {
  RunSummary s;
  std::vector<double> served_s;
  for (const auto& bucket : t.served_s) served_s.insert(served_s.end(), bucket.begin(), bucket.end());
  if (t.num_offered > 0) {
    s.good_frac = static_cast<double>(t.num_good) / static_cast<double>(t.num_offered);
    s.rejected_frac = static_cast<double>(t.num_rejected) / static_cast<double>(t.num_offered);
  }
  if (served_s.empty()) return s;
  s.any_served = true;
  s.max_s = *std::max_element(served_s.begin(), served_s.end());
  s.p99_s = quantile(std::move(served_s), 0.99);
  return s;
}

/// Standard errors of one run's statistics: their sample standard deviation over independent replications
/// of the whole run (the seed's run and replicas - 1 more), since a burst is one transient, not a stationary
/// series that batch means could cut.
struct RunSpread {
  RunningStats p99_s, max_s, good_frac, rejected_frac;
};

void add_replica(const RunSummary& s, RunSpread& spread) {
  if (s.any_served) spread.p99_s.add(s.p99_s), spread.max_s.add(s.max_s);
  spread.good_frac.add(s.good_frac);
  spread.rejected_frac.add(s.rejected_frac);
}

/// The seed's run of a policy, summarized, beside the spread over the replicas (nothing with one replica).
void output_whole_run(const RunSummary& s, const RunSpread& spread, std::int64_t num_replicas, bool is_limit,
                      RunResult& result) {
  if (s.any_served) {
    result.output(is_limit ? "p99_limit_ms" : "p99_none_ms", s.p99_s * 1e3);
    result.output(is_limit ? "max_limit_ms" : "max_none_ms", s.max_s * 1e3);
  }
  if (num_replicas < 2) return;
  if (spread.p99_s.count() >= 2) {
    result.output(is_limit ? "p99_limit_se_ms" : "p99_none_se_ms", spread.p99_s.stddev() * 1e3);
    result.output(is_limit ? "max_limit_se_ms" : "max_none_se_ms", spread.max_s.stddev() * 1e3);
  }
  result.output(is_limit ? "good_limit_se_frac" : "good_none_se_frac", spread.good_frac.stddev());
  if (is_limit) result.output("rejected_limit_se_frac", spread.rejected_frac.stddev());
}

void output_tables(const PolicyTally& none, const PolicyTally& limit, const BurstParams& p, RunResult& result) {
  std::vector<double> t_s(static_cast<std::size_t>(p.num_buckets));
  for (std::size_t b = 0; b < t_s.size(); ++b) t_s[b] = static_cast<double>(b) * p.bucket_s;
  std::vector<double> offered(t_s.size());
  for (std::size_t b = 0; b < t_s.size(); ++b) offered[b] = none.good[b] + none.late[b] + none.rejected[b] + none.dropped[b];
  result.table("timeline")
      .column("t_s", t_s)
      .column("offered_per_s", per_s(offered, p))
      .column("queue_none", queue_series(none, p))
      .column("queue_limit", queue_series(limit, p))
      .column("queue_fluid_none", fluid_queue(p, -1))
      .column("queue_fluid_limit", fluid_queue(p, p.queue_limit))
      .column("good_none_per_s", per_s(none.good, p))
      .column("good_limit_per_s", per_s(limit.good, p))
      .column("late_none_per_s", per_s(none.late, p))
      .column("late_limit_per_s", per_s(limit.late, p))
      .column("dropped_none_per_s", per_s(none.dropped, p))
      .column("dropped_limit_per_s", per_s(limit.dropped, p))
      .column("rejected_limit_per_s", per_s(limit.rejected, p));
  // p99 per interval in long form (interval, policy 0 = no limit / 1 = limit): only where requests were served.
  std::vector<double> at_s, policy, p99_ms;
  const PolicyTally* tallies[] = {&none, &limit};
  for (int k = 0; k < 2; ++k)
    for (std::size_t b = 0; b < t_s.size(); ++b) {
      if (tallies[k]->served_s[b].empty()) continue;
      at_s.push_back(t_s[b]);
      policy.push_back(k);
      p99_ms.push_back(1e3 * quantile(tallies[k]->served_s[b], 0.99));
    }
  std::vector<double> timeout_ms(at_s.size(), p.sim.timeout_s * 1e3);  // drawn as a rule beside the curves
  result.table("p99")
      .column("t_s", std::move(at_s))
      .column("policy", std::move(policy))
      .column("p99_ms", std::move(p99_ms))
      .column("timeout_ms", std::move(timeout_ms));
  TableColumns totals;
  for (int k = 0; k < 2; ++k) {
    const PolicyTally* t = tallies[k];
    const auto n = static_cast<double>(t->num_offered);
    totals.put("policy", k);
    totals.put("good_frac", static_cast<double>(t->num_good) / n);
    totals.put("late_frac", static_cast<double>(t->num_late) / n);
    totals.put("dropped_frac", static_cast<double>(t->num_dropped) / n);
    totals.put("rejected_frac", static_cast<double>(t->num_rejected) / n);
  }
  totals.into(result.table("totals"));
}

Result<RunResult> run_burst_admission(const BurstParams& checked, std::uint64_t seed, RunControl& ctl) {
  BurstParams p = checked;
  set_buckets(p, ctl.max_points);
  RunProgress progress(ctl, 2 * p.sim.arrivals.expected_arrivals() * static_cast<double>(p.num_replicas));
  const PolicyTally none = simulate_policy(p, -1, seed, progress);
  const PolicyTally limit = simulate_policy(p, p.queue_limit, seed, progress);
  const RunSummary none_run = summarize_run(none), limit_run = summarize_run(limit);
  RunSpread none_spread, limit_spread;
  add_replica(none_run, none_spread);
  add_replica(limit_run, limit_spread);
  Rng replica_seeds = Rng::stream(seed, Stream::Misc);
  for (std::int64_t r = 1; r < p.num_replicas; ++r) {
    const std::uint64_t replica_seed = replica_seeds.next_u64();
    add_replica(summarize_run(simulate_policy(p, -1, replica_seed, progress)), none_spread);
    add_replica(summarize_run(simulate_policy(p, p.queue_limit, replica_seed, progress)), limit_spread);
  }

  RunResult result;
  output_closed_forms(p, result);
  if (none.num_offered == 0) {
    result.notice("no_arrivals", "no request arrived in this run: raise the rates or the durations.");
    return result;
  }
  output_totals(none, p, kNoLimitNames, result);
  output_totals(limit, p, kLimitNames, result);
  output_whole_run(none_run, none_spread, p.num_replicas, false, result);
  output_whole_run(limit_run, limit_spread, p.num_replicas, true, result);
  output_tables(none, limit, p, result);
  result.output("interval_s", p.bucket_s);
  return result;
}

}  // namespace

CellSpec burst_admission_cell() {
  CellSpec cell = checked_cell<&validate_burst_admission, &run_burst_admission>("queues/burst-admission",
      {aliased(real("base_per_s", "1/s", 1000, 0, 1e6), {"base_qps"}),
       explored(aliased(real("spike_per_s", "1/s", 10000, 0, 1e7), {"spike_qps"}), 1000, 30'000),
       real("service_ms", "ms", 50, 1e-3, 1e6), choice("service", {"exp", "det"}, "exp"),
       count("workers", "workers", 100, 1, 100'000), real("spike_at_s", "s", 5, 0, 86400),
       explored(real("spike_s", "s", 2.5, 0, 86400), 0, 10), real("after_s", "s", 25, 0, 86400),
       real("timeout_ms", "ms", 1000, 1e-3, 1e8), explored(real("queue_per_worker", "", 3, 0, 1000), 0, 20),
       choice("on_timeout", {"serve", "drop"}, "serve"), real("interval_ms", "ms", 250, 1, 1e8),
       count("example_workers", "workers", 4, 1, 1e6), count("replicas", "runs", 1, 1, 1000)});
  cell.presets = presets_of({{"drop-on-timeout", "on_timeout=drop timeout_ms=250"}});
  cell.outputs = outputs({sometimes("spike_factor"), out("capacity_per_s", "req/s"), "base_rho", "spike_rho",
                   sometimes("normal_latency_ms"), sometimes(out("fluid_backlog", "requests")),
                   sometimes("fluid_peak_latency_s"), sometimes("fluid_drain_s"), "queue_limit", "example_limit_low",
                   "example_limit_high", sometimes("good_none_frac"), sometimes("late_none_frac"),
                   sometimes("rejected_none_frac"), sometimes("dropped_none_frac"), sometimes("peak_p99_none_s"),
                   sometimes("max_queue_none"), sometimes("busy_spike_none_frac"), sometimes("good_limit_frac"),
                   sometimes("late_limit_frac"), sometimes("rejected_limit_frac"), sometimes("dropped_limit_frac"),
                   sometimes("peak_p99_limit_s"), sometimes("max_queue_limit"), sometimes("busy_spike_limit_frac"),
                   sometimes("interval_s"), sometimes("peak_p99_none_se_s"), sometimes("p99_none_ms"),
                   sometimes("max_none_ms"), sometimes("p99_limit_ms"), sometimes("max_limit_ms"),
                   sometimes("p99_none_se_ms"), sometimes("max_none_se_ms"), sometimes("p99_limit_se_ms"),
                   sometimes("max_limit_se_ms"), sometimes("good_none_se_frac"), sometimes("good_limit_se_frac"),
                   sometimes("rejected_limit_se_frac")});
  cell.tables = {table("timeline"), table("p99"), table("totals")};
  cell.budget = {budget::describe(kArrivalsWhat, "requests", kArrivalCost)};
  return cell;
}

}  // namespace sl::queues
