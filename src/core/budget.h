#pragma once
// The budget of one run: every cell estimates its work from its validated inputs and refuses, before the first
// event, a run that would take more than kMaxRunSeconds in the browser or hold more than kMaxBytes. The browser's
// wasm heap is 2 GiB and shared with the page; the machine the limits were set on has 2 cores.
//
// A cell's cost model is a count of work units (simulated requests, tokens x steps, pixels...) from its inputs,
// times a per-unit cost calibrated natively (time a few sizes, fit seconds per unit) and multiplied by
// kWasmSlowdown. The refusal is a too_large error in the cell's own unit: "the simulated tokens must be at most
// 2e+08 tokens, got 5e+08 tokens; lower n", with the limit derived from the budget.
#include <optional>
#include <string>

#include "core/error.h"
#include "core/units.h"

namespace sl::budget {

/// Longest run we start: about 10 s in the browser on a 2-core machine.
inline constexpr double kMaxRunSeconds = 10.0;
/// Longest capacity search we start (llm/capacity-search): three runs' time, counting every point of its grid
/// run (pruning usually runs half of them or fewer); it reports progress point by point and can be cancelled.
inline constexpr double kMaxSearchSeconds = 3 * kMaxRunSeconds;
/// Most working memory one run may hold: 1 GiB of the browser's 2 GiB wasm heap.
inline constexpr double kMaxBytes = 1.0 * units::kGiB;
/// Browser (wasm) time / native time. Measured 1.3x to 2x on the simulators (Chromium, -O3, scalar code);
/// costs are calibrated natively and multiplied by this, so a native run of the limit takes ~4 s.
inline constexpr double kWasmSlowdown = 2.5;

/// What one unit of a cell's work costs, measured natively.
struct UnitCost {
  double native_s = 0;  ///< seconds per unit, native Release build (the fit's slope)
  double bytes = 0;     ///< bytes held per unit at the peak
};

/// One cell's estimate of a run: `amount` units of `unit`, which lowering `param_to_lower` reduces.
struct Estimate {
  std::string param_to_lower;
  std::string what;  ///< the work, as the message names it: "the simulated tokens (n x (prompt + output))"
  std::string unit;  ///< "tokens"
  double amount = 0;
  UnitCost per_unit;
  double fixed_bytes = 0;     ///< memory that does not scale with amount
  double fixed_native_s = 0;  ///< time that does not scale with amount (native, like per_unit.native_s)
  /// The browser seconds this run may take: kMaxRunSeconds, or more for a run that shows its progress and can be
  /// cancelled as it goes (a capacity search: kMaxSearchSeconds).
  double max_seconds = kMaxRunSeconds;
  double seconds() const { return (fixed_native_s + amount * per_unit.native_s) * kWasmSlowdown; }
  double bytes() const { return fixed_bytes + amount * per_unit.bytes; }
  /// Largest amount within both limits.
  double max_amount() const;
};

/// The common estimate: `amount` units of `unit` at `per_unit` each, which lowering `param_to_lower` reduces.
Estimate estimate(std::string param_to_lower, std::string what, std::string unit, double amount, UnitCost per_unit);

/// A second the run spends measuring (timed samples, wall clock) takes a second in the browser too: the unit
/// cost of a measurement budget in seconds, so its limit is kMaxRunSeconds.
inline constexpr UnitCost kMeasuredSecond{1.0 / kWasmSlowdown, 0};

/// A too_large error naming param_to_lower when the estimate exceeds kMaxRunSeconds or kMaxBytes (or is not a
/// finite number); nothing otherwise. The limit is given in the estimate's unit, rounded down to 2 digits.
std::optional<Error> check(const Estimate& estimate);

/// Adds up, while it lives, the estimated browser seconds of every check() made on this thread: what a cell's
/// validation estimates a run at given inputs will cost (CellSpec's default_cost_s, by which a lab page starts
/// its costliest simulation early). Tallies nest; only the innermost counts.
class Tally {
 public:
  Tally();
  ~Tally();
  Tally(const Tally&) = delete;
  Tally& operator=(const Tally&) = delete;
  double seconds() const { return seconds_; }

 private:
  friend std::optional<Error> check(const Estimate& estimate);
  double seconds_ = 0;
  Tally* outer_;
};

/// The cost model in one line, for `serving-lab list`: "at most 2e+08 tokens (50 ns, 48 B each)".
std::string describe(const std::string& what, const std::string& unit, UnitCost per_unit, double fixed_bytes = 0,
                     double fixed_native_s = 0);

}  // namespace sl::budget
