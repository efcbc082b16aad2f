// The measurements llm/calibration reads (calibration_measurements.h): a vllm bench serve JSON or one of two CSV
// layouts, each read into serving points or decode steps, and every bad file refused whole with one error that
// names the parameter, the line and what is wrong.
#include "llm/calibration/calibration_measurements.h"

#include <catch2/catch.hpp>

#include "core/text.h"
#include "cell_runner.h"

namespace SL_UNITY_ID {

using namespace sl::llm;

namespace {

std::string arg(const sl::Error& e, const std::string& key) { return cell_test::error_arg(e, key); }

Measurements parsed(const std::string& text) { return cell_test::value_of(parse_measurements(text, "measurements")); }

const char* const kRun =
    R"({"date": "20250530-203806", "backend": "vllm", "model_id": "m", "num_prompts": 200, "request_rate": %s,)"
    R"( "burstiness": %s, "max_concurrency": %s, "duration": 40.0, "completed": 200, "failed": %s,)"
    R"( "total_input_tokens": 100000, "total_output_tokens": 25600, "request_throughput": 5.0,)"
    R"( "output_throughput": 640.0, "mean_ttft_ms": 30.0, "median_ttft_ms": 28.0, "mean_tpot_ms": %s,)"
    R"( "median_tpot_ms": 7.5, "mean_itl_ms": 8.1, "median_itl_ms": 7.9})";

std::string run(const char* rate, const char* burstiness = "1.0", const char* concurrency = "null",
                const char* failed = "0", const char* tpot = "8.0") {
  char buf[1024];
  std::snprintf(buf, sizeof buf, kRun, rate, burstiness, concurrency, failed, tpot);
  return buf;
}

}  // namespace

TEST_CASE("A vllm bench serve file gives one serving point a run: Poisson, a burst, or a closed loop",
          "[llm][calibration-file]") {
  const Measurements m = parsed(run("5.0") + "\n" + run("\"inf\"") + "\n" + run("\"inf\"", "1.0", "8") + "\n" +
                                run("5.0", "0.5", "16", "3", "0.0"));
  REQUIRE(m.layout == MeasurementLayout::VllmBench);
  REQUIRE(m.serving.size() == 4);
  const ServingMeasurement& poisson = m.serving[0];
  CHECK(poisson.line == 1);
  CHECK(poisson.arrival == Arrival::Poisson);
  CHECK(poisson.rate_per_s == 5.0);
  CHECK(poisson.num_requests == 200);
  CHECK(poisson.prompt_tokens == 500);  // 100,000 / 200 completed
  CHECK(poisson.output_tokens == 128);
  // TTFT, TPOT (means, in seconds) and throughput; no E2E in this file.
  REQUIRE(poisson.targets.size() == 3);
  CHECK(poisson.targets[0].metric == Metric::Ttft);
  CHECK(poisson.targets[0].measured == Approx(0.030));
  CHECK(poisson.targets[1].metric == Metric::Tpot);
  CHECK(poisson.targets[2].metric == Metric::Throughput);
  CHECK(poisson.targets[2].measured == 640.0);
  CHECK(m.serving[1].arrival == Arrival::Burst);
  CHECK(m.serving[2].arrival == Arrival::ClosedLoop);
  CHECK(m.serving[2].concurrency == 8);
  CHECK(m.serving[3].line == 4);
  CHECK(m.serving[3].targets[1].metric == Metric::Tpot);  // mean_tpot 0 (none): the median
  CHECK(m.serving[3].targets[1].stat == Stat::P50);
  CHECK(m.num_gated == 1);
  CHECK(m.num_bursty == 1);
  CHECK(m.num_failed == 1);
}

TEST_CASE("A CSV of decode steps or of serving points is read by its header, comments and blank lines aside",
          "[llm][calibration-file]") {
  const Measurements steps = parsed("\xef\xbb\xbf# measured on an H100\nBatch, Context ,step_ms\n1,128,4.9\n\n64,2048,9.5\n");
  REQUIRE(steps.layout == MeasurementLayout::StepCsv);
  REQUIRE(steps.steps.size() == 2);
  CHECK(steps.steps[1].line == 5);
  CHECK(steps.steps[1].sample.batch == 64);
  CHECK(steps.steps[1].sample.context_tokens == 2048);
  CHECK(steps.steps[1].sample.step_s == Approx(0.0095));
  const Measurements serving = parsed("rate,ttft_p50_ms,tpot_p50_ms,tok_per_s\n2,40,,500\n4,45,9.5,1000\n");
  REQUIRE(serving.layout == MeasurementLayout::ServingCsv);
  REQUIRE(serving.serving.size() == 2);
  CHECK(serving.serving[0].targets.size() == 2);  // the empty TPOT was not measured
  CHECK(serving.serving[0].targets[0].stat == Stat::P50);
  CHECK(serving.serving[0].prompt_tokens == 0);  // the cell's lengths
  const Measurements own = parsed("rate,ttft_p50_ms,tpot_p50_ms,tok_per_s,prompt_tokens,output_tokens\n2,40,8,500,300,64\n");
  CHECK(own.serving[0].prompt_tokens == 300);
  CHECK(own.serving[0].output_tokens == 64);
}

TEST_CASE("Every bad measurements file is refused whole, naming the parameter, the line and the fault",
          "[llm][calibration-file]") {
  struct Bad {
    const char* what;
    std::string text;
    const char* code;
    const char* problem;  ///< "" when the error has none
    const char* line;
  };
  std::string too_many = "batch,context,step_ms\n";
  for (int i = 0; i <= kMaxStepMeasurements; ++i) too_many += "1,1,1\n";
  const std::vector<Bad> cases = {
      {"an empty file", "", "calib_empty", "", "1"},
      {"a header alone", "batch,context,step_ms\n", "calib_empty", "", "1"},
      {"an unknown header", "time,latency\n1,2\n", "calib_header", "", "1"},
      {"NaN at the top level (not JSON: a CSV header)", "NaN", "calib_header", "", "1"},
      {"a missing column", "batch,context\n1,2\n", "calib_missing_column", "", "1"},
      {"half of the length pair", "rate,ttft_p50_ms,tpot_p50_ms,tok_per_s,prompt_tokens\n1,2,3,4,5\n", "calib_missing_column", "", "1"},
      {"a column twice", "batch,context,step_ms,batch\n1,2,3,4\n", "calib_duplicate_column", "", "1"},
      {"a short row", "batch,context,step_ms\n1,2\n", "calib_field_count", "", "2"},
      {"a word", "batch,context,step_ms\n1,2,fast\n", "calib_value", "positive", "2"},
      {"a fraction of a sequence", "batch,context,step_ms\n1.5,2,3\n", "calib_value", "whole", "2"},
      {"a zero step", "batch,context,step_ms\n1,2,0\n", "calib_value", "positive", "2"},
      {"infinity", "rate,ttft_p50_ms,tpot_p50_ms,tok_per_s\ninf,1,1,1\n", "calib_value", "positive", "2"},
      {"a hex number", "rate,ttft_p50_ms,tpot_p50_ms,tok_per_s\n0x10,1,1,1\n", "calib_value", "positive", "2"},
      {"a negative rate", "rate,ttft_p50_ms,tpot_p50_ms,tok_per_s\n-1,1,1,1\n", "calib_value", "positive", "2"},
      {"no figure in a row", "rate,ttft_p50_ms,tpot_p50_ms,tok_per_s\n3,,,\n", "calib_no_figure", "", "2"},
      {"too many steps", too_many, "calib_too_many", "", "10002"},
      {"an unclosed quote", "batch,context,step_ms\n1,\"2,3\n", "csv_syntax", "unclosed_quote", "2"},
      {"a NUL byte in a CSV", std::string("batch,context,step_ms\n1,2\0,3\n", 29), "csv_syntax", "nul", "2"},
      {"a top-level list (the pytorch file)", R"([{"benchmark": {"name": "vLLM benchmark"}}])", "bench_pytorch_format", "", "1"},
      {"200-deep nesting", "{\"a\": " + std::string(200, '[') + std::string(200, ']') + "}", "bad_bench_json", "", "1"},
      {"completed = 0", R"({"completed": 0, "duration": 1.0, "mean_ttft_ms": 1.0, "request_rate": 1})", "bench_no_request", "", "1"},
      {"a NaN TTFT", R"({"completed": 5, "duration": 1.0, "mean_ttft_ms": NaN, "request_rate": 1})", "bad_bench_value", "", "1"},
      {"a key with \\xff and a newline", "{\"\xff\n\": 1, \"completed\": 5, \"duration\": 1.0}", "bad_bench_json", "", "1"},
      {"a truncated file", R"({"completed": 5, "dura)", "bad_bench_json", "", "1"},
      {"a NUL byte in JSON", std::string("{\"completed\": 5\0}", 17), "bad_bench_json", "", "1"},
      {"a run without a rate", R"({"completed": 5, "duration": 1.0, "mean_ttft_ms": 1.0, "total_input_tokens": 50, "total_output_tokens": 50})",
       "calib_bench_run", "no_rate", "1"},
      {"a run without tokens", R"({"completed": 5, "duration": 1.0, "mean_ttft_ms": 1.0, "request_rate": "inf", "total_input_tokens": 0, "total_output_tokens": 50})",
       "calib_bench_run", "no_tokens", "1"},
      {"a run that measured nothing", R"({"completed": 5, "duration": 1.0, "mean_ttft_ms": 0.0, "request_rate": "inf", "total_input_tokens": 50, "total_output_tokens": 50})",
       "calib_bench_run", "no_figure", "1"},
  };
  for (const Bad& b : cases) {
    INFO(b.what);
    auto m = parse_measurements(b.text, "measurements");
    REQUIRE_FALSE(m.ok());
    const sl::Error& e = m.error();
    INFO(e.message);
    CHECK(e.code == b.code);
    CHECK(e.param == "measurements");
    CHECK(arg(e, "line") == b.line);
    if (*b.problem) CHECK(arg(e, "problem") == b.problem);
    CHECK(e.message.rfind("measurements", 0) == 0);
    CHECK(sl::echo(e.message, static_cast<std::size_t>(-1)) == e.message);  // one line of valid UTF-8
  }
}

TEST_CASE("Serving points cap their requests: a Poisson run's throughput extrapolated, a long burst's latencies dropped",
          "[llm][calibration-file]") {
  const Measurements m = parsed(run("5.0") + "\n" + run("\"inf\""));
  MeasurementDefaults d;
  d.max_requests = 40;
  std::int64_t cut = 0;
  const auto points = serving_points(m, d, cut);
  REQUIRE(points.size() == 2);
  CHECK(points[0].point.workload.num_requests == 40);
  CHECK(points[0].point.targets.back().count_scale == 5.0);  // 200 measured / 40 simulated
  CHECK(points[1].point.workload.num_requests == 160);       // 4 x 40: a burst is simulated once
  CHECK(points[1].point.targets.size() == 1);
  CHECK(points[1].point.targets[0].metric == Metric::Throughput);
  CHECK(cut == 1);
}

}  // namespace SL_UNITY_ID
