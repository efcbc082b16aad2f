#include "queues/sojourn_runs.h"

#include "queues/fifo_queue.h"

namespace sl::queues {

std::int64_t num_simulated(std::int64_t num_kept) {
  return num_kept + static_cast<std::int64_t>(kWarmupFrac * static_cast<double>(num_kept));
}

FifoTimes simulate_fifo_times(double lambda_per_s, const Distribution& service, std::int64_t num_kept,
                              std::uint64_t seed, RunControl& ctl, bool keep_waits) {
  const std::int64_t num_total = num_simulated(num_kept);
  const std::int64_t num_warmup = num_total - num_kept;
  FifoTimes times;
  times.time_in_system_s.reserve(static_cast<std::size_t>(num_kept));
  if (keep_waits) times.wait_s.reserve(static_cast<std::size_t>(num_kept));
  // Only the records matter here: the lean loop, without simulate_single_server's number in system.
  for_each_fifo_request(SingleServerParams{lambda_per_s, service, num_total}, seed, ctl, [&](const RequestRecord& r) {
    if (r.id < num_warmup) return;
    times.time_in_system_s.push_back(r.time_in_system_s());
    if (keep_waits) times.wait_s.push_back(r.start_at_s - r.arrival_at_s);
  });
  return times;
}

std::vector<std::uint64_t> scenario_seeds(std::uint64_t seed, int num_scenarios) {
  Rng rng = Rng::stream(seed, Stream::Misc);
  std::vector<std::uint64_t> seeds;
  for (int i = 0; i < num_scenarios; ++i) seeds.push_back(rng.next_u64());
  return seeds;
}

RunControl ProgressSplitter::next(double num_requests) {
  const double start = done_;
  done_ += num_requests;
  RunControl* parent = parent_;
  const double total = total_;
  RunControl child([parent, start, num_requests, total](double frac) {
    parent->report(start + frac * num_requests, total);
  });
  child.max_points = parent->max_points;
  return child;
}

}  // namespace sl::queues
