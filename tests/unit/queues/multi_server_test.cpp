#include "matchers.h"
#include <cmath>
#include <vector>

#include "core/stats.h"
#include "queues/closed_forms.h"
#include "queues/erlang_c.h"
#include "queues/multi_server.h"

namespace SL_UNITY_ID {

using namespace sl::queues;

namespace {

FleetSummary measure(std::int64_t c, double rho, Routing routing, std::int64_t n, std::uint64_t seed = 7,
                     sl::Distribution service = sl::Distribution::exponential(200)) {
  sl::RunControl ctl;
  RunProgress progress(ctl, static_cast<double>(n));
  const double lambda = rho * static_cast<double>(c) / service.mean();
  return measure_fleet(FleetParams{c, lambda, service, routing, n}, seed, n / 10, progress);
}

}  // namespace

TEST_CASE("Shared queue: the simulated mean wait is within 4 batch-means SE of Erlang C", "[queues][multiserver]") {
  // Successive waits are correlated, so the SE is from 32 batch means (core batch_means_se), not s/sqrt(n).
  const std::int64_t c = GENERATE(2, 8, 32);
  const double rho = GENERATE(0.7, 0.9);
  const auto s = measure(c, rho, Routing::SharedQueue, 1'000'000);
  const double lambda = rho * static_cast<double>(c) * 200;
  const double closed_s = mmc_mean_wait_s(c, lambda, 200);
  INFO("c " << c << " rho " << rho << ": wait " << s.mean_wait_s * 1e3 << " ms, Erlang C " << closed_s * 1e3
            << " ms, SE " << s.wait_se_s * 1e3 << " ms");
  CHECK_THAT(s.mean_wait_s, WithinAbs(closed_s, 4 * s.wait_se_s));
  CHECK_THAT(s.mean_s, WithinAbs(closed_s + 1.0 / 200, 4 * s.mean_se_s));
}

TEST_CASE("Shared queue: the simulated p99 is within 4 batch-quantile SE of the exact M/M/c quantile",
          "[queues][multiserver]") {
  // The SE is the spread of the p99s of 32 contiguous batches / sqrt(32) (batch_quantile_se). At these
  // loads and 2 x 10^6 requests it is 0.3-1.5% of the p99, so the test can tell a wrong formula by 5%.
  const std::int64_t c = GENERATE(4, 16);
  const double rho = GENERATE(0.5, 0.8);
  const auto s = measure(c, rho, Routing::SharedQueue, 2'000'000, 11);
  const double lambda = rho * static_cast<double>(c) * 200;
  const double closed_s = mmc_time_in_system_quantile_s(c, lambda, 200, 0.99);
  INFO("c " << c << " rho " << rho << ": p99 " << s.p99_s * 1e3 << " ms, exact " << closed_s * 1e3 << " ms, SE "
            << s.p99_se_s * 1e3 << " ms");
  CHECK(s.p99_se_s < 0.0125 * closed_s);
  CHECK_THAT(s.p99_s, WithinAbs(closed_s, 4 * s.p99_se_s));
}

TEST_CASE("Random routing makes each server an M/M/1 queue: mean and p99 within 4 SE of eq. 5 and eq. 6",
          "[queues][multiserver]") {
  const std::int64_t c = GENERATE(4, 62);
  const double rho = 0.6;
  const auto s = measure(c, rho, Routing::Random, 2'000'000);
  CHECK_THAT(s.mean_s, WithinAbs(mm1_mean_time_in_system_s(rho * 200, 200), 4 * s.mean_se_s));
  // Eq. 6 with ln 100 = 4.605 in place of 4.6: the exact M/M/1 p99, ln 100 / (mu - lambda_i).
  CHECK_THAT(s.p99_s, WithinAbs(mm1_time_in_system_quantile_s(rho * 200, 200, 0.99), 4 * s.p99_se_s));
}

namespace {

/// Waits of every request after the warm-up, in arrival order.
std::vector<double> waits(std::int64_t c, double rho, Routing routing, std::int64_t n) {
  sl::RunControl ctl;
  RunProgress progress(ctl, static_cast<double>(n));
  std::vector<double> w;
  simulate_fleet(FleetParams{c, rho * static_cast<double>(c) * 200, sl::Distribution::exponential(200), routing, n}, 7,
                 progress, [&](const RequestRecord& r) {
                   if (r.id >= n / 10) w.push_back(r.start_at_s - r.arrival_at_s);
                 });
  return w;
}

/// Mean of high - low, request by request, over its batch-means SE: the policies see the same requests
/// (common random numbers), so the paired difference is the right statistic.
double paired_gap_in_se(const std::vector<double>& low, const std::vector<double>& high) {
  std::vector<double> diff(low.size());
  double sum = 0;
  for (std::size_t i = 0; i < low.size(); ++i) sum += diff[i] = high[i] - low[i];
  return sum / static_cast<double>(diff.size()) / sl::batch_means_se(diff);
}

}  // namespace

TEST_CASE("At high load the mean wait orders shared < shortest queue < two choices < random, beyond the CI",
          "[queues][multiserver]") {
  const std::int64_t c = GENERATE(4, 16);
  const double rho = GENERATE(0.85, 0.95);
  const auto shared = waits(c, rho, Routing::SharedQueue, 1'000'000);
  const auto jsq = waits(c, rho, Routing::ShortestQueue, 1'000'000);
  const auto p2 = waits(c, rho, Routing::PowerOfTwo, 1'000'000);
  const auto random = waits(c, rho, Routing::Random, 1'000'000);
  INFO("c " << c << " rho " << rho << ": gaps in SE, jsq - shared " << paired_gap_in_se(shared, jsq) << ", p2 - jsq "
            << paired_gap_in_se(jsq, p2) << ", random - p2 " << paired_gap_in_se(p2, random));
  CHECK(paired_gap_in_se(shared, jsq) > 3);
  CHECK(paired_gap_in_se(jsq, p2) > 3);
  CHECK(paired_gap_in_se(p2, random) > 3);
}

TEST_CASE("With one server every routing policy is the same FIFO queue, request for request", "[queues][multiserver]") {
  const auto shared = measure(1, 0.8, Routing::SharedQueue, 20'000);
  for (Routing r : {Routing::Random, Routing::PowerOfTwo, Routing::ShortestQueue}) {
    const auto other = measure(1, 0.8, r, 20'000);
    CHECK(other.mean_s == shared.mean_s);
    CHECK(other.p99_s == shared.p99_s);
  }
}

TEST_CASE("The same seed gives the same fleet run; records come in arrival order with start >= arrival",
          "[queues][multiserver]") {
  const Routing routing = GENERATE(Routing::Random, Routing::PowerOfTwo, Routing::ShortestQueue, Routing::SharedQueue);
  sl::RunControl ctl;
  RunProgress progress(ctl, 1);
  std::vector<RequestRecord> a, b;
  const FleetParams params{8, 1440, sl::Distribution::exponential(200), routing, 5000};
  simulate_fleet(params, 3, progress, [&](const RequestRecord& r) { a.push_back(r); });
  simulate_fleet(params, 3, progress, [&](const RequestRecord& r) { b.push_back(r); });
  REQUIRE(a.size() == 5000);
  for (std::size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].end_at_s == b[i].end_at_s);
    CHECK(a[i].start_at_s >= a[i].arrival_at_s);
    if (i > 0) CHECK(a[i].arrival_at_s >= a[i - 1].arrival_at_s);
  }
}

TEST_CASE("Deterministic service under random routing matches the M/D/1 mean (Pollaczek-Khinchine)", "[queues][multiserver]") {
  const auto s = measure(4, 0.8, Routing::Random, 2'000'000, 5, sl::Distribution::deterministic(0.005));
  CHECK_THAT(s.mean_s, WithinAbs(md1_mean_time_in_system_s(160, 200), 4 * s.mean_se_s));
}

}  // namespace SL_UNITY_ID
