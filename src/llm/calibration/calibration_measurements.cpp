#include "llm/calibration/calibration_measurements.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/csv.h"
#include "core/text.h"
#include "core/units.h"
#include "llm/calibration/bench_result.h"

namespace sl::llm {
namespace {

constexpr std::int64_t kMaxHeaderFields = 32;
constexpr std::int64_t kTimeFreeRequestsFactor = 4;  // a burst or closed loop is simulated once (serving_calibration.h)
constexpr double kMaxBatch = 1e6, kMaxContextTokens = 1e8, kMaxStepMs = 1e7;
constexpr double kMaxRatePerS = 1e6, kMaxLatencyMs = 1e9, kMaxTokPerS = 1e12, kMaxLengthTokens = 1e7;

using Args = std::vector<std::pair<std::string, std::string>>;

Error error_at(const std::string& code, const std::string& param, std::int64_t line, const std::string& what, Args args) {
  args.insert(args.begin(), {"line", std::to_string(line)});
  return Error{code, param, param + " line " + std::to_string(line) + ": " + what, std::move(args)};
}

/// The columns a CSV layout reads: their indices (-1: absent) and the header as written.
struct Header {
  MeasurementLayout layout = MeasurementLayout::ServingCsv;
  std::vector<std::string> names;
  std::vector<int> at;  ///< per wanted column, in the layout's order
};

const std::vector<std::string>& columns_of(MeasurementLayout layout) {
  static const std::vector<std::string> steps = {"batch", "context", "step_ms"};
  static const std::vector<std::string> serving = {"rate", "ttft_p50_ms", "tpot_p50_ms", "tok_per_s", "prompt_tokens",
                                                   "output_tokens"};
  return layout == MeasurementLayout::StepCsv ? steps : serving;
}
constexpr std::size_t kRequiredServingColumns = 4;  // the lengths are optional, as a pair

Result<Header> read_header(const std::vector<std::string>& fields, const std::string& param, std::int64_t line) {
  Header h;
  h.names = fields;
  std::vector<std::string> names;
  for (const std::string& f : fields) names.push_back(csv::header_name(f));
  const auto has = [&](const char* n) { return std::find(names.begin(), names.end(), n) != names.end(); };
  if (has("batch") || has("step_ms")) h.layout = MeasurementLayout::StepCsv;
  else if (has("rate")) h.layout = MeasurementLayout::ServingCsv;
  else {
    std::string got;
    for (std::size_t i = 0; i < fields.size(); ++i) got += (i ? "," : "") + fields[i];
    return error_at("calib_header", param, line,
                    "the header " + echo(got, 80) + " names no known layout; a file of measurements is a vllm bench "
                    "serve JSON, or a CSV that starts batch,context,step_ms or rate,ttft_p50_ms,tpot_p50_ms,tok_per_s",
                    {{"got", echo(got, 80)}});
  }
  const std::vector<std::string>& wanted = columns_of(h.layout);
  for (const std::string& name : wanted) {
    int at = -1;
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (names[i] != name) continue;
      if (at >= 0)
        return error_at("calib_duplicate_column", param, line, "the column " + name + " appears twice", {{"column", name}});
      at = static_cast<int>(i);
    }
    h.at.push_back(at);
  }
  const std::size_t required = h.layout == MeasurementLayout::StepCsv ? wanted.size() : kRequiredServingColumns;
  for (std::size_t k = 0; k < wanted.size(); ++k) {
    const bool pair_half = k >= required && (h.at[k] < 0) != (h.at[k == 4 ? 5 : 4] < 0);
    if (h.at[k] >= 0 || (k >= required && !pair_half)) continue;
    return error_at("calib_missing_column", param, line,
                    "no column " + wanted[k] + (k >= required ? " (prompt_tokens and output_tokens come as a pair)" : ""),
                    {{"column", wanted[k]}});
  }
  return h;
}

/// Reads the fields of one CSV row by column, with errors naming the line and the column.
class RowReader {
 public:
  RowReader(const std::string& param, const Header& h, const std::vector<std::string>& fields, std::int64_t line)
      : param_(param), h_(h), fields_(fields), line_(line) {}

  bool is_empty(std::size_t k) const { return csv::header_name(text(k)).empty(); }

  /// A decimal number in (0, hi] (positive) or [1, hi] and whole (whole).
  Result<double> number(std::size_t k, double hi, bool whole) const {
    const std::string& t = text(k);
    const double lo = whole ? 1 : 0;
    if (is_decimal(t) && !names_non_finite(t)) {
      const double x = std::strtod(t.c_str(), nullptr);
      if (std::isfinite(x) && (whole ? x >= lo && x == std::floor(x) : x > 0) && x <= hi) return x;
    }
    const std::string name = echo(h_.names[static_cast<std::size_t>(h_.at[k])]);
    const std::string expected = whole ? "a whole number in [1, " + format_number(hi) + "]"
                                       : "a number above 0, at most " + format_number(hi);
    return error_at("calib_value", param_, line_, "column " + name + ": expected " + expected + ", got " + echo(t),
                    {{"column", name}, {"got", echo(t)}, {"problem", whole ? "whole" : "positive"},
                     {"min", format_number(lo)}, {"max", format_number(hi)}});
  }

 private:
  const std::string& text(std::size_t k) const { return fields_[static_cast<std::size_t>(h_.at[k])]; }
  const std::string& param_;
  const Header& h_;
  const std::vector<std::string>& fields_;
  std::int64_t line_;
};

std::optional<Error> read_step_row(const RowReader& row, std::int64_t line, Measurements& m) {
  auto batch = row.number(0, kMaxBatch, true);
  if (!batch.ok()) return batch.error();
  auto context = row.number(1, kMaxContextTokens, true);
  if (!context.ok()) return context.error();
  auto step_ms = row.number(2, kMaxStepMs, false);
  if (!step_ms.ok()) return step_ms.error();
  m.steps.push_back({line, {static_cast<std::int64_t>(batch.value()), static_cast<std::int64_t>(context.value()),
                            step_ms.value() / units::kMsPerS}});
  return std::nullopt;
}

std::optional<Error> read_serving_row(const RowReader& row, const Header& h, const std::string& param,
                                      std::int64_t line, Measurements& m) {
  ServingMeasurement s;
  s.line = line;
  auto rate = row.number(0, kMaxRatePerS, false);
  if (!rate.ok()) return rate.error();
  s.rate_per_s = rate.value();
  const std::pair<Metric, double> figures[] = {{Metric::Ttft, kMaxLatencyMs}, {Metric::Tpot, kMaxLatencyMs},
                                               {Metric::Throughput, kMaxTokPerS}};
  for (std::size_t k = 1; k <= 3; ++k) {
    if (row.is_empty(k)) continue;
    auto x = row.number(k, figures[k - 1].second, false);
    if (!x.ok()) return x.error();
    const bool is_latency = figures[k - 1].first != Metric::Throughput;
    s.targets.push_back({figures[k - 1].first, is_latency ? Stat::P50 : Stat::Mean,
                         is_latency ? x.value() / units::kMsPerS : x.value()});
  }
  if (s.targets.empty())
    return error_at("calib_no_figure", param, line, "no figure measured: give ttft_p50_ms, tpot_p50_ms or tok_per_s", {});
  if (h.at[4] >= 0) {
    auto prompt = row.number(4, kMaxLengthTokens, true);
    if (!prompt.ok()) return prompt.error();
    auto output = row.number(5, kMaxLengthTokens, true);
    if (!output.ok()) return output.error();
    s.prompt_tokens = static_cast<std::int64_t>(prompt.value());
    s.output_tokens = static_cast<std::int64_t>(output.value());
  }
  m.serving.push_back(std::move(s));
  return std::nullopt;
}

Result<Measurements> parse_csv(const std::string& text, const std::string& param) {
  csv::Reader reader(text, param, csv::Limits{kMaxHeaderFields, 4096});
  std::vector<std::string> fields;
  auto got = reader.next(fields);
  if (!got.ok()) return got.error();
  if (!got.value()) return error_at("calib_empty", param, 1, "no measurement: the file is empty", {});
  const std::int64_t header_line = reader.line();
  auto header = read_header(fields, param, header_line);
  if (!header.ok()) return header.error();
  const Header& h = header.value();
  Measurements m;
  m.layout = h.layout;
  const bool is_steps = h.layout == MeasurementLayout::StepCsv;
  const std::int64_t max_rows = is_steps ? kMaxStepMeasurements : kMaxServingMeasurements;
  while (true) {
    got = reader.next(fields);
    if (!got.ok()) return got.error();
    if (!got.value()) break;
    const std::int64_t line = reader.line();
    if (fields.size() != h.names.size())
      return error_at("calib_field_count", param, line,
                      std::to_string(fields.size()) + " fields where the header has " + std::to_string(h.names.size()),
                      {{"got", std::to_string(fields.size())}, {"expected", std::to_string(h.names.size())}});
    const std::int64_t rows = static_cast<std::int64_t>(is_steps ? m.steps.size() : m.serving.size());
    if (rows == max_rows)
      return error_at("calib_too_many", param, line,
                      "at most " + std::to_string(max_rows) + (is_steps ? " decode steps" : " serving points") + " a file",
                      {{"max", std::to_string(max_rows)}});
    const RowReader row(param, h, fields, line);
    if (auto e = is_steps ? read_step_row(row, line, m) : read_serving_row(row, h, param, line, m)) return *e;
  }
  if (m.steps.empty() && m.serving.empty())
    return error_at("calib_empty", param, header_line, "a header and no measurement", {});
  return m;
}

/// The figure of a statistic: its mean, else its median, when the run measured it (0 is vLLM's "no requests").
bool add_figure(Metric metric, const MetricStats& stats, std::vector<Target>& targets) {
  if (stats.mean_s > 0) targets.push_back({metric, Stat::Mean, stats.mean_s});
  else if (stats.median_s > 0) targets.push_back({metric, Stat::P50, stats.median_s});
  else return false;
  return true;
}

Result<ServingMeasurement> bench_measurement(const BenchRun& run, const std::string& param, Measurements& m) {
  ServingMeasurement s;
  s.line = run.line;
  const auto refuse = [&](const std::string& problem, const std::string& what) {
    return error_at("calib_bench_run", param, run.line, "this run " + what, {{"problem", problem}});
  };
  if (run.is_burst) {
    s.arrival = run.max_concurrency > 0 ? Arrival::ClosedLoop : Arrival::Burst;
    s.concurrency = run.max_concurrency;
  } else {
    if (!(run.request_rate_per_s > 0)) return refuse("no_rate", "states no request_rate: its arrivals are unknown");
    s.arrival = Arrival::Poisson;
    s.rate_per_s = run.request_rate_per_s;
    m.num_gated += run.max_concurrency > 0;
    m.num_bursty += run.burstiness != 1.0;
  }
  m.num_failed += run.failed > 0;
  s.num_requests = std::max(run.num_prompts, run.completed);
  const double completed = static_cast<double>(run.completed);
  s.prompt_tokens = std::llround(static_cast<double>(run.total_input_tokens) / completed);
  s.output_tokens = std::llround(static_cast<double>(run.total_output_tokens) / completed);
  if (s.prompt_tokens < 1 || s.output_tokens < 1 || s.prompt_tokens > kMaxLengthTokens || s.output_tokens > kMaxLengthTokens)
    return refuse("no_tokens", "has no usable mean lengths (total_input_tokens and total_output_tokens over completed: " +
                                   std::to_string(s.prompt_tokens) + " and " + std::to_string(s.output_tokens) + " tokens)");
  add_figure(Metric::Ttft, run.ttft, s.targets);
  if (!add_figure(Metric::Tpot, run.tpot, s.targets) && run.itl.mean_s > 0)
    s.targets.push_back({Metric::Itl, Stat::Mean, run.itl.mean_s});
  add_figure(Metric::E2e, run.e2el, s.targets);
  if (run.output_tok_per_s > 0) s.targets.push_back({Metric::Throughput, Stat::Mean, run.output_tok_per_s});
  if (s.targets.empty()) return refuse("no_figure", "measured no TTFT, TPOT, ITL, E2E or output throughput above 0");
  return s;
}

Result<Measurements> parse_bench(const std::string& bytes, const std::string& param) {
  auto runs = parse_vllm_bench(bytes, param);
  if (!runs.ok()) return runs.error();
  Measurements m;
  m.layout = MeasurementLayout::VllmBench;
  for (const BenchRun& run : runs.value()) {
    if (static_cast<std::int64_t>(m.serving.size()) == kMaxServingMeasurements)
      return error_at("calib_too_many", param, run.line, "at most " + std::to_string(kMaxServingMeasurements) +
                                                             " serving points a file", {{"max", std::to_string(kMaxServingMeasurements)}});
    auto s = bench_measurement(run, param, m);
    if (!s.ok()) return s.error();
    m.serving.push_back(std::move(s.value()));
  }
  return m;
}

}  // namespace

Result<Measurements> parse_measurements(const std::string& bytes, const std::string& param) {
  std::size_t i = bytes.compare(0, 3, "\xef\xbb\xbf") == 0 ? 3 : 0;
  while (i < bytes.size() && (bytes[i] == ' ' || bytes[i] == '\t' || bytes[i] == '\n' || bytes[i] == '\r')) ++i;
  if (i < bytes.size() && (bytes[i] == '{' || bytes[i] == '[')) return parse_bench(bytes, param);
  return parse_csv(bytes, param);
}

std::vector<LinedServingPoint> serving_points(const Measurements& m, const MeasurementDefaults& d, std::int64_t& num_cut) {
  std::vector<LinedServingPoint> points;
  num_cut = 0;
  for (const ServingMeasurement& s : m.serving) {
    LinedServingPoint p{s.line, {}};
    p.point.config = d.config;
    WorkloadRecipe& w = p.point.workload;
    w.arrival = s.arrival;
    w.rate_per_s = s.rate_per_s;
    w.concurrency = s.concurrency;
    w.prompt_tokens = s.prompt_tokens > 0 ? s.prompt_tokens : d.prompt_tokens;
    w.output_tokens = s.output_tokens > 0 ? s.output_tokens : d.output_tokens;
    const std::int64_t cap = is_time_free(w) ? kTimeFreeRequestsFactor * d.max_requests : d.max_requests;
    const std::int64_t wanted = s.num_requests > 0 ? s.num_requests : d.max_requests;
    w.num_requests = std::min(wanted, cap);
    if (w.arrival == Arrival::ClosedLoop) w.concurrency = std::min(w.concurrency, w.num_requests);
    p.point.targets = s.targets;
    if (w.num_requests < wanted) {
      if (is_time_free(w)) {
        ++num_cut;
        std::vector<Target> kept;
        for (const Target& t : p.point.targets)
          if (t.metric == Metric::Throughput) kept.push_back(t);
        p.point.targets = std::move(kept);
        if (p.point.targets.empty()) continue;
      } else {
        for (Target& t : p.point.targets)
          if (t.metric == Metric::Throughput) t.count_scale = static_cast<double>(wanted) / static_cast<double>(w.num_requests);
      }
    }
    points.push_back(std::move(p));
  }
  return points;
}

}  // namespace sl::llm
