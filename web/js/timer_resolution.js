// The footer's timer resolution: performance.now()'s finest step as a cell's worker measures it for the
// probes (web/probes/timing.js, with C++'s protocol, src/kernels/timing_protocol.h), so the page states
// the resolution the measurements used and no constant of the protocol is written here. Browsers coarsen
// the timer unless the page is cross-origin isolated (COOP + COEP), so the footer shows both. Unknown
// (null) on pages without a worker (the landing page).

let resolution_ms = null;

/** Set once a worker has measured it. */
export function set_timer_resolution_ms(ms) { resolution_ms = ms; }

/** In ms, or null when no worker has measured it yet. */
export function timer_resolution_ms() { return resolution_ms; }
