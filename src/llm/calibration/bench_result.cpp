#include "llm/calibration/bench_result.h"

#include <array>
#include <bitset>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include "core/text.h"
#include "llm/calibration/bench_result_keys.h"

namespace sl::llm {

namespace {

// A SAX reading, one object of the file at a time: RapidJSON's iterative parser (no recursion, so nesting
// cannot overflow the stack; we refuse it past kMaxBenchDepth anyway) calls the handler for every key and
// value; the handler keeps the keys BenchRun holds, checks their types and ranges at once, skips the rest
// (counting list elements), and checks the run as a whole at its closing brace. Memory: the file, BenchRuns
// (kMaxBenchRuns, two lists of at most kMaxBenchListLength counts each) and RapidJSON's buffer of the string
// being read, which it fills before the handler can refuse it (at most the file's size).
// Numbers reach the handler as their text (RawNumber) and are read by strtod, correctly rounded in glibc and musl
// alike: RapidJSON's own correctly rounded path (its big-integer code) cost 3 kB of the module every page
// downloads, and its default path is off by an ulp on 17-digit values, which Python's json.dump writes.
constexpr unsigned kParseFlags = rapidjson::kParseIterativeFlag | rapidjson::kParseNanAndInfFlag |
                                 rapidjson::kParseStopWhenDoneFlag |     // JSON Lines: one object per Parse call
                                 rapidjson::kParseNumbersAsStringsFlag;  // read by strtod (RawNumber)
constexpr std::size_t kMaxStoredTextBytes = 256;      // model_id, date, backend: cut (echo) beyond
constexpr std::int64_t kMaxPercentilesPerMetric = 1000;
constexpr double kMaxExactInteger = 9007199254740992.0;  // 2^53
constexpr double kMsPerS = 1000;

/// A scalar as the handler sees it.
struct Value {
  enum class Kind { Null, Bool, Integer, Number, String } kind;
  double number = 0;       ///< Integer and Number (Integer: exact when |x| <= 2^53)
  std::string_view text;   ///< String (valid during the handler's call)
  std::string shown() const {
    if (kind == Kind::Null) return "null";
    if (kind == Kind::Bool) return number != 0 ? "true" : "false";
    if (kind == Kind::String) return "\"" + echo(std::string(text.substr(0, 64))) + "\"";
    return format_number(number);
  }
};

struct Position {
  std::int64_t line = 1, column = 1;
};

Position locate(const std::string& bytes, std::size_t offset) {
  Position pos;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < offset && i < bytes.size(); ++i)
    if (bytes[i] == '\n') ++pos.line, line_start = i + 1;
  pos.column = static_cast<std::int64_t>(offset - line_start) + 1;
  return pos;
}

/// The SAX handler: one BenchRun at a time, one Error at most.
class BenchHandler : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, BenchHandler> {
 public:
  BenchHandler(const std::string& bytes, const std::string& param, const rapidjson::MemoryStream& stream,
               std::vector<BenchRun>& runs)
      : bytes_(bytes), param_(param), stream_(stream), runs_(runs) {}

  const std::optional<Error>& error() const { return error_; }
  /// The top-level key being read, empty between runs.
  const std::string& key() const { return depth_ > 0 ? key_ : kNoKey; }
  void start_document(std::size_t offset) { document_offset_ = offset; }
  /// The one error of this file: "<param>, line L, column C: "<key>" <detail>" (the key is left out of the
  /// sentence when key_leads is false).
  Error fail(const std::string& code, std::size_t offset, const std::string& key, const std::string& got,
             const std::string& detail, bool key_leads = true) {
    const Position pos = locate(bytes_, offset);
    const std::string where = "line " + std::to_string(pos.line) + ", column " + std::to_string(pos.column);
    const std::string named = key.empty() || !key_leads ? "" : "\"" + echo(key) + "\" ";
    error_ = Error{code, param_, param_ + ", " + where + ": " + named + detail,
                   {{"line", std::to_string(pos.line)}, {"column", std::to_string(pos.column)},
                    {"key", echo(key)}, {"got", got}}};
    return *error_;
  }

  bool Null() { return scalar(Value{Value::Kind::Null}); }
  bool Bool(bool b) { return scalar(Value{Value::Kind::Bool, b ? 1.0 : 0.0}); }
  bool Int(int i) { return scalar(Value{Value::Kind::Integer, static_cast<double>(i)}); }
  bool Uint(unsigned u) { return scalar(Value{Value::Kind::Integer, static_cast<double>(u)}); }
  bool Int64(std::int64_t i) { return scalar(Value{Value::Kind::Integer, static_cast<double>(i)}); }
  bool Uint64(std::uint64_t u) { return scalar(Value{Value::Kind::Integer, static_cast<double>(u)}); }
  bool Double(double d) { return scalar(Value{Value::Kind::Number, d}); }
  /// A number as written (kParseNumbersAsStringsFlag): RapidJSON has checked its syntax, and NaN, Infinity and
  /// -Infinity come this way too. Integers stay integers (Int, Uint64... without the flag).
  bool RawNumber(const char* s, rapidjson::SizeType n, bool) {
    const std::string text(s, n);
    if (text.find('N') != std::string::npos) return Double(std::numeric_limits<double>::quiet_NaN());
    if (text.find('I') != std::string::npos)
      return Double(text[0] == '-' ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity());
    const double x = std::strtod(text.c_str(), nullptr);
    if (text.find_first_of(".eE") == std::string::npos) return scalar(Value{Value::Kind::Integer, x});
    return Double(x);
  }
  bool String(const char* s, rapidjson::SizeType n, bool) {
    if (n > kMaxBenchStringBytes) return too_long("a string", n, kMaxBenchStringBytes, "bytes");
    return scalar(Value{Value::Kind::String, 0, std::string_view(s, n)});
  }
  bool Key(const char* s, rapidjson::SizeType n, bool) {
    if (n > kMaxBenchStringBytes) {
      key_.assign(s, kMaxStoredTextBytes);  // the error names the key (echo cuts it further)
      return too_long("a key", n, kMaxBenchStringBytes, "bytes");
    }
    if (depth_ == 1) return start_key(std::string(s, n));
    return true;
  }
  bool StartObject() { return open(false); }
  bool StartArray() { return open(true); }
  bool EndObject(rapidjson::SizeType) { return --depth_ > 0 || finish_run(); }
  bool EndArray(rapidjson::SizeType n) {
    if (--depth_ == 1 && (info_.field == BenchField::PerRequestList || is_lens(info_.field)))
      lists_.push_back({key_, key_offset_, static_cast<std::int64_t>(n)});
    return true;
  }

 private:
  struct Frame {
    bool is_array = false;
    std::int64_t count = 0;
  };
  struct ListLength {
    std::string key;
    std::size_t offset;
    std::int64_t length;
  };

  static bool is_lens(BenchField f) { return f == BenchField::InputLens || f == BenchField::OutputLens; }
  std::size_t here() const { return stream_.Tell(); }

  bool too_long(const std::string& what, std::int64_t got, std::int64_t max, const std::string& unit) {
    fail("too_large", here(), key_, std::to_string(got),
         "holds " + what + " of " + std::to_string(got) + " " + unit + "; at most " + std::to_string(max) +
             " are read");
    return false;
  }
  bool wrong(const std::string& got, const std::string& expected, std::size_t offset) {
    fail("bad_bench_value", offset, key_, got, "must be " + expected + ", got " + got);
    return false;
  }

  /// An element of the innermost open array counts towards its length bound.
  bool count_element() {
    if (depth_ > 0 && frames_[depth_].is_array && ++frames_[depth_].count > kMaxBenchListLength)
      return too_long("a list", frames_[depth_].count, kMaxBenchListLength, "elements or more");
    return true;
  }

  bool open(bool is_array) {
    if (!count_element()) return false;
    const std::string got = is_array ? "a list" : "an object";
    if (depth_ == 0 && is_array) {
      fail("bench_pytorch_format", here(), "", got,
           "the file holds a JSON list, not an object: it looks like the .pytorch.json file vllm writes beside "
           "the result (SAVE_TO_PYTORCH_BENCHMARK_FORMAT); give the result file itself");
      return false;
    }
    if (depth_ == 0) start_run(here());
    const BenchField f = info_.field;
    if (depth_ == 1 && f != BenchField::Unknown && !(is_array && (is_lens(f) || f == BenchField::PerRequestList)))
      return wrong(got, expected(f), key_offset_);
    if (depth_ == 2 && is_lens(f)) return wrong(got, "a list of token counts", here());
    if (depth_ == kMaxBenchDepth) {
      fail("bad_bench_json", here(), key_, std::to_string(depth_ + 1),
           "nests lists and objects deeper than " + std::to_string(kMaxBenchDepth) + " levels");
      return false;
    }
    frames_[++depth_] = Frame{is_array, 0};
    return true;
  }

  static std::string expected(BenchField f) {
    switch (f) {
      case BenchField::ModelId: case BenchField::Date: case BenchField::Backend: return "a string";
      case BenchField::NumPrompts: case BenchField::Completed: case BenchField::Failed:
      case BenchField::TotalInputTokens: case BenchField::TotalOutputTokens: return "a whole number >= 0";
      case BenchField::MaxConcurrency: return "a whole number >= 0 or null";
      case BenchField::RequestRate: return "a positive number of requests per second or \"inf\"";
      case BenchField::Burstiness: return "a positive number (Infinity allowed)";
      case BenchField::Duration: return "a positive, finite number of seconds";
      case BenchField::RequestGoodput: return "a finite number >= 0 or null";
      case BenchField::InputLens: case BenchField::OutputLens: case BenchField::PerRequestList: return "a list";
      case BenchField::Metric: return "a finite number of milliseconds >= 0";
      default: return "a finite number >= 0";
    }
  }

  void start_run(std::size_t offset) {
    run_ = BenchRun{};
    run_.line = locate_incrementally(offset);
    run_offset_ = offset;
    seen_.reset();
    key_offsets_.fill(offset);
    metric_seen_ = {};
    legacy_latency_ = MetricStats{};
    lists_.clear();
    key_.clear();
    info_ = BenchKey{};
  }

  std::int64_t locate_incrementally(std::size_t offset) {
    for (; counted_to_ < offset; ++counted_to_)
      if (bytes_[counted_to_] == '\n') ++lines_before_;
    return lines_before_ + 1;
  }

  bool start_key(std::string key) {
    key_ = std::move(key);
    key_offset_ = key_start();
    info_ = classify_bench_key(key_);
    if (info_.bad_percentile)
      return wrong("\"" + echo(key_) + "\"", "p<P>_<metric>_ms with P in [0, 100]", key_offset_);
    if (info_.field == BenchField::Unknown) return true;
    if (info_.field == BenchField::Metric) return start_metric_key();
    if (seen_[info_.named]) return duplicate();
    seen_[info_.named] = true;
    key_offsets_[info_.named] = key_offset_;
    return true;
  }

  bool start_metric_key() {
    MetricStats& m = stats(info_.metric);
    if (info_.stat == BenchStat::Percentile) {
      for (const auto& [p, v] : m.percentiles_s)
        if (p == info_.p) return duplicate();
      if (static_cast<std::int64_t>(m.percentiles_s.size()) >= kMaxPercentilesPerMetric)
        return too_long("a metric with a count of percentiles",
                        static_cast<std::int64_t>(m.percentiles_s.size()) + 1, kMaxPercentilesPerMetric, "keys");
      return true;
    }
    bool& seen = metric_seen_[info_.metric][static_cast<std::size_t>(info_.stat)];
    if (seen) return duplicate();
    return seen = true;
  }

  bool duplicate() {
    fail("bad_bench_json", key_offset_, key_, "", "appears twice in one run");
    return false;
  }

  /// Offset of the opening quote of the key just read (the stream is past its closing quote).
  std::size_t key_start() const {
    std::size_t i = here() >= 2 ? here() - 2 : 0;
    for (; i > 0; --i) {
      if (bytes_[i] != '"') continue;
      std::size_t slashes = 0;
      while (slashes < i && bytes_[i - 1 - slashes] == '\\') ++slashes;
      if (slashes % 2 == 0) break;
    }
    return i;
  }

  MetricStats& stats(int metric) {
    MetricStats* all[] = {&run_.ttft, &run_.tpot, &run_.itl, &run_.e2el, &legacy_latency_};
    return *all[metric];
  }

  bool scalar(const Value& v) {
    if (!count_element()) return false;
    if (depth_ == 0) {
      fail("bad_bench_json", document_offset_, "", v.shown(), "the file holds " + v.shown() + ", not a JSON object");
      return false;
    }
    if (depth_ == 1) return assign(v);
    if (depth_ == 2 && is_lens(info_.field)) return append_length(v);
    return true;  // inside a value we skip
  }

  /// A count: a whole number in [0, 2^53] (a float with no fraction is taken: some forks write 12.0).
  std::optional<std::int64_t> count(const Value& v) const {
    const bool whole = (v.kind == Value::Kind::Integer || v.kind == Value::Kind::Number) &&
                       std::isfinite(v.number) && v.number >= 0 && v.number <= kMaxExactInteger &&
                       std::floor(v.number) == v.number;
    return whole ? std::optional<std::int64_t>(static_cast<std::int64_t>(v.number)) : std::nullopt;
  }

  bool append_length(const Value& v) {
    const auto n = count(v);
    if (!n) return wrong(v.shown(), "a list of whole numbers >= 0 (token counts)", here());
    (info_.field == BenchField::InputLens ? run_.input_lens : run_.output_lens).push_back(*n);
    return true;
  }

  std::int64_t& count_field(BenchField f) {
    switch (f) {
      case BenchField::NumPrompts: return run_.num_prompts;
      case BenchField::Completed: return run_.completed;
      case BenchField::Failed: return run_.failed;
      case BenchField::TotalInputTokens: return run_.total_input_tokens;
      case BenchField::TotalOutputTokens: return run_.total_output_tokens;
      default: return run_.max_concurrency;
    }
  }

  bool assign(const Value& v);
  bool finish_run();

  const std::string& bytes_;
  const std::string& param_;
  const rapidjson::MemoryStream& stream_;
  std::vector<BenchRun>& runs_;
  std::optional<Error> error_;

  inline static const std::string kNoKey;
  std::size_t document_offset_ = 0;
  int depth_ = 0;  ///< open objects and lists; frames_[1..depth_]
  std::array<Frame, kMaxBenchDepth + 1> frames_{};
  std::size_t counted_to_ = 0;  ///< locate_incrementally: newlines before counted_to_
  std::int64_t lines_before_ = 0;

  BenchRun run_;
  std::size_t run_offset_ = 0;
  std::string key_;  ///< the current top-level key
  std::size_t key_offset_ = 0;
  BenchKey info_;
  std::bitset<kNumNamedBenchKeys> seen_;  ///< named keys read in this run
  std::array<std::size_t, kNumNamedBenchKeys> key_offsets_{};  ///< where each named key starts
  std::array<std::array<bool, 3>, kNumBenchMetrics> metric_seen_{};  ///< mean, median, std
  MetricStats legacy_latency_;
  std::vector<ListLength> lists_;
};

bool BenchHandler::assign(const Value& v) {
  const BenchField f = info_.field;
  const double x = v.number;
  const bool is_number = v.kind == Value::Kind::Integer || v.kind == Value::Kind::Number;
  const bool finite_non_negative = is_number && std::isfinite(x) && x >= 0;
  const auto refuse = [&] {
    const bool non_finite = is_number && !std::isfinite(x);
    return wrong(v.shown(), expected(f) + (non_finite ? " (NaN and Infinity are allowed in burstiness only)" : ""),
                 key_offset_);
  };
  switch (f) {
    case BenchField::Unknown: return true;
    case BenchField::ModelId: case BenchField::Date: case BenchField::Backend: {
      if (v.kind == Value::Kind::Null) return true;
      if (v.kind != Value::Kind::String) return refuse();
      std::string& text = f == BenchField::ModelId ? run_.model_id
                          : f == BenchField::Date  ? run_.date
                                                   : run_.backend;
      text = echo(std::string(v.text.substr(0, kMaxStoredTextBytes + 1)), kMaxStoredTextBytes);
      return true;
    }
    case BenchField::NumPrompts: case BenchField::Completed: case BenchField::Failed:
    case BenchField::TotalInputTokens: case BenchField::TotalOutputTokens: case BenchField::MaxConcurrency: {
      if (f == BenchField::MaxConcurrency && v.kind == Value::Kind::Null) return true;
      const auto n = count(v);
      if (!n) return refuse();
      count_field(f) = *n;
      return true;
    }
    case BenchField::RequestRate:
      if (v.kind == Value::Kind::String && v.text == "inf") return run_.is_burst = true;
      if (!(is_number && std::isfinite(x) && x > 0)) return refuse();
      run_.request_rate_per_s = x;
      return true;
    case BenchField::Burstiness:
      if (!(is_number && x > 0)) return refuse();  // +Infinity (evenly spaced arrivals) passes, NaN does not
      run_.burstiness = x;
      return true;
    case BenchField::Duration:
      if (!(is_number && std::isfinite(x) && x > 0)) return refuse();
      run_.duration_s = x;
      return true;
    case BenchField::RequestGoodput:
      return v.kind == Value::Kind::Null || finite_non_negative || refuse();
    case BenchField::RequestThroughput: case BenchField::OutputThroughput: case BenchField::TotalTokenThroughput:
      if (!finite_non_negative) return refuse();
      (f == BenchField::RequestThroughput ? run_.request_throughput_per_s
       : f == BenchField::OutputThroughput ? run_.output_tok_per_s : run_.total_tok_per_s) = x;
      return true;
    case BenchField::Metric: {
      if (!finite_non_negative) return refuse();
      MetricStats& m = stats(info_.metric);
      const double seconds = x / kMsPerS;
      if (info_.stat == BenchStat::Percentile) m.percentiles_s.emplace_back(info_.p, seconds);
      else if (info_.stat == BenchStat::Mean) m.mean_s = seconds;
      else if (info_.stat == BenchStat::Median) m.median_s = seconds;
      else m.std_s = seconds;
      return true;
    }
    default: return refuse();  // a list field given a scalar
  }
}

bool BenchHandler::finish_run() {
  const auto missing = [&](const std::string& key, const std::string& what) {
    fail("bench_missing_key", run_offset_, key, "", "is missing from the run that starts here (" + what + ")");
    return false;
  };
  const auto has = [](const MetricStats& m) {
    return !std::isnan(m.mean_s) || !std::isnan(m.median_s) || !std::isnan(m.std_s) || !m.percentiles_s.empty();
  };
  const auto seen = [&](const char* key) { return seen_[classify_bench_key(key).named]; };
  if (!seen("completed")) return missing("completed", "the successful requests");
  if (run_.completed == 0) {
    fail("bench_no_request", key_offsets_[classify_bench_key("completed").named], "completed", "0",
         "is 0: the run completed no request, and vLLM writes every metric as 0 then");
    return false;
  }
  if (!seen("duration")) return missing("duration", "the run's length in seconds");
  bool any_metric = false;
  for (int m = 0; m < kNumBenchMetrics; ++m) any_metric = any_metric || has(stats(m));
  if (!any_metric)
    return missing("mean_ttft_ms", "no latency metric at all: none of mean_, median_, std_ or p<P>_ of ttft, tpot, "
                                   "itl or e2el");
  if (seen("num_prompts"))
    for (const auto& list : lists_)
      if (list.length > run_.num_prompts) {
        fail("too_large", list.offset, list.key, std::to_string(list.length),
             "holds " + std::to_string(list.length) + " entries, more than num_prompts = " +
                 std::to_string(run_.num_prompts) + " (one a request)");
        return false;
      }
  if (!has(run_.e2el)) run_.e2el = legacy_latency_;
  if (static_cast<std::int64_t>(runs_.size()) >= kMaxBenchRuns) {
    fail("too_large", run_offset_, "", std::to_string(runs_.size() + 1),
         "is run " + std::to_string(runs_.size() + 1) + "; at most " + std::to_string(kMaxBenchRuns) +
             " runs are read from one file");
    return false;
  }
  runs_.push_back(std::move(run_));
  return true;
}

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

}  // namespace

Result<std::vector<BenchRun>> parse_vllm_bench(const std::string& bytes, const std::string& param) {
  std::vector<BenchRun> runs;
  rapidjson::MemoryStream stream(bytes.data(), bytes.size());
  BenchHandler handler(bytes, param, stream, runs);
  const auto size = static_cast<std::int64_t>(bytes.size());
  if (size > kMaxBenchFileBytes)
    return handler.fail("too_large", 0, "", std::to_string(size),
                        "the file is " + std::to_string(size) + " bytes; at most " +
                            std::to_string(kMaxBenchFileBytes) + " bytes (64 MiB) are read");
  const auto skip_blanks = [&] {
    while (stream.Tell() < bytes.size() && is_blank(stream.Peek())) stream.Take();
  };
  skip_blanks();
  if (stream.Tell() == bytes.size())
    return handler.fail("bench_empty", 0, "", "", "the file is empty; expected what vllm bench serve --save-result "
                                                  "writes, a JSON object");
  rapidjson::Reader reader;
  while (stream.Tell() < bytes.size()) {
    handler.start_document(stream.Tell());
    const rapidjson::ParseResult parsed = reader.Parse<kParseFlags>(stream, handler);
    if (handler.error()) return *handler.error();
    if (parsed.IsError()) {
      const std::size_t at = parsed.Offset();
      std::string why = rapidjson::GetParseError_En(parsed.Code());
      if (at < bytes.size() && bytes[at] == '\0') why = "a NUL byte.";
      if (at >= bytes.size()) why += " The file ends here: is it cut short?";
      const std::string key = handler.key();
      return handler.fail("bad_bench_json", at, key, "",
                          std::string("not JSON") + (key.empty() ? "" : " (in \"" + echo(key) + "\")") + ": " + why,
                          /*key_leads=*/false);
    }
    skip_blanks();
  }
  return runs;
}

}  // namespace sl::llm
