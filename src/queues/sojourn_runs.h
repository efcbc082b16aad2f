#pragma once
#include <cstdint>
#include <vector>

#include "core/cell.h"
#include "core/distributions.h"

namespace sl::queues {

/// Requests simulated and discarded before measuring, per measured request: the run starts empty, and
/// the first tenth lets the queue forget it (at rho = 0.95 the M/M/1 relaxation time is about 1,500
/// services, a few percent of the smallest run a cell allows there).
constexpr double kWarmupFrac = 0.1;

/// What `num_kept` consecutive requests of a FIFO single server spent, in arrival order, after warm-up.
struct FifoTimes {
  std::vector<double> time_in_system_s;
  std::vector<double> wait_s;  ///< time queued before service; empty unless asked for
};

/// Simulates a FIFO single server with Poisson arrivals (rate `lambda_per_s`) and i.i.d. `service` by the
/// Lindley recurrence of fifo_queue.h, discards a warm-up of kWarmupFrac * num_kept requests, and keeps the
/// times in system (and the waits if `keep_waits`) of the next `num_kept`.
FifoTimes simulate_fifo_times(double lambda_per_s, const Distribution& service, std::int64_t num_kept,
                              std::uint64_t seed, RunControl& ctl, bool keep_waits = false);

/// Requests one fifo_times_in_system_s call simulates (kept + warm-up), for sizing and progress.
std::int64_t num_simulated(std::int64_t num_kept);

/// Independent seeds for the scenarios of one run, drawn from the run seed's Misc stream, so that no two
/// scenarios share random numbers and their estimates combine as independent.
std::vector<std::uint64_t> scenario_seeds(std::uint64_t seed, int num_scenarios);

/// Progress of a run made of several simulations: next(n) hands out a RunControl whose own 0..1 covers the
/// next n of the run's `total` requests.
class ProgressSplitter {
 public:
  ProgressSplitter(RunControl& parent, double total) : parent_(&parent), total_(total) {}
  RunControl next(double num_requests);

 private:
  RunControl* parent_;
  double total_;
  double done_ = 0;
};

}  // namespace sl::queues
