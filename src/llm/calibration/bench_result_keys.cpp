#include "llm/calibration/bench_result_keys.h"

#include <cstdlib>
#include <optional>

namespace sl::llm {

namespace {

struct NamedField {
  const char* key;
  BenchField field;
};
constexpr NamedField kFields[] = {
    {"model_id", BenchField::ModelId}, {"date", BenchField::Date}, {"backend", BenchField::Backend},
    {"num_prompts", BenchField::NumPrompts}, {"request_rate", BenchField::RequestRate},
    {"burstiness", BenchField::Burstiness}, {"max_concurrency", BenchField::MaxConcurrency},
    {"duration", BenchField::Duration}, {"completed", BenchField::Completed}, {"failed", BenchField::Failed},
    {"total_input_tokens", BenchField::TotalInputTokens}, {"total_output_tokens", BenchField::TotalOutputTokens},
    {"request_throughput", BenchField::RequestThroughput}, {"request_goodput", BenchField::RequestGoodput},
    {"request_goodput:", BenchField::RequestGoodput},  // benchmark_serving.py's typo (early 2025)
    {"output_throughput", BenchField::OutputThroughput},
    {"total_token_throughput", BenchField::TotalTokenThroughput}, {"input_lens", BenchField::InputLens},
    {"output_lens", BenchField::OutputLens},
    // One entry a request (itls is not here: some versions flatten it into one list of every gap).
    {"ttfts", BenchField::PerRequestList}, {"latencies", BenchField::PerRequestList},
    {"start_times", BenchField::PerRequestList}, {"queue_times", BenchField::PerRequestList},
    {"generated_texts", BenchField::PerRequestList}, {"errors", BenchField::PerRequestList}};
static_assert(sizeof kFields / sizeof kFields[0] == kNumNamedBenchKeys);

constexpr const char* kMetrics[kNumBenchMetrics] = {"ttft", "tpot", "itl", "e2el", "latency"};

bool starts_with(const std::string& s, const char* head) { return s.rfind(head, 0) == 0; }

/// "99" or "99.9" as a number in [0, 100], else nothing.
std::optional<double> percentile_of(const std::string& text) {
  int dots = 0, digits = 0;
  for (const char c : text) {
    if (c == '.') ++dots;
    else if (c >= '0' && c <= '9') ++digits;
    else return std::nullopt;
  }
  if (digits == 0 || dots > 1 || text.front() == '.' || text.back() == '.') return std::nullopt;
  const double p = std::strtod(text.c_str(), nullptr);  // correctly rounded in glibc and musl alike
  return p <= 100 ? std::optional<double>(p) : std::nullopt;
}

}  // namespace

BenchKey classify_bench_key(const std::string& key) {
  BenchKey info;
  for (int i = 0; i < kNumNamedBenchKeys; ++i)
    if (key == kFields[i].key) {
      info.field = kFields[i].field;
      info.named = i;
      return info;
    }
  if (key.size() < 3 || key.compare(key.size() - 3, 3, "_ms") != 0) return info;
  const std::string body = key.substr(0, key.size() - 3);
  std::string metric, p_text;
  if (starts_with(body, "mean_")) info.stat = BenchStat::Mean, metric = body.substr(5);
  else if (starts_with(body, "median_")) info.stat = BenchStat::Median, metric = body.substr(7);
  else if (starts_with(body, "std_")) info.stat = BenchStat::Std, metric = body.substr(4);
  else if (body.size() > 1 && body[0] == 'p' && body[1] >= '0' && body[1] <= '9') {
    const std::size_t underscore = body.find('_');
    if (underscore == std::string::npos) return info;
    info.stat = BenchStat::Percentile;
    p_text = body.substr(1, underscore - 1);
    metric = body.substr(underscore + 1);
  } else {
    return info;
  }
  for (int m = 0; m < kNumBenchMetrics; ++m) {
    if (metric != kMetrics[m]) continue;
    info.field = BenchField::Metric;
    info.metric = m;
    if (info.stat == BenchStat::Percentile) {
      const auto p = percentile_of(p_text);
      info.bad_percentile = !p;
      info.p = p.value_or(0);
    }
  }
  return info;
}

}  // namespace sl::llm
