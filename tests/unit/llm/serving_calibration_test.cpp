// Calibration to serving points (serving_calibration.h): points simulated at known knobs give those knobs back,
// from the page's defaults, within 2 %; the workloads it simulates are what they claim.
#include "llm/serving_calibration.h"

#include <catch2/catch.hpp>

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
/// against the weights' read), many long contexts at once (the KV read), Poisson and time-free alike. A Poisson
/// point's figures jump a little as the knobs move (a request joins one step or the next); with 1,000 requests the
/// jumps are small enough for the fit to land within 1 % (200 requests: 12 % on the layer tax).
std::vector<ServingPoint> synthetic_points(const StepKnobs& truth) {
  std::vector<ServingPoint> points = {
      point(Arrival::Burst, 0, 1, 1, 4000, 1, {Metric::Ttft}),
      point(Arrival::Burst, 0, 1, 1, 300, 1, {Metric::Ttft}),
      point(Arrival::ClosedLoop, 0, 1, 20, 100, 200, {Metric::Tpot}),
      point(Arrival::ClosedLoop, 0, 96, 300, 3000, 200, {Metric::Tpot, Metric::Throughput}),
      point(Arrival::Poisson, 4, 1, 1000, 2000, 100, {Metric::Ttft, Metric::Tpot, Metric::E2e}),
      point(Arrival::Poisson, 12, 1, 1000, 300, 300, {Metric::Ttft, Metric::Itl, Metric::Throughput})};
  for (std::size_t i = 0; i < points.size(); ++i) {  // measured: simulated at the truth, with the seed calibration uses
    const Predictions p = simulate_point(points[i], truth, 11 + i);
    for (std::size_t t = 0; t < p.size(); ++t) points[i].targets[t].measured = p[t];
  }
  return points;
}

}  // namespace

TEST_CASE("Serving points simulated at known knobs give the knobs back within 2 %, from the page's defaults",
          "[llm][knob-fit]") {
  const StepKnobs truth{0.55, 0.7, 4e-5, 8e-4};
  const std::vector<ServingPoint> points = synthetic_points(truth);
  CalibrationOptions options;
  options.max_iterations = 12;
  sl::RunControl ctl;
  auto c = calibrate_serving(points, StepKnobs{}, options, 11, ctl);
  REQUIRE(c.ok());
  const StepKnobs& k = c.value().fitted;
  INFO("fitted " << k.compute_efficiency << " " << k.bandwidth_efficiency << " " << k.layer_tax_s << " " << k.dispatch_tax_s
                 << " after " << c.value().iterations << " steps, cost " << c.value().fitted_cost);
  CHECK_THAT(k.compute_efficiency, Catch::Matchers::WithinRel(truth.compute_efficiency, 0.02));
  CHECK_THAT(k.bandwidth_efficiency, Catch::Matchers::WithinRel(truth.bandwidth_efficiency, 0.02));
  CHECK_THAT(k.layer_tax_s, Catch::Matchers::WithinRel(truth.layer_tax_s, 0.02));
  CHECK_THAT(k.dispatch_tax_s, Catch::Matchers::WithinRel(truth.dispatch_tax_s, 0.02));
  CHECK(c.value().fitted_cost < 1e-4 * c.value().start_cost);
}

TEST_CASE("A Poisson recipe spreads its arrivals over exactly n / rate; a closed loop chains its clients' requests",
          "[llm][knob-fit]") {
  WorkloadRecipe w;
  w.arrival = Arrival::Poisson;
  w.rate_per_s = 5;
  w.num_requests = 400;
  w.num_warmup = 100;
  const Workload poisson = make_recipe_workload(w, 3);
  REQUIRE(poisson.requests.size() == 500);
  CHECK(poisson.requests.back().arrival_at_s < 100.0);  // n / rate = 500 / 5 s, the (n + 1)-th gap left out
  CHECK(poisson.requests.back().arrival_at_s > 99.0);
  w.arrival = Arrival::ClosedLoop;
  w.concurrency = 4;
  const Workload closed = make_recipe_workload(w, 3);
  CHECK(closed.initial.size() == 4);
  CHECK(closed.next_turn[0] == 4);
  CHECK(closed.next_turn[499] == -1);
  CHECK(closed.think_s[0] == 0.0);
}

TEST_CASE("Reused prompts repeat the content of the request that first sent them, system prompt per group",
          "[llm][knob-fit]") {
  WorkloadRecipe w;
  w.arrival = Arrival::Burst;
  w.num_requests = 30;
  w.prompt_tokens = 500;
  w.reuse = {10, 2, 100};
  const Workload load = make_recipe_workload(w, 1);
  const auto& a = load.requests[3].prompt;
  const auto& b = load.requests[23].prompt;  // 23 mod 10 = 3
  REQUIRE(a.size() == 2);
  CHECK(a[0].content_id == b[0].content_id);
  CHECK(a[1].content_id == b[1].content_id);
  CHECK(load.requests[3].prompt[0].content_id != load.requests[7].prompt[0].content_id);  // groups 0 and 1
  CHECK(load.requests[3].num_prompt_tokens == 500);
  CHECK(load.requests[23].output_content_id != load.requests[3].output_content_id);
}
