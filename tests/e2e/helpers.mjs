// Shared setup for the e2e specs: serve dist/ with scripts/serve.mjs on a free port, launch Debian's
// chromium through playwright-core, and save a screenshot per test under test-artifacts/.
import { createServer } from 'node:http';
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { access, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DIST = join(ROOT, 'dist');
const ARTIFACTS = join(ROOT, 'test-artifacts');
const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run'];

/**
 * Starts `node scripts/serve.mjs --dir dist --port 0` (or another site directory, at a given port; or another
 * checkout's serve.mjs, `script`, to serve an older build as it was served then); resolves with {url, stop()}
 * once it prints its URL.
 */
export async function start_server({ isolation = true, dir = DIST, port = 0, script = join(ROOT, 'scripts', 'serve.mjs') } = {}) {
  try {
    await access(join(dir, 'lab.html'));
  } catch {
    throw new Error(`${dir} is missing: run "node scripts/build.mjs" first`);
  }
  const args = [script, '--dir', dir, '--port', String(port)];
  if (!isolation) args.push('--no-isolation');
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve_url, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = output.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (match) resolve_url(match[0]);
    });
    child.on('exit', (code) => reject(new Error(`serve.mjs exited with ${code}: ${output}`)));
  });
  const stop = () => new Promise((done) => {
    if (child.exitCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
  return { url, stop };
}

export function launch_browser() {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/**
 * A new page that records console errors and page errors (a CSP violation shows up there),
 * so a test can assert the page ran cleanly.
 */
/**
 * The server and browser of one describe(): registers its before/after hooks and returns an object whose
 * `server` and `browser` are set once the hooks have run (a test may replace `site.server`).
 */
export function with_site(server_options = {}) {
  const site = { server: null, browser: null };
  before(async () => { [site.server, site.browser] = await Promise.all([start_server(server_options), launch_browser()]); });
  after(async () => { await site.browser?.close(); await site.server?.stop(); });
  return site;
}

/** A scratch folder for the files a suite hands to the page, made before it and removed after: scratch.file(name). */
export function with_scratch(prefix) {
  const scratch = { dir: null, file: (name) => join(scratch.dir, name) };
  before(async () => { scratch.dir = await mkdtemp(join(tmpdir(), `sl-${prefix}-`)); });
  after(async () => { if (scratch.dir) await rm(scratch.dir, { recursive: true }); });
  return scratch;
}

export async function new_page(browser, { width = 1100, height = 900, service_workers = 'block', context = null } = {}) {
  // The service worker precaches the whole site once a page has computed: tests that are not about it block
  // it ('allow' for those that are), so each fresh context does not download and cache the site again.
  // A test may pass a context of its own (new_context) for pages that share its HTTP cache and storage.
  context ??= await new_context(browser, { width, height, service_workers });
  const page = await context.newPage();
  page.problems = [];
  page.on('console', (message) => { if (message.type() === 'error') page.problems.push(message.text()); });
  page.on('pageerror', (error) => page.problems.push(error.message));
  return page;
}

/**
 * The one tab of `context` that a suite's tests share, each loading its own document in it (as a reader following
 * links would), with the problems of the previous test's document cleared. A new tab a test starts a renderer
 * process for each cross-origin-isolated page: in cells.spec 3.3-3.7 CPU-s a cell against 1.4 in one tab
 * (1.7-1.9 s against 0.8 s).
 */
export async function tab_of(browser, context) {
  if (!tabs.has(context)) tabs.set(context, await new_page(browser, { context }));
  const tab = tabs.get(context);
  tab.problems.length = 0;
  return tab;
}
const tabs = new WeakMap();   // context → its tab_of

/** A browser context as new_page makes it: a viewport, and the service worker blocked unless 'allow'. */
export function new_context(browser, { width = 1100, height = 900, service_workers = 'block' } = {}) {
  return browser.newContext({ viewport: { width, height }, serviceWorkers: service_workers });
}

/** Presses each visible "download the data file" button (a cell computing on a data asset waits for it). */
export async function agree_to_assets(page) {
  for (let i = 0; i < 8; ++i) {
    const button = await page.$('.sl-asset-button:visible');
    if (!button) return;
    await button.click();
    await page.waitForTimeout(100);   // one file serves several cells: their buttons go once it is agreed to
  }
}

/**
 * Opens a page of the site and waits until it has rendered (body[data-ready]), which is after every cell's first
 * run: the whole llm page runs eleven cells, llm/validation's fit of 70 published runs among them (5 s in wasm).
 */
export async function open(page, url) {
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 45_000 });
}

/** The cell section of the queueing lab's first cell. */
export const CELL = '#littles-law';

/** Number of finished runs of a cell (data-runs), 0 before the first. */
export async function runs_of(page, cell = CELL) {
  return Number((await page.getAttribute(cell, 'data-runs')) || 0);
}

/** Waits until the cell has finished one more run than `before`, and returns its state. */
export async function next_run(page, before, cell = CELL) {
  await page.waitForFunction(([selector, count]) => Number(document.querySelector(selector)?.dataset.runs || 0) > count,
    [cell, before], { timeout: 30_000 });
  return page.getAttribute(cell, 'data-state');
}

/**
 * Opens the closed disclosures ("More parameters", then the field's group) around a field, so a reader (and the
 * test) can reach it. "More parameters" sorts its fields into folded groups when it first opens (param_groups.js,
 * loaded then): once the groups are made, the field's group is opened in turn.
 */
export async function reveal(page, selector) {
  const open_around = () => page.$eval(selector, (element) => {
    for (let details = element.closest('details'); details; details = details.parentElement?.closest('details')) details.open = true;
    return Boolean(element.closest('.sl-more-params'));
  });
  if (await open_around()) {
    await page.waitForFunction((s) => document.querySelector(s)?.closest('.sl-more-params')?.querySelector('.sl-param-sections'), selector);
    await open_around();
  }
}

/** Types into a parameter field (the debounced auto-run starts it). */
export async function set_param(page, name, text, cell = CELL) {
  await reveal(page, `${cell} [name="${name}"]`);
  await page.fill(`${cell} [name="${name}"]`, text);
}

/** Types into a field and presses Enter (the form's submit: the run starts at once, without the 300 ms of the
 * auto-run's debounce), as a keyboard reader does. */
export async function type_and_submit(page, selector, text) {
  await page.fill(selector, text);
  await page.press(selector, 'Enter');
}

/**
 * Types a value and submits it (type_and_submit; `{ enter: false }` waits for the debounced auto-run instead),
 * waits for that run, and returns the cell's state afterwards.
 */
export async function set_param_and_wait(page, name, text, cell = CELL, { enter = true } = {}) {
  const before = await runs_of(page, cell);
  await reveal(page, `${cell} [name="${name}"]`);
  if (enter) await type_and_submit(page, `${cell} [name="${name}"]`, text);
  else await set_param(page, name, text, cell);
  return next_run(page, before, cell);
}

/** The displayed text of an output (by its C++ key). */
export function output_text(page, key, cell = CELL) {
  return page.textContent(`${cell} .sl-outputs tr[data-key="${key}"] td`);
}

/**
 * Saves the element `of` (a cell) as PNG, or else the whole page as JPEG: a lab page is 7,000-23,000 px tall,
 * and a full-page PNG of it takes 1-1.5 s to encode here, a JPEG half that.
 */
export async function screenshot(page, name, { of = null } = {}) {
  await mkdir(ARTIFACTS, { recursive: true });
  if (of) await page.locator(of).screenshot({ path: join(ARTIFACTS, `${name}.png`) });
  else await page.screenshot({ path: join(ARTIFACTS, `${name}.jpeg`), fullPage: true, type: 'jpeg', quality: 80 });
}

/** axe-core's violations on the page, one line each (evaluated, so the page's CSP need not allow an injected script). */
export async function axe_violations(page) {
  await page.evaluate(await readFile(AXE_SOURCE, 'utf8'));
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

/** The run as the page saves it ("Download JSON"), the object `serving-lab run --json` prints. */
export async function saved_run(page, cell) {
  const button = page.locator(`${cell} .sl-download-json`);
  await button.waitFor({ state: 'visible', timeout: 10_000 });
  // A click Chromium drops gets a second one; a CI run (2026-12-06) once waited 30 s for a download that never
  // started, after the cell had shown its result. A second miss fails, with what the cell showed.
  for (let attempt = 1; ; ++attempt) {
    try {
      const [download] = await Promise.all([page.waitForEvent('download', { timeout: 15_000 }), button.click({ timeout: 15_000 })]);
      return JSON.parse(await readFile(await download.path(), 'utf8'));
    } catch (error) {
      if (attempt === 2 || error.name !== 'TimeoutError') {
        const state = await page.getAttribute(cell, 'data-state').catch(() => '?');
        throw new Error(`${cell}: no download after ${attempt} clicks (data-state ${state}, problems ${JSON.stringify(page.problems)}): ${error.message}`);
      }
      console.warn(`saved_run: ${cell}: no download in 15 s, clicking again`);
    }
  }
}

/** Opens a file field's "Paste text instead" and pastes `text` by keyboard, then Tab to "Use pasted text" and Enter. */
export async function paste_by_keyboard(page, cell, name, text) {
  const summary = `${cell} [data-param="${name}"] .sl-paste > summary`;
  await reveal(page, `${cell} [name="${name}"]`);   // opens "More parameters" around the field, not the paste box
  await page.focus(summary);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.pasteFor), name, 'Tab reaches the text area');
  await page.keyboard.insertText(text);
  await page.keyboard.press('Tab');
  assert.ok(await page.evaluate(() => document.activeElement.classList.contains('sl-paste-use')), 'then "Use pasted text"');
  await page.keyboard.press('Enter');
}

/**
 * A course page on another origin (a port of its own) holding `body` (an iframe with id "lab", say) and recording
 * every message it receives in window.messages: what an LMS page sees of an embedded cell. {url, stop}.
 */
export async function course_page_with(body) {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Course</title></head><body>
<h1>Week 3: queues</h1>
${body}
<script>window.messages = []; addEventListener('message', (event) => window.messages.push(event.data));</script>
</body></html>`;
  const server = createServer((request, response) => response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html));
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${server.address().port}/`, stop: () => new Promise((done) => server.close(done)) };
}
