#include "request/budget/pipeline.h"

#include <deque>
#include <map>

#include "core/rng.h"
#include "queues/event_queue.h"

namespace sl::request {
namespace {

constexpr std::int64_t kReportEvery = 4096;

struct Event {
  enum class Kind { WorkerDone, GpuDone } kind;
  int worker;  ///< WorkerDone only
};

/// The pipelined engine: state of the workers, the ready FIFO and the accelerator, moved by two events.
class Pipeline {
 public:
  Pipeline(const StageTimes& work, int num_workers, std::int64_t buffer, const OnRequestDone& on_done)
      : work_(work), buffer_(buffer), on_done_(on_done), workers_(static_cast<std::size_t>(num_workers)) {
    run_.num_workers = num_workers;
  }

  PipelineRun run(RunControl& ctl) {
    for (int w = 0; w < run_.num_workers; ++w) start_pre(w);
    std::int64_t steps = 0;
    while (!events_.empty()) {
      const Event e = events_.step();
      if (e.kind == Event::Kind::WorkerDone) on_worker_done(e.worker);
      else on_gpu_done();
      if (++steps % kReportEvery == 0) ctl.report(static_cast<double>(done_), static_cast<double>(work_.size()));
    }
    SL_ASSERT(done_ == work_.size());
    run_.wall_s = events_.now();
    return run_;
  }

 private:
  struct Worker {
    std::int64_t request = -1;  ///< being preprocessed, or held while blocked
    bool blocked = false;
  };

  double now() const { return events_.now(); }
  std::size_t at(std::int64_t request) const { return static_cast<std::size_t>(request); }

  void start_pre(int w) {
    Worker& worker = workers_[static_cast<std::size_t>(w)];
    worker.blocked = false;
    worker.request = -1;
    if (next_ == work_.size()) return;  // backlog exhausted: the worker idles
    const std::int64_t r = next_++;
    worker.request = r;
    in_flight_[r] = PipelineRecord{r, w, now(), 0, 0, 0};
    run_.cpu_busy_s += work_.pre_s[at(r)];
    events_.schedule(now() + work_.pre_s[at(r)], {Event::Kind::WorkerDone, w});
  }

  void start_gpu(std::int64_t r) {
    gpu_request_ = r;
    record(r).gpu_start_s = now();
    run_.gpu_busy_s += work_.gpu_s[at(r)];
    events_.schedule(now() + work_.gpu_s[at(r)], {Event::Kind::GpuDone, -1});
  }

  void on_worker_done(int w) {
    Worker& worker = workers_[static_cast<std::size_t>(w)];
    const std::int64_t r = worker.request;
    record(r).pre_end_s = now();
    if (gpu_request_ < 0) {
      SL_ASSERT(ready_.empty());  // an idle accelerator has already drained the FIFO
      start_gpu(r);
      start_pre(w);
    } else if (static_cast<std::int64_t>(ready_.size()) < buffer_) {
      ready_.push_back(r);
      start_pre(w);
    } else {
      worker.blocked = true;
      blocked_.push_back(w);
    }
  }

  void on_gpu_done() {
    PipelineRecord& done = record(gpu_request_);
    done.gpu_end_s = now();
    on_done_(done);
    in_flight_.erase(gpu_request_);
    ++done_;
    gpu_request_ = -1;
    if (!ready_.empty()) {
      start_gpu(ready_.front());
      ready_.pop_front();
      if (!blocked_.empty()) {  // room in the FIFO again: the longest-blocked worker hands over
        const int w = blocked_.front();
        blocked_.pop_front();
        ready_.push_back(workers_[static_cast<std::size_t>(w)].request);
        start_pre(w);
      }
    } else if (!blocked_.empty()) {  // no FIFO (buffer 0): take the request straight from the worker
      const int w = blocked_.front();
      blocked_.pop_front();
      start_gpu(workers_[static_cast<std::size_t>(w)].request);
      start_pre(w);
    }
  }

  PipelineRecord& record(std::int64_t r) {
    const auto it = in_flight_.find(r);
    SL_ASSERT(it != in_flight_.end());
    return it->second;
  }

  const StageTimes& work_;
  std::int64_t buffer_;
  const OnRequestDone& on_done_;
  std::vector<Worker> workers_;
  queues::EventQueue<Event> events_;
  std::deque<std::int64_t> ready_;
  std::deque<int> blocked_;
  std::map<std::int64_t, PipelineRecord> in_flight_;  // at most num_workers + buffer + 1 requests
  std::int64_t next_ = 0;
  std::int64_t done_ = 0;
  std::int64_t gpu_request_ = -1;
  PipelineRun run_;
};

}  // namespace

StageTimes draw_stage_times(std::int64_t n, const Distribution& pre, const Distribution& gpu, std::uint64_t seed) {
  Rng pre_rng = Rng::stream(seed, Stream::Misc);
  Rng gpu_rng = Rng::stream(seed, Stream::Service);
  StageTimes work;
  work.pre_s.reserve(static_cast<std::size_t>(n));
  work.gpu_s.reserve(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    work.pre_s.push_back(pre.sample(pre_rng));
    work.gpu_s.push_back(gpu.sample(gpu_rng));
  }
  return work;
}

PipelineRun run_serial(const StageTimes& work, const OnRequestDone& on_done) {
  PipelineRun run;
  double t = 0;
  for (std::int64_t r = 0; r < work.size(); ++r) {
    const auto i = static_cast<std::size_t>(r);
    PipelineRecord rec{r, 0, t, t + work.pre_s[i], t + work.pre_s[i], t + work.pre_s[i] + work.gpu_s[i]};
    run.cpu_busy_s += work.pre_s[i];
    run.gpu_busy_s += work.gpu_s[i];
    t = rec.gpu_end_s;
    on_done(rec);
  }
  run.wall_s = t;
  return run;
}

PipelineRun run_pipelined(const StageTimes& work, int num_workers, std::int64_t buffer, RunControl& ctl,
                          const OnRequestDone& on_done) {
  return Pipeline(work, num_workers, buffer, on_done).run(ctl);
}

}  // namespace sl::request
