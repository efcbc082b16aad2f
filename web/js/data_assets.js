// Data assets (core/cell.h DataAsset): static files of the site a cell computes on, kept out of the wasm
// module (the request lab's MNIST digits, data/mnist-digits.bin, 0.8 MB as served). The page fetches each
// once, only after the reader agreed (or when it is at hand already), and passes its bytes with the run's
// inputs as "asset.<name>" (a Uint8Array, as a chosen photo is passed); every cell of the page that uses
// it gets the same bytes. The reader's yes is remembered for later visits.
const CONSENT_KEY = 'serving-lab:assets';   // localStorage: the asset paths this reader agreed to download
const consented = new Set(stored_consent());
const loaded = new Map();                    // path → Promise<Uint8Array>

function stored_consent() {
  try { return JSON.parse(window.localStorage.getItem(CONSENT_KEY) || '[]'); } catch { return []; }
}

/** Remembers the reader's yes (this page and later visits: the file is then cached, or fetched again). */
export function consent_to(assets) {
  for (const asset of assets) consented.add(asset.path);
  try { window.localStorage.setItem(CONSENT_KEY, JSON.stringify([...consented])); } catch { /* private mode: this page only */ }
}

/** True when the assets may be fetched: the reader agreed, or they are in a cache already (nothing would move). */
export async function may_fetch(assets) {
  // A small asset (ask_first false: the default photo) needs no yes.
  if (assets.every((asset) => asset.ask_first === false || consented.has(asset.path))) return true;
  if (!('caches' in window)) return false;
  try {
    for (const asset of assets) if (!(await caches.match(new URL(asset.path, window.location.href).href))) return false;
  } catch {
    return false;
  }
  for (const asset of assets) consented.add(asset.path);
  return true;
}

/** The assets' size as served (HEAD: Content-Length, compressed as the server sends it), or null. */
export async function served_bytes(assets) {
  try {
    let total = 0;
    for (const asset of assets) {
      const length = await served_length(asset.path);
      if (length === null) return null;
      total += length;
    }
    return total;
  } catch {
    return null;
  }
}

const lengths = new Map();   // path → promise of its served length: one HEAD per file a page asks about (two cells share the digits)

function served_length(path) {
  if (!lengths.has(path)) {
    lengths.set(path, fetch(path, { method: 'HEAD' }).then((response) => {
      const length = Number(response.headers.get('Content-Length'));
      return response.ok && length > 0 ? length : null;
    }));
    lengths.get(path).catch(() => lengths.delete(path));
  }
  return lengths.get(path);
}

function load(path) {
  if (!loaded.has(path)) {
    const bytes = fetch(path).then(async (response) => {
      if (!response.ok) throw new Error(`${path} answered ${response.status}`);
      return new Uint8Array(await response.arrayBuffer());
    });
    bytes.catch(() => loaded.delete(path));   // a failed fetch is tried again by the next run
    loaded.set(path, bytes);
  }
  return loaded.get(path);
}

/**
 * The assets a run with these input values needs: those without a condition, and those whose choice
 * (C++ DataAsset used_when: the sample trace while workload = trace) has one of their values.
 */
export function needed_assets(assets = [], values = {}) {
  return assets.filter((asset) => !asset.used_when || asset.used_when.values.includes(values[asset.used_when.param]));
}

/** {"asset.<name>": Uint8Array} for a cell's assets (none: {}); rejects when a file cannot be fetched. */
export async function asset_inputs(assets = []) {
  const inputs = {};
  for (const { name, path } of assets) inputs[`asset.${name}`] = await load(path);
  return inputs;
}
