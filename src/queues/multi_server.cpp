#include "queues/multi_server.h"

#include <algorithm>
#include <functional>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/stats.h"
#include "queues/confidence_intervals.h"

namespace sl::queues {
namespace {

constexpr std::int64_t kProgressEvery = 1 << 15;

/// A min-heap on a vector: the next free server, or the next departure.
template <class T>
class MinHeap {
 public:
  void push(T x) {
    items_.push_back(std::move(x));
    std::push_heap(items_.begin(), items_.end(), std::greater<T>());
  }
  T pop() {
    std::pop_heap(items_.begin(), items_.end(), std::greater<T>());
    T top = std::move(items_.back());
    items_.pop_back();
    return top;
  }
  const T& top() const { return items_.front(); }
  bool empty() const { return items_.empty(); }

 private:
  std::vector<T> items_;
};

/// The server a dispatcher picks, given each server's number in system.
std::int64_t pick_server(Routing routing, const std::vector<std::int64_t>& in_system, Rng& rng) {
  const auto c = static_cast<std::int64_t>(in_system.size());
  const auto draw = [&rng](std::int64_t n) { return static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(n))); };
  switch (routing) {
    case Routing::Random: return draw(c);
    case Routing::PowerOfTwo: {
      if (c == 1) return 0;
      const std::int64_t first = draw(c);
      std::int64_t second = draw(c - 1);
      if (second >= first) ++second;  // two distinct servers, uniformly
      return in_system[static_cast<std::size_t>(second)] < in_system[static_cast<std::size_t>(first)] ? second : first;
    }
    case Routing::ShortestQueue: {
      // Ties go to the first shortest server after a random start: scan [start, c), then [0, start).
      const auto start = static_cast<std::size_t>(draw(c));
      std::size_t best = start;
      for (std::size_t k = start + 1; k < in_system.size(); ++k)
        if (in_system[k] < in_system[best]) best = k;
      for (std::size_t k = 0; k < start; ++k)
        if (in_system[k] < in_system[best]) best = k;
      return static_cast<std::int64_t>(best);
    }
    case Routing::SharedQueue: break;
  }
  SL_ASSERT(false && "a shared queue has no dispatcher");
  return 0;
}

void simulate_shared_queue(const FleetParams& p, Rng& arrivals, Rng& services, RunProgress& progress,
                           const std::function<void(const RequestRecord&)>& on_request) {
  const Distribution interarrival = Distribution::exponential(p.lambda_per_s);
  MinHeap<double> free_at_s;  // when each server next becomes free
  for (std::int64_t k = 0; k < p.num_servers; ++k) free_at_s.push(0.0);
  double arrival_at_s = 0;
  for (std::int64_t i = 0; i < p.num_requests; ++i) {
    arrival_at_s += interarrival.sample(arrivals);
    const double service_s = p.service.sample(services);
    const double start_at_s = std::max(arrival_at_s, free_at_s.pop());
    free_at_s.push(start_at_s + service_s);
    on_request(RequestRecord{i, arrival_at_s, start_at_s, start_at_s + service_s});
    if ((i + 1) % kProgressEvery == 0) progress.add(kProgressEvery);
  }
  progress.add(static_cast<double>(p.num_requests % kProgressEvery));
}

void simulate_dispatched(const FleetParams& p, Rng& arrivals, Rng& services, Rng& routing, RunProgress& progress,
                         const std::function<void(const RequestRecord&)>& on_request) {
  const Distribution interarrival = Distribution::exponential(p.lambda_per_s);
  const auto c = static_cast<std::size_t>(p.num_servers);
  const bool needs_counts = p.routing != Routing::Random;
  std::vector<double> last_end_at_s(c, 0.0);
  std::vector<std::int64_t> in_system(c, 0);
  MinHeap<std::pair<double, std::int64_t>> departures;  // (end time, server); ties by server index
  double arrival_at_s = 0;
  for (std::int64_t i = 0; i < p.num_requests; ++i) {
    arrival_at_s += interarrival.sample(arrivals);
    const double service_s = p.service.sample(services);
    while (!departures.empty() && departures.top().first <= arrival_at_s) --in_system[static_cast<std::size_t>(departures.pop().second)];
    const std::int64_t k = pick_server(p.routing, in_system, routing);
    auto& last_end = last_end_at_s[static_cast<std::size_t>(k)];
    const double start_at_s = std::max(arrival_at_s, last_end);
    last_end = start_at_s + service_s;
    if (needs_counts) {
      ++in_system[static_cast<std::size_t>(k)];
      departures.push({last_end, k});
    }
    on_request(RequestRecord{i, arrival_at_s, start_at_s, last_end});
    if ((i + 1) % kProgressEvery == 0) progress.add(kProgressEvery);
  }
  progress.add(static_cast<double>(p.num_requests % kProgressEvery));
}

}  // namespace

void simulate_fleet(const FleetParams& params, std::uint64_t seed, RunProgress& progress,
                    const std::function<void(const RequestRecord&)>& on_request) {
  SL_ASSERT(params.num_servers >= 1 && params.lambda_per_s > 0 && params.num_requests >= 0);
  Rng arrivals = Rng::stream(seed, Stream::Arrivals);
  Rng services = Rng::stream(seed, Stream::Service);
  Rng routing = Rng::stream(seed, Stream::Routing);
  if (params.routing == Routing::SharedQueue)
    simulate_shared_queue(params, arrivals, services, progress, on_request);
  else
    simulate_dispatched(params, arrivals, services, routing, progress, on_request);
}

double batch_quantile_se(const std::vector<double>& xs, double p, int num_batches) {
  SL_ASSERT(num_batches >= 2 && static_cast<std::int64_t>(xs.size()) >= num_batches);
  const std::size_t per_batch = xs.size() / static_cast<std::size_t>(num_batches);
  RunningStats batch_quantiles;
  for (int b = 0; b < num_batches; ++b) {
    const auto first = xs.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(b) * per_batch);
    batch_quantiles.add(quantile(std::vector<double>(first, first + static_cast<std::ptrdiff_t>(per_batch)), p));
  }
  return batch_quantiles.standard_error();
}

FleetSummary measure_fleet(const FleetParams& params, std::uint64_t seed, std::int64_t num_warmup,
                           RunProgress& progress) {
  SL_ASSERT(num_warmup >= 0 && num_warmup < params.num_requests);
  std::vector<double> time_in_system_s, wait_s;
  time_in_system_s.reserve(static_cast<std::size_t>(params.num_requests - num_warmup));
  wait_s.reserve(static_cast<std::size_t>(params.num_requests - num_warmup));
  simulate_fleet(params, seed, progress, [&](const RequestRecord& r) {
    if (r.id < num_warmup) return;
    time_in_system_s.push_back(r.time_in_system_s());
    wait_s.push_back(r.start_at_s - r.arrival_at_s);
  });
  FleetSummary s;
  s.num_measured = static_cast<std::int64_t>(time_in_system_s.size());
  double sum_t = 0, sum_w = 0;  // plain sums: exact enough for means of ~10^6 positive values
  for (double x : time_in_system_s) sum_t += x;
  for (double x : wait_s) sum_w += x;
  s.mean_s = sum_t / static_cast<double>(s.num_measured);
  s.mean_se_s = batch_means_se(time_in_system_s);
  s.mean_wait_s = sum_w / static_cast<double>(s.num_measured);
  s.wait_se_s = batch_means_se(wait_s);
  if (s.num_measured >= 64) {
    s.p99_se_s = batch_quantile_se(time_in_system_s, 0.99);
    const Estimate p99 = summarize_series(time_in_system_s, 0.99).quantile;
    s.p99_share_se_s = (p99.hi - p99.lo) / (2 * kStudentT31);
  }
  s.p99_s = quantile(std::move(time_in_system_s), 0.99);
  return s;
}

}  // namespace sl::queues
