// Timing helpers shared by the probes (classic worker script; see web/probes/README.md).
// A probe returns seconds per call, one sample per repeat. Each repeat runs the call often enough to last
// well above the timer's resolution (browsers coarsen performance.now() to 5 µs–1 ms), so a sample is never
// a count of timer ticks.
'use strict';

self.SL_PROBES = self.SL_PROBES || {};

self.SL_TIMING = (function () {
  let resolution_s = null;

  /** Smallest positive step of performance.now(), in seconds (measured once per worker). */
  function timer_resolution_s() {
    if (resolution_s !== null) return resolution_s;
    const start = performance.now();
    let previous = start;
    let finest = Infinity;
    for (let steps = 0; steps < 2000;) {
      const now = performance.now();
      if (now !== previous) { finest = Math.min(finest, now - previous); previous = now; ++steps; }
      if (now - start > 30) break;
    }
    resolution_s = (Number.isFinite(finest) ? finest : 1) / 1000;
    return resolution_s;
  }

  const WARM_UP_S = 0.02;

  /** A repeat lasts at least this long: 100 timer steps, and 1 ms. */
  function min_repeat_s() { return Math.max(100 * timer_resolution_s(), 1e-3); }

  /** The next batch size after `calls` calls took elapsed_s: the same when long enough (or at the cap). */
  function grown(calls, elapsed_s, cap) {
    if (elapsed_s >= min_repeat_s() || calls >= cap) return calls;
    return Math.min(cap, calls * (elapsed_s > 0 ? Math.min(16, Math.ceil(1.5 * min_repeat_s() / elapsed_s)) : 16));
  }

  /** Seconds per call of a synchronous fn: `repeats` samples, each over enough calls to exceed min_repeat_s(). */
  function time_sync(fn, repeats) {
    // Warm-up: call for WARM_UP_S, so the JIT's optimising tier has compiled the loop and fn (a few
    // thousand calls; with one call, samples mixed baseline- and optimised-code timings, 2-7x apart).
    for (const t0 = performance.now(); performance.now() - t0 < 1000 * WARM_UP_S;) fn();
    // Grow the batch until it is long enough to time, twice in a row (a slow first batch — JIT, GC —
    // must not size the samples).
    let calls = 1;
    for (let long_enough = 0; long_enough < 2;) {
      const t0 = performance.now();
      for (let i = 0; i < calls; ++i) fn();
      const next = grown(calls, (performance.now() - t0) / 1000, 1 << 24);
      long_enough = next === calls ? long_enough + 1 : 0;
      calls = next;
    }
    const samples = [];
    for (let r = 0; r < repeats; ++r) {
      const t0 = performance.now();
      for (let i = 0; i < calls; ++i) fn();
      samples.push((performance.now() - t0) / 1000 / calls);
    }
    return samples;
  }

  /** Seconds per call of an async fn (awaited one at a time), as time_sync. */
  async function time_async(fn, repeats) {
    await fn();
    let calls = 1;
    for (let long_enough = 0; long_enough < 2;) {
      const t0 = performance.now();
      for (let i = 0; i < calls; ++i) await fn();
      const elapsed_s = (performance.now() - t0) / 1000;
      const next = grown(calls, elapsed_s, 1 << 16);
      // A single call ten times the minimum (a 30 MB fetch) is long enough without a second look.
      long_enough = next === calls ? long_enough + (calls === 1 && elapsed_s >= 10 * min_repeat_s() ? 2 : 1) : 0;
      calls = next;
    }
    const samples = [];
    for (let r = 0; r < repeats; ++r) {
      const t0 = performance.now();
      for (let i = 0; i < calls; ++i) await fn();
      samples.push((performance.now() - t0) / 1000 / calls);
    }
    return samples;
  }

  return { timer_resolution_s, min_repeat_s, time_sync, time_async };
})();

/** Every cell may ask for the timer resolution: one sample, in seconds. */
self.SL_PROBES.timer = () => [self.SL_TIMING.timer_resolution_s()];
