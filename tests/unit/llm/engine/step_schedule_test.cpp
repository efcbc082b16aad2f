// A run's recorded schedule, re-timed (step_schedule.h): at the knobs it was recorded at it is the run to the bit;
// for a time-free workload (a burst, a closed loop) it is the simulation at any knobs; for Poisson arrivals it is
// not, which is why calibration simulates those (serving_calibration.h).
#include "llm/engine/step_schedule.h"

#include <catch2/catch.hpp>

#include "llm/calibration/serving_calibration.h"
#include "llm/engine/serving_metrics.h"

namespace SL_UNITY_ID {

using namespace sl::llm;

namespace {

EngineConfig test_engine() {
  EngineConfig c;
  c.model = llama3_8b();
  c.model.bytes_per_weight = 2.0;
  c.gpu = h100();
  c.scheduler.max_num_seqs = 64;
  c.scheduler.max_num_batched_tokens = 2048;
  c.kv_cache.num_blocks = 4000;  // 64,000 tokens: the 64 sequences of up to 900 tokens never run short
  c.keep_series = false;
  return c;
}

WorkloadRecipe recipe(Arrival arrival) {
  WorkloadRecipe w;
  w.arrival = arrival;
  w.rate_per_s = 20;
  w.concurrency = 16;
  w.num_requests = 200;
  w.prompt_tokens = 600;
  w.output_tokens = 120;
  return w;
}

/// `w` run on `c` at knobs `k`, its schedule recorded.
RecordedSchedule recorded_on(EngineConfig c, const WorkloadRecipe& w, const StepKnobs& k, EngineRun* run) {
  c.gpu = with_knobs(c.gpu, k);
  Workload workload = make_recipe_workload(w, 5);
  sl::RunControl ctl;
  ScheduleRecorder recorder(c);
  EngineRun r = run_continuous(c, workload, ctl, {}, &recorder);
  RecordedSchedule s = std::move(recorder).finish(r, workload, w.num_warmup);
  if (run != nullptr) *run = std::move(r);
  return s;
}

RecordedSchedule recorded(const WorkloadRecipe& w, const StepKnobs& k, EngineRun* run = nullptr,
                          bool with_mechanisms = false) {
  EngineConfig c = test_engine();
  if (with_mechanisms) {  // every switch of a real server on (step_time.h)
    c.gpu.layer_tax_every_step = true;
    c.gpu.cuda_graph_padding = true;
    c.gpu.low_precision_peak = true;
    c.gpu.attention_roofline = true;
  }
  return recorded_on(c, w, k, run);
}

const StepKnobs kSlower{0.3, 0.7, 5e-5, 2e-3};

}  // namespace

TEST_CASE("Re-timed at the knobs it was recorded at, a schedule is the run itself, bit for bit", "[llm][schedule]") {
  const Arrival arrival = GENERATE(Arrival::Poisson, Arrival::Burst, Arrival::ClosedLoop);
  EngineRun run;
  const RecordedSchedule s = recorded(recipe(arrival), StepKnobs{}, &run);
  std::vector<double> end_s, scratch;
  s.retime(StepKnobs{}, end_s);
  CHECK(end_s == s.recorded_end_s());
  CHECK(s.num_steps() == run.num_steps);
  // Its figures are the run summary's (the same records, the same arithmetic).
  const ServingSummary sum = summarize(run);
  CHECK(s.value(Metric::Ttft, Stat::Mean, end_s, scratch) == Approx(sum.ttft_mean_s).epsilon(1e-12));
  CHECK(s.value(Metric::Ttft, Stat::P50, end_s, scratch) == sum.ttft_p50_s);
  CHECK(s.value(Metric::E2e, Stat::P50, end_s, scratch) == sum.e2e_p50_s);
  CHECK(s.value(Metric::Tpot, Stat::P50, end_s, scratch) == sum.tpot_p50_s);
  CHECK(s.value(Metric::Throughput, Stat::Mean, end_s, scratch) == Approx(sum.output_tok_per_s).epsilon(1e-12));
}

TEST_CASE("A burst or a closed loop re-timed at other knobs is the simulation at those knobs", "[llm][schedule]") {
  const Arrival arrival = GENERATE(Arrival::Burst, Arrival::ClosedLoop);
  const RecordedSchedule at_default = recorded(recipe(arrival), StepKnobs{});
  const RecordedSchedule at_slower = recorded(recipe(arrival), kSlower);
  std::vector<double> end_s;
  at_default.retime(kSlower, end_s);
  CHECK(end_s == at_slower.recorded_end_s());  // the scheduler saw the same states: every step the same
}

TEST_CASE("A Poisson schedule re-timed 40 % slower is not the slower run: its batches cannot grow",
          "[llm][schedule]") {
  const RecordedSchedule at_default = recorded(recipe(Arrival::Poisson), StepKnobs{});
  const RecordedSchedule at_slower = recorded(recipe(Arrival::Poisson), kSlower);
  std::vector<double> end_s;
  at_default.retime(kSlower, end_s);
  CHECK(at_default.num_steps() > at_slower.num_steps());  // the slower engine batched more a step
  std::vector<double> scratch;
  const double frozen = at_default.value(Metric::Ttft, Stat::Mean, end_s, scratch);
  const double real = at_slower.value(Metric::Ttft, Stat::Mean, at_slower.recorded_end_s(), scratch);
  CHECK(frozen > 1.5 * real);  // the frozen schedule falls behind its arrivals and queues
}

TEST_CASE("Warm-up requests count in no figure, and throughput extrapolates an open loop's request count",
          "[llm][schedule]") {
  WorkloadRecipe w = recipe(Arrival::Poisson);
  w.num_warmup = 50;
  EngineRun run;
  const RecordedSchedule s = recorded(w, StepKnobs{}, &run);
  CHECK(s.num_requests() == 250);
  std::vector<double> scratch, ttft;
  for (const RequestRecord& r : run.records)
    if (r.request_id >= 50) ttft.push_back(r.ttft_s());
  double sum = 0;
  for (const double x : ttft) sum += x;
  CHECK(s.value(Metric::Ttft, Stat::Mean, s.recorded_end_s(), scratch) == Approx(sum / 200).epsilon(1e-12));
  // Ten times the requests over ten times the arrival span, the same drain: closer to the offered 20 x 120 tokens/s.
  const double once = s.value(Metric::Throughput, Stat::Mean, s.recorded_end_s(), scratch);
  const double ten = s.value(Metric::Throughput, Stat::Mean, s.recorded_end_s(), scratch, 10);
  CHECK(once < ten);
  CHECK(std::fabs(ten / 2400 - 1) < std::fabs(once / 2400 - 1));
}

TEST_CASE("With every mechanism on, a schedule re-times bit for bit, and a burst re-timed is the run at other knobs",
          "[llm][schedule][mechanisms]") {
  StepKnobs k;
  k.step_host_s = 2e-3;
  k.half_efficiency_tokens = 128;
  k.low_precision_efficiency = 0.8;
  k.request_overhead_s = 0.015;
  EngineRun run;
  const RecordedSchedule s = recorded(recipe(Arrival::Poisson), k, &run, true);
  std::vector<double> end_s, scratch;
  s.retime(k, end_s);
  CHECK(end_s == s.recorded_end_s());
  // The client's TTFT and E2E are the engine's plus the time outside it, exactly as the run's records say.
  const ServingSummary sum = summarize(run);
  CHECK(s.value(Metric::Ttft, Stat::P50, end_s, scratch, 1, k.request_overhead_s) == sum.ttft_p50_s);
  CHECK(s.value(Metric::E2e, Stat::P50, end_s, scratch, 1, k.request_overhead_s) == sum.e2e_p50_s);
  CHECK(s.value(Metric::Ttft, Stat::P50, end_s, scratch) == Approx(sum.ttft_p50_s - 0.015).epsilon(1e-12));
  // P99 is the quantile the summary takes.
  CHECK(s.value(Metric::E2e, Stat::P99, end_s, scratch, 1, k.request_overhead_s) == Approx(sum.e2e_p99_s).epsilon(1e-12));

  StepKnobs slower = kSlower;
  slower.step_host_s = 5e-3;
  slower.half_efficiency_tokens = 512;
  slower.low_precision_efficiency = 0.5;
  const RecordedSchedule burst = recorded(recipe(Arrival::Burst), k, nullptr, true);
  const RecordedSchedule burst_slower = recorded(recipe(Arrival::Burst), slower, nullptr, true);
  burst.retime(slower, end_s);
  CHECK(end_s == burst_slower.recorded_end_s());
}

TEST_CASE("A client's first-text lag moves TTFT by lag x the request's own gap and TPOT back, not E2E or ITL",
          "[llm][schedule][mechanisms]") {
  EngineRun run;
  const RecordedSchedule s = recorded(recipe(Arrival::Poisson), StepKnobs{}, &run);
  const std::vector<double>& end_s = s.recorded_end_s();
  std::vector<double> scratch;
  const double lag = 2.5;
  // The closed form over the run's own records: each request's first token, its mean gap after it.
  double ttft = 0, tpot = 0;
  for (const RequestRecord& r : run.records) {
    const double gaps = static_cast<double>(r.num_output_tokens - 1);  // 120 tokens a request: 119 gaps
    const double gap = (r.finished_at_s - r.first_token_at_s) / gaps;
    ttft += r.first_token_at_s - r.arrival_at_s + lag * gap;
    tpot += gap * (gaps - lag) / gaps;
  }
  const double n = static_cast<double>(run.records.size());
  CHECK_THAT(s.value(Metric::Ttft, Stat::Mean, end_s, scratch, 1, 0, lag), Catch::Matchers::WithinRel(ttft / n, 1e-12));
  CHECK_THAT(s.value(Metric::Tpot, Stat::Mean, end_s, scratch, 1, 0, lag), Catch::Matchers::WithinRel(tpot / n, 1e-12));
  for (const Metric m : {Metric::E2e, Metric::Itl, Metric::Throughput})
    CHECK(s.value(m, Stat::Mean, end_s, scratch, 1, 0, lag) == s.value(m, Stat::Mean, end_s, scratch));
  // No request's first text comes after its last token: a lag of 1,000 tokens is capped at each request's 119 gaps.
  CHECK_THAT(s.value(Metric::Ttft, Stat::Mean, end_s, scratch, 1, 0, 1000),
             Catch::Matchers::WithinRel(s.value(Metric::E2e, Stat::Mean, end_s, scratch), 1e-12));
}

TEST_CASE("A mixture of experts at its experts' own efficiency re-times bit for bit, and a burst at another is the run",
          "[llm][schedule][mechanisms]") {
  EngineConfig c = test_engine();
  c.model = ModelSpec{"toy-moe", 46'700'000'000, 32, 32, 8, 128, 1.0, 2.0};  // Mixtral-like: 2 of 8 experts
  c.model.num_experts = 8;
  c.model.experts_per_token = 2;
  c.model.num_moe_layers = 32;
  c.model.expert_params = 45'100'000'000;
  c.model.flop_params = 12'900'000'000;
  c.model.hidden_size = 4096;
  c.gpu.attention_roofline = true;
  const auto moe_run = [&c](const WorkloadRecipe& w, const StepKnobs& k, EngineRun* run) { return recorded_on(c, w, k, run); };
  StepKnobs k;
  k.expert_efficiency = 0.7;
  const RecordedSchedule s = moe_run(recipe(Arrival::Poisson), k, nullptr);
  std::vector<double> end_s;
  s.retime(k, end_s);
  CHECK(end_s == s.recorded_end_s());
  StepKnobs slower = k;
  slower.expert_efficiency = 0.4;
  const RecordedSchedule burst = moe_run(recipe(Arrival::Burst), k, nullptr);
  const RecordedSchedule burst_slower = moe_run(recipe(Arrival::Burst), slower, nullptr);
  burst.retime(slower, end_s);
  CHECK(end_s == burst_slower.recorded_end_s());
  CHECK(end_s.back() > burst.recorded_end_s().back());
}

}  // namespace SL_UNITY_ID
