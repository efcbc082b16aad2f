// Cell request/serialization. One request carries N float32 values (an embedding). We encode and decode
// them four ways, all written here: JSON with 9 significant digits per number (always enough for float32),
// JSON with the shortest digits that still read back exactly, Base64 of the raw bytes (4 characters per 3
// bytes), and the protobuf wire format of `repeated float values = 1` (packed: 4 bytes per value plus a
// 3-byte header). Bytes are exact; times are measured on this machine: each sample runs enough back-to-back
// calls to last at least 50 timer steps, and the result is the median of the samples. Napkin math 1.1 is
// then redone with the measured decode times. In the browser, the page's own JSON.parse (probe json_parse)
// parses the exact texts our encoder wrote, for N and every N of the sweep; its samples come back as inputs
// and are summarised here beside our decoders. The message depends on N only, so the probe's text is the
// one our decoders are timed on.
#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "core/distributions.h"
#include "core/rng.h"
#include "kernels/timing.h"
#include "request/cells.h"
#include "request/wire/protobuf_wire.h"
#include "request/wire/wire_formats.h"

namespace sl::request {
namespace {

constexpr double kStepsPerSample = 50;      // a sample lasts >= 50 timer steps: <= 2 % quantization error
constexpr double kMinSampleS = 0.25e-3;
constexpr int kSweepSamples = 3;
// JSON.parse is cheap next to our timed sweep, and a busy machine easily spoils a median of 3: take up to 9.
constexpr int kBrowserSweepSamples = 9;
constexpr std::int64_t kSweepStart = 10;
constexpr std::int64_t kNumSampleValues = 8;
constexpr double kBytesPerKb = 1e3;
constexpr std::uint64_t kMessageSeed = 1;  // one fixed message per N: the browser parses the text we time
const char* const kParseProbe = "json_parse";

enum Format { kJsonFull, kJsonCompact, kBase64, kProtobuf, kNumFormats };
const char* const kFormatNames[kNumFormats] = {"json_full", "json_compact", "base64", "protobuf"};

volatile std::size_t g_sink = 0;  // results are added here so the compiler cannot drop the timed work

/// N values of a unit-normal embedding, rounded to float32 (stream Sizes of a fixed seed).
std::vector<float> embedding(std::int64_t n) {
  Rng rng = Rng::stream(kMessageSeed, Stream::Sizes);
  std::vector<float> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = static_cast<float>(normal_quantile(rng.uniform()));
  return v;
}

struct FormatResult {
  std::int64_t bytes = 0;
  double encode_s = 0;
  double decode_s = 0;
  bool round_trips = false;
};

/// Encodes once (for the size and the round-trip check), then times the decode of each format and, if asked,
/// its encode.
std::array<FormatResult, kNumFormats> measure(const std::vector<float>& v, const kernels::TimingPlan& plan,
                                              bool time_encode, const std::function<void()>& on_op) {
  const std::string json_full = encode_json(v, FloatDigits::Full);
  const std::string json_compact = encode_json(v, FloatDigits::Shortest);
  const std::string base64 = encode_base64_floats(v);
  const std::vector<std::uint8_t> protobuf = encode_packed_floats(v);
  const std::array<std::function<void()>, kNumFormats> encoders{
      [&] { g_sink = g_sink + encode_json(v, FloatDigits::Full).size(); },
      [&] { g_sink = g_sink + encode_json(v, FloatDigits::Shortest).size(); },
      [&] { g_sink = g_sink + encode_base64_floats(v).size(); },
      [&] { g_sink = g_sink + encode_packed_floats(v).size(); }};
  const std::array<std::function<void()>, kNumFormats> decoders{
      [&] { g_sink = g_sink + decode_json(json_full)->size(); },
      [&] { g_sink = g_sink + decode_json(json_compact)->size(); },
      [&] { g_sink = g_sink + decode_base64_floats(base64)->size(); },
      [&] { g_sink = g_sink + decode_packed_floats(protobuf)->size(); }};
  std::array<FormatResult, kNumFormats> out;
  out[kJsonFull] = {static_cast<std::int64_t>(json_full.size()), 0, 0, decode_json(json_full) == v};
  out[kJsonCompact] = {static_cast<std::int64_t>(json_compact.size()), 0, 0, decode_json(json_compact) == v};
  out[kBase64] = {static_cast<std::int64_t>(base64.size()), 0, 0, decode_base64_floats(base64) == v};
  out[kProtobuf] = {static_cast<std::int64_t>(protobuf.size()), 0, 0, decode_packed_floats(protobuf) == v};
  for (int f = 0; f < kNumFormats; ++f) {
    if (time_encode) {
      out[f].encode_s = kernels::time_per_call(encoders[f], plan).median_s;
      on_op();
    }
    out[f].decode_s = kernels::time_per_call(decoders[f], plan).median_s;
    on_op();
  }
  return out;
}

std::vector<std::int64_t> sweep_sizes(std::int64_t max_n) {
  std::vector<std::int64_t> sizes;
  for (std::int64_t n = kSweepStart; n <= max_n; n *= 10) sizes.push_back(n);
  if (sizes.back() != max_n) sizes.push_back(max_n);
  return sizes;
}

void main_outputs(RunResult& result, const std::array<FormatResult, kNumFormats>& m, std::int64_t n, double qps) {
  const double raw_bytes = 4.0 * static_cast<double>(n);
  bool all_round_trip = true;
  for (int f = 0; f < kNumFormats; ++f) {
    const std::string name = kFormatNames[f];
    result.output(name + "_bytes", static_cast<double>(m[f].bytes));
    result.output(name + "_encode_us", m[f].encode_s * 1e6);
    result.output(name + "_decode_us", m[f].decode_s * 1e6);
    all_round_trip = all_round_trip && m[f].round_trips;
  }
  result.output("json_compact_bytes_per_value", static_cast<double>(m[kJsonCompact].bytes) / static_cast<double>(n));
  result.output("json_full_bytes_per_value", static_cast<double>(m[kJsonFull].bytes) / static_cast<double>(n));
  result.output("protobuf_kb", static_cast<double>(m[kProtobuf].bytes) / kBytesPerKb);
  result.output("json_compact_kb", static_cast<double>(m[kJsonCompact].bytes) / kBytesPerKb);
  result.output("base64_overhead_frac", static_cast<double>(m[kBase64].bytes) / raw_bytes - 1);
  result.output("round_trip_ok", all_round_trip ? 1 : 0);
  // Napkin math 1.1 with this machine's decode times (compact JSON against protobuf).
  const double json_us = m[kJsonCompact].decode_s * 1e6, pb_us = m[kProtobuf].decode_s * 1e6;
  result.output("napkin_bytes_ratio", static_cast<double>(m[kJsonCompact].bytes) / static_cast<double>(m[kProtobuf].bytes));
  result.output("napkin_gain", json_us / pb_us);
  result.output("napkin_saved_us", json_us - pb_us);
  result.output("napkin_core_frac", (json_us - pb_us) * 1e-6 * qps);
  std::vector<double> ids, bytes, enc, dec;
  for (int f = 0; f < kNumFormats; ++f) {
    ids.push_back(f);
    bytes.push_back(static_cast<double>(m[f].bytes));
    enc.push_back(m[f].encode_s * 1e6);
    dec.push_back(m[f].decode_s * 1e6);
  }
  result.table("formats").column("format", std::move(ids)).column("bytes", std::move(bytes))
      .column("encode_us", std::move(enc)).column("decode_us", std::move(dec));
}

/// The protobuf bytes of the first values of the seeded message, and those values, for outside decoders.
void sample_tables(RunResult& result, const std::vector<float>& v) {
  const std::vector<float> first(v.begin(), v.begin() + std::min<std::int64_t>(kNumSampleValues, static_cast<std::int64_t>(v.size())));
  const std::vector<std::uint8_t> bytes = encode_packed_floats(first);
  result.table("sample_bytes").column("byte", std::vector<double>(bytes.begin(), bytes.end()));
  result.table("sample_values").column("value", std::vector<double>(first.begin(), first.end()));
}

const FloatDigits kParseForms[] = {FloatDigits::Shortest, FloatDigits::Full};

std::string form_name(FloatDigits mode) { return mode == FloatDigits::Shortest ? "compact" : "full"; }

/// Probe key of the browser's parse of N values written in `mode`: "compact.1000", "full.1000".
std::string parse_key(FloatDigits mode, std::int64_t n) { return form_name(mode) + "." + std::to_string(n); }

/// The browser's JSON.parse of this text (median and 10th/90th percentiles of its samples), or nothing when
/// it was not measured (always so natively).
std::optional<kernels::Timing> browser_parse(const Inputs& in, FloatDigits mode, std::int64_t n) {
  const std::vector<double>* s = in.measured(std::string(kParseProbe) + "." + parse_key(mode, n));
  if (s == nullptr || s->empty()) return std::nullopt;
  return kernels::summarize_per_call(*s);
}

/// Every N the cell times, each once: N itself, then the sweep's.
std::vector<std::int64_t> timed_sizes(const Inputs& in) {
  std::vector<std::int64_t> sizes{in.count("n")};
  for (std::int64_t size : sweep_sizes(in.count("sweep_max")))
    if (std::find(sizes.begin(), sizes.end(), size) == sizes.end()) sizes.push_back(size);
  return sizes;
}

/// The browser's measurements: JSON.parse of the exact texts our encoder writes (shortest and 9 digits) for
/// every N timed, `repeats` samples at N and at most kBrowserSweepSamples at the sweep's other sizes. arg = N,
/// which the probe checks against the parsed array's length.
std::vector<ProbeTask> plan_json_parse(const Inputs& in) {
  std::vector<ProbeTask> tasks;
  const int samples = static_cast<int>(in.count("repeats"));
  for (std::int64_t size : timed_sizes(in)) {
    const std::vector<float> v = embedding(size);
    const int repeats = size == in.count("n") ? samples : std::min(samples, kBrowserSweepSamples);
    for (FloatDigits mode : kParseForms)
      tasks.push_back({kParseProbe, parse_key(mode, size), encode_json(v, mode), static_cast<double>(size), repeats});
  }
  return tasks;
}

/// The browser's JSON.parse at N beside our decoders, and napkin 1.1 redone with it against our protobuf
/// decoder. Natively: a notice.
void browser_outputs(RunResult& result, const Inputs& in, const std::array<FormatResult, kNumFormats>& m,
                     std::int64_t n) {
  const auto compact = browser_parse(in, FloatDigits::Shortest, n), full = browser_parse(in, FloatDigits::Full, n);
  if (!compact || !full) {
    result.notice("json_parse_not_measured",
                  "the browser's own JSON.parse is measured only in the browser (the page's probe); natively only "
                  "our C++ decoders are timed");
    return;
  }
  for (const auto& [name, b] : {std::pair{std::string("compact"), *compact}, std::pair{std::string("full"), *full}}) {
    result.output("browser_json_" + name + "_parse_us", b.median_s * 1e6);
    result.output("browser_json_" + name + "_parse_p10_us", b.p10_s * 1e6);
    result.output("browser_json_" + name + "_parse_p90_us", b.p90_s * 1e6);
  }
  const double parse_us = compact->median_s * 1e6;
  const double ours_us = m[kJsonCompact].decode_s * 1e6, pb_us = m[kProtobuf].decode_s * 1e6;
  if (ours_us > 0) result.output("browser_over_ours_json", parse_us / ours_us);
  const double qps = in.real("qps");
  if (pb_us > 0) result.output("napkin_browser_gain", parse_us / pb_us);
  result.output("napkin_browser_saved_us", parse_us - pb_us);
  result.output("napkin_browser_core_frac", (parse_us - pb_us) * 1e-6 * qps);
}

Result<RunResult> run_serialization(const Inputs& in, std::uint64_t /*seed*/, RunControl& ctl) {
  const std::int64_t n = in.count("n");
  const std::vector<std::int64_t> sizes = sweep_sizes(in.count("sweep_max"));
  const double resolution_s = kernels::timer_resolution_s();
  const kernels::TimingPlan plan{std::max(kStepsPerSample * resolution_s, kMinSampleS), static_cast<int>(in.count("repeats"))};
  const kernels::TimingPlan sweep_plan{plan.min_sample_s, kSweepSamples};
  const double total_ops = kNumFormats * (2.0 + static_cast<double>(sizes.size()));
  double ops = 0;
  auto on_op = [&] { ctl.report(++ops, total_ops); };

  RunResult result;
  const std::vector<float> v = embedding(n);
  const auto at_n = measure(v, plan, true, on_op);
  main_outputs(result, at_n, n, in.real("qps"));
  browser_outputs(result, in, at_n, n);
  result.output("timer_resolution_us", resolution_s * 1e6);
  result.output("sample_min_us", plan.min_sample_s * 1e6);

  // The sweep times decoding only (the book's "parse" cost), which is what grows with the message.
  Table sweep{"sweep", {{"n", {}}}};
  for (int f = 0; f < kNumFormats; ++f) sweep.columns.push_back({std::string(kFormatNames[f]) + "_decode_us", {}});
  for (int f = 0; f < kNumFormats; ++f) sweep.columns.push_back({std::string(kFormatNames[f]) + "_bytes", {}});
  // The browser's parse joins the sweep only if it was measured at every N (in the browser it always is).
  bool browser = true;
  for (std::int64_t size : sizes)
    for (FloatDigits mode : kParseForms) browser = browser && browser_parse(in, mode, size).has_value();
  if (browser)
    for (FloatDigits mode : kParseForms) sweep.columns.push_back({"browser_json_" + form_name(mode) + "_parse_us", {}});
  for (std::int64_t size : sizes) {
    const auto m = measure(embedding(size), sweep_plan, false, on_op);
    std::size_t c = 0;
    sweep.columns[c++].second.push_back(static_cast<double>(size));
    for (int f = 0; f < kNumFormats; ++f) sweep.columns[c++].second.push_back(m[f].decode_s * 1e6);
    for (int f = 0; f < kNumFormats; ++f) sweep.columns[c++].second.push_back(static_cast<double>(m[f].bytes));
    if (browser)
      for (FloatDigits mode : kParseForms) sweep.columns[c++].second.push_back(browser_parse(in, mode, size)->median_s * 1e6);
  }
  result.tables.push_back(std::move(sweep));
  sample_tables(result, v);
  return result;
}

}  // namespace

CellSpec serialization_cell() {
  CellSpec cell{"request/serialization",
                {count("n", "values", 1000, 1, 1'000'000), count("repeats", "samples", 9, 3, 101),
                 count("sweep_max", "values", 100'000, 10, 1'000'000), real("qps", "1/s", 10'000, 0, 1e9)},
                &run_serialization};
  cell.deterministic = false;
  cell.uses_seed = false;  // the message is fixed for each N, so the browser's probe parses the same text
  cell.probes = {kParseProbe};
  cell.plan_probes = &plan_json_parse;
  cell.outputs = {out("json_full_bytes", "B"), out("json_full_encode_us", "µs"), out("json_full_decode_us", "µs"),
                  out("json_compact_bytes", "B"), out("json_compact_encode_us", "µs"),
                  out("json_compact_decode_us", "µs"), out("base64_bytes", "B"), out("base64_encode_us", "µs"),
                  out("base64_decode_us", "µs"), out("protobuf_bytes", "B"), out("protobuf_encode_us", "µs"),
                  out("protobuf_decode_us", "µs"), out("json_compact_bytes_per_value", ""),
                  out("json_full_bytes_per_value", ""), out("protobuf_kb", "KB"), out("json_compact_kb", "KB"),
                  out("base64_overhead_frac", ""), out("round_trip_ok", ""), out("napkin_bytes_ratio", ""),
                  out("napkin_gain", ""), out("napkin_saved_us", "µs"), out("napkin_core_frac", ""),
                  out("timer_resolution_us", "µs"), out("sample_min_us", "µs"),
                  browser_only(out("browser_json_compact_parse_us", "µs")),
                  browser_only(out("browser_json_compact_parse_p10_us", "µs")),
                  browser_only(out("browser_json_compact_parse_p90_us", "µs")),
                  browser_only(out("browser_json_full_parse_us", "µs")),
                  browser_only(out("browser_json_full_parse_p10_us", "µs")),
                  browser_only(out("browser_json_full_parse_p90_us", "µs")),
                  browser_only(out("browser_over_ours_json", "")), browser_only(out("napkin_browser_gain", "")),
                  browser_only(out("napkin_browser_saved_us", "µs")),
                  browser_only(out("napkin_browser_core_frac", ""))};
  cell.tables = {table("formats"), table("sweep"), table("sample_bytes"), table("sample_values")};
  return cell;
}

}  // namespace sl::request
