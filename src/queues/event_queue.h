#pragma once
#include <cstdint>
#include <queue>
#include <vector>

#include "core/error.h"

namespace sl::queues {

/// The discrete-event kernel: a clock and a heap of future events. Ties in time break on insertion order
/// (SimPy's counter), never on a coin flip, so a seed always gives the same run. The engine that owns the
/// queue pops events and dispatches them; the kernel knows nothing of what an event means.
template <class Event>
class EventQueue {
 public:
  double now() const { return now_; }
  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  /// Time of the next event; the queue must not be empty.
  double next_time() const { return heap_.top().at_s; }

  /// Schedules `event` at absolute time `at_s` >= now().
  void schedule(double at_s, Event event) {
    SL_ASSERT(at_s >= now_);
    heap_.push(Entry{at_s, counter_++, std::move(event)});
  }

  /// Removes the next event, advances the clock to its time and returns it.
  Event step() {
    Entry top = heap_.top();
    heap_.pop();
    now_ = top.at_s;
    return std::move(top.event);
  }

 private:
  struct Entry {
    double at_s;
    std::uint64_t order;
    Event event;
    bool operator>(const Entry& o) const { return at_s != o.at_s ? at_s > o.at_s : order > o.order; }
  };
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap_;
  double now_ = 0;
  std::uint64_t counter_ = 0;
};

}  // namespace sl::queues
