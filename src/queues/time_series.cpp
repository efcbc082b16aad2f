#include "queues/time_series.h"

#include <cmath>

#include "core/error.h"

namespace sl::queues {

StepSeries::StepSeries(double bucket_s) : bucket_s_(bucket_s) { SL_ASSERT(bucket_s > 0); }

void StepSeries::advance(double t_s, double level) {
  SL_ASSERT(t_s >= t_);
  area_ += level * (t_s - t_);
  double t = t_;
  while (t < t_s) {  // split [t_, t_s) at bucket boundaries
    std::size_t bucket = 0;
    double bucket_end = 0;
    if (has_last_ && t < last_safe_end_s_) {
      // The bucket the lines below would compute, without the division: t is at or after the time that bucket
      // was computed for and below its end by more than rounding can reach (t / bucket_s stays under its end's
      // index), so floor(t / bucket_s) and the edge rule give it again, and its end the same product.
      bucket = last_bucket_;
      bucket_end = last_end_s_;
    } else {
      bucket = static_cast<std::size_t>(std::floor(t / bucket_s_));
      bucket_end = static_cast<double>(bucket + 1) * bucket_s_;
      if (bucket_end <= t) bucket_end = static_cast<double>(++bucket + 1) * bucket_s_;  // rounding at an edge
      has_last_ = true;
      last_bucket_ = bucket;
      last_end_s_ = bucket_end;
      last_safe_end_s_ = bucket_end * (1 - 0x1p-40);
    }
    const double until = std::fmin(t_s, bucket_end);
    if (bucket_area_.size() <= bucket) bucket_area_.resize(bucket + 1, 0.0);
    bucket_area_[bucket] += level * (until - t);
    t = until;
  }
  t_ = t_s;
}

std::vector<double> StepSeries::bucket_starts_s() const {
  std::vector<double> starts(bucket_area_.size());
  for (std::size_t i = 0; i < starts.size(); ++i) starts[i] = static_cast<double>(i) * bucket_s_;
  return starts;
}

std::vector<double> StepSeries::bucket_means() const {
  std::vector<double> means(bucket_area_.size());
  for (std::size_t i = 0; i < means.size(); ++i) {
    const double start = static_cast<double>(i) * bucket_s_;
    const double width = std::fmin(bucket_s_, t_ - start);  // the last bucket may be partial
    means[i] = width > 0 ? bucket_area_[i] / width : 0.0;
  }
  return means;
}

}  // namespace sl::queues
