#include "llm/workload/workload_trace.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>

#include "core/csv.h"
#include "core/text.h"

namespace sl::llm {
namespace {

constexpr double kMaxArrivalS = 1e9;         // about 31 years of trace
constexpr double kMaxTokens = 1e9;           // a count beyond this is not a request
constexpr std::int64_t kMaxHeaderFields = 64;

/// The columns a layout reads: index in the record, or -1 when absent.
struct Columns {
  TraceLayout layout = TraceLayout::Plain;
  int arrival = -1, prompt = -1, output = -1, request_class = -1, prefix_group = -1, prefix_tokens = -1;
  std::vector<std::string> names;  ///< the header as written, for messages
};

const char* kLayouts =
    "arrival_s,prompt_tokens,output_tokens (seconds), TIMESTAMP,ContextTokens,GeneratedTokens (Azure) or "
    "Timestamp,Request tokens,Response tokens (BurstGPT)";

Result<Columns> read_header(const std::vector<std::string>& header, const std::string& param, std::int64_t line) {
  Columns c;
  c.names = header;
  std::vector<std::string> names;
  for (const std::string& h : header) names.push_back(csv::header_name(h));
  const auto find = [&](const std::string& name) -> Result<int> {
    int at = -1;
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (names[i] != name) continue;
      if (at >= 0)
        return Error{"trace_duplicate_column", param,
                     param + " line " + std::to_string(line) + ": the column " + echo(header[i]) + " appears twice",
                     {{"line", std::to_string(line)}, {"column", echo(header[i])}}};
      at = static_cast<int>(i);
    }
    return at;
  };
  const auto has = [&](const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  std::vector<std::string> required;
  if (has("arrival_s")) {
    c.layout = TraceLayout::Plain;
    required = {"arrival_s", "prompt_tokens", "output_tokens"};
  } else if (has("timestamp") && (has("contexttokens") || has("generatedtokens"))) {
    c.layout = TraceLayout::Azure;
    required = {"timestamp", "contexttokens", "generatedtokens"};
  } else if (has("timestamp") && (has("request tokens") || has("response tokens"))) {
    c.layout = TraceLayout::BurstGpt;
    required = {"timestamp", "request tokens", "response tokens"};
  } else {
    std::string got;
    for (std::size_t i = 0; i < header.size(); ++i) got += (i ? "," : "") + header[i];
    return Error{"trace_header", param,
                 param + " line " + std::to_string(line) + ": the header " + echo(got, 80) +
                     " names no known layout; a trace starts with " + kLayouts,
                 {{"line", std::to_string(line)}, {"got", echo(got, 80)}}};
  }
  int* slots[3] = {&c.arrival, &c.prompt, &c.output};
  for (int k = 0; k < 3; ++k) {
    auto at = find(required[static_cast<std::size_t>(k)]);
    if (!at.ok()) return at.error();
    if (at.value() < 0)
      return Error{"trace_missing_column", param,
                   param + " line " + std::to_string(line) + ": no column " + required[static_cast<std::size_t>(k)] +
                       " (the " + layout_name(c.layout) + " layout needs " + required[0] + ", " + required[1] + ", " +
                       required[2] + ")",
                   {{"line", std::to_string(line)}, {"column", required[static_cast<std::size_t>(k)]}}};
    *slots[k] = at.value();
  }
  if (c.layout == TraceLayout::Plain) {
    for (const char* name : {"class", "request_class"}) {
      auto at = find(name);
      if (!at.ok()) return at.error();
      if (at.value() >= 0 && c.request_class >= 0)
        return Error{"trace_duplicate_column", param,
                     param + " line " + std::to_string(line) + ": the columns class and request_class both give the class",
                     {{"line", std::to_string(line)}, {"column", name}}};
      if (at.value() >= 0) c.request_class = at.value();
    }
    auto group = find("prefix_group");
    if (!group.ok()) return group.error();
    auto tokens = find("prefix_tokens");
    if (!tokens.ok()) return tokens.error();
    c.prefix_group = group.value();
    c.prefix_tokens = tokens.value();
    if ((c.prefix_group >= 0) != (c.prefix_tokens >= 0)) {
      const std::string missing = c.prefix_group >= 0 ? "prefix_tokens" : "prefix_group";
      return Error{"trace_missing_column", param,
                   param + " line " + std::to_string(line) + ": no column " + missing +
                       " (a shared prefix needs both prefix_group and prefix_tokens)",
                   {{"line", std::to_string(line)}, {"column", missing}}};
    }
  }
  return c;
}

/// Days from 1970-01-01 to a civil date (proleptic Gregorian; H. Hinnant's days_from_civil).
std::int64_t days_from_civil(std::int64_t y, std::int64_t m, std::int64_t d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const std::int64_t yoe = y - era * 400;
  const std::int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

/// "YYYY-MM-DD HH:MM:SS[.fraction]" (or a T between date and time, and a trailing Z): whole seconds since 1970
/// and the fraction, kept apart so that differences of nearby times stay exact to the digit.
bool parse_timestamp(const std::string& raw, std::int64_t& whole_s, double& frac_s) {
  const std::size_t first = raw.find_first_not_of(' '), last = raw.find_last_not_of(' ');
  if (first == std::string::npos) return false;
  std::string s = raw.substr(first, last - first + 1);
  if (!s.empty() && s.back() == 'Z') s.pop_back();
  if (s.size() < 19) return false;
  const auto digits = [&](std::size_t at, std::size_t n, std::int64_t& out) {
    out = 0;
    for (std::size_t i = at; i < at + n; ++i) {
      if (s[i] < '0' || s[i] > '9') return false;
      out = out * 10 + (s[i] - '0');
    }
    return true;
  };
  std::int64_t y, mo, d, h, mi, se;
  if (!digits(0, 4, y) || s[4] != '-' || !digits(5, 2, mo) || s[7] != '-' || !digits(8, 2, d) ||
      (s[10] != ' ' && s[10] != 'T') || !digits(11, 2, h) || s[13] != ':' || !digits(14, 2, mi) || s[16] != ':' ||
      !digits(17, 2, se))
    return false;
  static const int kDays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  if (mo < 1 || mo > 12 || d < 1 || d > kDays[mo - 1] || (mo == 2 && d == 29 && !leap) || h > 23 || mi > 59 || se > 60)
    return false;
  frac_s = 0;
  if (s.size() > 19) {
    if (s[19] != '.' || s.size() == 20 || s.size() > 30) return false;
    double scale = 0.1;
    for (std::size_t i = 20; i < s.size(); ++i) {
      if (s[i] < '0' || s[i] > '9') return false;
      frac_s += (s[i] - '0') * scale;
      scale /= 10;
    }
  }
  whole_s = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se;
  return true;
}

class RowReader {
 public:
  RowReader(const std::string& param, const Columns& columns) : param_(param), columns_(columns) {}

  /// `problem` names what was expected, for translations: "number" or "whole" (in [min, max]), "timestamp",
  /// "prefix_length" (shorter than the prompt), "too_late" (over 1e9 s after the first row).
  Error value_error(std::int64_t line, int column, const std::string& got, const std::string& what,
                    const std::string& problem, std::vector<std::pair<std::string, std::string>> more = {}) const {
    const std::string name = echo(columns_.names[static_cast<std::size_t>(column)]);
    std::vector<std::pair<std::string, std::string>> args = {
        {"line", std::to_string(line)}, {"column", name}, {"got", echo(got)}, {"problem", problem}};
    args.insert(args.end(), more.begin(), more.end());
    return Error{"trace_value", param_,
                 param_ + " line " + std::to_string(line) + ", column " + name + ": " + what + ", got " + echo(got),
                 std::move(args)};
  }

  /// A decimal number in [lo, hi] (whole when `whole`).
  Result<double> number(const std::vector<std::string>& f, int column, std::int64_t line, double lo, double hi,
                        bool whole) const {
    const std::string& text = f[static_cast<std::size_t>(column)];
    const std::string kind = whole ? "a whole number" : "a number";
    const std::string range = " in [" + format_number(lo) + ", " + format_number(hi) + "]";
    const auto bad = [&] {
      return value_error(line, column, text, "expected " + kind + range, whole ? "whole" : "number",
                         {{"min", format_number(lo)}, {"max", format_number(hi)}});
    };
    if (!is_decimal(text) || names_non_finite(text)) return bad();
    errno = 0;
    const double x = std::strtod(text.c_str(), nullptr);
    if (!std::isfinite(x) || x < lo || x > hi || (whole && x != std::floor(x))) return bad();
    return x;
  }

  /// A token count (a whole number in [0, kMaxTokens]) into `out`, or the error naming its cell.
  std::optional<Error> tokens(const std::vector<std::string>& f, int column, std::int64_t line,
                              std::int64_t& out) const {
    auto n = number(f, column, line, 0, kMaxTokens, true);
    if (!n.ok()) return n.error();
    out = static_cast<std::int64_t>(n.value());
    return std::nullopt;
  }

 private:
  const std::string& param_;
  const Columns& columns_;
};

}  // namespace

const char* layout_name(TraceLayout layout) {
  switch (layout) {
    case TraceLayout::Azure: return "azure";
    case TraceLayout::BurstGpt: return "burstgpt";
    default: return "plain";
  }
}

Result<WorkloadTrace> parse_workload_trace(const std::string& text, const std::string& param, std::int64_t max_rows) {
  csv::Reader reader(text, param, csv::Limits{kMaxHeaderFields, 4096});
  std::vector<std::string> fields;
  auto got = reader.next(fields);
  if (!got.ok()) return got.error();
  if (!got.value())
    return Error{"trace_empty", param, param + " holds no header and no request", {{"line", "1"}}};
  const std::int64_t header_line = reader.line();
  auto header = read_header(fields, param, header_line);
  if (!header.ok()) return header.error();
  const Columns& c = header.value();
  WorkloadTrace trace;
  trace.layout = c.layout;
  trace.has_class = c.request_class >= 0;
  trace.has_prefix = c.prefix_group >= 0;
  const RowReader rows(param, c);
  const auto expected = c.names.size();
  std::int64_t first_whole_s = 0;
  double first_frac_s = 0, first_s = 0;
  while (true) {
    got = reader.next(fields);
    if (!got.ok()) return got.error();
    if (!got.value()) break;
    const std::int64_t line = reader.line();
    if (fields.size() != expected)
      return Error{"trace_field_count", param,
                   param + " line " + std::to_string(line) + ": " + std::to_string(fields.size()) +
                       " fields where the header has " + std::to_string(expected),
                   {{"line", std::to_string(line)}, {"got", std::to_string(fields.size())},
                    {"expected", std::to_string(expected)}}};
    if (static_cast<std::int64_t>(trace.rows.size()) == max_rows)
      return Error{"trace_too_many_rows", param,
                   param + " line " + std::to_string(line) + ": a trace may have at most " + std::to_string(max_rows) +
                       " requests; cut the file to a window of them",
                   {{"line", std::to_string(line)}, {"max", std::to_string(max_rows)}}};
    TraceRow row;
    row.line = line;
    if (c.layout == TraceLayout::Azure) {
      std::int64_t whole_s = 0;
      double frac_s = 0;
      const std::string& stamp = fields[static_cast<std::size_t>(c.arrival)];
      if (!parse_timestamp(stamp, whole_s, frac_s))
        return rows.value_error(line, c.arrival, stamp, "expected a date and time like 2023-11-16 18:15:46.68", "timestamp");
      if (trace.rows.empty()) first_whole_s = whole_s, first_frac_s = frac_s;
      row.arrival_s = static_cast<double>(whole_s - first_whole_s) + (frac_s - first_frac_s);
      if (row.arrival_s > kMaxArrivalS)
        return rows.value_error(line, c.arrival, stamp, "more than 1e+09 s after the first row", "too_late");
    } else {
      auto t = rows.number(fields, c.arrival, line, c.layout == TraceLayout::Plain ? 0 : -kMaxArrivalS, kMaxArrivalS, false);
      if (!t.ok()) return t.error();
      if (c.layout == TraceLayout::BurstGpt && trace.rows.empty()) first_s = t.value();
      row.arrival_s = t.value() - first_s;
    }
    if (!trace.rows.empty() && row.arrival_s < trace.rows.back().arrival_s) {
      const TraceRow& before = trace.rows.back();
      return Error{"trace_unsorted", param,
                   param + " line " + std::to_string(line) + ": this request arrives at " + format_number(row.arrival_s) +
                       " s, before the one on line " + std::to_string(before.line) + " (" +
                       format_number(before.arrival_s) + " s); sort the trace by time",
                   {{"line", std::to_string(line)}, {"column", echo(c.names[static_cast<std::size_t>(c.arrival)])},
                    {"before_line", std::to_string(before.line)}}};
    }
    if (auto e = rows.tokens(fields, c.prompt, line, row.prompt_tokens)) return *e;
    if (auto e = rows.tokens(fields, c.output, line, row.output_tokens)) return *e;
    if (c.request_class >= 0) {
      auto cls = rows.number(fields, c.request_class, line, 0, 1, true);
      if (!cls.ok()) return cls.error();
      row.request_class = static_cast<std::int32_t>(cls.value());
    }
    if (c.prefix_group >= 0) {
      const bool none = csv::header_name(fields[static_cast<std::size_t>(c.prefix_group)]).empty();
      if (!none) {
        if (auto e = rows.tokens(fields, c.prefix_group, line, row.prefix_group)) return *e;
        if (auto e = rows.tokens(fields, c.prefix_tokens, line, row.prefix_tokens)) return *e;
        if (row.prefix_tokens >= row.prompt_tokens)
          return rows.value_error(line, c.prefix_tokens, fields[static_cast<std::size_t>(c.prefix_tokens)],
                                  "a shared prefix must be shorter than its prompt (" +
                                      std::to_string(row.prompt_tokens) + " tokens)",
                                  "prefix_length", {{"max", std::to_string(row.prompt_tokens - 1)}});
      }
    }
    trace.rows.push_back(row);
  }
  if (trace.rows.empty())
    return Error{"trace_empty", param, param + " has a header but no request",
                 {{"line", std::to_string(header_line)}}};
  return trace;
}

Result<ReplayedRows> select_rows(const WorkloadTrace& trace, const TraceReplay& replay) {
  const double start = replay.window_start_s;
  const double end = replay.window_s > 0 ? start + replay.window_s : std::numeric_limits<double>::infinity();
  const auto first = std::lower_bound(trace.rows.begin(), trace.rows.end(), start,
                                      [](const TraceRow& r, double t) { return r.arrival_s < t; });
  const auto last = std::lower_bound(first, trace.rows.end(), end,
                                     [](const TraceRow& r, double t) { return r.arrival_s < t; });
  ReplayedRows out;
  out.num_window_rows = last - first;
  if (out.num_window_rows == 0)
    return Error{"trace_window", "trace_start_s",
                 "trace_start_s = " + format_number(start) + " s: no request of the trace arrives in the window [" + format_number(start) + ", " +
                     (replay.window_s > 0 ? format_number(end) : std::string("end")) + ") s; the trace spans " +
                     format_number(trace.rows.front().arrival_s) + " to " + format_number(trace.rows.back().arrival_s) + " s",
                 {{"min", format_number(trace.rows.front().arrival_s)}, {"max", format_number(trace.rows.back().arrival_s)},
                  {"got", format_number(start)}}};
  // One pass spans the window: its stated length, else the rows' span plus their mean gap, so that a loop keeps
  // the trace's rate across the seam (the next pass's first request comes a mean gap after the last).
  double period = replay.window_s;
  if (period <= 0) {
    const double span = std::prev(last)->arrival_s - first->arrival_s;
    const double gap = out.num_window_rows > 1 ? span / static_cast<double>(out.num_window_rows - 1) : 1.0;
    period = span + gap;
  }
  out.period_s = period / replay.rate_scale;
  const std::int64_t wanted = replay.num_requests > 0 ? replay.num_requests : out.num_window_rows;
  const std::int64_t take = replay.loop ? wanted : std::min(wanted, out.num_window_rows);
  out.rows.reserve(static_cast<std::size_t>(take));
  for (std::int64_t i = 0; i < take; ++i) {
    const std::int64_t pass = i / out.num_window_rows;
    TraceRow row = *(first + (i % out.num_window_rows));
    row.arrival_s = (row.arrival_s - start) / replay.rate_scale;
    if (pass > 0) row.arrival_s += static_cast<double>(pass) * out.period_s;
    out.rows.push_back(row);
  }
  out.num_passes = (take + out.num_window_rows - 1) / out.num_window_rows;
  return out;
}

Workload make_trace_workload(const std::vector<TraceRow>& rows, std::int64_t max_model_len, TraceAdjustments* adjusted) {
  Workload w;
  w.requests.reserve(rows.size());
  TraceAdjustments a;
  const std::int64_t prompt_limit = max_model_len - 1;  // room for at least one output token
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const TraceRow& row = rows[i];
    if (row.prompt_tokens < 1 || row.output_tokens < 1) ++a.num_raised;
    std::int64_t prefix = row.prefix_group >= 0 ? row.prefix_tokens : 0;
    std::int64_t prompt = std::max<std::int64_t>(row.prompt_tokens, 1);
    const std::int64_t wanted_output = std::max<std::int64_t>(row.output_tokens, 1);
    bool cut = false;
    if (prompt > prompt_limit) {
      prefix = std::min(prefix, prompt_limit - 1);
      prompt = prompt_limit;
      cut = true;
    }
    const std::int64_t output = std::min(wanted_output, max_model_len - prompt);
    if (cut || output < wanted_output) ++a.num_cut;
    add_first_turn(w, open_loop_request(static_cast<std::int32_t>(i), row.arrival_s, row.prefix_group, prefix, prompt,
                                        output, row.request_class));
  }
  if (adjusted != nullptr) *adjusted = a;
  return w;
}

std::string write_trace(const Workload& workload) {
  std::string out = "arrival_s,prompt_tokens,output_tokens,class,prefix_group,prefix_tokens\n";
  char buffer[64];
  for (const std::int32_t id : workload.initial) {
    const Request& r = workload.requests[static_cast<std::size_t>(id)];
    std::snprintf(buffer, sizeof buffer, "%.17g", r.arrival_at_s);
    out += buffer;
    out += "," + std::to_string(r.num_prompt_tokens) + "," + std::to_string(r.max_tokens) + "," +
           std::to_string(r.request_class) + ",";
    if (r.prompt.size() > 1) out += std::to_string(prefix_of(r.prompt.front().content_id)) + "," + std::to_string(r.prompt.front().length);
    else out += ",";
    out += "\n";
  }
  return out;
}

}  // namespace sl::llm
