#pragma once
#include "core/cell.h"

namespace sl::queues {

/// Progress of a run made of several simulations (one per load point, policy or scenario): each adds the
/// requests it has simulated, and the page sees the share of the run's total done.
class RunProgress {
 public:
  RunProgress(RunControl& ctl, double total_requests) : ctl_(ctl), total_(total_requests) {}
  void add(double num_requests) {
    done_ += num_requests;
    ctl_.report(done_, total_);
  }

 private:
  RunControl& ctl_;
  double total_;
  double done_ = 0;
};

}  // namespace sl::queues
