#pragma once
// Which BenchRun field a top-level key of a `vllm bench serve` result file fills (bench_result.cpp's table).
#include <string>

namespace sl::llm {

enum class BenchField {
  Unknown, ModelId, Date, Backend, NumPrompts, RequestRate, Burstiness, MaxConcurrency, Duration, Completed,
  Failed, TotalInputTokens, TotalOutputTokens, RequestThroughput, RequestGoodput, OutputThroughput,
  TotalTokenThroughput, InputLens, OutputLens, PerRequestList, Metric
};
enum class BenchStat { Mean, Median, Std, Percentile };

/// Latency metrics a BenchRun holds: ttft, tpot, itl, e2el, and "latency" (vLLM v0.5.4's end-to-end latency,
/// index kBenchLegacyLatency, read as e2el when e2el is absent).
inline constexpr int kNumBenchMetrics = 5;
inline constexpr int kBenchLegacyLatency = 4;
/// Keys with a field of their own (BenchKey::named indexes them).
inline constexpr int kNumNamedBenchKeys = 25;

/// What a top-level key names.
struct BenchKey {
  BenchField field = BenchField::Unknown;
  int named = -1;  ///< 0..kNumNamedBenchKeys-1 for a key of its own; the two goodput spellings differ
  int metric = 0;  ///< for BenchField::Metric: 0 ttft, 1 tpot, 2 itl, 3 e2el, 4 latency
  BenchStat stat = BenchStat::Mean;
  double p = 0;                 ///< for BenchStat::Percentile: P of p<P>_<metric>_ms ("p99.9" -> 99.9)
  bool bad_percentile = false;  ///< p<P>_<metric>_ms of a metric we keep, with P not a number in [0, 100]
};

/// A named key ("completed", "request_goodput:" ...), mean_/median_/std_/p<P>_<metric>_ms of a metric we keep,
/// or Unknown (metadata, per-request extras, other metrics: skipped).
BenchKey classify_bench_key(const std::string& key);

}  // namespace sl::llm
