// A new deployment takes over without mixing: deployment A is visited (its service worker precaches it), then
// deployment B is served at the same origin: A with every kind of file a page runs on marked B — the page
// (lab.html), its script (js/main_lab.js), the cell worker (worker.js), the lab file — and so a new VERSION,
// as a rebuild writes it. What a page ran on is read from the page itself: the page's mark, its script's,
// the mark each of its cell workers posted when it started, the lab title it shows. The reload that follows
// is A throughout, with B installing in the background; the next visit is B throughout and A's cache is gone.
// Before B, the host serves B with one file of A: that install fails and nothing of it is cached.
// B is derived from the one site build (dist/) instead of a second build, to keep this test a few seconds.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch_browser, new_page, start_server, DIST } from './helpers.mjs';

const MARK_A = 'deployment-A';
const MARK_B = 'deployment-B';

/** Rewrites a file of a site copy and drops its precompressed twins (the server would send those); returns its SHA-256. */
async function rewrite(dir, path, edit) {
  const text = edit(await readFile(join(dir, path), 'utf8'));
  await writeFile(join(dir, path), text);
  await rm(join(dir, `${path}.br`), { force: true });
  await rm(join(dir, `${path}.gz`), { force: true });
  return createHash('sha256').update(text).digest('hex');
}

const FILES_LIST = /const FILES = (\{[^}]*\});/;

/** A copy of dist/ (without the measurement model) with its page, script, worker, queues lab file and version marked `mark`. */
async function deployment(parent, mark) {
  const dir = join(parent, mark);
  await cp(DIST, dir, { recursive: true, filter: (path) => !path.includes('/assets/') });
  const digests = {};
  digests['lab.html'] = await rewrite(dir, 'lab.html', (text) => text.replace('<head>', `<head>\n<meta name="sl-test-deployment" content="${mark}">`));
  digests['js/main_lab.js'] = await rewrite(dir, 'js/main_lab.js', (text) => `${text}\nglobalThis.__sl_test_deployment = '${mark}';\n`);
  digests['worker.js'] = await rewrite(dir, 'worker.js', (text) => `${text}\npostMessage({ type: 'sl-test-deployment', mark: '${mark}' });\n`);
  digests['labs/queues.json'] = await rewrite(dir, 'labs/queues.json', (text) => {
    const lab = JSON.parse(text);
    lab.title = { en: `${lab.title.en} ${mark}`, vi: `${lab.title.vi} ${mark}` };
    return JSON.stringify(lab);
  });
  // The service worker of the marked copy: its version, and the digests of the files that changed.
  await rewrite(dir, 'sw.js', (text) => text
    .replace(/const VERSION = '([^']*)';/, (_, version) => `const VERSION = '${version}-${mark}';`)
    .replace(FILES_LIST, (_, files) => `const FILES = ${JSON.stringify({ ...JSON.parse(files), ...digests })};`));
  return dir;
}

/**
 * B as a host midway through deploying it may serve it (a CDN edge with a stale copy): B's service worker,
 * with a version of its own, beside A's cell worker. Its install must fail: nothing of it may be cached.
 */
async function mixed_deployment(parent, a, b) {
  const dir = join(parent, 'mixed');
  await cp(b, dir, { recursive: true });
  await cp(join(a, 'worker.js'), join(dir, 'worker.js'));
  await rewrite(dir, 'sw.js', (text) => text.replace(/const VERSION = '([^']*)';/, (_, version) => `const VERSION = '${version}-mixed';`));
  return dir;
}

// In every page of the test: the marks the page's cell workers post when their script starts (the page
// itself ignores a message it does not know).
const WORKER_MARKS = `(() => {
  window.__sl_worker_marks = [];
  const Original = window.Worker;
  window.Worker = class extends Original {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        if (event.data?.type === 'sl-test-deployment') window.__sl_worker_marks.push(event.data.mark);
      });
    }
  };
})();`;

/** What the open page ran on: its page, script, workers and lab title, and the caches and control of the origin. */
function observed(page) {
  return page.evaluate(async () => ({
    html: document.querySelector('meta[name="sl-test-deployment"]')?.content || '',
    script: globalThis.__sl_test_deployment || '',
    workers: [...new Set(window.__sl_worker_marks)].sort(),
    worker_count: window.__sl_worker_marks.length,
    title: document.querySelector('.sl-lab-title')?.textContent || '',
    caches: (await caches.keys()).filter((name) => name.startsWith('serving-lab-')),
    controlled: Boolean(navigator.serviceWorker.controller),
  }));
}

function assert_all_of(seen, mark, when) {
  assert.equal(seen.html, mark, `${when}: the page`);
  assert.equal(seen.script, mark, `${when}: its script`);
  assert.ok(seen.worker_count > 0, `${when}: no cell worker reported`);
  assert.deepEqual(seen.workers, [mark], `${when}: its cell workers`);
  assert.ok(seen.title.includes(mark), `${when}: the lab file (title "${seen.title}")`);
}

/** Polls fn in the page (it may be async, and the page may navigate meanwhile) until it returns true. */
async function poll(page, fn, what, timeout_ms = 60_000) {
  for (const end = Date.now() + timeout_ms; Date.now() < end; await page.waitForTimeout(250)) {
    if (await page.evaluate(fn).catch(() => false)) return;
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function computed(page) {
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
  await page.waitForSelector('#littles-law[data-state="done"]', { timeout: 60_000 });
}

describe('a new deployment', () => {
  let parent;
  let browser;
  before(async () => { [parent, browser] = await Promise.all([mkdtemp(join(tmpdir(), 'sl-takeover-')), launch_browser()]); });
  after(async () => { await browser?.close(); await rm(parent, { recursive: true, force: true }); });

  test('is picked up on the next visit, and no page mixes the files of two deployments', async () => {
    const [a, b] = [await deployment(parent, MARK_A), await deployment(parent, MARK_B)];
    const mixed = await mixed_deployment(parent, a, b);
    let server = await start_server({ dir: a });
    const port = new URL(server.url).port;
    const page = await new_page(browser, { width: 1100, height: 900, service_workers: 'allow' });
    await page.context().addInitScript(WORKER_MARKS);
    const url = `${server.url}lab.html?lab=queues&predict=0`;
    try {
      await page.goto(url);
      await computed(page);
      assert_all_of(await observed(page), MARK_A, 'first visit');
      await poll(page, async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        return registration?.active?.state === 'activated' && (await caches.keys()).some((name) => name.endsWith('deployment-A'));
      }, "A's service worker active");

      await server.stop();
      server = await start_server({ dir: mixed, port });   // a host serving B with one file of A
      await page.reload();
      await computed(page);
      assert_all_of(await observed(page), MARK_A, 'the reload while the host serves a mix');
      await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).update().catch(() => {}));
      await poll(page, async () => !(await navigator.serviceWorker.getRegistration()).installing, 'the install of the mix to end');
      const refused = await page.evaluate(async () => ({
        waiting: Boolean((await navigator.serviceWorker.getRegistration()).waiting),
        caches: (await caches.keys()).filter((name) => name.startsWith('serving-lab-')),
      }));
      assert.equal(refused.waiting, false, 'the mix did not install');
      assert.deepEqual(refused.caches.filter((name) => !name.endsWith(MARK_A)), [], `nothing of the mix is cached: ${refused.caches}`);

      await server.stop();
      server = await start_server({ dir: b, port });   // B replaces A at the same origin

      await page.reload();
      await computed(page);
      const during = await observed(page);
      assert.ok(during.controlled, "A's service worker controls the page");
      assert_all_of(during, MARK_A, "the reload while B installs");
      await poll(page, async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting), 'B installed and waiting');

      await page.goto(url);   // the next visit switches to B (and reloads once)
      await poll(page, () => document.body.dataset.ready === 'true' && document.querySelector('meta[name="sl-test-deployment"]')?.content === 'deployment-B',
        'the page of B');
      await computed(page);
      const after_switch = await observed(page);
      assert_all_of(after_switch, MARK_B, 'the next visit');
      assert.deepEqual(after_switch.caches.filter((name) => !name.endsWith(MARK_B)), [], `only B's cache is left: ${after_switch.caches}`);
    } finally {
      await page.context().close();
      await server.stop();
    }
  });
});
