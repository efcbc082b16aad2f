#include "matchers.h"

#include <algorithm>
#include <cmath>

#include "core/rng.h"
#include "core/stats.h"
#include "request/cold_start/burst_scale_out.h"

namespace SL_UNITY_ID {

using namespace sl::request;

TEST_CASE("One replica without a burst is an M/D/1 queue: mean latency within 4 SE of Pollaczek-Khinchine",
          "[request][burst-scale-out]") {
  BurstParams p;
  p.base_replicas = 1;
  p.added_replicas = 0;
  p.base_rate_per_s = p.burst_rate_per_s = 100;  // rho = 100 x 5 ms = 0.5
  p.burst_start_s = 0;
  p.burst_end_s = p.end_s = 2000;
  sl::Rng rng(17);
  const auto arrivals = burst_arrivals(p, rng);
  const auto records = simulate_scale_out(p, {}, arrivals);
  std::vector<double> latency;
  for (const auto& r : records) latency.push_back(r.latency_s);
  // M/D/1: W = s + rho s / (2 (1 - rho)) = 5 + 2.5 = 7.5 ms. Successive latencies are correlated, so the
  // standard error comes from batch means (32 batches of ~6,000 requests).
  double mean = 0;
  for (double x : latency) mean += x;
  mean /= static_cast<double>(latency.size());
  CHECK_THAT(mean, WithinAbs(0.0075, 4 * sl::batch_means_se(latency)));
  CHECK_THAT(static_cast<double>(arrivals.size()), WithinAbs(200'000, 4 * std::sqrt(200'000.0)));  // Poisson count
}

TEST_CASE("Expected requests: base x (run - burst) + burst x burst length, and the Poisson count agrees",
          "[request][burst-scale-out]") {
  BurstParams p;  // 500/s for 180 s around 1,500/s for 120 s
  CHECK(p.expected_requests() == 500.0 * 180 + 1500.0 * 120);
  sl::Rng rng(4);
  const auto arrivals = burst_arrivals(p, rng);
  CHECK(std::is_sorted(arrivals.begin(), arrivals.end()));
  CHECK(arrivals.back() < p.end_s);
  // Poisson counts: standard deviation sqrt(mean); 4 of them (sqrt(270,000) = 520, and 346 in the burst).
  CHECK_THAT(static_cast<double>(arrivals.size()), WithinAbs(p.expected_requests(), 4 * std::sqrt(p.expected_requests())));
  const auto in_burst = std::count_if(arrivals.begin(), arrivals.end(),
                                      [&](double t) { return t >= p.burst_start_s && t < p.burst_end_s; });
  CHECK_THAT(static_cast<double>(in_burst), WithinAbs(1500.0 * 120, 4 * std::sqrt(1500.0 * 120)));
}

TEST_CASE("Every request waits at least its service time; records keep arrival order; lazy starts cost more",
          "[request][burst-scale-out]") {
  BurstParams p;
  p.end_s = 240;
  p.burst_end_s = 120;
  sl::Rng rng(9);
  const auto arrivals = burst_arrivals(p, rng);
  const auto warm = simulate_scale_out(p, {0, 0, 0}, arrivals);
  const auto lazy = simulate_scale_out(p, {0, 50, 0.5}, arrivals);
  REQUIRE(warm.size() == arrivals.size());
  for (std::size_t i = 0; i < warm.size(); ++i) {
    REQUIRE(warm[i].arrival_at_s == arrivals[i]);
    REQUIRE(warm[i].latency_s >= p.service_s * (1 - 1e-12));
  }
  const double slo_s = 0.05;
  CHECK(on_time_frac(lazy, p.burst_start_s, p.burst_end_s, slo_s) < on_time_frac(warm, p.burst_start_s, p.burst_end_s, slo_s));
  CHECK(on_time_frac(warm, 1e6, 2e6, slo_s) == 1.0);  // no request in the window: none late
}

}  // namespace SL_UNITY_ID
