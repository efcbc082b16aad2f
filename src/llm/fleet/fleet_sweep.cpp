#include "llm/fleet/fleet_sweep.h"

#include <cmath>
#include <utility>

namespace sl::llm {

SweepKnob knob_of(const std::string& name) {
  if (name == "replicas") return SweepKnob::Replicas;
  if (name == "lambda") return SweepKnob::Lambda;
  if (name == "spec_tokens") return SweepKnob::SpecTokens;
  if (name == "spec_accept") return SweepKnob::SpecAccept;
  if (name == "prefill_replicas") return SweepKnob::PrefillReplicas;
  return SweepKnob::None;
}

FleetPoint with_value(FleetPoint pt, SweepKnob knob, double value) {
  switch (knob) {
    case SweepKnob::Replicas: pt.num_replicas = std::llround(value); break;
    case SweepKnob::Lambda: pt.rate_per_s = value; break;
    case SweepKnob::SpecTokens: pt.num_spec_tokens = std::llround(value); break;
    case SweepKnob::SpecAccept: pt.spec_accept_frac = value; break;
    case SweepKnob::PrefillReplicas: pt.num_prefill_replicas = std::llround(value); break;
    case SweepKnob::None: break;
  }
  return pt;
}

namespace {

/// The knob's range (its parameter's, as fleet_cell() declares it), and whether it takes whole numbers.
struct KnobRange {
  double min, max;
  bool whole;
  const char* unit;
};
KnobRange range_of(SweepKnob knob) {
  switch (knob) {
    case SweepKnob::Replicas: return {1, 64, true, "replicas"};
    case SweepKnob::Lambda: return {0.001, 10000, false, "1/s"};
    case SweepKnob::SpecTokens: return {0, 16, true, "tokens"};
    case SweepKnob::SpecAccept: return {0, 0.99, false, ""};
    case SweepKnob::PrefillReplicas: return {1, 63, true, "replicas"};
    case SweepKnob::None: break;
  }
  return {0, 0, false, ""};
}

}  // namespace

Result<std::vector<double>> sweep_values(SweepKnob knob, double from, double to, std::int64_t points) {
  if (knob == SweepKnob::None) return std::vector<double>{};
  const KnobRange r = range_of(knob);
  for (const auto& [name, v] : {std::pair{"sweep_from", from}, std::pair{"sweep_to", to}})
    if (v < r.min || v > r.max)
      return Error{"out_of_range", name,
                   std::string(name) + " must be in [" + format_number(r.min) + ", " + format_number(r.max) + "] " +
                       r.unit + " for this sweep, got " + format_number(v),
                   {{"min", format_number(r.min)}, {"max", format_number(r.max)}, {"unit", r.unit}, {"got", format_number(v)}}};
  std::vector<double> values;
  for (std::int64_t i = 0; i < points; ++i) {
    double v = from + (to - from) * static_cast<double>(i) / static_cast<double>(points - 1);
    if (r.whole) v = std::round(v);
    if (values.empty() || v != values.back()) values.push_back(v);
  }
  return values;
}

}  // namespace sl::llm
