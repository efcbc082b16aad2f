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

/// One server's requests in system: their ends, in FIFO (= time) order, the departed ones before head_.
class PendingEnds {
 public:
  /// Requests still in system at `now_s` (one ending at now_s has left); `now_s` must not decrease.
  std::int64_t count_at(double now_s) {
    while (head_ < ends_.size() && ends_[head_] <= now_s) ++head_;
    if (head_ == ends_.size()) {
      ends_.clear();
      head_ = 0;
    } else if (head_ > kCompactAt && 2 * head_ > ends_.size()) {  // keep the storage to those in system
      ends_.erase(ends_.begin(), ends_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
    return static_cast<std::int64_t>(ends_.size() - head_);
  }
  /// A request joins: it ends at `end_s`, no earlier than the server's previous one (FIFO).
  void push(double end_s) { ends_.push_back(end_s); }

 private:
  static constexpr std::size_t kCompactAt = 4096;
  std::vector<double> ends_;
  std::size_t head_ = 0;
};

// How a dispatcher learns each server's number in system at an arrival: count_off(now) before it looks,
// in_system(k, now) as it looks, add(k, end) for the request it sends. The counts are the same either way:
// the requests sent to k that end after now.

/// Random routing looks at no server.
struct NoCounts {
  void count_off(double) {}
  std::int64_t in_system(std::int64_t, double) { return 0; }
  void add(std::int64_t, double) {}
};

/// Power of two choices looks at two servers: each server's ends are counted off when it is looked at.
class LazyCounts {
 public:
  explicit LazyCounts(std::int64_t c) : pending_(static_cast<std::size_t>(c)) {}
  void count_off(double) {}
  std::int64_t in_system(std::int64_t k, double now_s) { return pending_[static_cast<std::size_t>(k)].count_at(now_s); }
  void add(std::int64_t k, double end_s) { pending_[static_cast<std::size_t>(k)].push(end_s); }

 private:
  std::vector<PendingEnds> pending_;
};

/// Join the shortest queue looks at every server: one heap of all departures counts them off before the scan,
/// which then reads an array (c lazy checks per arrival cost more from a few tens of servers on).
class HeapCounts {
 public:
  explicit HeapCounts(std::int64_t c) : in_system_(static_cast<std::size_t>(c), 0) {}
  void count_off(double now_s) {
    while (!departures_.empty() && departures_.top().first <= now_s) --in_system_[static_cast<std::size_t>(departures_.pop().second)];
  }
  std::int64_t in_system(std::int64_t k, double) const { return in_system_[static_cast<std::size_t>(k)]; }
  void add(std::int64_t k, double end_s) {
    ++in_system_[static_cast<std::size_t>(k)];
    departures_.push({end_s, k});
  }

 private:
  std::vector<std::int64_t> in_system_;
  MinHeap<std::pair<double, std::int64_t>> departures_;  // (end time, server)
};

/// The server a dispatcher picks among c, given `in_system(k)`, server k's number in system.
template <class InSystem>
std::int64_t pick_server(Routing routing, std::int64_t c, InSystem& in_system, Rng& rng) {
  const auto draw = [&rng](std::int64_t n) { return static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(n))); };
  switch (routing) {
    case Routing::Random: return draw(c);
    case Routing::PowerOfTwo: {
      if (c == 1) return 0;
      const std::int64_t first = draw(c);
      std::int64_t second = draw(c - 1);
      if (second >= first) ++second;  // two distinct servers, uniformly
      return in_system(second) < in_system(first) ? second : first;
    }
    case Routing::ShortestQueue: {
      // Ties go to the first shortest server after a random start: scan [start, c), then [0, start).
      const std::int64_t start = draw(c);
      std::int64_t best = start;
      std::int64_t best_count = in_system(start);
      const auto consider = [&](std::int64_t k) {
        const std::int64_t count = in_system(k);
        if (count < best_count) best = k, best_count = count;
      };
      for (std::int64_t k = start + 1; k < c; ++k) consider(k);
      for (std::int64_t k = 0; k < start; ++k) consider(k);
      return best;
    }
    case Routing::SharedQueue: break;
  }
  SL_ASSERT(false && "a shared queue has no dispatcher");
  return 0;
}

// The two simulations are templates over the callback, so that measure_fleet's call per request inlines.
template <class OnRequest>
void simulate_shared_queue(const FleetParams& p, Rng& arrivals, Rng& services, RunProgress& progress,
                           OnRequest& on_request) {
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

template <class Counts, class OnRequest>
void simulate_dispatched(const FleetParams& p, Rng& arrivals, Rng& services, Rng& routing, RunProgress& progress,
                         Counts counts, OnRequest& on_request) {
  const Distribution interarrival = Distribution::exponential(p.lambda_per_s);
  std::vector<double> last_end_at_s(static_cast<std::size_t>(p.num_servers), 0.0);
  double arrival_at_s = 0;
  const auto in_system = [&](std::int64_t k) { return counts.in_system(k, arrival_at_s); };
  for (std::int64_t i = 0; i < p.num_requests; ++i) {
    arrival_at_s += interarrival.sample(arrivals);
    const double service_s = p.service.sample(services);
    counts.count_off(arrival_at_s);
    const std::int64_t k = pick_server(p.routing, p.num_servers, in_system, routing);
    auto& last_end = last_end_at_s[static_cast<std::size_t>(k)];
    const double start_at_s = std::max(arrival_at_s, last_end);
    last_end = start_at_s + service_s;
    counts.add(k, last_end);
    on_request(RequestRecord{i, arrival_at_s, start_at_s, last_end});
    if ((i + 1) % kProgressEvery == 0) progress.add(kProgressEvery);
  }
  progress.add(static_cast<double>(p.num_requests % kProgressEvery));
}

template <class OnRequest>
void simulate_fleet_with(const FleetParams& params, std::uint64_t seed, RunProgress& progress, OnRequest& on_request) {
  SL_ASSERT(params.num_servers >= 1 && params.lambda_per_s > 0 && params.num_requests >= 0);
  Rng arrivals = Rng::stream(seed, Stream::Arrivals);
  Rng services = Rng::stream(seed, Stream::Service);
  Rng routing = Rng::stream(seed, Stream::Routing);
  switch (params.routing) {
    case Routing::SharedQueue: return simulate_shared_queue(params, arrivals, services, progress, on_request);
    case Routing::Random:
      return simulate_dispatched(params, arrivals, services, routing, progress, NoCounts{}, on_request);
    case Routing::PowerOfTwo:
      return simulate_dispatched(params, arrivals, services, routing, progress, LazyCounts(params.num_servers), on_request);
    case Routing::ShortestQueue:
      return simulate_dispatched(params, arrivals, services, routing, progress, HeapCounts(params.num_servers), on_request);
  }
}

}  // namespace

void simulate_fleet(const FleetParams& params, std::uint64_t seed, RunProgress& progress,
                    const std::function<void(const RequestRecord&)>& on_request) {
  simulate_fleet_with(params, seed, progress, on_request);
}

double batch_quantile_se(const std::vector<double>& xs, double p, int num_batches) {
  SL_ASSERT(num_batches >= 2 && static_cast<std::int64_t>(xs.size()) >= num_batches);
  const std::size_t per_batch = xs.size() / static_cast<std::size_t>(num_batches);
  RunningStats batch_quantiles;
  std::vector<double> batch(per_batch);  // one scratch buffer, reordered by each batch's selection
  for (int b = 0; b < num_batches; ++b) {
    const auto first = xs.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(b) * per_batch);
    std::copy(first, first + static_cast<std::ptrdiff_t>(per_batch), batch.begin());
    batch_quantiles.add(quantile_in_place(batch, p));
  }
  return batch_quantiles.standard_error();
}

FleetSummary measure_fleet(const FleetParams& params, std::uint64_t seed, std::int64_t num_warmup,
                           RunProgress& progress) {
  SL_ASSERT(num_warmup >= 0 && num_warmup < params.num_requests);
  std::vector<double> time_in_system_s, wait_s;
  time_in_system_s.reserve(static_cast<std::size_t>(params.num_requests - num_warmup));
  wait_s.reserve(static_cast<std::size_t>(params.num_requests - num_warmup));
  auto keep = [&](const RequestRecord& r) {
    if (r.id < num_warmup) return;
    time_in_system_s.push_back(r.time_in_system_s());
    wait_s.push_back(r.start_at_s - r.arrival_at_s);
  };
  simulate_fleet_with(params, seed, progress, keep);
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
    // The last use of the times: moved, not copied. Its value is the type-7 0.99-quantile sl::quantile gives.
    const Estimate p99 = summarize_series(std::move(time_in_system_s), 0.99).quantile;
    s.p99_share_se_s = (p99.hi - p99.lo) / (2 * kStudentT31);
    s.p99_s = p99.value;
  } else {
    s.p99_s = quantile(std::move(time_in_system_s), 0.99);
  }
  return s;
}

}  // namespace sl::queues
