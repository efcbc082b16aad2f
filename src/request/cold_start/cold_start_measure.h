#pragma once
// The measured half of request/cold-start: Table 8's phases timed on this host. In the browser, probes
// (web/probes/model_fetch.js, wasm_start.js) time fetching a generated model (8, 16 or 32 MiB, only when
// the reader asks: the `download` parameter moves that model twice over the network) with the HTTP cache
// bypassed and warm, and compiling and instantiating this lab's own wasm module; C++ times the first and
// later forward passes of a freshly built model (both hosts) and, natively, reading a file evicted from
// the page cache vs cached. Every median, rate and ratio is computed here from the samples.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/cell.h"

namespace sl::request {

/// Median of samples (type-7 quantile 0.5); xs must not be empty.
double median_of(const std::vector<double>& xs);

/// Decimal megabytes per second: bytes / 10^6 / seconds (0 when seconds <= 0).
double mb_per_s(double bytes, double seconds);

/// A warm fetch came from the HTTP cache when less than this share of the model crossed the network
/// (the response headers alone are a few hundred bytes).
constexpr double kFromCacheMaxFrac = 0.01;

/// Share of warm fetches whose network bytes stayed below kFromCacheMaxFrac of the model.
double from_cache_frac(const std::vector<double>& network_bytes, double model_bytes);

/// The `download` parameter: which model to fetch ("off" or its size in MiB), declared with the bytes each
/// choice moves (the reader's consent, core/cell.h network_bytes): the model crosses the network twice, once
/// with the HTTP cache bypassed and once to fill the cache the warm loads then read.
ParamSpec download_param_spec();
/// Network transfers of the model per measurement: the bypassed load and the one that fills the cache.
constexpr int kModelDownloads = 2;

/// What the measured half reads from the inputs: whether to measure, how often, the file to read, and the
/// samples the browser took (empty where it took none).
struct ColdStartMeasureParams {
  bool measure = true;             ///< measure = on
  std::int64_t download_bytes = 0; ///< the model the browser fetches (download = size in MiB); 0: none
  int repeats = 3;                 ///< trials of every measurement
  std::int64_t read_bytes = 0;     ///< the page-cache file (read_mib MiB)
  double weights_mib = 98;         ///< Table 8's weights, to rescale a measured rate to their load time
  bool in_browser = false;         ///< the host ran the browser's probes (never natively)
  std::vector<double> fetch_bytes, fetch_no_store_s, fetch_warm_s, fetch_warm_network_bytes;
  std::vector<double> wasm_bytes, wasm_compile_s, wasm_instantiate_s;
};

/// The measurement inputs (measure, download, repeats, read_mib, weights_mib) and the browser's samples, read once.
ColdStartMeasureParams validate_cold_start_measure(const Inputs& in);

/// The native page-cache measurement's budget (core/budget.h): writing, syncing and reading the file cold, then
/// `repeats` cached reads; a too_large error naming read_mib when it would take more than ~4 s natively. Nothing
/// when the run does not measure the page cache (measure = off, or a browser).
std::optional<Error> check_read_budget(const ColdStartMeasureParams& p);
/// The same cost model in one line, for `serving-lab list`.
std::string describe_read_budget();

/// The browser measurements to take for these inputs (none when measure = off; the model fetch only when
/// download is not off).
std::vector<ProbeTask> plan_cold_start_probes(const Inputs& in);

/// The rows of the phase chart (the lab file names them in this order): Table 8's, then this host's.
enum class Phase {
  Ssd, S3, CudaContext, TensorRt, Warmup, Runtime,                 // Table 8
  FetchBypass, FetchWarm, WasmCompile, WasmInstantiate,            // browser probes
  FirstPass, FreshModelPass, SteadyPass,                           // C++, both hosts
  ColdRead, CachedRead                                             // C++, native only
};

/// Phases of Table 8 and of this host, one row each, for the comparison chart.
struct PhaseRows {
  std::vector<double> phase, s, measured;
  /// Adds a row when seconds > 0 (the chart's axis is logarithmic).
  void add(Phase p, double seconds, bool is_measured);
};

/// Measures what this host can (see above), adds outputs, rows and notices; an Error when the native file
/// measurement cannot run (no writable temporary directory).
std::optional<Error> add_measurements(const ColdStartMeasureParams& p, std::uint64_t seed, RunResult& result,
                                      PhaseRows& rows);

}  // namespace sl::request
