#include "queues/fifo_queue.h"

#include <algorithm>
#include <deque>

namespace sl::queues {

SingleServerRun simulate_single_server(const SingleServerParams& params, std::uint64_t seed, double bucket_s,
                                       RunControl& ctl, const std::function<void(const RequestRecord&)>& on_request) {
  Rng arrivals = Rng::stream(seed, Stream::Arrivals);
  Rng services = Rng::stream(seed, Stream::Service);
  const Distribution interarrival = Distribution::exponential(params.lambda_per_s);

  SingleServerRun run;
  run.in_system = StepSeries(bucket_s);
  std::deque<double> pending_ends;  // departure times of requests still in system, in FIFO (= time) order
  double arrival_at_s = 0;
  double server_free_at_s = 0;
  for (std::int64_t i = 0; i < params.num_requests; ++i) {
    arrival_at_s += interarrival.sample(arrivals);
    while (!pending_ends.empty() && pending_ends.front() <= arrival_at_s) {  // departures before this arrival
      run.in_system.advance(pending_ends.front(), static_cast<double>(pending_ends.size()));
      pending_ends.pop_front();
    }
    run.in_system.advance(arrival_at_s, static_cast<double>(pending_ends.size()));
    const double start_at_s = std::max(arrival_at_s, server_free_at_s);
    server_free_at_s = start_at_s + params.service.sample(services);
    pending_ends.push_back(server_free_at_s);
    on_request(RequestRecord{i, arrival_at_s, start_at_s, server_free_at_s});
    if ((i & 0xFFFF) == 0) ctl.report(static_cast<double>(i), static_cast<double>(params.num_requests));
  }
  run.window_s = arrival_at_s;
  run.num_in_system_at_end = static_cast<std::int64_t>(pending_ends.size());
  run.area_in_system = run.in_system.area();
  return run;
}

}  // namespace sl::queues
