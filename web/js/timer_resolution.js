// The finest nonzero step of performance.now(), measured on load. Browsers coarsen the timer unless the
// page is cross-origin isolated (COOP + COEP), so the footer shows both.

const MAX_SAMPLES = 5000;     // nonzero steps to observe
const MAX_SPIN_MS = 40;       // stop earlier than that on a coarse timer

/** Smallest positive difference between consecutive performance.now() readings, in ms. */
export function measure_timer_resolution_ms() {
  const start = performance.now();
  let previous = start;
  let finest = Infinity;
  let steps = 0;
  while (steps < MAX_SAMPLES) {
    const now = performance.now();
    if (now !== previous) {
      finest = Math.min(finest, now - previous);
      previous = now;
      ++steps;
    }
    if (now - start > MAX_SPIN_MS) break;
  }
  return finest;
}

let measured = null;
/** Measured once per page. */
export function timer_resolution_ms() {
  measured ??= measure_timer_resolution_ms();
  return measured;
}
