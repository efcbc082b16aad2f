#include "kernels/timing.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/clock.h"
#include "core/error.h"
#include "core/stats.h"

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <time.h>
#define SL_THREAD_CPU_CLOCK 1
#endif

namespace sl::kernels {
namespace {

// A clock that never steps within this many reads is taken as frozen: the spin stops (guards an endless
// spin, which the protocol's time limit cannot, since it reads the same clock).
constexpr std::int64_t kMaxSpinReads = 50'000'000;

double now_s(TimingClock clock) {
#ifdef SL_THREAD_CPU_CLOCK
  if (clock == TimingClock::ThreadCpu) {
    timespec ts{};
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0) return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
  }
#endif
  (void)clock;
  return wall_now_s();
}

double time_calls(const std::function<void()>& fn, std::int64_t calls, TimingClock clock) {
  const double start_s = now_s(clock);
  for (std::int64_t i = 0; i < calls; ++i) fn();
  return now_s(clock) - start_s;
}

}  // namespace

bool thread_cpu_clock_available() {
#ifdef SL_THREAD_CPU_CLOCK
  timespec ts{};
  return clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0;
#else
  return false;
#endif
}

double timer_resolution_s(TimingClock clock) {
  const TimingProtocol& p = kTimingProtocol;
  const double start_s = now_s(clock);
  double last_s = start_s;
  double finest_s = 0;
  for (int i = 0; i < p.resolution_max_steps && last_s - start_s <= p.resolution_max_spin_s; ++i) {
    double now = now_s(clock);
    for (std::int64_t reads = 0; now == last_s && reads < kMaxSpinReads; ++reads) now = now_s(clock);
    if (now == last_s) break;  // frozen
    if (now > last_s && (finest_s == 0 || now - last_s < finest_s)) finest_s = now - last_s;
    last_s = now;
  }
  return finest_s > 0 ? finest_s : p.fallback_resolution_s;
}

double protocol_min_sample_s(double resolution_s) {
  return std::max(kTimingProtocol.min_sample_s, kTimingProtocol.min_steps_per_sample * resolution_s);
}

double cell_min_sample_s(double requested_s, double resolution_s) {
  return std::max(requested_s, kTimingProtocol.min_steps_per_sample * resolution_s);
}

Timing time_per_call(const std::function<void()>& fn, const TimingPlan& plan,
                     const std::function<void(int)>& on_sample) {
  // A first call can be far slower than the rest (cold caches, page faults, lazy set-up), and sizing the
  // samples on it would leave them shorter than planned: warm up, then accept a call count only when two
  // timings in a row reach the minimum.
  const TimingProtocol& p = kTimingProtocol;
  fn();
  std::int64_t calls = 1;
  for (int long_enough = 0; long_enough < p.long_enough_in_a_row;) {
    const double t_s = time_calls(fn, calls, plan.clock);
    if (t_s >= plan.min_sample_s) {
      ++long_enough;
      continue;
    }
    long_enough = 0;
    const double grow = t_s > 0 ? p.calibration_margin * plan.min_sample_s / t_s : p.max_growth;
    calls = static_cast<std::int64_t>(std::ceil(static_cast<double>(calls) * std::min(grow, p.max_growth)));
  }
  std::vector<double> per_call_s;
  for (int i = 0; i < plan.num_samples; ++i) {
    // A sample lasts about min_sample_s, so it is never 0 on a working clock; the floor keeps the
    // result positive even on a frozen one.
    per_call_s.push_back(std::max(time_calls(fn, calls, plan.clock), 1e-12) / static_cast<double>(calls));
    if (on_sample) on_sample(i);
  }
  Timing t = summarize_per_call(std::move(per_call_s));
  t.calls_per_sample = calls;
  return t;
}

Timing summarize_per_call(std::vector<double> per_call_s) {
  SL_ASSERT(!per_call_s.empty());
  std::sort(per_call_s.begin(), per_call_s.end());
  Timing t;
  t.best_s = per_call_s.front();
  t.median_s = quantile_sorted(per_call_s, 0.5);
  t.p10_s = quantile_sorted(per_call_s, 0.1);
  t.p90_s = quantile_sorted(per_call_s, 0.9);
  t.num_samples = static_cast<int>(per_call_s.size());
  return t;
}

}  // namespace sl::kernels
