// While a lab page computes its first runs, its charts wait until every simulation has answered: Vega (0.9 MB
// of script to parse and compile, then each chart's dataflow and SVG) runs on the page's main thread, and on a
// two-core machine it took the cores the simulations' workers need. In a trace of the queues page, drawing the
// two charts of the first screen took ~1 s of the main thread while the simulations computed (Vega-Lite's
// compile ~0.3 s, Vega's parse ~0.2 s, its dataflow and SVG ~0.5 s), and the first chart came at 2.0-2.8 s all
// the same. Nor may they start when the last simulation does: on the LLM page the charts of the first screen
// then held the main thread for 0.5 s in one task just as the fleet's worker answered, and its numbers waited
// behind them. So the numbers come first. The charts within a screen of the viewport are drawn once every
// simulation has answered (open_near()), then the rest (open()), and a chart the reader scrolls to meanwhile
// at once. drawn() lets the cells that time this machine wait for every chart asked for so far, so that no
// drawing slows what they measure.

let is_open = false;
let release;
const opened = new Promise((resolve) => { release = resolve; });
const pending = new Set();   // draws waiting or drawing
const near_drawing = new Set();   // draws started because their chart came near the viewport, not done yet

// Whether the charts near the viewport may be drawn: once the reader has scrolled (they went to look at
// those), or open_near() was called.
let near_open = false;
const near_listeners = new Set();

/**
 * Resolves when `element` is within a screen of the viewport and near charts may draw (calling on_near() first,
 * at once), or when the gate opens.
 */
function near_view(element, on_near) {
  return new Promise((resolve) => {
    let near = false;
    const check = () => { if (near && near_open) { on_near(); done(); } };
    const observer = new IntersectionObserver((entries) => {
      near = entries[entries.length - 1].isIntersecting;
      check();
    }, { rootMargin: '100% 0px' });
    const done = () => { observer.disconnect(); near_listeners.delete(check); resolve(); };
    observer.observe(element);
    near_listeners.add(check);
    opened.then(done);
  });
}

/** Runs draw() once `element` may be drawn (near the viewport, or the gate open); resolves with what it returns. */
export function draw_near_view(element, draw) {
  let drawing;
  const settled = () => { pending.delete(drawing); near_drawing.delete(drawing); };
  if (is_open) drawing = Promise.resolve().then(draw);
  else drawing = near_view(element, () => near_drawing.add(drawing)).then(draw);
  pending.add(drawing);
  drawing.then(settled, settled);
  return drawing;
}

/** Lets the charts within a screen of the viewport be drawn (again: no change). */
export function open_near() {
  near_open = true;
  for (const listener of near_listeners) listener();
}
addEventListener('scroll', open_near, { passive: true });

/**
 * Lets every waiting chart be drawn, and every later one at once, after the charts near the viewport that are
 * drawing now: those the reader looks at do not share the main thread with the rest of the page's charts.
 */
export async function open() {
  await Promise.allSettled([...near_drawing]);
  is_open = true;
  release();
}

/** Resolves once every chart asked for so far has been drawn (or failed to). */
export function drawn() {
  return Promise.allSettled([...pending]);
}
