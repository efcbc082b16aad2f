#pragma once
// What `vllm bench serve --save-result` writes (vllm/benchmarks/serve.py; older benchmarks/benchmark_serving.py),
// read into numbers a calibration can use. The keys each version writes are listed in bench_result_keys.h.
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"

namespace sl::llm {

/// Largest file parse_vllm_bench reads (a run with --save-detailed is ~1.4 KB a prompt: 64 MiB is ~45,000 prompts).
inline constexpr std::int64_t kMaxBenchFileBytes = 64 * 1024 * 1024;
/// Longest array anywhere in the file (per-request lists have num_prompts entries).
inline constexpr std::int64_t kMaxBenchListLength = 1'000'000;
/// Longest string or key (a generated text of 100k tokens is ~0.5 MB).
inline constexpr std::int64_t kMaxBenchStringBytes = 4 * 1024 * 1024;
/// Most runs in one file (--append-result adds one a line).
inline constexpr std::int64_t kMaxBenchRuns = 10'000;
/// Deepest nesting of objects and arrays (a result file has 3: the run, itls, its inner lists).
inline constexpr int kMaxBenchDepth = 8;

/// Summary statistics of one latency metric, in seconds (the file holds milliseconds).
struct MetricStats {
  double mean_s = std::numeric_limits<double>::quiet_NaN();
  double median_s = std::numeric_limits<double>::quiet_NaN();
  double std_s = std::numeric_limits<double>::quiet_NaN();  ///< population (numpy ddof 0)
  std::vector<std::pair<double, double>> percentiles_s;      ///< (P, value_s) in file order, e.g. (99, 0.12)
};

/// One benchmark run: one JSON object of the file.
struct BenchRun {
  std::int64_t line = 1;  ///< line of the file where this object starts (JSON Lines: several objects)
  /// As in the file, made one line of valid UTF-8 and cut after 256 bytes (sl::echo).
  std::string model_id, date, backend;
  bool is_burst = false;           ///< request_rate "inf": all requests sent at t = 0
  double request_rate_per_s = 0;   ///< target (finite) rate when !is_burst; 0 when the file has none
  double burstiness = 1;           ///< gamma shape of the inter-arrival times; may be +inf (evenly spaced)
  std::int64_t max_concurrency = 0;  ///< 0 = none (null in the file)
  std::int64_t num_prompts = 0, completed = 0, failed = 0;
  double duration_s = 0;
  std::int64_t total_input_tokens = 0, total_output_tokens = 0;
  double request_throughput_per_s = 0, output_tok_per_s = 0, total_tok_per_s = 0;
  MetricStats ttft, tpot, itl, e2el;  ///< present ones filled; absent: NaN mean and median
  std::vector<std::int64_t> input_lens, output_lens;  ///< per request, only with --save-detailed
};

/// Parses a result file: one JSON object, or several separated by newlines (--append-result). Accepts
/// request_rate as a number or "inf", burstiness Infinity (Python's json.dump literal), the old key
/// "request_goodput:", p99.9-style percentile keys, vLLM v0.5.4's *_latency_ms (as e2el), counts written as
/// whole floats (12.0), metadata and unknown keys (skipped, never stored). Refuses with one Error: param =
/// `param`; message "<param>, line L, column C: "<key>" <what is wrong>" (one line, file text through echo());
/// args {line, column, key, got} (column counts bytes from 1; key is the top-level key, "" if none). Codes:
///   bench_empty          nothing but blanks
///   too_large            over kMaxBenchFileBytes; a list over kMaxBenchListLength, or a per-request list
///                        longer than num_prompts; a string or key over kMaxBenchStringBytes; over
///                        kMaxBenchRuns runs; over 1000 percentiles of one metric
///   bad_bench_json       not JSON (RapidJSON's reason; "cut short?" at the end of the file), a top-level value
///                        that is not an object, nesting deeper than kMaxBenchDepth, a key twice in one run
///   bench_pytorch_format a top-level list: the .pytorch.json sibling, not the result
///   bad_bench_value      a known key of the wrong type, negative, non-finite (NaN and Infinity only in
///                        burstiness), a fraction where a count belongs; duration <= 0
///   bench_missing_key    completed or duration missing, or no ttft/tpot/itl/e2el statistic at all
///   bench_no_request     completed = 0 (vLLM still writes the file, every metric 0)
Result<std::vector<BenchRun>> parse_vllm_bench(const std::string& bytes, const std::string& param);

}  // namespace sl::llm
