#pragma once
#include <cstdint>
#include <vector>

#include "batching/service_model.h"

namespace sl::batching {

/// Fixed calendar windows (eq. 8, 9, 13): time is cut into windows [kT, (k+1)T); every request that arrives
/// in a window is served in one batch dispatched at the window's end. With `one_accelerator` a batch also
/// waits for the previous one to finish; without, it starts at the window's end (the book's model, where the
/// wait is exactly the time to the window's end).
struct CalendarWindowParams {
  double window_s = 0.01;
  ServiceModel service = ServiceModel::linear(5e-3, 0.6e-3);
  bool one_accelerator = false;
};

/// Per-request and per-window facts of one run over whole windows.
struct CalendarWindowRun {
  std::vector<std::int64_t> window_counts;  ///< arrivals per window, empty windows included
  std::vector<double> wait_s;               ///< per request, in arrival order: dispatch - arrival
  std::vector<double> latency_s;            ///< per request: batch end - arrival
  std::vector<std::int64_t> seen_batch;     ///< per request: the size of its batch
};

/// Cuts the arrival instants (sorted) into windows of params.window_s. Only the whole windows inside
/// [0, horizon_s) count; arrivals after the last whole window are dropped.
CalendarWindowRun simulate_calendar_windows(const CalendarWindowParams& params, const std::vector<double>& arrivals_s,
                                            double horizon_s);

}  // namespace sl::batching
