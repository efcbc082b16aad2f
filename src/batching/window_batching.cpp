// Calendar-window batching: count arrivals per window, then walk the windows in order, dispatching each
// non-empty one at its end (or when the accelerator frees, with one accelerator).
#include "batching/window_batching.h"

#include <cmath>

#include "core/error.h"

namespace sl::batching {

CalendarWindowRun simulate_calendar_windows(const CalendarWindowParams& params, const std::vector<double>& arrivals_s,
                                            double horizon_s) {
  SL_ASSERT(params.window_s > 0 && horizon_s >= 0);
  const double t = params.window_s;
  const auto num_windows = static_cast<std::int64_t>(std::floor(horizon_s / t));
  CalendarWindowRun run;
  run.window_counts.assign(static_cast<std::size_t>(num_windows), 0);
  std::vector<std::int64_t> window_of;
  window_of.reserve(arrivals_s.size());
  for (double a : arrivals_s) {
    const auto k = static_cast<std::int64_t>(std::floor(a / t));
    if (k >= num_windows) break;  // sorted: the rest are past the last whole window too
    ++run.window_counts[static_cast<std::size_t>(k)];
    window_of.push_back(k);
  }
  // Batch k starts at its window's end, or later if the one accelerator is still busy.
  std::vector<double> start_s(static_cast<std::size_t>(num_windows), 0.0);
  double free_at_s = 0;
  for (std::int64_t k = 0; k < num_windows; ++k) {
    const std::int64_t count = run.window_counts[static_cast<std::size_t>(k)];
    const double close_s = static_cast<double>(k + 1) * t;
    const double start = params.one_accelerator ? std::fmax(close_s, free_at_s) : close_s;
    start_s[static_cast<std::size_t>(k)] = start;
    if (count > 0) free_at_s = start + params.service.service_s(count);
  }
  const std::size_t n = window_of.size();
  run.wait_s.reserve(n);
  run.latency_s.reserve(n);
  run.seen_batch.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(window_of[i]);
    const std::int64_t count = run.window_counts[k];
    run.wait_s.push_back(start_s[k] - arrivals_s[i]);
    run.latency_s.push_back(start_s[k] + params.service.service_s(count) - arrivals_s[i]);
    run.seen_batch.push_back(count);
  }
  return run;
}

}  // namespace sl::batching
