// While a lab page computes its first runs, a chart far from the viewport waits to be drawn: Vega's drawing
// runs on the page's main thread, and on a two-core machine it took the cores the simulations' workers need
// (1.4 s of main-thread Vega on the queues page, before its last simulation answered). A chart within a screen
// of the viewport, or scrolled to, is drawn at once; the rest are drawn as soon as the first simulations have
// all answered (open()), before any cell that times this machine runs (drawn()), so that no drawing slows
// what those cells measure. Once open, every chart is drawn as it comes.

let is_open = false;
let release;
const opened = new Promise((resolve) => { release = resolve; });
const pending = new Set();   // draws waiting or drawing while the gate was shut

/** Resolves when `element` is within a screen of the viewport, or the gate opens. */
function near_view(element) {
  return new Promise((resolve) => {
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) done();
    }, { rootMargin: '100% 0px' });
    const done = () => { observer.disconnect(); resolve(); };
    observer.observe(element);
    opened.then(done);
  });
}

/** Runs draw() once `element` is near the viewport or the gate is open; resolves with what it returns. */
export function draw_near_view(element, draw) {
  if (is_open) return draw();
  const drawing = near_view(element).then(draw);
  pending.add(drawing);
  drawing.then(() => pending.delete(drawing), () => pending.delete(drawing));
  return drawing;
}

/** Lets every waiting chart be drawn, and every later one at once. */
export function open() {
  is_open = true;
  release();
}

/** Resolves once every chart that waited has been drawn (or failed to). */
export function drawn() {
  return Promise.allSettled([...pending]);
}
