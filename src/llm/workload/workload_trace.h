#pragma once
// A real workload, read from a CSV file instead of drawn from the length laws: one row per request, with its
// arrival time and its prompt and output token counts. Three column layouts are recognised by their header:
//   plain     arrival_s,prompt_tokens,output_tokens[,class][,prefix_group,prefix_tokens]  (seconds from the
//             trace's start, as written: 0 need not be a request's arrival)
//   Azure     TIMESTAMP,ContextTokens,GeneratedTokens  (the Azure LLM inference traces 2023/2024: a date and time,
//             "2023-11-16 18:15:46.6805900"; times count from the first row's)
//   BurstGPT  Timestamp,...,Request tokens,Response tokens,...  (seconds; counted from the first row's)
// Other columns are ignored; names are matched without regard to case or surrounding spaces. A replay takes the
// rows of a time window, scales their arrival times (rate_scale 2 = twice as fast), keeps the first n and, if
// asked, loops the window until it has n (each pass shifted by the window's length). Prompts and outputs too long
// for max_model_len are cut as vLLM caps them, and counted. Replaying the trace written from a generated
// workload gives that workload back, request for request (write_trace's times round-trip exactly).
#include <cstdint>
#include <string>
#include <vector>

#include "core/error.h"
#include "llm/workload/workload.h"

namespace sl::llm {

/// One request of a trace, as its row gives it.
struct TraceRow {
  double arrival_s = 0;  ///< seconds (plain: as written; Azure, BurstGPT: since the first row)
  std::int64_t prompt_tokens = 0;
  std::int64_t output_tokens = 0;
  std::int32_t request_class = 0;   ///< 0 interactive, 1 batch
  std::int64_t prefix_group = -1;   ///< shared prefix (system prompt) id, or -1
  std::int64_t prefix_tokens = 0;   ///< its length, counted in prompt_tokens
  std::int64_t line = 0;            ///< line of the file (for messages)
};

enum class TraceLayout { Plain, Azure, BurstGpt };

struct WorkloadTrace {
  TraceLayout layout = TraceLayout::Plain;
  std::vector<TraceRow> rows;  ///< in time order
  bool has_class = false, has_prefix = false;
};

/// Limits on a trace file: its rows (each 48 B once read) and bytes (a form field's file).
inline constexpr std::int64_t kMaxTraceRows = 1'000'000;
inline constexpr double kMaxTraceBytes = 64.0 * 1024 * 1024;

/// The trace in `text`, or one error naming `param` and the line (and column) at fault: the CSV's syntax
/// (core/csv.h), no header or an unknown layout, a missing or repeated column, a field that is not a decimal
/// number, a negative or non-integer token count, an empty prompt, a prefix as long as its prompt, a class
/// other than 0 or 1, a time earlier than the row before, a date that does not parse, more than max_rows rows.
/// Codes: csv_syntax, trace_empty, trace_header, trace_missing_column, trace_duplicate_column, trace_value,
/// trace_unsorted, trace_too_many_rows; args carry line, column, got (and min, max) for translations.
Result<WorkloadTrace> parse_workload_trace(const std::string& text, const std::string& param,
                                           std::int64_t max_rows = kMaxTraceRows);

/// What part of a trace a run replays, and how.
struct TraceReplay {
  double rate_scale = 1;       ///< arrivals come this many times as fast (times divided by it)
  double window_start_s = 0;   ///< rows arriving in [start, start + length), shifted back by start
  double window_s = 0;         ///< 0: to the end of the trace
  std::int64_t num_requests = 0;  ///< the first n of the window (more only with loop); 0: every row
  bool loop = false;           ///< repeat the window (each pass window-length later) until n requests
  std::int64_t max_model_len = 2048;
};

/// The rows a replay takes, in arrival order, with times scaled and looped; lengths as in the file. An error
/// (param window_start_s... as named) when the window holds no row.
struct ReplayedRows {
  std::vector<TraceRow> rows;
  std::int64_t num_window_rows = 0;  ///< rows of the trace inside the window
  std::int64_t num_passes = 1;       ///< passes over the window (loop)
  double period_s = 0;               ///< shift between passes (scaled)
};
Result<ReplayedRows> select_rows(const WorkloadTrace& trace, const TraceReplay& replay);

/// Requests whose lengths a replay changed from the file's.
struct TraceAdjustments {
  std::int64_t num_cut = 0;     ///< prompt or output cut to fit max_model_len
  std::int64_t num_raised = 0;  ///< an empty prompt or output (a failed request in some traces) raised to 1 token
};

/// The workload of those rows: request i's prompt is [its prefix group's shared text, prefix_tokens][its own
/// text] (content ids as make_open_loop's), its output output_tokens; lengths cut to max_model_len (the prompt
/// to max_model_len - 1, own text first; the output to what is left), and 0 raised to 1 (vLLM needs a token of
/// prompt and max_tokens >= 1).
Workload make_trace_workload(const std::vector<TraceRow>& rows, std::int64_t max_model_len,
                             TraceAdjustments* adjusted = nullptr);

/// A workload's first turns as a plain trace (arrival_s,prompt_tokens,output_tokens,class,prefix_group,
/// prefix_tokens), times written with 17 significant digits so that they read back to the same doubles.
std::string write_trace(const Workload& workload);

/// The label of a layout: "plain", "azure", "burstgpt".
const char* layout_name(TraceLayout layout);

}  // namespace sl::llm
