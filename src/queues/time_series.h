#pragma once
#include <cstddef>
#include <vector>

namespace sl::queues {

/// Integrates a piecewise-constant level (number in system, queue length) over time, exactly, and keeps the
/// time average of each fixed-width bucket: a downsampled series whose area equals the true area.
class StepSeries {
 public:
  explicit StepSeries(double bucket_s);
  /// The level was `level` from the previous call's time until `t_s` (t_s must not decrease).
  void advance(double t_s, double level);
  /// Integral of the level from 0 to the last advance().
  double area() const { return area_; }
  double end_s() const { return t_; }
  /// Bucket start times and the time-average level in each bucket, up to end_s().
  std::vector<double> bucket_starts_s() const;
  std::vector<double> bucket_means() const;

 private:
  double bucket_s_;
  double t_ = 0;
  double area_ = 0;
  std::vector<double> bucket_area_;
  // The bucket last computed by division, its end, and a time safely below that end (advance's fast path).
  bool has_last_ = false;
  std::size_t last_bucket_ = 0;
  double last_end_s_ = 0;
  double last_safe_end_s_ = 0;
};

}  // namespace sl::queues
