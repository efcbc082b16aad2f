// Cell request/serialization. One request carries N float32 values (an embedding). We encode and decode
// them four ways, all written here: JSON with 9 significant digits per number (always enough for float32),
// JSON with the shortest digits that still read back exactly, Base64 of the raw bytes (4 characters per 3
// bytes), and the protobuf wire format of `repeated float values = 1` (packed: 4 bytes per value plus a
// 3-byte header). Bytes are exact; times are measured on this machine: each sample runs enough back-to-back
// calls to last at least 50 timer steps, and the result is the median of the samples. Napkin math 1.1 is
// then redone with the measured decode times. In the browser, the page's own JSON.parse (probe json_parse)
// parses the exact texts our encoder wrote, for N and every N of the sweep; its samples come back as inputs
// and are summarised here beside our decoders. The message depends on N only, so the probe's text is the
// one our decoders are timed on. Beside the four formats, at N: JSON as a float64 sender prints the same
// values (up to 17 digits each), read by the same decoder; and the protobuf message read in place, a view
// of the wire buffer (zero copy) beside the decode that copies it out (also across the sweep).
#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/checked_run.h"
#include "core/budget.h"
#include "core/distributions.h"
#include "core/rng.h"
#include "core/units.h"
#include "kernels/timing.h"
#include "request/cells.h"
#include "request/wire/protobuf_wire.h"
#include "request/wire/wire_formats.h"

namespace sl::request {
namespace {

using units::kUsPerS;

constexpr double kMinSampleS = 0.25e-3;
constexpr int kSweepSamples = 3;
// JSON.parse is cheap next to our timed sweep, and a busy machine easily spoils a median of 3: take up to 9.
constexpr int kBrowserSweepSamples = 9;
constexpr std::int64_t kSweepStart = 10;
constexpr std::int64_t kNumSampleValues = 8;
constexpr std::uint64_t kMessageSeed = 1;  // one fixed message per N: the browser parses the text we time
const char* const kParseProbe = "json_parse";

enum Format { kJsonFull, kJsonCompact, kBase64, kProtobuf, kNumFormats };
// Native cost of passing one value through one of the timed functions, averaged over them (most of it is the two
// JSON decoders). Fitted on CPU times: 0.61 s at n = 1e5 (1.35e7 values), 2.01 s at n = 1e5 with 50 repeats
// (4.63e7), 1.40 s with sweep_max = 1e6 (3.12e7, predicted 1.36): 43 ns a value, taken as 45 ns, so the limit is
// ~8.8e7 values (n = 1e6 needs repeats <= 6; the slider's n = 1e4 uses 4.1e6). Memory stays under 100 B a value
// (the four encodings, the decoded copies, the probes' texts: 74 MB at sweep_max = 1e6): time is the limit.
constexpr budget::UnitCost kValuePassCost{45e-9, 0};
// Writing one value as float64 JSON (about 5 snprintf + strtod of the shortest-digit bisection, ~1.3 us
// natively) costs about this many value passes; it is written once per run, at N.
constexpr double kFloat64WritePasses = 30;



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

/// Beside the four formats: JSON printed from float64 (the sender holds the values as doubles and writes each
/// with the shortest digits that read back as that double), read by the same float32 decoder; and the
/// protobuf message read in place, a view of the wire buffer, instead of copied into a vector.
struct Extras {
  FormatResult json_float64;
  double protobuf_view_decode_s = 0;
  bool view_matches = false;
};

/// The zero-copy protobuf read, timed like every decoder: it parses the key and the length, whatever N.
double time_protobuf_view(const std::vector<std::uint8_t>& protobuf, const kernels::TimingPlan& plan) {
  return kernels::time_per_call([&] { g_sink = g_sink + view_packed_floats(protobuf)->size(); }, plan).median_s;
}

Extras measure_extras(const std::vector<float>& v, const kernels::TimingPlan& plan, const std::function<void()>& on_op) {
  Extras x;
  const std::string json = encode_json(v, FloatDigits::Float64);
  x.json_float64 = {static_cast<std::int64_t>(json.size()), 0, 0, decode_json(json) == v};
  x.json_float64.decode_s = kernels::time_per_call([&] { g_sink = g_sink + decode_json(json)->size(); }, plan).median_s;
  on_op();
  const std::vector<std::uint8_t> protobuf = encode_packed_floats(v);
  const auto view = view_packed_floats(protobuf);
  x.view_matches = view.has_value() && view->size() == v.size();
  for (std::size_t i = 0; x.view_matches && i < v.size(); ++i) x.view_matches = (*view)[i] == v[i];
  x.protobuf_view_decode_s = time_protobuf_view(protobuf, plan);
  on_op();
  return x;
}

std::vector<std::int64_t> sweep_sizes(std::int64_t max_n) {
  std::vector<std::int64_t> sizes;
  for (std::int64_t n = kSweepStart; n <= max_n; n *= 10) sizes.push_back(n);
  if (sizes.back() != max_n) sizes.push_back(max_n);
  return sizes;
}

/// Each format's size and encode and decode times, by their output names (written out, so grep finds each), in
/// Format order.
struct FormatNames {
  const char *bytes, *encode_us, *decode_us;
};
constexpr FormatNames kFormatNames[kNumFormats] = {
    {"json_full_bytes", "json_full_encode_us", "json_full_decode_us"},
    {"json_compact_bytes", "json_compact_encode_us", "json_compact_decode_us"},
    {"base64_bytes", "base64_encode_us", "base64_decode_us"},
    {"protobuf_bytes", "protobuf_encode_us", "protobuf_decode_us"}};

void main_outputs(RunResult& result, const std::array<FormatResult, kNumFormats>& m, const Extras& x, std::int64_t n,
                  double qps) {
  const double raw_bytes = 4.0 * static_cast<double>(n);
  bool all_round_trip = x.json_float64.round_trips && x.view_matches;
  for (int f = 0; f < kNumFormats; ++f) all_round_trip = all_round_trip && m[f].round_trips;
  for (int f = 0; f < kNumFormats; ++f) {
    result.output(kFormatNames[f].bytes, static_cast<double>(m[f].bytes));
    result.output(kFormatNames[f].encode_us, m[f].encode_s * kUsPerS);
    result.output(kFormatNames[f].decode_us, m[f].decode_s * kUsPerS);
  }
  result.output("json_compact_bytes_per_value", static_cast<double>(m[kJsonCompact].bytes) / static_cast<double>(n));
  result.output("json_full_bytes_per_value", static_cast<double>(m[kJsonFull].bytes) / static_cast<double>(n));
  result.output("protobuf_kb", static_cast<double>(m[kProtobuf].bytes) / units::kKB);
  result.output("json_compact_kb", static_cast<double>(m[kJsonCompact].bytes) / units::kKB);
  result.output("base64_overhead_frac", static_cast<double>(m[kBase64].bytes) / raw_bytes - 1);
  result.output("round_trip_ok", all_round_trip ? 1 : 0);
  // Float64 JSON beside float32's, and the zero-copy protobuf read beside the copying one.
  result.output("json_float64_bytes", static_cast<double>(x.json_float64.bytes));
  result.output("json_float64_bytes_per_value", static_cast<double>(x.json_float64.bytes) / static_cast<double>(n));
  result.output("json_float64_over_compact", static_cast<double>(x.json_float64.bytes) / static_cast<double>(m[kJsonCompact].bytes));
  result.output("json_float64_decode_us", x.json_float64.decode_s * kUsPerS);
  result.output("protobuf_view_decode_us", x.protobuf_view_decode_s * kUsPerS);
  if (x.protobuf_view_decode_s > 0) result.output("protobuf_copy_over_view", m[kProtobuf].decode_s / x.protobuf_view_decode_s);
  // Napkin math 1.1 with this machine's decode times (compact JSON against protobuf).
  const double json_us = m[kJsonCompact].decode_s * kUsPerS, pb_us = m[kProtobuf].decode_s * kUsPerS;
  result.output("napkin_bytes_ratio", static_cast<double>(m[kJsonCompact].bytes) / static_cast<double>(m[kProtobuf].bytes));
  result.output("napkin_gain", json_us / pb_us);
  result.output("napkin_saved_us", json_us - pb_us);
  result.output("napkin_core_frac", (json_us - pb_us) * 1e-6 * qps);
  std::vector<double> ids, bytes, enc, dec;
  for (int f = 0; f < kNumFormats; ++f) {
    ids.push_back(f);
    bytes.push_back(static_cast<double>(m[f].bytes));
    enc.push_back(m[f].encode_s * kUsPerS);
    dec.push_back(m[f].decode_s * kUsPerS);
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

/// The browser's JSON.parse of one message in both forms (median and 10th/90th percentiles of its samples);
/// each is empty when it was not measured (always so natively).
struct BrowserParse {
  std::optional<kernels::Timing> compact, full;
  bool measured() const { return compact.has_value() && full.has_value(); }
};

struct SerializationParams {
  std::int64_t n;          ///< values per message
  int repeats;             ///< samples per timing at N
  std::int64_t sweep_max;  ///< the sweep's largest message, values
  double requests_per_s;   ///< napkin math's request rate
  /// Every N the cell times, each once: N itself, then the sweep's others.
  std::vector<std::int64_t> timed_sizes;
  /// The browser's samples for each timed N.
  std::map<std::int64_t, BrowserParse> browser_parse_at_n;
};

/// The summary of the browser's samples of one probe key, or nothing.
std::optional<kernels::Timing> validate_browser_parse(const Inputs& in, FloatDigits mode, std::int64_t n) {
  const std::vector<double>* s = in.measured(std::string(kParseProbe) + "." + parse_key(mode, n));
  if (s == nullptr || s->empty()) return std::nullopt;
  return kernels::summarize_per_call(*s);
}

/// Values passed through an encoder or decoder in one run: at N, 8 timed functions (4 encoders, 4 decoders), each
/// called about repeats + 4 times (a warm-up, two calibration samples, the samples); at each sweep size 4 decoders
/// x (kSweepSamples + 4) calls, plus the sizing encodes. Each sample also lasts at least kMinSampleS.
budget::Estimate serialization_estimate(std::int64_t n, int repeats, std::int64_t sweep_max) {
  const std::vector<std::int64_t> sizes = sweep_sizes(sweep_max);
  double sweep_values = 0;
  for (std::int64_t size : sizes) sweep_values += static_cast<double>(size);
  budget::Estimate e;
  e.param_to_lower = 8.0 * (repeats + 4) * static_cast<double>(n) >= 4.0 * (kSweepSamples + 4) * sweep_values ? "n"
                                                                                                     : "sweep_max";
  e.what = "the values encoded and decoded (8 x (repeats + 4) x n + 4 x 7 x the sweep's sizes)";
  e.unit = "values";
  e.amount = 8.0 * (repeats + 4) * static_cast<double>(n) + 4.0 * (kSweepSamples + 4) * sweep_values;
  e.amount += (repeats + 4 + kFloat64WritePasses) * static_cast<double>(n);  // float64 JSON: written once, decoded
  e.per_unit = kValuePassCost;
  e.fixed_native_s = (8.0 * (repeats + 3) + 4.0 * (kSweepSamples + 3) * static_cast<double>(sizes.size())) * kMinSampleS;
  // The float64 decode and the protobuf view at N, the view at each sweep size: samples of kMinSampleS each.
  e.fixed_native_s += (2.0 * (repeats + 3) + (kSweepSamples + 3) * static_cast<double>(sizes.size())) * kMinSampleS;
  return e;
}

Result<SerializationParams> validate_serialization(const Inputs& in) {
  SerializationParams p{in.count("n"), static_cast<int>(in.count("repeats")), in.count("sweep_max"),
                        in.real("requests_per_s"), {}, {}};
  if (auto e = budget::check(serialization_estimate(p.n, p.repeats, p.sweep_max))) return *e;
  p.timed_sizes = {p.n};
  for (std::int64_t size : sweep_sizes(p.sweep_max))
    if (std::find(p.timed_sizes.begin(), p.timed_sizes.end(), size) == p.timed_sizes.end()) p.timed_sizes.push_back(size);
  for (std::int64_t size : p.timed_sizes)
    p.browser_parse_at_n[size] = {validate_browser_parse(in, FloatDigits::Shortest, size),
                                  validate_browser_parse(in, FloatDigits::Full, size)};
  return p;
}

/// The browser's measurements: JSON.parse of the exact texts our encoder writes (shortest and 9 digits) for
/// every N timed, `repeats` samples at N and at most kBrowserSweepSamples at the sweep's other sizes. arg = N,
/// which the probe checks against the parsed array's length.
std::vector<ProbeTask> plan_json_parse(const Inputs& in) {
  std::vector<ProbeTask> tasks;
  const auto checked = validate_serialization(in);
  if (!checked.ok()) return tasks;
  const SerializationParams& p = checked.value();
  for (std::int64_t size : p.timed_sizes) {
    const std::vector<float> v = embedding(size);
    const int repeats = size == p.n ? p.repeats : std::min(p.repeats, kBrowserSweepSamples);
    for (FloatDigits mode : kParseForms)
      tasks.push_back({kParseProbe, parse_key(mode, size), encode_json(v, mode), static_cast<double>(size), repeats});
  }
  return tasks;
}

/// The browser's JSON.parse at N beside our decoders, and napkin 1.1 redone with it against our protobuf
/// decoder. Natively: a notice.
void browser_outputs(RunResult& result, const SerializationParams& p, const std::array<FormatResult, kNumFormats>& m) {
  const BrowserParse& at_n = p.browser_parse_at_n.at(p.n);
  if (!at_n.measured()) {
    result.notice("json_parse_not_measured",
                  "the browser's own JSON.parse is measured only in the browser (the page's probe); natively only "
                  "our C++ decoders are timed");
    return;
  }
  const kernels::Timing& compact = *at_n.compact;
  const kernels::Timing& full = *at_n.full;
  result.output("browser_json_compact_parse_us", compact.median_s * kUsPerS);
  result.output("browser_json_compact_parse_p10_us", compact.p10_s * kUsPerS);
  result.output("browser_json_compact_parse_p90_us", compact.p90_s * kUsPerS);
  result.output("browser_json_full_parse_us", full.median_s * kUsPerS);
  result.output("browser_json_full_parse_p10_us", full.p10_s * kUsPerS);
  result.output("browser_json_full_parse_p90_us", full.p90_s * kUsPerS);
  const double parse_us = compact.median_s * kUsPerS;
  const double ours_us = m[kJsonCompact].decode_s * kUsPerS, pb_us = m[kProtobuf].decode_s * kUsPerS;
  if (ours_us > 0) result.output("browser_over_ours_json", parse_us / ours_us);
  if (pb_us > 0) result.output("napkin_browser_gain", parse_us / pb_us);
  result.output("napkin_browser_saved_us", parse_us - pb_us);
  result.output("napkin_browser_core_frac", (parse_us - pb_us) * 1e-6 * p.requests_per_s);
}

/// Decode time and size of each format against N; the browser's parse joins only if it was measured at
/// every N (in the browser it always is). The sweep times decoding only (the book's "parse" cost), which is
/// what grows with the message.
void sweep_table(RunResult& result, const SerializationParams& p, const kernels::TimingPlan& plan,
                 const std::function<void()>& on_op) {
  const std::vector<std::int64_t> sizes = sweep_sizes(p.sweep_max);
  bool browser = true;
  for (std::int64_t size : sizes) browser = browser && p.browser_parse_at_n.at(size).measured();
  std::vector<double> n, bytes[kNumFormats], decode_us[kNumFormats], view_us, browser_compact_us, browser_full_us;
  for (std::int64_t size : sizes) {
    const std::vector<float> v = embedding(size);
    const auto m = measure(v, plan, false, on_op);
    view_us.push_back(time_protobuf_view(encode_packed_floats(v), plan) * kUsPerS);
    n.push_back(static_cast<double>(size));
    for (int f = 0; f < kNumFormats; ++f) {
      decode_us[f].push_back(m[f].decode_s * kUsPerS);
      bytes[f].push_back(static_cast<double>(m[f].bytes));
    }
    if (browser) {
      browser_compact_us.push_back(p.browser_parse_at_n.at(size).compact->median_s * kUsPerS);
      browser_full_us.push_back(p.browser_parse_at_n.at(size).full->median_s * kUsPerS);
    }
  }
  Table& sweep = result.table("sweep");
  sweep.column("n", std::move(n))
      .column("json_full_decode_us", std::move(decode_us[kJsonFull]))
      .column("json_compact_decode_us", std::move(decode_us[kJsonCompact]))
      .column("base64_decode_us", std::move(decode_us[kBase64]))
      .column("protobuf_decode_us", std::move(decode_us[kProtobuf]))
      .column("protobuf_view_decode_us", std::move(view_us))
      .column("json_full_bytes", std::move(bytes[kJsonFull]))
      .column("json_compact_bytes", std::move(bytes[kJsonCompact]))
      .column("base64_bytes", std::move(bytes[kBase64]))
      .column("protobuf_bytes", std::move(bytes[kProtobuf]));
  if (browser)
    sweep.column("browser_json_compact_parse_us", std::move(browser_compact_us))
        .column("browser_json_full_parse_us", std::move(browser_full_us));
}

Result<RunResult> run_serialization(const SerializationParams& p, std::uint64_t /*seed*/, RunControl& ctl) {
  const double resolution_s = kernels::timer_resolution_s();
  const kernels::TimingPlan plan{kernels::cell_min_sample_s(kMinSampleS, resolution_s), p.repeats};
  const kernels::TimingPlan sweep_plan{plan.min_sample_s, kSweepSamples};
  const double total_ops = kNumFormats * (2.0 + static_cast<double>(sweep_sizes(p.sweep_max).size())) + 2;
  double ops = 0;
  auto on_op = [&] { ctl.report(++ops, total_ops); };

  RunResult result;
  const std::vector<float> v = embedding(p.n);
  const auto at_n = measure(v, plan, true, on_op);
  const Extras extras = measure_extras(v, plan, on_op);
  main_outputs(result, at_n, extras, p.n, p.requests_per_s);
  browser_outputs(result, p, at_n);
  result.output("timer_resolution_us", resolution_s * kUsPerS);
  result.output("sample_min_us", plan.min_sample_s * kUsPerS);
  sweep_table(result, p, sweep_plan, on_op);
  sample_tables(result, v);
  return result;
}

}  // namespace

CellSpec serialization_cell() {
  CellSpec cell = checked_cell<&validate_serialization, &run_serialization>("request/serialization",
      {explored(count("n", "values", 1000, 1, 1'000'000), 10, 10'000), count("repeats", "samples", 9, 3, 101),
       count("sweep_max", "values", 100'000, 10, 1'000'000),
       explored(aliased(real("requests_per_s", "1/s", 10'000, 0, 1e9), {"qps"}), 100, 1e6)});
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
                  out("base64_overhead_frac", ""), out("round_trip_ok", ""), out("json_float64_bytes", "B"),
                  out("json_float64_bytes_per_value", ""), out("json_float64_over_compact", "×"),
                  out("json_float64_decode_us", "µs"), out("protobuf_view_decode_us", "µs"),
                  sometimes(out("protobuf_copy_over_view", "×")), out("napkin_bytes_ratio", ""),
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
  cell.budget = {budget::describe("values encoded and decoded (8 x (repeats + 4) x n + 28 x the sweep's sizes, + (repeats + 34) x n for float64 JSON)", "values",
                                  kValuePassCost)};
  return cell;
}

}  // namespace sl::request
