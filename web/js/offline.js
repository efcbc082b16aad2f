// Offline after one visit (web/sw.js). The service worker is registered once the page has computed, so its
// precache download never competes with the first results. A deployment newer than the one serving this page
// is used from the next page that opens (it switches before loading anything, then reloads), or at once when
// the reader accepts the banner; every open page of the site then reloads, so none mixes two versions.
// Each visit asks the server for sw.js once it has computed (registration.update()), so a deployment is
// noticed on the visit after it, whatever the browser's own update checks do.
import { el } from './dom.js';
import { t } from './i18n.js';

const SKIP = 'serving-lab:skip-waiting';
let listening = false;

// A page that a service worker serves reloads as soon as another version takes over: from here on, before
// this module has awaited anything, so no file of this page can come from a newer version.
listen_for_switch();

/**
 * At page start: if a newer version is waiting, ask it to take over; the page reloads when it has (the
 * controllerchange listener). Resolves false when it switched (the reload is under way). The request is
 * repeated a few times, since a browser may drop one (a waiting worker stopped meanwhile); if it is still
 * refused, this page runs on the current version — all of it: a later switch reloads it.
 */
export async function take_waiting_version() {
  if (!('serviceWorker' in navigator)) return true;
  const registration = await navigator.serviceWorker.getRegistration();
  listen_for_switch();
  if (!navigator.serviceWorker.controller) return true;
  for (let i = 0; i < SWITCH_TRIES && registration?.waiting; ++i) {
    const switched = controller_change_within(SWITCH_WAIT_MS);
    registration.waiting.postMessage(SKIP);
    if (await switched) return false;
  }
  return true;
}

const SWITCH_TRIES = 6;
const SWITCH_WAIT_MS = 1000;

function controller_change_within(ms) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    navigator.serviceWorker.addEventListener('controllerchange', () => { clearTimeout(timer); resolve(true); }, { once: true });
  });
}

function listen_for_switch() {
  if (listening || !('serviceWorker' in navigator) || !navigator.serviceWorker.controller) return;
  listening = true;
  navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload());
}

/** After the first results: register the service worker; offer a reload when a newer version has installed. */
export async function enable_offline() {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  let registration;
  try {
    registration = await navigator.serviceWorker.register('sw.js');
  } catch {
    return;   // a browser or host without service workers: the site works online as before
  }
  if (!registration) return;   // registration blocked (a managed browser, or a test that blocks workers)
  registration.update().catch(() => {});   // offline, or the host is down: the next visit asks again
  const offer = (worker) => {
    if (!navigator.serviceWorker.controller || document.querySelector('.sl-update')) return;
    listen_for_switch();
    document.body.append(el('div', { class: 'sl-update', role: 'status' }, t('offline.update'), ' ',
      el('button', { type: 'button', class: 'sl-button sl-button-small', on: { click: () => worker.postMessage(SKIP) } }, t('offline.reload'))));
  };
  if (registration.waiting) offer(registration.waiting);
  registration.addEventListener('updatefound', () => {
    const worker = registration.installing;
    worker?.addEventListener('statechange', () => { if (worker.state === 'installed') offer(worker); });
  });
}
