// Data assets (core/cell.h DataAsset): static files of the site a cell computes on, kept out of the wasm
// module (the request lab's MNIST digits, data/mnist-digits.bin). A cell's spec lists them; before its
// run the worker fetches each once (the HTTP cache, and offline the service worker, answer later visits),
// keeps the bytes for the worker's life and passes them as inputs "asset.<name>" (a Uint8Array: the
// module copies the bytes, as it does a photo's). Cells without assets fetch nothing.
'use strict';

(function () {
  const kept = new Map();   // path → Promise<Uint8Array>

  function load(path) {
    if (!kept.has(path)) {
      const bytes = fetch(new URL(path, self.location.href).href).then(async (response) => {
        if (!response.ok) throw new Error(`data asset ${path} answered ${response.status}`);
        return new Uint8Array(await response.arrayBuffer());
      });
      bytes.catch(() => kept.delete(path));   // a failed fetch is retried by the next run
      kept.set(path, bytes);
    }
    return kept.get(path);
  }

  /** {"asset.<name>": Uint8Array} for the assets a cell declares ([] or undefined: {}). */
  self.SL_ASSETS = async function (assets) {
    const inputs = {};
    for (const { name, path } of assets || []) inputs[`asset.${name}`] = await load(path);
    return inputs;
  };
})();
