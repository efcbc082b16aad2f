#pragma once
// Timing of whole ResNet-50 forward passes on this CPU, for the measurement cells: one warm-up pass (first
// touch of the buffers, caches), then `repeats` timed passes; the median is the result. The time between one
// convolution's end and the next gives a per-layer profile. Progress is reported per layer.
#include <cstdint>
#include <vector>

#include "core/cell.h"
#include "request/resnet/resnet_forward.h"

namespace sl::request {

/// Progress over every forward pass of a run, counted in conv multiply-accumulates.
struct PassProgress {
  RunControl& ctl;
  double total_macs;
  double done_macs = 0;
};

struct ForwardTiming {
  double median_s = 0;
  std::vector<double> pass_s;   ///< every timed pass, in order
  std::vector<float> logits;    ///< of the last pass
  std::vector<double> layer_ms; ///< per conv, of the last pass: time since the previous conv ended
};

ForwardTiming time_forward(const ResnetPlan& plan, const ResnetWeights& w, Layout layout, const float* image,
                           ResnetWorkspace& ws, std::int64_t repeats, PassProgress& progress);

/// Rate of one layer: 2 FLOP per multiply-accumulate, `mmac` million of them in `ms` milliseconds, in
/// GFLOP/s (2 x 1e6 mmac / (1e-3 ms) / 1e9 = 2 mmac / ms); 0 for a layer too short to time.
double layer_gflop_per_s(double mmac, double ms);

/// The NHWC-over-NCHW speedup a set of passes can support: from the slowest NCHW pass over the fastest NHWC
/// one (hi) down to the fastest NCHW over the slowest NHWC (lo). A layout wins only when the whole range
/// lies on its side of 1.
struct SpeedupRange {
  double lo = 0;
  double hi = 0;
};
SpeedupRange speedup_range(const std::vector<double>& baseline_pass_s, const std::vector<double>& other_pass_s);

/// max |a - b| and that over max |a| (0 when a is all zeros).
struct OutputDifference {
  double max_abs = 0;
  double max_rel = 0;
};
OutputDifference output_difference(const std::vector<float>& a, const std::vector<float>& b);

}  // namespace sl::request
