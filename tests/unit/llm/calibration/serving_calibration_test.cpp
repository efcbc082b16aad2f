// Calibration to serving points (serving_calibration.h): points simulated at known knobs give those knobs back from
// the page's defaults: exactly where every point is re-timed, within the figures' jumps where some are simulated.
#include "llm/calibration/serving_calibration.h"

#include <catch2/catch.hpp>

namespace SL_UNITY_ID {

using namespace sl::llm;

namespace {

ServingPoint point(Arrival arrival, double rate_per_s, std::int64_t concurrency, std::int64_t n, std::int64_t prompt,
                   std::int64_t output, std::vector<Metric> metrics) {
  ServingPoint p;
  p.config.model = llama3_8b();
  p.config.model.bytes_per_weight = 2.0;
  p.config.gpu = h100();
  p.config.scheduler.max_num_seqs = 128;
  p.config.scheduler.max_num_batched_tokens = 4096;
  p.config.kv_cache.num_blocks = 20'000;
  p.workload = {arrival, rate_per_s, concurrency, n, prompt, output};
  for (const Metric m : metrics) p.targets.push_back({m, Stat::Mean, 1.0});
  return p;
}

/// Points that see every knob: long prompts alone (compute efficiency, chunk tax), batch-1 decode (layer tax
/// against the weights' read), many long contexts at once (the KV read); bursts and closed loops, and, unless
/// time_free_only, two Poisson points of 1,000 requests. Measured: simulated at the truth with the seeds
/// calibrate_serving uses (seed + index), so at the truth every figure is matched exactly.
std::vector<ServingPoint> synthetic_points(const StepKnobs& truth, bool time_free_only) {
  std::vector<ServingPoint> points = {
      point(Arrival::Burst, 0, 1, 1, 4000, 1, {Metric::Ttft}),
      point(Arrival::Burst, 0, 1, 1, 300, 1, {Metric::Ttft}),
      point(Arrival::ClosedLoop, 0, 1, 20, 100, 200, {Metric::Tpot}),
      point(Arrival::ClosedLoop, 0, 96, 300, 3000, 200, {Metric::Tpot, Metric::Throughput})};
  if (!time_free_only) {
    points.push_back(point(Arrival::Poisson, 4, 1, 1000, 2000, 100, {Metric::Ttft, Metric::Tpot, Metric::E2e}));
    points.push_back(point(Arrival::Poisson, 12, 1, 1000, 300, 300, {Metric::Ttft, Metric::Itl, Metric::Throughput}));
  }
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Predictions p = simulate_point(points[i], truth, 11 + i);
    for (std::size_t t = 0; t < p.size(); ++t) points[i].targets[t].measured = p[t];
  }
  return points;
}

Calibration calibrated(const std::vector<ServingPoint>& points) {
  CalibrationOptions options;
  options.max_iterations = 12;
  sl::RunControl ctl;
  auto c = calibrate_serving(points, StepKnobs{}, options, 11, ctl);
  REQUIRE(c.ok());
  const StepKnobs& k = c.value().fitted;
  INFO("fitted " << k.compute_efficiency << " " << k.bandwidth_efficiency << " " << k.layer_tax_s << " " << k.dispatch_tax_s
                 << " after " << c.value().iterations << " steps, cost " << c.value().fitted_cost);
  return c.value();
}

const StepKnobs kTruth{0.55, 0.7, 4e-5, 8e-4};

}  // namespace

TEST_CASE("Bursts and closed loops simulated at known knobs give the knobs back exactly, from the page's defaults",
          "[llm][knob-fit]") {
  // Re-timed, their schedules are the simulations at any knobs: the fit is on the model itself.
  const Calibration c = calibrated(synthetic_points(kTruth, true));
  CHECK_THAT(c.fitted.compute_efficiency, Catch::Matchers::WithinRel(kTruth.compute_efficiency, 1e-6));
  CHECK_THAT(c.fitted.bandwidth_efficiency, Catch::Matchers::WithinRel(kTruth.bandwidth_efficiency, 1e-6));
  CHECK_THAT(c.fitted.layer_tax_s, Catch::Matchers::WithinRel(kTruth.layer_tax_s, 1e-6));
  CHECK_THAT(c.fitted.dispatch_tax_s, Catch::Matchers::WithinRel(kTruth.dispatch_tax_s, 1e-6));
  CHECK(c.num_simulations == 4);  // each simulated once
}

TEST_CASE("With Poisson points among them, the efficiencies come back within 2 % and the taxes within 10 %",
          "[llm][knob-fit]") {
  // A Poisson point's figures jump a little as the knobs move (a request joins one step or the next), and that
  // hides the direction these points see least: the layer tax traded for bandwidth efficiency at a fixed batch-1
  // decode time. Along it (1,000 requests a point) the cost is 6e-6 at +1 % layer tax, 2e-6 at +3 %, 2e-5 at
  // +6 %: the fit ends anywhere in there (seeds 11-14: taxes 0.1-7 % off, efficiencies within 3 %).
  const Calibration c = calibrated(synthetic_points(kTruth, false));
  CHECK_THAT(c.fitted.compute_efficiency, Catch::Matchers::WithinRel(kTruth.compute_efficiency, 0.02));
  CHECK_THAT(c.fitted.bandwidth_efficiency, Catch::Matchers::WithinRel(kTruth.bandwidth_efficiency, 0.02));
  CHECK_THAT(c.fitted.layer_tax_s, Catch::Matchers::WithinRel(kTruth.layer_tax_s, 0.1));
  CHECK_THAT(c.fitted.dispatch_tax_s, Catch::Matchers::WithinRel(kTruth.dispatch_tax_s, 0.1));
  CHECK(c.fitted_cost < 1e-4 * c.start_cost);
}

}  // namespace SL_UNITY_ID
