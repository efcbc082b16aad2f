#pragma once
// The knobs llm/fleet sweeps (replicas, lambda, draft tokens, their acceptance, prefill replicas), one
// configuration of them, and the values of a sweep from..to.
#include <cstdint>
#include <string>
#include <vector>

#include "core/error.h"

namespace sl::llm {

enum class SweepKnob { Replicas, Lambda, SpecTokens, SpecAccept, PrefillReplicas, None };

/// One configuration of the fleet: the knobs a sweep may vary.
struct FleetPoint {
  std::int64_t num_replicas = 4;
  double rate_per_s = 40;
  std::int64_t num_spec_tokens = 0;
  double spec_accept_frac = 0.7;
  std::int64_t num_prefill_replicas = 0;  ///< prefill/decode disaggregation: P of the replicas prefill; 0 = off
};

/// Every knob alike (llm/fleet reuses its base run for a sweep point equal to it). A field added to FleetPoint
/// is added here too: the size check below fails until it is.
inline bool operator==(const FleetPoint& a, const FleetPoint& b) {
  return a.num_replicas == b.num_replicas && a.rate_per_s == b.rate_per_s && a.num_spec_tokens == b.num_spec_tokens &&
         a.spec_accept_frac == b.spec_accept_frac && a.num_prefill_replicas == b.num_prefill_replicas;
}
static_assert(sizeof(FleetPoint) == 5 * 8, "FleetPoint changed: compare its new field in operator==");

/// The knob a `sweep` choice names ("replicas", "lambda", "spec_tokens", "spec_accept", "prefill_replicas", else None).
SweepKnob knob_of(const std::string& name);

/// `pt` with the knob set to `value` (whole-number knobs rounded).
FleetPoint with_value(FleetPoint pt, SweepKnob knob, double value);

/// Evenly spaced values from..to over `points` (whole-number knobs rounded, repeats dropped); an out_of_range
/// error naming sweep_from or sweep_to outside the knob's parameter range (the cell's declaration of it); none
/// for SweepKnob::None.
Result<std::vector<double>> sweep_values(SweepKnob knob, double from, double to, std::int64_t points);

}  // namespace sl::llm
