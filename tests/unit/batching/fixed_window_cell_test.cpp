#include <catch2/catch.hpp>

#include <cmath>

#include "batching/arrivals.h"
#include "batching/batch_formulas.h"
#include "batching/window_batching.h"
#include "cell_runner.h"
#include "core/stats.h"

namespace SL_UNITY_ID {

namespace b = sl::batching;

const cell_test::Cell cell{"batching/fixed-window"};

TEST_CASE("Poisson helpers: the pmf sums to 1, quantiles and tails agree with the CDF", "[batching][window]") {
  const double m = GENERATE(0.5, 5.0, 60.0);
  double sum = 0;
  for (int k = 0; k < 400; ++k) sum += b::poisson_pmf(k, m);
  CHECK_THAT(sum, WithinAbs(1.0, 1e-12));
  const auto q = b::poisson_quantile(m, 0.99);
  CHECK(b::poisson_cdf(q, m) >= 0.99);
  CHECK(b::poisson_cdf(q - 1, m) < 0.99);
  CHECK_THAT(b::poisson_tail_at_least(q + 1, m), WithinAbs(1 - b::poisson_cdf(q, m), 1e-12));
  CHECK_THAT(b::poisson_tail_at_least(1, m), WithinRel(1 - std::exp(-m), 1e-12));
}

TEST_CASE("Eq. 8: a 20 ms window costs 10 ms on average, 20 ms at worst, 20 % of a 50 ms SLO", "[batching][window][book]") {
  const auto r = cell.run({{"duration_s", "20"}});
  CHECK_THAT(out(r, "budget_wait_ms"), WithinRel(10.0, 1e-12));
  CHECK_THAT(out(r, "budget_wait_max_ms"), WithinRel(20.0, 1e-12));
  CHECK_THAT(out(r, "budget_wait_share_frac"), WithinRel(0.2, 1e-12));
}

TEST_CASE("Table 10: mean, std, Pr(empty) and Pr(batch >= 2 x mean) at 50/200/500/1000 QPS", "[batching][window][book]") {
  const auto r = cell.run({{"duration_s", "20"}});
  // Exact values (e^-lambda T and Poisson upper tails); the book prints them rounded.
  CHECK_THAT(out(r, "t10_p_empty_50_frac"), WithinRel(std::exp(-0.5), 1e-12));
  CHECK_THAT(out(r, "t10_p_double_50_frac"), WithinRel(1 - std::exp(-0.5), 1e-12));  // Pr(X >= 1)
  CHECK_THAT(out(r, "t10_p_double_200_frac"), WithinRel(1 - std::exp(-2.0) * (1 + 2 + 2 + 4.0 / 3), 1e-12));  // Pr(X >= 4)
  CHECK_THAT(out(r, "t10_p_empty_1000_frac"), WithinRel(std::exp(-10.0), 1e-12));
  CHECK_THAT(out(r, "t10_std_500"), WithinRel(std::sqrt(5.0), 1e-12));
  // Printed: 61 %, 39 %, 14 %, 14 %, 0.7 %, 3 %, 0.005 %, 0.3 % (tolerance = half the last printed digit).
  cell.check_book(r, "t10_p_empty_50_frac");
  cell.check_book(r, "t10_p_double_50_frac");
  cell.check_book(r, "t10_p_empty_200_frac");
  cell.check_book(r, "t10_p_double_200_frac");
  cell.check_book(r, "t10_p_empty_500_frac");
  cell.check_book(r, "t10_p_double_500_frac");
  cell.check_book(r, "t10_p_empty_1000_frac");
  cell.check_book(r, "t10_p_double_1000_frac");
}

TEST_CASE("Eq. 13 at 500 QPS and 10 ms: mean 13.6 ms, envelope 22.2 ms (1.63x); Table 14's 12 ms window: 24.8 ms",
          "[batching][window][book]") {
  const auto r = cell.run({{"duration_s", "20"}});
  CHECK(out(r, "seen_batch_p99") == 12);  // Poisson(5): CDF(10) = 0.986, CDF(11) = 0.995
  CHECK_THAT(out(r, "latency_mean_closed_ms"), WithinRel(13.6, 1e-12));
  CHECK_THAT(out(r, "envelope_ms"), WithinRel(22.2, 1e-12));
  cell.check_book(r, "envelope_over_mean");
  CHECK(out(r, "t14_seen_batch_mean") == 7);
  CHECK(out(r, "t14_seen_batch_p99") == 13);  // Poisson(6): smallest k with CDF >= 0.99 is 12
  CHECK_THAT(out(r, "t14_envelope_ms"), WithinRel(24.8, 1e-12));
  CHECK_THAT(out(r, "t14_latency_mean_closed_ms"), WithinRel(15.2, 1e-12));
}

TEST_CASE("Calendar windows: the mean wait is within 4 SE of T/2", "[batching][window]") {
  // Under Poisson arrivals each request's position in its window is uniform and independent of the others,
  // so the i.i.d. standard error applies.
  const std::string lambda = GENERATE("50", "500", "3000");
  const std::string window = GENERATE("2", "10", "35");
  const auto r = cell.run({{"lambda", lambda}, {"window_ms", window}, {"duration_s", "60"}});
  CHECK_THAT(out(r, "wait_sim_ms"), WithinAbs(out(r, "wait_closed_ms"), 4 * out(r, "wait_sim_se_ms")));
  CHECK(out(r, "wait_max_sim_ms") <= std::stod(window));
}

TEST_CASE("Calendar windows: batch sizes are Poisson(lambda T) (eq. 9), a request sees 1 + Poisson", "[batching][window]") {
  const double lambda = GENERATE(200.0, 500.0, 1000.0);
  const double window_s = 0.01;
  const double duration_s = 400;
  sl::Rng rng = sl::Rng::stream(3, sl::Stream::Arrivals);
  const auto at_s = b::poisson_arrivals_s(lambda, static_cast<std::int64_t>(lambda * duration_s * 1.1), rng);
  const auto run = b::simulate_calendar_windows({window_s}, at_s, duration_s);
  const double m = lambda * window_s;
  const auto windows = static_cast<double>(run.window_counts.size());
  REQUIRE(windows == 40'000);
  sl::RunningStats counts;
  double empty = 0;
  for (auto c : run.window_counts) {
    counts.add(static_cast<double>(c));
    empty += c == 0;
  }
  // Disjoint windows of a Poisson process are independent: i.i.d. SEs.
  CHECK_THAT(counts.mean(), WithinAbs(m, 4 * std::sqrt(m / windows)));
  const double p0 = std::exp(-m);
  CHECK_THAT(empty / windows, WithinAbs(p0, 4 * std::sqrt(p0 * (1 - p0) / windows) + 1e-12));
  // Variance of a Poisson count equals its mean; the sample variance has SE ~ sqrt((2 m^2 + m) / windows).
  CHECK_THAT(counts.variance(), WithinAbs(m, 4 * std::sqrt((2 * m * m + m) / windows)));
  // Size-biased: a request sees its own batch, mean E[N^2]/E[N] = 1 + m.
  double seen = 0;
  for (auto s : run.seen_batch) seen += static_cast<double>(s);
  CHECK_THAT(seen / static_cast<double>(run.seen_batch.size()), WithinRel(1 + m, 0.01));
}

TEST_CASE("Eq. 13's envelope is conservative: above the simulated true p99, which is above the mean",
          "[batching][window]") {
  const std::string lambda = GENERATE("100", "500", "2000");
  const std::string window = GENERATE("5", "10", "20");
  const auto r = cell.run({{"lambda", lambda}, {"window_ms", window}, {"duration_s", "60"}});
  CHECK(out(r, "latency_p99_sim_ms") < out(r, "envelope_ms"));
  CHECK(out(r, "latency_p99_sim_ms") > out(r, "latency_mean_sim_ms"));
  CHECK(out(r, "t14_latency_p99_sim_ms") < out(r, "t14_envelope_ms"));
}

TEST_CASE("Calendar windows: mean latency is within 4 SE of T/2 + T_svc(1 + lambda T)", "[batching][window]") {
  const double lambda = 500, window_s = 0.01, duration_s = 400;
  sl::Rng rng = sl::Rng::stream(5, sl::Stream::Arrivals);
  const auto at_s = b::poisson_arrivals_s(lambda, static_cast<std::int64_t>(lambda * duration_s * 1.1), rng);
  const auto run = b::simulate_calendar_windows({window_s}, at_s, duration_s);
  sl::RunningStats latency;
  for (double x : run.latency_s) latency.add(x);
  // Requests of one window share a batch size, so latencies are correlated: batch-means SE.
  const double se = sl::batch_means_se(run.latency_s);
  const auto service = b::ServiceModel::linear(5e-3, 0.6e-3);
  CHECK_THAT(latency.mean(), WithinAbs(b::window_mean_latency_s(lambda, window_s, service), 4 * se));
}

TEST_CASE("One accelerator: no request finishes earlier than with free accelerators", "[batching][window]") {
  const auto free = cell.run({{"duration_s", "50"}});
  const auto one = cell.run({{"duration_s", "50"}, {"accelerators", "one"}});
  CHECK(out(one, "latency_mean_sim_ms") >= out(free, "latency_mean_sim_ms"));
  CHECK(out(one, "latency_p99_sim_ms") >= out(free, "latency_p99_sim_ms"));
  REQUIRE(one.notices.size() == 1);
  CHECK(one.notices[0].code == "one_accelerator");
}

TEST_CASE("Fixed windows reject too many requests, too few windows and bad values", "[batching][window]") {
  const auto big = cell.error({{"lambda", "1e5"}, {"duration_s", "1000"}});
  CHECK(big.code == "too_large");
  CHECK(big.param == "duration_s");
  const auto many = cell.error({{"lambda", "1"}, {"duration_s", "100000"}, {"window_ms", "0.01"}});
  CHECK(many.code == "too_large");  // 10^10 windows would not fit in memory
  CHECK(many.param == "duration_s");
  const auto few = cell.error({{"duration_s", "0.5"}});
  CHECK(few.code == "invalid");
  const auto neg = cell.error({{"window_ms", "-3"}});
  CHECK(neg.code == "out_of_range");
  CHECK(neg.param == "window_ms");
  const auto zero = cell.error({{"svc_fixed_ms", "0"}, {"svc_per_item_ms", "0"}});  // T_svc(B) = 0 is no model
  CHECK(zero.code == "invalid");
  CHECK(zero.param == "svc_fixed_ms");
}

TEST_CASE("The batch-size table stays within max_points rows and keeps its mass when grouped", "[batching][window][.slow]") {
  // lambda T = 10,000: mean +- 5 sd spans ~1,010 sizes, grouped 3 to a row; rows hold per-size averages.
  const auto r = cell.try_run({{"lambda", "100000"}, {"window_ms", "100"}, {"duration_s", "20"}, {"t14_window_ms", "100"},
                      {"budget_window_ms", "100"}})
                     .value();
  for (const auto& t : r.tables) {
    if (t.name != "batch_pmf") continue;
    const auto& batch = t.columns[0].second;
    REQUIRE(batch.size() <= 400);
    const double width = batch[1] - batch[0];
    CHECK(width == 3);
    double sim = 0, pmf = 0;
    for (std::size_t i = 0; i < batch.size(); ++i) {
      sim += t.columns[1].second[i] * width;
      pmf += t.columns[2].second[i] * width;
    }
    // Every simulated window falls inside mean +- 5 sd here; the pmf outside it is below 1e-6. The last bin
    // may be narrower than 3, which the per-size average accounts for only approximately: allow 1 %.
    CHECK_THAT(sim, WithinAbs(1.0, 0.01));
    CHECK_THAT(pmf, WithinAbs(1.0, 0.01));
  }
}

TEST_CASE("Fixed window: the share of requests slower than the eq. 13 envelope is small and needs a batch above "
          "its p99",
          "[batching][window]") {
  const auto r = cell.run({{"lambda", "500"}, {"window_ms", "10"}, {"duration_s", "400"}});
  // With accelerators always free a request exceeds W + T_svc(12) only in a batch of 13 or more:
  // P(1 + Poisson(5) >= 13) = P(Poisson(5) >= 12) = 0.55 %, and not every such request waited long.
  double below = 0, term = std::exp(-5.0);
  for (int k = 0; k < 12; ++k, term *= 5.0 / k) below += term;
  const double over = out(r, "over_envelope_frac");
  CHECK(over > 0);
  CHECK(out(r, "over_envelope_se_frac") > 0);
  CHECK(over <= (1 - below) + 4 * out(r, "over_envelope_se_frac"));
  CHECK(over < 0.01);
}

}  // namespace SL_UNITY_ID
