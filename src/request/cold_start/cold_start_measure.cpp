// Measurements of request/cold-start (see cold_start_measure.h). Natively the browser probes are absent
// (Inputs::measured gives nullptr) and a notice says so; in wasm the page-cache read is absent and a notice
// says that. An empty sample list means the probe ran but had nothing to time (the site has no model file).
#include "request/cold_start/cold_start_measure.h"

#include <cmath>
#include <string>

#include "core/budget.h"
#include "core/stats.h"
#include "core/units.h"
#include "request/cold_start/first_inference.h"
#include "request/cold_start/page_cache_read.h"

namespace sl::request {
namespace {

using units::kMiB;
constexpr int kSteadyPasses = 10;  // later passes per trial; their median is the steady state
/// Eviction "took effect" when at most this share of the file stayed in the page cache.
constexpr double kEvictedMaxResidentFrac = 0.10;

/// A MiB of the page-cache file, natively: written, fsync'ed and read back evicted, 8.5 ms (256 MiB: 2.27 s at
/// repeats 1; 1024 MiB: 8.7 s at repeats 3, on this machine's disk); and each cached read of it, 0.35 ms
/// (256 MiB: 3.79 s at repeats 20). Disk speed varies by host; these are this 2-core machine's.
constexpr double kWrittenMibS = 8.5e-3;
constexpr double kCachedReadMibS = 0.35e-3;
constexpr const char* kReadWhat = "the page-cache file (written, read cold, then read cached `repeats` times)";

std::string percent(double frac) { return format_number(std::round(100 * frac)) + " %"; }

/// The samples of one probe key, as validate_cold_start_measure read them: empty when not measured.
std::vector<double> validate_samples(const Inputs& in, const std::string& key) {
  const auto* xs = in.measured(key);
  return xs != nullptr ? *xs : std::vector<double>{};
}

/// Samples of a probe key: nullptr when not measured on this host, or measured but empty.
const std::vector<double>* samples(const std::vector<double>& xs) { return xs.empty() ? nullptr : &xs; }

void model_fetch_outputs(const ColdStartMeasureParams& p, RunResult& result, PhaseRows& rows) {
  if (!p.in_browser || p.download_bytes == 0) return;
  const auto* bytes = samples(p.fetch_bytes);
  const auto* bypass = samples(p.fetch_no_store_s);
  const auto* warm = samples(p.fetch_warm_s);
  if (bytes == nullptr || bypass == nullptr || warm == nullptr || bytes->front() <= 0) {
    result.notice("model_missing", "The site has no generated model file to fetch (assets/model.json); build it "
                                   "with node scripts/build.mjs.");
    return;
  }
  const double model_bytes = bytes->front();
  const double bypass_s = median_of(*bypass), warm_s = median_of(*warm);
  result.output("model_mib", model_bytes / kMiB);
  result.output("fetch_bypass_ms", 1e3 * bypass_s);
  result.output("fetch_bypass_mb_per_s", mb_per_s(model_bytes, bypass_s));
  result.output("fetch_warm_ms", 1e3 * warm_s);
  result.output("fetch_warm_mb_per_s", mb_per_s(model_bytes, warm_s));
  if (warm_s > 0) result.output("fetch_bypass_over_warm", bypass_s / warm_s);
  if (bypass_s > 0)
    result.output("fetch_weights_s", p.weights_mib * kMiB / (model_bytes / bypass_s));
  rows.add(Phase::FetchBypass, bypass_s, true);
  rows.add(Phase::FetchWarm, warm_s, true);
  if (const auto* network = samples(p.fetch_warm_network_bytes)) {
    const double cached = from_cache_frac(*network, model_bytes);
    result.output("warm_from_cache_frac", cached);
    if (cached < 1)
      result.notice("not_cached", "Only " + percent(cached) + " of the warm fetches came from the HTTP cache; the "
                                  "others crossed the network again, so the warm time is not a cache read.");
  }
}

void wasm_start_outputs(const ColdStartMeasureParams& p, RunResult& result, PhaseRows& rows) {
  const auto* bytes = samples(p.wasm_bytes);
  const auto* compile = samples(p.wasm_compile_s);
  const auto* instantiate = samples(p.wasm_instantiate_s);
  if (bytes == nullptr || compile == nullptr || instantiate == nullptr) return;
  const double compile_s = median_of(*compile), instantiate_s = median_of(*instantiate);
  result.output("wasm_mib", bytes->front() / kMiB);
  result.output("wasm_compile_ms", 1e3 * compile_s);
  result.output("wasm_compile_mb_per_s", mb_per_s(bytes->front(), compile_s));
  result.output("wasm_instantiate_ms", 1e3 * instantiate_s);
  rows.add(Phase::WasmCompile, compile_s, true);
  rows.add(Phase::WasmInstantiate, instantiate_s, true);
}

void inference_outputs(const ColdStartMeasureParams& p, std::uint64_t seed, RunResult& result, PhaseRows& rows) {
  const auto r = time_first_inference(p.repeats, kSteadyPasses, seed);
  // The very first pass runs code, weights and buffers that nothing in this run has touched; the first
  // passes of the later trials meet a new model in a process that has already run the code.
  const double first_s = r.first_s.front(), steady_s = median_of(r.steady_s);
  result.output("infer_first_ms", 1e3 * first_s);
  rows.add(Phase::FirstPass, first_s, true);
  if (r.first_s.size() > 1) {
    const double fresh_s = median_of({r.first_s.begin() + 1, r.first_s.end()});
    result.output("infer_fresh_model_ms", 1e3 * fresh_s);
    rows.add(Phase::FreshModelPass, fresh_s, true);
  }
  result.output("infer_steady_ms", 1e3 * steady_s);
  if (steady_s > 0) result.output("infer_first_over_steady", first_s / steady_s);
  rows.add(Phase::SteadyPass, steady_s, true);
}

std::optional<Error> page_cache_outputs(const ColdStartMeasureParams& p, RunResult& result, PhaseRows& rows) {
  const std::int64_t bytes = p.read_bytes;
  auto measured = measure_page_cache_read(bytes, p.repeats);
  if (!measured.ok()) return measured.error();
  const PageCacheRead& r = measured.value();
  const double cached_s = median_of(r.cached_read_s);
  result.output("read_cold_ms", 1e3 * r.cold_read_s);
  result.output("read_cold_mb_per_s", mb_per_s(static_cast<double>(bytes), r.cold_read_s));
  result.output("read_cached_ms", 1e3 * cached_s);
  result.output("read_cached_mb_per_s", mb_per_s(static_cast<double>(bytes), cached_s));
  if (cached_s > 0) result.output("read_cold_over_cached", r.cold_read_s / cached_s);
  if (r.cold_read_s > 0)
    result.output("read_weights_cold_s", p.weights_mib * kMiB / (static_cast<double>(bytes) / r.cold_read_s));
  rows.add(Phase::ColdRead, r.cold_read_s, true);
  rows.add(Phase::CachedRead, cached_s, true);
  if (r.resident_after_evict_frac < 0) {
    result.notice("eviction_unknown", "The kernel could not say (mincore) whether posix_fadvise(DONTNEED) evicted "
                                      "the file, so the first read may or may not have come from the disk.");
    return std::nullopt;
  }
  result.output("evicted_frac", 1 - r.resident_after_evict_frac);
  if (r.resident_after_evict_frac > kEvictedMaxResidentFrac)
    result.notice("not_evicted", percent(r.resident_after_evict_frac) + " of the file stayed in the page cache after "
                                 "posix_fadvise(DONTNEED) (this filesystem, e.g. tmpfs or overlay, ignores it), so "
                                 "the first read is not a cold read from the disk.");
  return std::nullopt;
}

}  // namespace

ParamSpec download_param_spec() {
  const std::vector<std::string> sizes_mib = {"8", "16", "32"};
  std::vector<std::string> choices = {"off"};
  std::vector<double> network_bytes = {0};
  for (const auto& mib : sizes_mib) {
    choices.push_back(mib);
    network_bytes.push_back(kModelDownloads * std::stod(mib) * kMiB);
  }
  return downloads(choice("download", choices, "off"), network_bytes);
}

double median_of(const std::vector<double>& xs) { return quantile(xs, 0.5); }

double mb_per_s(double bytes, double seconds) { return seconds > 0 ? bytes / units::kMB / seconds : 0.0; }

double from_cache_frac(const std::vector<double>& network_bytes, double model_bytes) {
  if (network_bytes.empty()) return 0;
  double cached = 0;
  for (double b : network_bytes) cached += b < kFromCacheMaxFrac * model_bytes ? 1 : 0;
  return cached / static_cast<double>(network_bytes.size());
}

void PhaseRows::add(Phase p, double seconds, bool is_measured) {
  if (!(seconds > 0)) return;
  phase.push_back(static_cast<double>(p));
  s.push_back(seconds);
  measured.push_back(is_measured ? 1 : 0);
}

ColdStartMeasureParams validate_cold_start_measure(const Inputs& in) {
  ColdStartMeasureParams p;
  p.measure = in.choice("measure") == "on";
  const std::string& download = in.choice("download");
  p.download_bytes = download == "off" ? 0 : std::stoll(download) * static_cast<std::int64_t>(kMiB);
  p.repeats = static_cast<int>(in.count("repeats"));
  p.read_bytes = in.count("read_mib") * static_cast<std::int64_t>(kMiB);
  p.weights_mib = in.real("weights_mib");
  p.in_browser = !in.all_measured().empty();
  p.fetch_bytes = validate_samples(in, "model_fetch.bytes");
  p.fetch_no_store_s = validate_samples(in, "model_fetch.no_store");
  p.fetch_warm_s = validate_samples(in, "model_fetch.warm");
  p.fetch_warm_network_bytes = validate_samples(in, "model_fetch.warm_network_bytes");
  p.wasm_bytes = validate_samples(in, "wasm_start.bytes");
  p.wasm_compile_s = validate_samples(in, "wasm_start.compile");
  p.wasm_instantiate_s = validate_samples(in, "wasm_start.instantiate");
  return p;
}

std::optional<Error> check_read_budget(const ColdStartMeasureParams& p) {
  if (!p.measure || !page_cache_reachable()) return std::nullopt;
  // A measured second is a native second here (the browser never runs this part); budget::Estimate counts native
  // seconds x kWasmSlowdown, so the limit is ~4 s natively, as for every other cell.
  const budget::UnitCost per_mib{kWrittenMibS + p.repeats * kCachedReadMibS, 0};
  return budget::check(budget::estimate("read_mib", std::string(kReadWhat) + " at repeats " + std::to_string(p.repeats),
                                        "MiB", static_cast<double>(p.read_bytes) / kMiB, per_mib));
}

std::string describe_read_budget() {
  return budget::describe(std::string(kReadWhat) + " at repeats 3", "MiB", {kWrittenMibS + 3 * kCachedReadMibS, 0}) +
         "; " + format_number(kCachedReadMibS * 1e3) + " ms more per MiB and repeat";
}

std::vector<ProbeTask> plan_cold_start_probes(const Inputs& in) {
  const ColdStartMeasureParams p = validate_cold_start_measure(in);
  if (!p.measure) return {};
  const int repeats = p.repeats;
  std::vector<ProbeTask> plan;
  if (p.download_bytes > 0) {
    // kModelDownloads transfers: one load with the HTTP cache bypassed (it leaves the cache alone), the bytes
    // it received, then warm loads (the probe's untimed first load fills the cache, the timed ones read it),
    // then the network bytes of those warm loads. arg: the model's size in bytes.
    const auto model_bytes = static_cast<double>(p.download_bytes);
    plan = {{"model_fetch", "no_store", "", model_bytes, 1},
            {"model_fetch", "bytes", "", model_bytes, 1},
            {"model_fetch", "warm", "", model_bytes, repeats},
            {"model_fetch", "warm_network_bytes", "", model_bytes, repeats}};
  }
  plan.push_back({"wasm_start", "bytes", "", 0, 1});
  plan.push_back({"wasm_start", "compile", "", 0, repeats});
  plan.push_back({"wasm_start", "instantiate", "", 0, repeats});
  return plan;
}

std::optional<Error> add_measurements(const ColdStartMeasureParams& p, std::uint64_t seed, RunResult& result,
                                      PhaseRows& rows) {
  if (!p.measure) return std::nullopt;
  if (!p.in_browser)
    result.notice("browser_only", "Fetching the model file and compiling and instantiating the wasm module are "
                                  "measured only in the browser.");
  model_fetch_outputs(p, result, rows);
  wasm_start_outputs(p, result, rows);
  inference_outputs(p, seed, result, rows);
  if (!page_cache_reachable()) {
    result.notice("native_only", "A browser cannot reach the page cache: the read of a file evicted from it is "
                                 "measured only by the CLI (serving-lab run request/cold-start).");
    return std::nullopt;
  }
  return page_cache_outputs(p, result, rows);
}

}  // namespace sl::request
