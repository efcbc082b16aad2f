#pragma once
// The timing protocol, defined once: how kernels::time_per_call (C++, natively and in wasm) and the
// browser's probes (web/probes/timing.js, which gets these values from the module's timing_protocol()
// export through the worker) estimate the timer's resolution, size a sample and calibrate the batch of
// back-to-back calls. Where the three earlier copies differed, the values kept are:
//   resolution: the finest nonzero step over at most 2000 steps or 30 ms (the probes' and the page's
//     method; C++ used the median of 9 steps; the page observed 5000 steps for up to 40 ms);
//   minimum sample: max(1 ms, 100 timer steps) (the probes'; C++'s TimingPlan defaulted to 2 ms);
//   calibration: grow the call count by at most 16x per try, aiming 1.5x past the minimum, until two
//     timings in a row reach it (the probes'; C++ grew by up to 100x aiming 1.2x past).
// The browser's 20 ms JIT warm-up (time_sync) is a browser-only concern and stays in timing.js.
#include <cstdint>

namespace sl::kernels {

struct TimingProtocol {
  int resolution_max_steps = 2000;       ///< distinct clock steps observed for the resolution estimate
  double resolution_max_spin_s = 0.03;   ///< stop observing after this long (a coarse clock)
  double fallback_resolution_s = 1e-3;   ///< the estimate when the clock never stepped
  double min_sample_s = 1e-3;            ///< a sample lasts at least max(this, min_steps_per_sample steps)
  double min_steps_per_sample = 100;
  double max_growth = 16;                ///< calibration multiplies the call count by at most this per try
  double calibration_margin = 1.5;       ///< and aims this far past the minimum sample duration
  int long_enough_in_a_row = 2;          ///< timings in a row that must reach the minimum to accept a count
};

/// The one protocol in use.
inline constexpr TimingProtocol kTimingProtocol{};

/// The protocol's fields, for the serialisers (core/result_fields.h's Writer interface).
template <class Writer>
void write(const TimingProtocol& p, Writer& w) {
  w.begin_object();
  w.key("resolution_max_steps"), w.integer(p.resolution_max_steps);
  w.key("resolution_max_spin_s"), w.number(p.resolution_max_spin_s);
  w.key("fallback_resolution_s"), w.number(p.fallback_resolution_s);
  w.key("min_sample_s"), w.number(p.min_sample_s);
  w.key("min_steps_per_sample"), w.number(p.min_steps_per_sample);
  w.key("max_growth"), w.number(p.max_growth);
  w.key("calibration_margin"), w.number(p.calibration_margin);
  w.key("long_enough_in_a_row"), w.integer(p.long_enough_in_a_row);
  w.end_object();
}

}  // namespace sl::kernels
