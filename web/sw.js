// The service worker: after one visit every lab opens and computes offline. scripts/build.mjs writes
// VERSION (a hash of every precached file's bytes) and FILES (their paths, each with the first 128 bits of the
// SHA-256 of its bytes) into the copy in dist/. Each version has its own cache, filled completely at install with exactly
// the bytes FILES lists — a file that the host (or a cache on the way: a CDN midway through a deployment, a
// stale HTTP cache) serves from another deployment fails the install, the cache is dropped and the next
// visit tries again — and a service worker answers only from its own: a page is never served a mix of two
// deployments. A new deployment installs in the background and
// waits; web/js/offline.js switches to it when a page opens (before that page computes anything) or when the
// reader accepts the "new version" banner, and then reloads every page of the site: a page reloads as soon
// as its controller changes, so none runs on the files of two versions. The data assets two request
// cells compute on (data/, 0.8 MB, fetched only when a reader asks) are not precached: this version's cache
// keeps each on its first fetch, so those cells compute offline after that; so it does with each lab's "Why?" texts
// (labs/<lab>.why.json), fetched when a reader first opens one of its sections. Every other file that is not
// precached — the model request/cold-start downloads only when the reader asks (assets/) — goes to the
// network untouched, never into a cache of ours.
'use strict';
const VERSION = '__VERSION__';
const FILES = { '__FILES__': '' };
const PREFIX = 'serving-lab-';
const CACHE = `${PREFIX}${VERSION}`;
const scope_path = new URL(self.registration.scope).pathname;
const precached = new Set(Object.keys(FILES));
const KEPT_ON_FIRST_FETCH = /^(data\/|labs\/[^/]+\.why\.json$)/;   // the data assets, and the "Why?" texts
let opened = null;   // this version's cache, opened once per start of this worker
const this_cache = () => (opened ??= caches.open(CACHE));

async function sha256_hex(buffer) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', buffer));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Fills this version's cache with every file of FILES, each checked against its digest; all or nothing. */
async function precache() {
  const cache = await caches.open(CACHE);
  try {
    await Promise.all(Object.entries(FILES).map(async ([path, digest]) => {
      // FILES holds a prefix of each digest (scripts/build.mjs: 128 bits).
      const matches = async (response) => response.ok &&
        (await sha256_hex(await response.clone().arrayBuffer())).slice(0, digest.length) === digest;
      // force-cache: a file the page has just loaded comes from the HTTP cache, neither downloaded nor revalidated
      // again (14 requests of the request lab's first visit). The digest decides: a copy of another deployment is
      // fetched once more, revalidated with the server (no-cache).
      let response = await fetch(new Request(path, { cache: 'force-cache' }));
      if (!(await matches(response))) response = await fetch(new Request(path, { cache: 'no-cache' }));
      if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
      if (!(await matches(response))) throw new Error(`${path}: not the file of version ${VERSION}`);
      await cache.put(path, response);
    }));
  } catch (error) {
    await caches.delete(CACHE);
    throw error;   // the install fails; the browser tries again at a later visit
  }
}

self.addEventListener('install', (event) => event.waitUntil(precache()));

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys().then((names) =>
    Promise.all(names.filter((name) => name.startsWith(PREFIX) && name !== CACHE).map((name) => caches.delete(name)))));
});

self.addEventListener('message', (event) => {
  if (event.data === 'serving-lab:skip-waiting') event.waitUntil(self.skipWaiting());
});

/** The path of a GET request in the scope ("lab.html" for lab.html?lab=queues, "index.html" for the scope itself), or null. */
function scoped_path(request) {
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin || !url.pathname.startsWith(scope_path)) return null;
  return url.pathname.slice(scope_path.length) || 'index.html';
}

/** A data asset from this version's cache, else from the network, kept for the next time. */
async function kept_on_first_fetch(request, path) {
  const cache = await this_cache();
  const hit = await cache.match(path);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok && response.status === 200) await cache.put(path, response.clone());
  return response;
}

self.addEventListener('fetch', (event) => {
  const path = scoped_path(event.request);
  if (path && KEPT_ON_FIRST_FETCH.test(path)) return event.respondWith(kept_on_first_fetch(event.request, path));
  if (!path || !precached.has(path)) return;   // the network, as if there were no service worker
  event.respondWith(this_cache().then((cache) => cache.match(path)).then((hit) => hit || fetch(event.request)));
});
