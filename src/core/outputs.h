#pragma once
// A cell's output declarations by name: an output whose name states its unit by its suffix (docs/style.md,
// "Units in names") is declared by the name alone, `"W_ms"`, and takes that unit; one whose name does not
// ("mean_batch" in sequences) keeps `out(name, unit)`:
//   cell.outputs = outputs({"W_ms", "rho", out("mean_batch", "sequences"), sometimes("W_closed_form_ms")});
#include <cstddef>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "core/cell.h"

namespace sl {

/// The unit an output's name states by its suffix, the first that matches of _tok_per_s tokens/s,
/// _gflop_per_s GFLOP/s, _gb_per_s GB/s, _mb_per_s MB/s, _per_s 1/s, _flop_per_byte FLOP/B, _usd_per_h $/h,
/// _ms ms, _us µs, _s s, _x ×, _kb KB, _mb MB, _mib MiB, _gb GB, _gib GiB, _bytes B, _mj mJ, _j J, _mw mW,
/// _w W, _usd $, _px px; "" otherwise (counts, fractions "_frac", plain ratios).
inline std::string unit_of_output(const std::string& name) {
  // Longer suffixes first: "_tok_per_s" before "_per_s" before "_s".
  static const std::pair<const char*, const char*> kSuffixUnits[] = {
      {"_tok_per_s", "tokens/s"}, {"_gflop_per_s", "GFLOP/s"}, {"_gb_per_s", "GB/s"}, {"_mb_per_s", "MB/s"},
      {"_per_s", "1/s"},          {"_flop_per_byte", "FLOP/B"}, {"_usd_per_h", "$/h"}, {"_ms", "ms"},
      {"_us", "µs"},              {"_s", "s"},                  {"_x", "×"},           {"_kb", "KB"},
      {"_mb", "MB"},              {"_mib", "MiB"},              {"_gb", "GB"},         {"_gib", "GiB"},
      {"_bytes", "B"},            {"_mj", "mJ"},                {"_j", "J"},           {"_mw", "mW"},
      {"_w", "W"},                {"_usd", "$"},                {"_px", "px"}};
  for (const auto& [suffix, unit] : kSuffixUnits) {
    const std::string s = suffix;
    if (name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0) return unit;
  }
  return "";
}

/// The output `name`, in the unit its suffix states.
inline OutputSpec named(const char* name) { return out(name, unit_of_output(name)); }
/// An output only some inputs have, in the unit its name states.
inline OutputSpec sometimes(const char* name) { return sometimes(named(name)); }
/// An output only the browser can measure, in the unit its name states.
inline OutputSpec browser_only(const char* name) { return browser_only(named(name)); }

/// One entry of an outputs() list: a bare name (its unit from its suffix) or a full OutputSpec.
struct OutputEntry {
  OutputEntry(const char* name) : spec(named(name)) {}
  OutputEntry(OutputSpec output) : spec(std::move(output)) {}
  OutputSpec spec;
};

/// The declarations of a cell's outputs, in order.
inline std::vector<OutputSpec> outputs(std::initializer_list<OutputEntry> entries) {
  std::vector<OutputSpec> specs;
  specs.reserve(entries.size());
  for (const auto& e : entries) specs.push_back(e.spec);
  return specs;
}

}  // namespace sl
