#include "matchers.h"

#include <algorithm>
#include <cmath>

#include "core/distributions.h"
#include "core/stats.h"
#include "queues/confidence_intervals.h"
#include "queues/sojourn_runs.h"

namespace SL_UNITY_ID {

using namespace sl;
using namespace sl::queues;

namespace {

std::vector<double> exponential_sample(Rng& rng, std::int64_t n) {
  const Distribution d = Distribution::exponential(1.0);
  std::vector<double> xs;
  for (std::int64_t i = 0; i < n; ++i) xs.push_back(d.sample(rng));
  return xs;
}

}  // namespace

TEST_CASE("Batch-means intervals of i.i.d. exponential series cover the true mean and p99 about 95 % of the time",
          "[queues][ci]") {
  // 200 series of 32,768 Exp(1) values (1,024 per batch): true mean 1, true p99 ln 100. If the 95 % intervals
  // are right, the number covering is Binomial(200, 0.95): mean 190, sd 3.1; accept 178 or more (-4 sd).
  // (The t(31) critical value makes them slightly wider than 95 %, so the upper side is not a failure.)
  Rng rng(11);
  int mean_covered = 0, p99_covered = 0;
  for (int rep = 0; rep < 200; ++rep) {
    const SeriesSummary s = summarize_series(exponential_sample(rng, 32'768), 0.99);
    mean_covered += s.mean.covers(1.0);
    p99_covered += s.quantile.covers(std::log(100.0));
  }
  CHECK(mean_covered >= 178);
  CHECK(p99_covered >= 178);
}

TEST_CASE("For a queue, batch means cover the M/M/1 mean and p99 where the i.i.d. formula fails", "[queues][ci]") {
  // 40 runs of 50,000 M/M/1 times in system at rho = 0.8 (S = 1 s, true mean 5 s). Successive times are
  // strongly correlated: sigma/sqrt(N) is several times too small. Batch means should cover in about 38 of
  // 40 (sd 1.4; accept 33 or more); the i.i.d. interval, at most 60 % of the time (far fewer in practice).
  RunControl ctl;
  const auto seeds = scenario_seeds(5, 40);
  // The p99 interval (batch means of the share below the p99, mapped back) should cover the exact
  // ln(100) / (mu - lambda) = 23.03 s about as often.
  int batch_covered = 0, iid_covered = 0, p99_covered = 0;
  for (std::uint64_t seed : seeds) {
    FifoTimes t = simulate_fifo_times(0.8, Distribution::exponential(1.0), 50'000, seed, ctl);
    RunningStats iid;
    for (double x : t.time_in_system_s) iid.add(x);
    iid_covered += std::fabs(iid.mean() - 5.0) <= kNormal975 * iid.standard_error();
    const SeriesSummary s = summarize_series(std::move(t.time_in_system_s), 0.99);
    batch_covered += s.mean.covers(5.0);
    p99_covered += s.quantile.covers(5.0 * std::log(100.0));
  }
  CHECK(batch_covered >= 33);
  CHECK(p99_covered >= 33);
  CHECK(iid_covered <= 24);
}

TEST_CASE("Order-statistic intervals for an i.i.d. p99 cover at their exact binomial rate", "[queues][ci]") {
  // n = 2,000, p = 0.99: the interval runs from rank 1971 to rank 1990, which covers the true quantile with
  // probability P(1971 <= Binomial(2000, 0.99) <= 1989) = 0.968 (summed exactly). Over 400 samples: mean
  // 387.3, sd 3.5; accept 373 or more (-4 sd).
  Rng rng(3);
  int covered = 0;
  for (int rep = 0; rep < 400; ++rep) {
    auto xs = exponential_sample(rng, 2'000);
    std::sort(xs.begin(), xs.end());
    const Estimate q = iid_quantile_sorted(xs, 0.99);
    CHECK(q.lo <= q.value);
    CHECK(q.value <= q.hi);
    covered += q.covers(std::log(100.0));
  }
  CHECK(covered >= 373);
}

TEST_CASE("Wilson intervals cover a 5 % share at their nominal rate and stay inside [0, 1]", "[queues][ci]") {
  // Exact coverage of the Wilson interval for n = 1,000, p = 0.05 is 0.950 (summed over the binomial).
  // 400 repetitions: mean 380, sd 4.4; accept 362 or more.
  Rng rng(9);
  int covered = 0;
  for (int rep = 0; rep < 400; ++rep) {
    std::int64_t k = 0;
    for (int i = 0; i < 1'000; ++i) k += rng.uniform() < 0.05;
    covered += binomial_share(k, 1'000).covers(0.05);
  }
  CHECK(covered >= 362);
  const Estimate none = binomial_share(0, 100);
  CHECK(none.value == 0);
  CHECK(none.lo == 0);
  CHECK(none.hi > 0.03);  // z^2 / (n + z^2) = 3.84 / 103.84 = 0.037
  CHECK(binomial_share(100, 100).hi == 1);
}

TEST_CASE("A ratio of independent estimates adds relative half-widths in quadrature", "[queues][ci]") {
  // (10 +- 1) / (2 +- 0.1) = 5 +- 5 sqrt(0.1^2 + 0.05^2) = 5 +- 0.5590.
  const Estimate r = ratio_of_independent({10, 9, 11}, {2, 1.9, 2.1});
  CHECK_THAT(r.value, WithinRel(5.0, 1e-12));
  CHECK_THAT(r.half_width(), WithinRel(5 * std::sqrt(0.0125), 1e-12));
}

}  // namespace SL_UNITY_ID
