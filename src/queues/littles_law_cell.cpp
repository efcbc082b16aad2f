// Cell queues/littles-law. Little's law, L = lambda W, holds for any queue in the long run. We simulate one
// FIFO server and measure the three quantities independently:
//   L      — the number in system integrated over the observation window [0, last arrival], divided by it;
//   lambda — arrivals counted in the window, divided by its length;
//   W      — the mean of each request's own time in system.
// Their gap comes only from the window's edge: W counts the whole stay of the requests still in system at
// the last arrival, L only its part inside the window. Below rho = 1 few are left and the gap shrinks as N
// grows; above it the queue grows and the gap stays near 1 - 1/rho however long the run. Beside them,
// napkin math 1.2 reads the law as a sizing rule: requests in flight = QPS x latency, and its inverse.
#include <cmath>
#include <vector>

#include "core/checked_run.h"
#include "core/outputs.h"
#include "core/preset.h"
#include "core/stats.h"
#include "queues/cells.h"
#include "queues/closed_forms.h"
#include "queues/confidence_intervals.h"
#include "queues/fifo_queue.h"
#include "queues/rounding.h"

namespace sl::queues {
namespace {

constexpr int kHistogramBins = 60;

/// Upper edge of the time-in-system histogram: 8 M/M/1 means when stable (P(W > 8 mean) = e^-8 for
/// exponential service, less for deterministic); for an unstable queue, where the last request waits about
/// N (1/mu - 1/lambda), that plus a diffusion margin.
double histogram_top_s(double lambda, double mu, std::int64_t n) {
  if (lambda < mu) return 8.0 / (mu - lambda);
  const double drift_s = static_cast<double>(n) * (1.0 / mu - 1.0 / lambda);
  return 1.2 * drift_s + 10.0 * std::sqrt(static_cast<double>(n)) / mu + 20.0 / mu;
}

struct LittlesLawParams {
  double lambda_per_s;
  double mu_per_s;
  bool exponential;          // service law: exponential (M/M/1) or fixed (M/D/1)
  std::int64_t num_requests;
  // Napkin math 1.2: requests in flight at a rate and latency, and the rate a number of slots sustains.
  double sizing_per_s;
  double sizing_latency_ms;
  double num_slots;
  double slot_latency_s;
};

Result<LittlesLawParams> validate_littles_law(const Inputs& in) {
  // The ranges are the only rules: rho >= 1 is allowed (a notice says how far L and lambda W then differ).
  return LittlesLawParams{in.real("lambda"), in.real("mu"), in.choice("service") == "exp", in.count("n"),
                          in.real("sizing_per_s"), in.real("latency_ms"), static_cast<double>(in.count("slots")),
                          in.real("fast_latency_ms") * 1e-3};
}

Result<RunResult> run_littles_law(const LittlesLawParams& p, std::uint64_t seed, RunControl& ctl) {
  const double lambda = p.lambda_per_s;
  const double mu = p.mu_per_s;
  const bool exponential = p.exponential;
  const std::int64_t n = p.num_requests;
  const double rho = lambda / mu;

  SingleServerParams params{lambda, exponential ? Distribution::exponential(mu) : Distribution::deterministic(1 / mu), n};
  const double expected_window_s = static_cast<double>(n) / lambda;
  RunningStats time_in_system_s;
  // Batch means of the time in system (requests leave in arrival order, FIFO): 32 batches of n / 32 requests,
  // for the standard error of W, as successive requests correlate.
  std::vector<RunningStats> batches(static_cast<std::size_t>(kNumBatches));
  std::int64_t num_done = 0;
  P2Quantile p99_s(0.99);
  Histogram histogram(0.0, histogram_top_s(lambda, mu, n), kHistogramBins);
  const SingleServerRun run =
      simulate_single_server(params, seed, expected_window_s / ctl.max_points, ctl, [&](const RequestRecord& r) {
        time_in_system_s.add(r.time_in_system_s());
        batches[static_cast<std::size_t>(num_done++ * kNumBatches / n)].add(r.time_in_system_s());
        p99_s.add(r.time_in_system_s());
        histogram.add(r.time_in_system_s());
      });

  RunResult result;
  const double L = run.area_in_system / run.window_s;
  const double lambda_eff = static_cast<double>(n) / run.window_s;
  const double W = time_in_system_s.mean();
  result.output("rho", rho);
  result.output("L", L);
  result.output("lambda_eff_per_s", lambda_eff);
  result.output("W_ms", W * 1e3);
  result.output("lambda_eff_W", lambda_eff * W);
  RunningStats batch_means;
  for (const RunningStats& b : batches)
    if (b.count() > 0) batch_means.add(b.mean());
  const double W_se = batch_means.count() > 1 ? batch_means.standard_error() : 0.0;
  result.output("W_se_ms", W_se * 1e3);
  result.output("lambda_eff_W_se", lambda_eff * W_se);  // the rate is the run's own n / window, taken as known
  const double rel_diff = std::fabs(L - lambda_eff * W) / (lambda_eff * W);
  result.output("littles_rel_diff", rel_diff);
  result.output("in_system_at_end", static_cast<double>(run.num_in_system_at_end));
  result.output("W_p99_ms", p99_s.value() * 1e3);
  if (rho < 1) {
    const double closed_s = exponential ? mm1_mean_time_in_system_s(lambda, mu) : md1_mean_time_in_system_s(lambda, mu);
    result.output("W_closed_form_ms", closed_s * 1e3);
  } else {
    // Fluid picture: the k-th request arrives at k/lambda and leaves at k/mu, so over [0, T] L averages
    // (lambda - mu) T / 2 while lambda W = (lambda - mu) T / 2 x lambda/mu: their gap is 1 - 1/rho.
    result.output("fluid_rel_diff", 1 - 1 / rho);
    result.notice("unstable", "rho = " + format_number(rho) + " >= 1: the queue grows without bound, so L and W keep rising "
                                  "with N, and " + format_number(static_cast<double>(run.num_in_system_at_end)) +
                                  " requests are still queued at the last arrival. W counts their whole stay, L only "
                                  "its part inside the window, so L and lambda_eff W differ by " +
                                  format_number(round_significant(100 * rel_diff, 3)) + " % (1 - 1/rho = " +
                                  format_number(round_significant(100 * (1 - 1 / rho), 3)) + " %), however large N is.");
  }
  result.output("window_s", run.window_s);
  // Napkin math 1.2: in flight = arrival rate x time in system, and the rate a fixed number of slots sustains.
  result.output("in_flight", p.sizing_per_s * p.sizing_latency_ms * 1e-3);
  result.output("qps_supported_per_s", p.num_slots / p.slot_latency_s);

  std::vector<double> t_s = run.in_system.bucket_starts_s();
  std::vector<double> L_line(t_s.size(), L);  // the time average, drawn as a rule over the series
  result.table("in_system").column("t_s", std::move(t_s)).column("n", run.in_system.bucket_means()).column("L", std::move(L_line));

  std::vector<double> w_ms, density, theory;
  for (int i = 0; i < histogram.num_bins(); ++i) {
    w_ms.push_back(histogram.bin_center(i) * 1e3);
    density.push_back(histogram.density(i) * 1e-3);  // per ms
    // M/M/1 FCFS time in system is exponential with rate mu - lambda (the basis of eq. 6).
    const double rate = mu - lambda;
    theory.push_back(exponential && rho < 1 ? rate * std::exp(-rate * histogram.bin_center(i)) * 1e-3 : 0.0);
  }
  auto& hist = result.table("sojourn_hist").column("w_ms", std::move(w_ms)).column("density", std::move(density));
  if (exponential && rho < 1) hist.column("theory_density", std::move(theory));
  return result;
}

}  // namespace

CellSpec littles_law_cell() {
  CellSpec cell = checked_cell<&validate_littles_law, &run_littles_law>("queues/littles-law",
      {explored(real("lambda", "1/s", 160, 1e-6, 1e7), 10, 400), explored(real("mu", "1/s", 200, 1e-6, 1e7), 50, 500),
       choice("service", {"exp", "det"}, "exp"),
       explored(count("n", "requests", 100'000, 1, 10'000'000), 100, 1'000'000),
       aliased(real("sizing_per_s", "1/s", 1000, 0, 1e9), {"qps"}), real("latency_ms", "ms", 50, 0, 1e6),
       count("slots", "requests", 50, 1, 1e9), real("fast_latency_ms", "ms", 10, 1e-6, 1e6)});
  cell.presets = presets_of({{"near-saturation", "lambda=190 mu=200"}});
  cell.outputs = outputs({"rho", "L", "lambda_eff_per_s", "W_ms", "lambda_eff_W", "W_se_ms", "lambda_eff_W_se",
                  "littles_rel_diff", out("in_system_at_end", "requests"), "W_p99_ms", sometimes("W_closed_form_ms"),
                  sometimes("fluid_rel_diff"), "window_s", "in_flight", "qps_supported_per_s"});
  cell.tables = {table("in_system"), table("sojourn_hist")};
  return cell;
}

}  // namespace sl::queues
