// Timing helpers shared by the probes (classic worker script; see web/probes/README.md).
// A probe returns seconds per call, one sample per repeat. Each repeat runs the call often enough to last
// well above the timer's resolution (browsers coarsen performance.now() to 5 µs–1 ms), so a sample is never
// a count of timer ticks. The protocol's constants (resolution estimate, minimum sample, calibration) are
// C++'s (src/kernels/timing_protocol.h): the worker passes the module's timing_protocol() to configure().
'use strict';

self.SL_PROBES = self.SL_PROBES || {};

self.SL_TIMING = (function () {
  let protocol = null;
  let resolution_s = null;

  // Browser-only constants, not part of the shared protocol: the JIT warm-up (C++ has no JIT; it warms up
  // with one call), the batch caps (a runaway loop must end in a tab), and the shortcut for one long call.
  const JIT_WARM_UP_S = 0.02;
  const MAX_CALLS_SYNC = 1 << 24;
  const MAX_CALLS_ASYNC = 1 << 16;
  const LONG_SINGLE_CALL = 10;   // × the minimum sample: a 30 MB fetch needs no second look

  /** Takes the protocol the module exports (kernels::TimingProtocol's fields). */
  function configure(p) { protocol = p; resolution_s = null; }

  function the_protocol() {
    if (!protocol) throw new Error('SL_TIMING.configure(module.timing_protocol()) was not called');
    return protocol;
  }

  /** Finest nonzero step of performance.now(), in seconds (measured once per worker), as C++'s timer_resolution_s. */
  function timer_resolution_s() {
    if (resolution_s !== null) return resolution_s;
    const p = the_protocol();
    const start = performance.now();
    let previous = start;
    let finest = Infinity;
    for (let steps = 0; steps < p.resolution_max_steps;) {
      const now = performance.now();
      if (now !== previous) { finest = Math.min(finest, now - previous); previous = now; ++steps; }
      if (now - start > 1000 * p.resolution_max_spin_s) break;
    }
    resolution_s = Number.isFinite(finest) ? finest / 1000 : p.fallback_resolution_s;
    return resolution_s;
  }

  /** A repeat lasts at least this long: max(min_sample_s, min_steps_per_sample timer steps). */
  function min_repeat_s() {
    const p = the_protocol();
    return Math.max(p.min_steps_per_sample * timer_resolution_s(), p.min_sample_s);
  }

  /** The next batch size after `calls` calls took elapsed_s: the same when long enough (or at the cap). */
  function grown(calls, elapsed_s, cap) {
    const p = the_protocol();
    if (elapsed_s >= min_repeat_s() || calls >= cap) return calls;
    const factor = elapsed_s > 0 ? Math.min(p.max_growth, Math.ceil(p.calibration_margin * min_repeat_s() / elapsed_s)) : p.max_growth;
    return Math.min(cap, calls * factor);
  }

  /** Seconds per call of a synchronous fn: `repeats` samples, each over enough calls to exceed min_repeat_s(). */
  function time_sync(fn, repeats) {
    // Warm-up: call for JIT_WARM_UP_S, so the JIT's optimising tier has compiled the loop and fn (a few
    // thousand calls; with one call, samples mixed baseline- and optimised-code timings, 2-7x apart).
    for (const t0 = performance.now(); performance.now() - t0 < 1000 * JIT_WARM_UP_S;) fn();
    // Grow the batch until it is long enough to time, long_enough_in_a_row times (a slow first batch —
    // JIT, GC — must not size the samples).
    let calls = 1;
    for (let long_enough = 0; long_enough < the_protocol().long_enough_in_a_row;) {
      const t0 = performance.now();
      for (let i = 0; i < calls; ++i) fn();
      const next = grown(calls, (performance.now() - t0) / 1000, MAX_CALLS_SYNC);
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

  /** Seconds per call of an async fn (awaited one at a time), as time_sync; warms up with one call, as C++. */
  async function time_async(fn, repeats) {
    await fn();
    const in_a_row = the_protocol().long_enough_in_a_row;
    let calls = 1;
    for (let long_enough = 0; long_enough < in_a_row;) {
      const t0 = performance.now();
      for (let i = 0; i < calls; ++i) await fn();
      const elapsed_s = (performance.now() - t0) / 1000;
      const next = grown(calls, elapsed_s, MAX_CALLS_ASYNC);
      const one_long_call = calls === 1 && elapsed_s >= LONG_SINGLE_CALL * min_repeat_s();
      long_enough = next === calls ? (one_long_call ? in_a_row : long_enough + 1) : 0;
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

  return { configure, timer_resolution_s, min_repeat_s, time_sync, time_async };
})();

/** Every cell may ask for the timer resolution: one sample, in seconds. */
self.SL_PROBES.timer = () => [self.SL_TIMING.timer_resolution_s()];
