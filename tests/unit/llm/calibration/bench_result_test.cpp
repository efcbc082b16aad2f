#include "llm/calibration/bench_result.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "core/text.h"
#include "cell_runner.h"

namespace SL_UNITY_ID {

using sl::llm::BenchRun;
using sl::llm::parse_vllm_bench;

namespace {

// What `vllm bench serve --backend vllm --model meta-llama/Llama-3.1-8B-Instruct --dataset-name random
// --random-input-len 1024 --random-output-len 64 --random-range-ratio 0.1 --num-prompts 32 --request-rate 4
// --burstiness inf --percentile-metrics ttft,tpot,itl,e2el --metric-percentiles 50,90,99,99.9
// --metadata gpu=H100-SXM-80GB tp=1 --save-result --save-detailed` writes: one line, Python's json.dump
// (Infinity for burstiness), every key of serve.py in its order. Written for these tests, not a measurement.
const char* const kFixture = "tests/unit/llm/fixtures/vllm-4.0qps-Llama-3.1-8B-Instruct-20250612-141503.json";

std::string fixture() { return cell_test::source_file(kFixture); }

std::vector<BenchRun> parsed(const std::string& bytes) { return cell_test::value_of(parse_vllm_bench(bytes, "bench")); }

std::string arg(const sl::Error& e, const std::string& name) { return cell_test::error_arg(e, name); }

/// The one error of a refused file: its code, the param, the line in the message and the arguments, one line.
sl::Error refused(const std::string& bytes, const std::string& code, int line, const std::string& key = "") {
  auto r = parse_vllm_bench(bytes, "bench");
  REQUIRE_FALSE(r.ok());
  const sl::Error& e = r.error();
  INFO(e.message);
  CHECK(e.code == code);
  CHECK(e.param == "bench");
  CHECK(e.message.rfind("bench, line " + std::to_string(line) + ", column ", 0) == 0);
  CHECK(arg(e, "line") == std::to_string(line));
  CHECK(std::stoi(arg(e, "column")) >= 1);
  CHECK(arg(e, "key") == sl::echo(key));
  if (!key.empty()) CHECK(e.message.find("\"" + sl::echo(key) + "\"") != std::string::npos);
  CHECK(sl::echo(e.message, static_cast<std::size_t>(-1)) == e.message);  // one line of valid UTF-8
  return e;
}

/// A minimal run the parser accepts, with `more` keys appended.
std::string run_with(const std::string& more = "") {
  return R"({"num_prompts": 10, "completed": 10, "duration": 5.0, "mean_ttft_ms": 30.0)" +
         (more.empty() ? std::string() : ", " + more) + "}";
}

}  // namespace

TEST_CASE("A real-shaped result file (Llama-3.1-8B at 4 req/s, --save-detailed) parses to its numbers",
          "[llm][bench-result]") {
  const auto runs = parsed(fixture());
  REQUIRE(runs.size() == 1);
  const BenchRun& r = runs[0];
  CHECK(r.line == 1);
  CHECK(r.model_id == "meta-llama/Llama-3.1-8B-Instruct");
  CHECK(r.date == "20250612-141503");
  CHECK(r.backend == "vllm");
  CHECK_FALSE(r.is_burst);
  CHECK(r.request_rate_per_s == 4.0);
  CHECK(r.burstiness == INFINITY);  // "burstiness": Infinity: evenly spaced arrivals
  CHECK(r.max_concurrency == 0);    // null
  CHECK(r.num_prompts == 32);
  CHECK(r.completed == 32);
  CHECK(r.failed == 0);
  CHECK(r.duration_s == 8.29953683297208);
  CHECK(r.total_input_tokens == 32629);
  CHECK(r.total_output_tokens == 2058);
  CHECK(r.request_throughput_per_s == 3.8556368438382767);
  CHECK(r.output_tok_per_s == 247.96564451934918);
  CHECK(r.total_tok_per_s == 4179.389850069322);
  // Summary metrics: the file's milliseconds, divided by 1000.
  CHECK(r.ttft.mean_s == 33.17801205691406 / 1000);
  CHECK(r.ttft.median_s == 32.86580374611088 / 1000);
  CHECK(r.ttft.std_s == 1.3518436717511557 / 1000);
  REQUIRE(r.ttft.percentiles_s.size() == 4);
  CHECK(r.ttft.percentiles_s[0].first == 50);
  CHECK(r.ttft.percentiles_s[3].first == 99.9);  // "p99.9_ttft_ms"
  CHECK(r.ttft.percentiles_s[3].second == 35.60735206905066 / 1000);
  CHECK(r.tpot.percentiles_s[2] == std::pair<double, double>(99, 8.827276924371034 / 1000));
  CHECK(r.itl.mean_s == 7.978835171898544 / 1000);
  CHECK(r.e2el.percentiles_s[0].second == 540.2286448457305 / 1000);
  // Per-request lists: one entry a prompt, summing to the totals.
  REQUIRE(r.input_lens.size() == 32);
  REQUIRE(r.output_lens.size() == 32);
  CHECK(r.input_lens[0] == 993);
  CHECK(r.output_lens[2] == 63);
  CHECK(std::accumulate(r.input_lens.begin(), r.input_lens.end(), std::int64_t{0}) == r.total_input_tokens);
  CHECK(std::accumulate(r.output_lens.begin(), r.output_lens.end(), std::int64_t{0}) == r.total_output_tokens);
}

TEST_CASE("JSON Lines (--append-result) give one run a line, each with its line number", "[llm][bench-result]") {
  // The second run as --append-result adds it: "\n" then the object. A burst with a client semaphore, the
  // default metrics without the tokenizer's (only e2el), and the old "request_goodput:" key.
  const std::string second =
      R"({"date": "20250612-142210", "backend": "vllm", "model_id": "meta-llama/Llama-3.1-8B-Instruct", )"
      R"("num_prompts": 200, "request_rate": "inf", "burstiness": 1.0, "max_concurrency": 8, "duration": 61.5, )"
      R"("completed": 199, "failed": 1, "request_goodput:": null, "mean_e2el_ms": 2450.5, "p99_e2el_ms": 3900.25})";
  const auto runs = parsed(fixture() + "\n" + second + "\n");
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].line == 1);
  CHECK(runs[0].completed == 32);
  const BenchRun& b = runs[1];
  CHECK(b.line == 2);
  CHECK(b.is_burst);
  CHECK(b.request_rate_per_s == 0);
  CHECK(b.max_concurrency == 8);
  CHECK(b.completed == 199);
  CHECK(b.failed == 1);
  CHECK(b.e2el.mean_s == 2.4505);
  CHECK(std::isnan(b.ttft.mean_s));  // absent metrics stay NaN
  CHECK(std::isnan(b.ttft.median_s));
  CHECK(b.input_lens.empty());  // without --save-detailed
}

TEST_CASE("Older and foreign keys are read or skipped, never refused", "[llm][bench-result]") {
  SECTION("unknown keys of every shape, metadata strings and ramp-up events are skipped") {
    const auto runs = parsed(run_with(
        R"("gpu": "H100", "tp": "4", "label": null, "best_of": 1, "use_beam_search": false, )"
        R"("rps_change_events": [{"rps": 1, "timestamp": "2025-06-12T14:15:03"}], "itls": [[0.007, 0.008], []], )"
        R"("spec_decode_per_position_acceptance_rates": [0.8, 0.6], "mean_client_queue_time_ms": 0.0, "rtfx": NaN)"));
    REQUIRE(runs.size() == 1);
    CHECK(runs[0].completed == 10);
  }
  SECTION("vLLM v0.5.4's latency keys are its end-to-end latency") {
    const auto r = parsed(run_with(R"("mean_latency_ms": 1500.0, "p99_latency_ms": 2100.0)"))[0];
    CHECK(r.e2el.mean_s == 1.5);
    CHECK(r.e2el.percentiles_s == std::vector<std::pair<double, double>>{{99, 2.1}});
  }
  SECTION("a count written as a float with no fraction, and a rate as a number") {
    const auto r = parsed(R"({"completed": 12.0, "duration": 3, "request_rate": 2.5, "median_itl_ms": 7})")[0];
    CHECK(r.completed == 12);
    CHECK(r.request_rate_per_s == 2.5);
    CHECK(r.itl.median_s == 0.007);
  }
}

TEST_CASE("Files that are not one result object are refused with the line named", "[llm][bench-result]") {
  SECTION("empty") {
    refused("", "bench_empty", 1);
    refused(" \n\t\r\n ", "bench_empty", 1);
  }
  SECTION("not JSON, with RapidJSON's reason at line:column") {
    const auto e = refused("{\n  \"completed\": 5\n  \"duration\": 1.0\n}", "bad_bench_json", 3, "completed");
    CHECK(arg(e, "column") == "3");
    CHECK(e.message.find("Missing a comma or '}'") != std::string::npos);
    refused("{\"completed\": 5,, }", "bad_bench_json", 1, "completed");
    refused("{'completed': 5}", "bad_bench_json", 1);
    refused(std::string("{\"completed\": 5,\0 }", 19), "bad_bench_json", 1, "completed");
  }
  SECTION("a list at top level: the .pytorch.json sibling") {
    const auto e = refused(R"([{"benchmark": {"name": "vLLM benchmark"}, "metric": {"name": "median_ttft_ms"}}])",
                           "bench_pytorch_format", 1);
    CHECK(e.message.find(".pytorch.json") != std::string::npos);
  }
  SECTION("a top-level value that is not an object") {
    for (const char* text : {"42", "\"result\"", "null", "true", "NaN", "-Infinity"})
      refused(text, "bad_bench_json", 1);
    refused(run_with() + "\n7", "bad_bench_json", 2);
  }
  SECTION("larger than 64 MiB (70 MB of spaces)") {
    const auto e = refused(std::string(70'000'000, ' '), "too_large", 1);
    CHECK(arg(e, "got") == "70000000");
  }
}

TEST_CASE("Nesting deeper than 8 levels is refused without recursion, 200 deep included", "[llm][bench-result]") {
  std::string objects, arrays;
  for (int i = 0; i < 200; ++i) objects += "{\"a\": ", arrays += "[";
  objects += "1" + std::string(200, '}');
  arrays += std::string(200, ']');
  const auto e = refused(objects, "bad_bench_json", 1, "a");
  CHECK(e.message.find("deeper than 8") != std::string::npos);
  refused(R"({"completed": 3, "x": )" + arrays + "}", "bad_bench_json", 1, "x");
  refused(arrays, "bench_pytorch_format", 1);
  refused(std::string(100'000, '['), "bench_pytorch_format", 1);  // and never closed
  // Eight levels are fine: the run, then seven nested lists under an unknown key.
  CHECK(parsed(run_with(R"("deep": [[[[[[[1]]]]]]])")).size() == 1);
}

TEST_CASE("A run without what a calibration needs is refused, naming the key", "[llm][bench-result]") {
  const auto e = refused("\n" + run_with() + "\n{\"duration\": 2.0, \"mean_ttft_ms\": 1.0}", "bench_missing_key", 3,
                         "completed");
  CHECK(arg(e, "column") == "1");  // where the run starts
  const auto none = refused(R"({"completed": 0, "duration": 5.0, "mean_ttft_ms": 0.0})", "bench_no_request", 1,
                            "completed");
  CHECK(none.message.find("completed no request") != std::string::npos);
  refused(R"({"completed": 5, "mean_ttft_ms": 1.0})", "bench_missing_key", 1, "duration");
  refused(R"({"completed": 5, "duration": 1.0, "mean_throughput": 1.0, "probe_p99_e2el_ms": 5.0})",
          "bench_missing_key", 1, "mean_ttft_ms");
}

TEST_CASE("Values out of range, of the wrong type or not whole are refused, naming the key", "[llm][bench-result]") {
  refused(run_with(R"("duration": 0.0)"), "bad_bench_json", 1, "duration");  // a key twice in one run
  refused(R"({"completed": 5, "duration": 0, "mean_ttft_ms": 1.0})", "bad_bench_value", 1, "duration");
  refused(R"({"completed": 5, "duration": -2.5, "mean_ttft_ms": 1.0})", "bad_bench_value", 1, "duration");
  refused(R"({"completed": 5, "duration": Infinity, "mean_ttft_ms": 1.0})", "bad_bench_value", 1, "duration");
  const auto nan = refused(run_with(R"("p99_tpot_ms": NaN)"), "bad_bench_value", 1, "p99_tpot_ms");
  CHECK(nan.message.find("allowed in burstiness only") != std::string::npos);
  CHECK(arg(nan, "got") == "NaN");
  refused(R"({"completed": 12.5, "duration": 1.0, "mean_ttft_ms": 1.0})", "bad_bench_value", 1, "completed");
  // A minimal run with one key of a bad value: that key is refused.
  const std::vector<std::pair<std::string, std::string>> bad_values = {
      {"std_itl_ms", "-0.5"}, {"request_throughput", "-1"}, {"burstiness", "NaN"}, {"burstiness", "-Infinity"},
      {"request_rate", R"("fast")"}, {"request_rate", "Infinity"}, {"total_output_tokens", "-3"}, {"failed", "1e300"},
      {"max_concurrency", R"("8")"}, {"model_id", "7"}, {"input_lens", "[1, 2.5]"}, {"output_lens", "[[1]]"},
      {"ttfts", "0.5"}, {"median_ttft_ms", R"({"value": 1})"}, {"p101_ttft_ms", "1.0"}};
  for (const auto& [key, value] : bad_values) {
    INFO(key << ": " << value);
    refused(run_with("\"" + key + "\": " + value), "bad_bench_value", 1, key);
  }
  // Text from the file is echoed: one line of valid UTF-8 whatever the bytes.
  const auto e = refused(run_with("\"backend\": [\"\xff\\n\"]"), "bad_bench_value", 1, "backend");
  CHECK(arg(e, "got") == "a list");
  const auto bad_text = refused(run_with("\"burstiness\": \"\xff\\u0001\""), "bad_bench_value", 1, "burstiness");
  CHECK(arg(bad_text, "got") == "\"\xef\xbf\xbd\\x01\"");
}

TEST_CASE("Memory is bounded: lists past num_prompts or 10^6 entries, huge strings and keys", "[llm][bench-result]") {
  refused(run_with(R"("input_lens": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])"), "too_large", 1, "input_lens");
  refused(run_with(R"("latencies": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])"), "too_large", 1, "latencies");
  std::string million = "[0";
  for (int i = 0; i < 1'000'000; ++i) million += ",0";
  const auto e = refused(run_with("\"unknown\": " + million + "]"), "too_large", 1, "unknown");
  CHECK(arg(e, "got") == "1000001");
  refused(run_with("\"generated_texts\": [\"" + std::string(5 << 20, 'a') + "\"]"), "too_large", 1,
          "generated_texts");
  const std::string long_key(5 << 20, 'k');
  refused(run_with("\"" + long_key + "\": 1"), "too_large", 1, long_key);
  std::string percentiles;  // p0.00 .. p50.00 in steps of 0.05: 1001 distinct percentiles of one metric
  for (int i = 0; i <= 1000; ++i) {
    const int hundredths = (i % 20) * 5;
    percentiles += ", \"p" + std::to_string(i / 20) + (hundredths < 10 ? ".0" : ".") + std::to_string(hundredths) +
                   "_itl_ms\": 1";
  }
  refused(run_with(percentiles.substr(2)), "too_large", 1, "p50.00_itl_ms");
}

TEST_CASE("Truncated files are refused wherever they are cut", "[llm][bench-result]") {
  const std::string file = fixture();
  for (std::size_t cut = 1; cut < file.size(); cut += 997) {
    INFO("cut at byte " << cut);
    auto r = parse_vllm_bench(file.substr(0, cut), "bench");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == "bad_bench_json");
    CHECK(r.error().message.find("line 1") != std::string::npos);
  }
  const std::string two = run_with() + "\n" + run_with();
  const auto e = refused(two.substr(0, two.size() - 5), "bad_bench_json", 2, "mean_ttft_ms");
  CHECK(e.message.find("cut short") != std::string::npos);
}

}  // namespace SL_UNITY_ID
