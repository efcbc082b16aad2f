// The service worker: after one visit every lab opens and computes offline. scripts/build.mjs writes
// VERSION (a hash of every precached file's bytes) and FILES (their paths) into the copy in dist/.
// Each version has its own cache, filled completely at install, and a service worker answers only from its
// own: a page is never served a mix of two deployments. A new deployment installs in the background and
// waits; web/js/offline.js switches to it when a page opens (before anything has loaded) or when the reader
// accepts the "new version" banner, and then reloads every page of the site. Files that are not precached
// (the model request/cold-start measures, under assets/) go to the network untouched.
'use strict';
const VERSION = '__VERSION__';
const FILES = ['__FILES__'];
const PREFIX = 'serving-lab-';
const CACHE = `${PREFIX}${VERSION}`;
const scope_path = new URL(self.registration.scope).pathname;
const precached = new Set(FILES);

self.addEventListener('install', (event) => {
  // no-cache: revalidated with the server, never a stale HTTP-cache copy; a file this page already loaded
  // comes back as a 304 (no body) from hosts that send ETags, so it is not downloaded twice.
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES.map((file) => new Request(file, { cache: 'no-cache' })))));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys().then((names) =>
    Promise.all(names.filter((name) => name.startsWith(PREFIX) && name !== CACHE).map((name) => caches.delete(name)))));
});

self.addEventListener('message', (event) => {
  if (event.data === 'serving-lab:skip-waiting') self.skipWaiting();
});

/** The precached path of a request ("lab.html" for lab.html?lab=queues, "index.html" for the scope itself), or null. */
function precached_path(request) {
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin || !url.pathname.startsWith(scope_path)) return null;
  const path = url.pathname.slice(scope_path.length) || 'index.html';
  return precached.has(path) ? path : null;
}

self.addEventListener('fetch', (event) => {
  const path = precached_path(event.request);
  if (!path) return;   // the network, as if there were no service worker
  event.respondWith(caches.open(CACHE).then((cache) => cache.match(path)).then((hit) => hit || fetch(event.request)));
});
