// lab.html?lab=<id>[&cell=<short id>&embed=1][&lang=vi]: one generic page for every lab.
import { el, replace_children } from './dom.js';
import { t, pick, set_lang, current_lang, normalize_lang } from './i18n.js';
import { read_page_state, short_id, lab_url, unread_url_entries } from './url_state.js';
import { fetch_lab } from './labs.js';
import { CellWorker, compiled_module, prestart, pool_ready, timer_resolution_s } from './worker_pool.js';
import { FirstRuns, costliest, LATE_COST_S } from './first_runs.js';
import { CellView } from './cell_view.js';
import { site_header, site_footer, refresh_footer_timer } from './site_chrome.js';
import { set_timer_resolution_ms } from './timer_resolution.js';
import { take_waiting_version, enable_offline } from './offline.js';
import * as host from './compare_host.js';

const state = read_page_state();
const page = { lab: null, views: [], message: null, unread: [], tools: null, banner: null, challenges: null, challenges_import: null };
// ?predict=0: a teacher's switch that turns the predict-then-run prompts off.
const ask_predictions = state.query.get('predict') !== '0';
let toc_observer = null;

// What the first result waits for starts at once, side by side: the module's compile (lab.html preloads its
// bytes), the first worker (its script and the glue), the lab file and the UI strings.
compiled_module().catch(() => {});   // a failure is reported by pool_ready()
prestart(1);
const lab_file = fetch_lab(state.lab, normalize_lang(state.lang)).then((lab) => ({ lab }), (error) => ({ error }));

async function main() {
  const [current] = await Promise.all([state.embed || take_waiting_version(), set_lang(state.lang)]);
  if (!current) return;   // a newer deployment: the page reloads on it
  document.body.classList.toggle('sl-embed', state.embed);
  document.body.classList.toggle('sl-lab-page', !state.embed);
  render();
  const loaded = await lab_file;
  if (loaded.error) return fail('lab.load_failed', { lab: state.lab, message: loaded.error.message });
  page.lab = loaded.lab;
  if (!page.lab) return fail('lab.not_found', { lab: state.lab });
  if (page.lab.status !== 'ready' || !(page.lab.cells || []).length) return fail('lab.coming', {}, 'sl-coming');
  // An assignment link (?assign=, challenges.js): its module loads at once, sets and locks what it says before any cell is built.
  if (state.query.has('assign')) await load_challenges();
  const hidden = page.challenges?.hidden_cells() ?? [];
  const addressed = page.lab.cells.filter((cell) => !state.embed || short_id(cell.id) === state.cell);
  const docs = addressed.filter((cell) => !hidden.includes(cell.id));
  if (!docs.length) return fail('lab.cell_not_found', { cell: state.cell });
  // What the link sets that no cell here reads (a mistyped parameter, a preset the cell does not have) is named, not
  // dropped in silence; an assignment's hidden cells still count as cells the link may address.
  page.unread = unread_url_entries(state.query, addressed.map((cell) => page.lab.cell_specs?.[cell.id]).filter(Boolean), state.embed);
  render();
  await start_cells(docs);
}

/**
 * Checked challenges, progress and assignments (challenges.js): loaded after the first results (the first result's
 * bytes stay without it), or before the cells when the URL carries an assignment. A module that fails to load
 * leaves the lab as it is.
 */
function load_challenges() {
  page.challenges_import ??= import('./challenges.js').then(async (module) => {
    module.connect(host);
    page.tools ??= document.createElement('div');
    page.banner ??= document.createElement('div');
    page.challenges = await module.Challenges.create({ lab: page.lab, query: state.query, embed: state.embed, tools: page.tools, banner: page.banner,
      post: post_to_parent });
  }, (error) => console.error(`challenges.js: ${error.message}`));
  return page.challenges_import;
}

/** Whether a cell is run spread over the workers (web/js/spread_run.js): it declares parts of a grid and takes their points back. */
const spreads = (spec) => ['part', 'parts', 'points'].every((name) => spec.params.some((param) => param.name === name));

/**
 * A SpreadRun whose module loads on the cell's first run: one cell of one lab spreads, and every page's first
 * result waits for this file's bytes. A cancel (or a newer run) that comes while it loads is honoured.
 */
function lazy_spread() {
  let spread = null, runs = 0, cancelled = 0;
  return {
    get busy() { return spread?.busy ?? false; },
    cancel() { cancelled = runs; spread?.cancel(); },
    async run(...args) {
      const ticket = ++runs;
      spread ??= new (await import('./spread_run.js')).SpreadRun(CellWorker);
      if (ticket !== runs) return { cancelled: true, superseded: true };
      if (cancelled === ticket) return { cancelled: true };
      return spread.run(...args);
    },
  };
}

/**
 * The cells run in a pool of workers (worker_pool.js); their specs are the module's list_cells(), which the
 * build wrote into the lab file. The page is built down to its first simulation cell, whose run waits in
 * its worker while the module instantiates there, then its costliest simulation (which another core starts at
 * once), and then the rest, each in its place on the page; a module that does not instantiate
 * replaces the cells with that error.
 */
async function start_cells(docs) {
  const specs = page.lab.cell_specs || {};
  pool_ready().catch((error) => {
    page.views = [];
    fail('lab.wasm_failed', { message: error.message });
  });
  const view_of = (doc) => {
    const spec = specs[doc.id];
    if (!spec) return { element: el('p', { class: 'sl-error', role: 'alert' }, t('lab.cell_missing', { cell: doc.id })) };
    const number = page.lab.cells.findIndex((cell) => cell.id === doc.id) + 1;
    const view = new CellView({ lab_id: page.lab.id, doc, spec, worker: spreads(spec) ? lazy_spread() : new CellWorker(), embed: state.embed, query: state.query,
      number, predict: ask_predictions });
    page.challenges?.add(view);
    return view;
  };
  // The first result loads challenges.js; the views built by then are given to it (add is idempotent), later ones as built.
  // (A task later: its request then starts after the first result is on the page.)
  document.addEventListener('sl-run', () => setTimeout(() => load_challenges().then(() => {
    for (const view of page.views) page.challenges?.add(view);
    if (page.tools && !page.tools.isConnected) document.querySelector('.sl-lab-body .sl-cells')?.after(page.tools);
  })), { once: true });
  const runs = new FirstRuns();
  const built = new Map();   // doc → its view, in the order built
  const build = (doc) => {
    const view = view_of(doc);
    built.set(doc, view);
    page.views = docs.filter((d) => built.has(d)).map((d) => built.get(d));   // in page order
    return view;
  };
  // The simulations of the first runs (a late one, first_runs.js' LATE_COST_S, waits for them all).
  const is_simulation = (doc) => specs[doc.id] && specs[doc.id].deterministic !== false &&
    !(specs[doc.id].default_cost_s > LATE_COST_S);
  const first = docs.findIndex(is_simulation);
  const rest = docs.slice(first + 1);
  const simulations = rest.filter(is_simulation);
  const second = simulations[costliest(simulations, (doc) => specs[doc.id].default_cost_s)];   // undefined: none
  for (const doc of first < 0 ? docs : docs.slice(0, first + 1)) build(doc);
  render();
  for (const view of page.views) runs.add(view);   // the first simulation starts
  await next_task();   // its run is posted to its worker before the rest is built
  // One view at a time, each its own task and on the page when built (and its run started, if a core is
  // free): a result that comes meanwhile is shown at once. The page then renders once more, with its contents.
  const cells = document.querySelector('.sl-cells');
  const later = first < 0 ? [] : [...(second ? [second] : []), ...rest.filter((doc) => doc !== second)];
  for (const doc of later) {
    if (page.message) return;   // the module failed
    const view = build(doc);
    const next = page.views[page.views.indexOf(view) + 1];   // built before it, below it on the page
    if (next) next.element.before(view.element);
    else cells?.append(view.element);
    runs.add(view);
    await next_task();
  }
  render();
  if (state.embed) tell_parent(page.views[0]);
  await runs.finish();
  // The footer's timer resolution, measured in a worker once the first runs no longer need them all.
  timer_resolution_s().then((resolution_s) => {
    if (resolution_s !== null) { set_timer_resolution_ms(resolution_s * 1000); refresh_footer_timer(); }
  });
  document.body.dataset.ready = 'true';
  if (state.embed) post_to_parent({ type: 'serving-lab:ready', cell: page.views[0]?.cell_id });
  else enable_offline();
  if (window.location.hash) document.getElementById(window.location.hash.slice(1))?.scrollIntoView();
}

const next_task = () => new Promise((resolve) => setTimeout(resolve));

/**
 * An embedded cell tells the page around it its height (serving-lab:resize, on every change: embed.js sizes
 * the iframe with it), when it has computed (serving-lab:ready) and, after each run, its inputs and
 * shareable URL (serving-lab:state). The parent's origin is unknown, so "*": the messages carry nothing
 * that the iframe's own URL does not.
 */
function post_to_parent(message) {
  if (window.parent !== window) window.parent.postMessage(message, '*');
}

function tell_parent(view) {
  let last = 0;
  const report = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height !== last) post_to_parent({ type: 'serving-lab:resize', height });
    last = height;
  };
  new ResizeObserver(report).observe(document.documentElement);
  report();
  document.addEventListener('sl-run', () => { if (view?.state) post_to_parent({ type: 'serving-lab:state', ...view.state }); });
}

function fail(key, args, class_name = 'sl-error') {
  page.message = { key, args, class_name };
  render();
  document.body.dataset.ready = 'true';
}

/**
 * The language switch: the lab's text in the new language is fetched first, then the strings switch, each
 * cell view gets its entry, and the page renders once, all in the new language.
 */
async function change_language(lang) {
  let lab = null;
  if (page.lab) {
    try {
      lab = await fetch_lab(state.lab, lang);
    } catch (error) {
      page.message = { key: 'lab.load_failed', args: { lab: state.lab, message: error.message }, class_name: 'sl-error' };
    }
  }
  await set_lang(lang);
  if (lab) {
    page.lab = lab;
    for (const view of page.views) {
      const doc = lab.cells.find((cell) => cell.id === view.cell_id);
      if (doc) view.set_doc?.(doc);
    }
  }
  render({ rebuild: true });
  page.challenges?.relabel();
}

/**
 * Renders the whole page in the current language; cell views keep their inputs and results. A view builds
 * itself when made; `rebuild` (a new language) builds every view again.
 */
function render({ rebuild = false } = {}) {
  const main_element = el('main', { id: 'sl-main', class: 'sl-main' });
  if (!state.embed && page.lab) {
    main_element.append(
      el('h1', { class: 'sl-lab-title' }, pick(page.lab.title, page.lab.id)),
      el('p', { class: 'sl-lab-summary' }, pick(page.lab.summary)));
    set_title(`${pick(page.lab.title, page.lab.id)} · ${t('site.title')}`);
  } else {
    set_title(t('site.title'));
  }
  if (page.message) {
    const { key, args, class_name } = page.message;
    main_element.append(el('p', { class: class_name, role: class_name === 'sl-error' ? 'alert' : null }, t(key, args)));
  } else if (!page.views.length) {
    main_element.append(el('p', { class: 'sl-loading' }, t('lab.loading')));
  }
  if (page.unread.length) {
    main_element.append(el('p', { class: 'sl-notice sl-url-unread', role: 'status' },
      t('lab.url_unread', { entries: page.unread.join(', ') })));
  }
  const cells = el('div', { class: 'sl-cells' });
  for (const view of page.views) {
    if (rebuild) view.build?.();
    cells.append(view.element);
  }
  if (page.banner) main_element.append(page.banner);
  if (state.embed) {
    main_element.append(cells);
    return replace_children(document.body, main_element);
  }
  const toc = contents();
  main_element.append(el('div', { class: toc ? 'sl-lab-layout' : '' }, toc, el('div', { class: 'sl-lab-body' }, cells, page.tools, lab_links())));
  replace_children(document.body,
    site_header({ home_link: true, on_lang_change: change_language }), main_element, site_footer());
  watch_contents();
}

/** Sets the document's title when it changes: each assignment rewrites <title>, and Chromium then fetches the icon again (a 304 each). */
function set_title(title) {
  if (document.title !== title) document.title = title;
}

/** The numbered list of cells, sticky beside them on wide screens; the cell in view is marked. */
function contents() {
  const views = page.views.filter((view) => view.title);
  if (views.length < 2) return null;
  return el('nav', { class: 'sl-toc', 'aria-labelledby': 'sl-toc-title' },
    el('h2', { class: 'sl-toc-title', id: 'sl-toc-title' }, t('nav.contents')),
    el('ol', { class: 'sl-toc-list' }, views.map((view) => el('li', {},
      el('a', { href: `#${view.element_id}`, 'data-cell': view.element_id }, view.plain_title)))));
}

function watch_contents() {
  toc_observer?.disconnect();
  const links = new Map([...document.querySelectorAll('.sl-toc a')].map((link) => [link.dataset.cell, link]));
  if (!links.size || typeof IntersectionObserver === 'undefined') return;
  const visible = new Set();
  toc_observer = new IntersectionObserver((entries) => {
    for (const entry of entries) (entry.isIntersecting ? visible.add(entry.target.id) : visible.delete(entry.target.id));
    const current = page.views.find((view) => visible.has(view.element_id));
    for (const [id, link] of links) {
      if (current && id === current.element_id) link.setAttribute('aria-current', 'true');
      else link.removeAttribute('aria-current');
    }
  }, { rootMargin: '-20% 0px -60% 0px' });
  for (const view of page.views) if (view.element_id) toc_observer.observe(view.element);
}

/** Links to the previous and the next lab (the build names them in the lab file, in the landing page's order). */
function lab_links() {
  const { previous, next } = page.lab?.neighbours || {};
  if (!previous && !next) return null;
  const link = (lab, key, rel) => el('a', { class: `sl-lab-link sl-lab-${rel}`, href: lab_url({ lab: lab.id, lang: current_lang() }), rel },
    t(key, { title: pick(lab.title, lab.id) }));
  return el('nav', { class: 'sl-lab-nav', 'aria-label': t('nav.labs') },
    previous ? link(previous, 'nav.previous', 'prev') : el('span'),
    next ? link(next, 'nav.next', 'next') : null);
}

main();
