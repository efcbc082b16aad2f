// Cell batching/fixed-window. Calendar windows of length T under Poisson arrivals (rate lambda):
//   eq. 8  — a request waits T/2 on average for its window to close (uniform position in the window);
//   eq. 9  — the number of requests per window is Poisson(lambda T), so batch sizes vary (Table 10);
//   eq. 13 — the book's tail envelope T + T_svc(B_req,p99), against the true p99 we simulate.
// One Poisson stream is cut into windows of each length in a sweep, so every T sees the same requests.
// Table 14's 12 ms window and eq. 8's 20 ms budget example run on the same stream; Table 10's four rates
// each get their own stream.
#include <algorithm>
#include <array>
#include <cmath>
#include <utility>
#include <string>

#include "batching/arrivals.h"
#include "batching/batch_formulas.h"
#include "batching/cells.h"
#include "batching/service_model.h"
#include "batching/window_batching.h"
#include "core/checked_run.h"
#include "core/budget.h"
#include "core/outputs.h"
#include "core/stats.h"

namespace sl::batching {
namespace {

constexpr std::array<double, 4> kTable10RatesPerS = {50, 200, 500, 1000};
constexpr double kMinWindows = 100;           // fewer whole windows would make the statistics meaningless
/// An expected arrival of the stream, natively, over all the windows the run cuts it into (the sweep and the
/// named windows), and the bytes it holds at the peak: its time, its window, its wait, latency and batch.
/// Measured: 1.0 us (duration_s 4000: 2e6 requests in 2.0 s of CPU).
constexpr budget::UnitCost kArrivalCost{1.0e-6, 48};
/// A window of one length, natively, times the 17 runs that may each cut about that many (the named windows and
/// the sweep's rows, which skip a length with more), and its bytes (its count and its batch's start). Measured:
/// 0.9 us (lambda 10, duration_s 20000: 2e6 windows of 10 ms in 1.78 s of CPU).
constexpr budget::UnitCost kWindowCost{0.9e-6, 16};
constexpr const char* kArrivalsWhat = "the expected requests (lambda x duration_s)";

/// The most expected requests and windows of one length a run may have (the budget's limits).
double max_arrivals() { return budget::estimate("", "", "", 0, kArrivalCost).max_amount(); }
double max_windows() { return budget::estimate("", "", "", 0, kWindowCost).max_amount(); }
constexpr int kNumBatchesForSe = 32;          // batch_means_se's default batches

struct WindowStats {
  RunningStats wait_s;
  RunningStats latency_s;
  RunningStats seen_batch;
  double p99_latency_s = 0;
  RunningStats per_window;  ///< batch size per window (empty windows included)
  std::int64_t num_empty = 0;
};

/// The share of requests slower than the eq. 13 envelope, with its standard error by batch means (32 batches
/// of successive requests: requests share batches, so they correlate).
struct RequestErrors {
  double over_envelope_frac = 0, over_envelope_se_frac = 0;
};

RequestErrors request_errors(const CalendarWindowRun& run, double envelope_s) {
  RequestErrors e;
  if (run.latency_s.empty()) return e;
  std::vector<double> over;
  double num_over = 0;
  for (double latency_s : run.latency_s) {
    over.push_back(latency_s > envelope_s ? 1.0 : 0.0);
    num_over += over.back();
  }
  e.over_envelope_frac = num_over / static_cast<double>(over.size());
  if (over.size() >= 2 * static_cast<std::size_t>(kNumBatchesForSe)) e.over_envelope_se_frac = batch_means_se(over);
  return e;
}

WindowStats window_stats(const CalendarWindowRun& run) {
  WindowStats s;
  for (std::size_t i = 0; i < run.wait_s.size(); ++i) {
    s.wait_s.add(run.wait_s[i]);
    s.latency_s.add(run.latency_s[i]);
    s.seen_batch.add(static_cast<double>(run.seen_batch[i]));
  }
  for (std::int64_t c : run.window_counts) {
    s.per_window.add(static_cast<double>(c));
    s.num_empty += c == 0;
  }
  s.p99_latency_s = run.latency_s.empty() ? 0 : quantile(run.latency_s, 0.99);
  return s;
}

/// Table 10's outputs per arrival rate (literal names: each is a book reference).
constexpr std::array<const char*, 4> kTable10MeanOutputs = {"t10_mean_50", "t10_mean_200", "t10_mean_500",
                                                            "t10_mean_1000"};
constexpr std::array<const char*, 4> kTable10StdOutputs = {"t10_std_50", "t10_std_200", "t10_std_500", "t10_std_1000"};
constexpr std::array<const char*, 4> kTable10EmptyOutputs = {"t10_p_empty_50_frac", "t10_p_empty_200_frac",
                                                             "t10_p_empty_500_frac", "t10_p_empty_1000_frac"};
constexpr std::array<const char*, 4> kTable10DoubleOutputs = {"t10_p_double_50_frac", "t10_p_double_200_frac",
                                                              "t10_p_double_500_frac", "t10_p_double_1000_frac"};

/// Poisson arrivals cut into calendar windows, served by the linear T_svc(B), for duration_s.
struct FixedWindowParams {
  double lambda_per_s = 500;
  double window_ms = 10;
  LinearServiceMs service;
  bool one_accelerator = false;  ///< accelerators=one: a batch may wait for the previous one
  double duration_s = 200;
  double t14_window_ms = 12;     ///< Table 14's selected window
  double budget_window_ms = 20;  ///< eq. 8's budget example
  double slo_ms = 50;
};

Result<FixedWindowParams> validate_fixed_window(const Inputs& in) {
  FixedWindowParams p;
  p.lambda_per_s = in.real("lambda");
  p.window_ms = in.real("window_ms");
  p.one_accelerator = in.choice("accelerators") == "one";
  p.duration_s = in.real("duration_s");
  p.t14_window_ms = in.real("t14_window_ms");
  p.budget_window_ms = in.real("budget_window_ms");
  p.slo_ms = in.real("slo_ms");
  const double lambda = p.lambda_per_s;
  const double duration_s = p.duration_s;
  if (auto e = budget::check(budget::estimate("duration_s", kArrivalsWhat, "requests", lambda * duration_s, kArrivalCost)))
    return *e;
  for (const auto& [name, window_ms] : {std::pair{"window_ms", p.window_ms}, std::pair{"t14_window_ms", p.t14_window_ms},
                                        std::pair{"budget_window_ms", p.budget_window_ms}}) {
    const double windows = duration_s / (window_ms * 1e-3);
    if (auto e = budget::check(budget::estimate(
            "duration_s", std::string("the windows of ") + name + " = " + format_number(window_ms) + " ms in duration_s,",
            "windows", windows, kWindowCost)))
      return *e;
    if (windows < kMinWindows)
      return Error{"invalid", "duration_s",
                   "duration_s must hold at least " + format_number(kMinWindows) + " windows of " + name + " = " +
                       format_number(window_ms) + " ms, got " + format_number(windows),
                   {{"min", format_number(kMinWindows)}, {"got", format_number(windows)}, {"problem", "too_few_windows"}, {"other", name},
                    {"window_ms", format_number(window_ms)}}};
  }
  auto service = validate_linear_service(in);
  if (!service.ok()) return service.error();
  p.service = service.value();
  return p;
}

void output_table10(RunResult& result, double window_s, double duration_s, std::uint64_t seed, RunControl& ctl) {
  Rng rng = Rng::stream(seed, Stream::Misc);
  // The four streams together stay within the arrival budget: 1,750 req/s for at most 2,200 s (max_arrivals()
  // is 4e6; validation guarantees >= 100 windows of at most 10 s in duration_s, and 2,200 s holds over 100 too).
  double rates_sum = 0;
  for (double lambda : kTable10RatesPerS) rates_sum += lambda;
  const double horizon_s = std::fmin(duration_s, max_arrivals() / rates_sum);  // window count: validated
  std::vector<double> rate, mean, sd, p_empty, p_empty_sim, p_double, p_double_sim;
  for (std::size_t i = 0; i < kTable10RatesPerS.size(); ++i) {
    const double lambda = kTable10RatesPerS[i];
    const double m = lambda * window_s;
    const auto at_least = static_cast<std::int64_t>(round_half_up(2 * m));  // Pr(batch >= 2 x mean)
    result.output(kTable10MeanOutputs[i], m);
    result.output(kTable10StdOutputs[i], std::sqrt(m));
    result.output(kTable10EmptyOutputs[i], poisson_pmf(0, m));
    result.output(kTable10DoubleOutputs[i], poisson_tail_at_least(at_least, m));
    const auto counts =
        simulate_calendar_windows({window_s}, piecewise_poisson_arrivals_s({{horizon_s, lambda}}, rng), horizon_s)
            .window_counts;
    double empty = 0, doubled = 0;
    for (std::int64_t c : counts) {
      empty += c == 0;
      doubled += c >= at_least;
    }
    rate.push_back(lambda);
    mean.push_back(m);
    sd.push_back(std::sqrt(m));
    p_empty.push_back(poisson_pmf(0, m));
    p_empty_sim.push_back(empty / static_cast<double>(counts.size()));
    p_double.push_back(poisson_tail_at_least(at_least, m));
    p_double_sim.push_back(doubled / static_cast<double>(counts.size()));
    ctl.report(static_cast<double>(rate.size()), 8);
  }
  result.table("table10")
      .column("rate_per_s", rate)
      .column("mean", mean)
      .column("std", sd)
      .column("p_empty_frac", p_empty)
      .column("p_empty_sim_frac", p_empty_sim)
      .column("p_double_frac", p_double)
      .column("p_double_sim_frac", p_double_sim);
}

/// Requests per window, simulated share against eq. 9's Poisson pmf, over mean +- 5 sd. Wide ranges are
/// grouped into at most `max_points` bins of equal width; each row then holds the per-k average of its bin.
void table_batch_pmf(RunResult& result, const std::vector<std::int64_t>& window_counts, double m, int max_points) {
  const auto k_lo = static_cast<std::int64_t>(std::fmax(0.0, std::floor(m - 5 * std::sqrt(m) - 5)));
  const auto k_hi = static_cast<std::int64_t>(std::ceil(m + 5 * std::sqrt(m) + 5));
  const std::int64_t span = k_hi - k_lo + 1;
  const std::int64_t width = (span + max_points - 1) / max_points;
  const std::int64_t num_bins = (span + width - 1) / width;
  std::vector<double> sim(static_cast<std::size_t>(num_bins), 0.0), pmf(static_cast<std::size_t>(num_bins), 0.0);
  for (std::int64_t c : window_counts)
    if (c >= k_lo && c <= k_hi) sim[static_cast<std::size_t>((c - k_lo) / width)] += 1;
  double p = poisson_pmf(k_lo, m);  // then p_k = p_{k-1} m / k
  for (std::int64_t k = k_lo; k <= k_hi; ++k) {
    if (k > k_lo) p *= m / static_cast<double>(k);
    pmf[static_cast<std::size_t>((k - k_lo) / width)] += p;
  }
  std::vector<double> batch;
  const auto windows = static_cast<double>(window_counts.size());
  for (std::int64_t b = 0; b < num_bins; ++b) {
    const std::int64_t first = k_lo + b * width;
    const auto in_bin = static_cast<double>(std::min(width, k_hi - first + 1));
    batch.push_back(static_cast<double>(first));
    sim[static_cast<std::size_t>(b)] /= windows * in_bin;
    pmf[static_cast<std::size_t>(b)] /= in_bin;
  }
  result.table("batch_pmf").column("batch", batch).column("sim_frac", sim).column("poisson_frac", pmf);
}

Result<RunResult> run_fixed_window(const FixedWindowParams& p, std::uint64_t seed, RunControl& ctl) {
  const double lambda = p.lambda_per_s;
  const double window_s = p.window_ms * 1e-3;
  const double duration_s = p.duration_s;
  const ServiceModel service = p.service.model();
  const bool one_accelerator = p.one_accelerator;
  Rng rng = Rng::stream(seed, Stream::Arrivals);
  // Arrivals up to the horizon; the windows cut them at the last whole window.
  const auto arrivals_s = piecewise_poisson_arrivals_s({{duration_s, lambda}}, rng);
  auto simulate = [&](double t_s) {
    return window_stats(simulate_calendar_windows({t_s, service, one_accelerator}, arrivals_s, duration_s));
  };

  RunResult result;
  // Eq. 8, eq. 9 and eq. 13 at (lambda, T).
  const CalendarWindowRun main_run = simulate_calendar_windows({window_s, service, one_accelerator}, arrivals_s, duration_s);
  const WindowStats main = window_stats(main_run);
  const double m = lambda * window_s;
  const RequestErrors errors = request_errors(main_run, envelope_latency_s(lambda, window_s, service));
  result.output("wait_closed_ms", window_mean_wait_s(window_s) * 1e3);
  result.output("wait_sim_ms", main.wait_s.mean() * 1e3);
  result.output("wait_sim_se_ms", main.wait_s.standard_error() * 1e3);  // waits are i.i.d. uniform on (0, T)
  result.output("wait_max_sim_ms", main.wait_s.max() * 1e3);
  result.output("batch_mean_closed", m);
  result.output("batch_mean_sim", main.per_window.mean());
  result.output("batch_var_sim", main.per_window.variance());
  result.output("p_empty_closed_frac", poisson_pmf(0, m));
  result.output("p_empty_sim_frac", static_cast<double>(main.num_empty) / static_cast<double>(main.per_window.count()));
  result.output("seen_batch_mean_closed", 1 + m);
  result.output("seen_batch_mean_sim", main.seen_batch.mean());
  result.output("seen_batch_p99", static_cast<double>(request_seen_batch_quantile(lambda, window_s, 0.99)));
  const double mean_closed_s = window_mean_latency_s(lambda, window_s, service);
  const double envelope_s = envelope_latency_s(lambda, window_s, service);
  result.output("latency_mean_closed_ms", mean_closed_s * 1e3);
  result.output("latency_mean_sim_ms", main.latency_s.mean() * 1e3);
  result.output("envelope_ms", envelope_s * 1e3);
  result.output("envelope_over_mean", envelope_s / mean_closed_s);
  result.output("latency_p99_sim_ms", main.p99_latency_s * 1e3);
  result.output("envelope_over_p99_sim", envelope_s / main.p99_latency_s);
  // The share of requests slower than the eq. 13 envelope, and its batch-means SE (requests share batches).
  result.output("over_envelope_frac", errors.over_envelope_frac);
  result.output("over_envelope_se_frac", errors.over_envelope_se_frac);
  ctl.report(1, 8);

  // Table 14: the same stream behind its selected 12 ms window.
  const double t14_s = p.t14_window_ms * 1e-3;
  const WindowStats t14 = simulate(t14_s);
  result.output("t14_seen_batch_mean", 1 + lambda * t14_s);
  result.output("t14_seen_batch_p99", static_cast<double>(request_seen_batch_quantile(lambda, t14_s, 0.99)));
  result.output("t14_latency_mean_closed_ms", window_mean_latency_s(lambda, t14_s, service) * 1e3);
  result.output("t14_envelope_ms", envelope_latency_s(lambda, t14_s, service) * 1e3);
  result.output("t14_latency_p99_sim_ms", t14.p99_latency_s * 1e3);
  ctl.report(2, 8);

  // Eq. 8's budget example: the average and worst window wait against a mean-latency SLO.
  const double budget_s = p.budget_window_ms * 1e-3;
  result.output("budget_wait_ms", window_mean_wait_s(budget_s) * 1e3);
  result.output("budget_wait_max_ms", budget_s * 1e3);
  result.output("budget_wait_share_frac", window_mean_wait_s(budget_s) / (p.slo_ms * 1e-3));
  const WindowStats budget = simulate(budget_s);
  result.output("budget_wait_sim_ms", budget.wait_s.mean() * 1e3);
  result.output("budget_wait_sim_se_ms", budget.wait_s.standard_error() * 1e3);  // i.i.d. uniform on (0, T), as above
  ctl.report(3, 8);

  output_table10(result, window_s, duration_s, seed, ctl);

  table_batch_pmf(result, simulate_calendar_windows({window_s, service, one_accelerator}, arrivals_s, duration_s).window_counts,
                  m, ctl.max_points);

  // Wait, tail and envelope against the window length, all on the same stream.
  std::vector<double> t_col, wait_sim, wait_closed, p99_sim, envelope, mean_closed;
  for (double t_ms : {1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.0, 15.0, 20.0, 25.0, 30.0, 40.0}) {
    const double windows = duration_s / (t_ms * 1e-3);
    if (windows < kMinWindows || windows > max_windows()) continue;
    const WindowStats s = simulate(t_ms * 1e-3);
    t_col.push_back(t_ms);
    wait_sim.push_back(s.wait_s.mean() * 1e3);
    wait_closed.push_back(t_ms / 2);
    p99_sim.push_back(s.p99_latency_s * 1e3);
    envelope.push_back(envelope_latency_s(lambda, t_ms * 1e-3, service) * 1e3);
    mean_closed.push_back(window_mean_latency_s(lambda, t_ms * 1e-3, service) * 1e3);
    ctl.report(4 + 4 * static_cast<double>(t_col.size()) / 14, 8);
  }
  result.table("by_window")
      .column("window_ms", t_col)
      .column("wait_sim_ms", wait_sim)
      .column("wait_closed_ms", wait_closed)
      .column("latency_p99_sim_ms", p99_sim)
      .column("envelope_ms", envelope)
      .column("latency_mean_closed_ms", mean_closed);

  if (one_accelerator)
    result.notice("one_accelerator",
                  "with one accelerator a batch may wait for the previous one; the closed forms (eq. 8, 13) ignore "
                  "that wait, so the simulated numbers can exceed them");
  return result;
}

}  // namespace

CellSpec fixed_window_cell() {
  CellSpec cell = checked_cell<&validate_fixed_window, &run_fixed_window>("batching/fixed-window",
      {explored(real("lambda", "1/s", 500, 1e-3, 1e5), 10, 1000),
       explored(real("window_ms", "ms", 10, 0.01, 1e4), 1, 40),
       real("svc_fixed_ms", "ms", 5, 0, 1e4), real("svc_per_item_ms", "ms", 0.6, 0, 1e4),
       choice("accelerators", {"unlimited", "one"}, "unlimited"), real("duration_s", "s", 200, 0.01, 1e6),
       real("t14_window_ms", "ms", 12, 0.01, 1e4), real("budget_window_ms", "ms", 20, 0.01, 1e4),
       real("slo_ms", "ms", 50, 1e-3, 1e6)});
  cell.outputs = outputs({"wait_closed_ms", "wait_sim_ms", "wait_sim_se_ms", "wait_max_sim_ms", "batch_mean_closed",
                  "batch_mean_sim", "batch_var_sim", "p_empty_closed_frac", "p_empty_sim_frac",
                  "seen_batch_mean_closed", "seen_batch_mean_sim", "seen_batch_p99", "latency_mean_closed_ms",
                  "latency_mean_sim_ms", "envelope_ms", out("envelope_over_mean", "×"), "latency_p99_sim_ms",
                  out("envelope_over_p99_sim", "×"), "over_envelope_frac", "over_envelope_se_frac",
                  "t14_seen_batch_mean", "t14_seen_batch_p99", "t14_latency_mean_closed_ms", "t14_envelope_ms",
                  "t14_latency_p99_sim_ms", "budget_wait_ms", "budget_wait_max_ms", "budget_wait_share_frac",
                  "budget_wait_sim_ms", "budget_wait_sim_se_ms", "t10_mean_50", "t10_std_50", "t10_p_empty_50_frac",
                  "t10_p_double_50_frac", "t10_mean_200", "t10_std_200", "t10_p_empty_200_frac",
                  "t10_p_double_200_frac", "t10_mean_500", "t10_std_500", "t10_p_empty_500_frac",
                  "t10_p_double_500_frac", "t10_mean_1000", "t10_std_1000", "t10_p_empty_1000_frac",
                  "t10_p_double_1000_frac"});
  cell.tables = {table("table10"), table("batch_pmf"), table("by_window")};
  cell.budget = {budget::describe(kArrivalsWhat, "requests", kArrivalCost),
                 budget::describe("the windows of each length in duration_s", "windows", kWindowCost)};
  return cell;
}

}  // namespace sl::batching
