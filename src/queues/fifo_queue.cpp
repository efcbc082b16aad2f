#include "queues/fifo_queue.h"

#include <deque>

namespace sl::queues {

SingleServerRun simulate_single_server(const SingleServerParams& params, std::uint64_t seed, double bucket_s,
                                       RunControl& ctl, const std::function<void(const RequestRecord&)>& on_request) {
  SingleServerRun run;
  run.in_system = StepSeries(bucket_s);
  std::deque<double> pending_ends;  // departure times of requests still in system, in FIFO (= time) order
  for_each_fifo_request(params, seed, ctl, [&](const RequestRecord& r) {
    while (!pending_ends.empty() && pending_ends.front() <= r.arrival_at_s) {  // departures before this arrival
      run.in_system.advance(pending_ends.front(), static_cast<double>(pending_ends.size()));
      pending_ends.pop_front();
    }
    run.in_system.advance(r.arrival_at_s, static_cast<double>(pending_ends.size()));
    pending_ends.push_back(r.end_at_s);
    run.window_s = r.arrival_at_s;
    on_request(r);
  });
  run.num_in_system_at_end = static_cast<std::int64_t>(pending_ends.size());
  run.area_in_system = run.in_system.area();
  return run;
}

}  // namespace sl::queues
