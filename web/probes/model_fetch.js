// Probe model_fetch: loading the generated model (assets/model.json lists its shards, written by
// scripts/build.mjs) with fetch + arrayBuffer(), all shards in parallel as a loader of a sharded checkpoint
// does. task.key says what to measure:
//   "bytes"              one sample: the model's bytes as received;
//   "no_store"           seconds per load with the HTTP cache bypassed (cache: 'no-store');
//   "warm"               seconds per load through the HTTP cache, after one load that fills it;
//   "warm_network_bytes" bytes that crossed the network per warm load (Resource Timing transferSize; 0 when
//                        the cache answered).
// The model is sharded (4 MiB files) because browsers cache no single entry above a share of their cache
// (Chromium: 1/8, so 6 MB in a private window's 50 MB memory cache). No model file: an empty list.
'use strict';

(function () {
  const MANIFEST = 'assets/model.json';

  async function shard_urls() {
    const response = await fetch(MANIFEST, { cache: 'no-store' });
    if (!response.ok) return null;
    const manifest = await response.json();
    return manifest.shards.map((name) => new URL(`assets/${name}`, self.location.href).href);
  }

  /** Loads every shard; returns the bytes received. */
  async function load(urls, cache) {
    const buffers = await Promise.all(urls.map(async (url) => {
      const response = await fetch(url, { cache });
      if (!response.ok) throw new Error(`model_fetch: ${url} answered ${response.status}`);
      return response.arrayBuffer();
    }));
    return buffers.reduce((sum, buffer) => sum + buffer.byteLength, 0);
  }

  /** Sum of transferSize of the latest Resource Timing entry of each url. */
  function network_bytes(urls) {
    let sum = 0;
    for (const url of urls) {
      const entries = performance.getEntriesByName(url, 'resource');
      if (!entries.length) return null;
      sum += entries[entries.length - 1].transferSize;
    }
    return sum;
  }

  self.SL_PROBES.model_fetch = async function (task) {
    const urls = await shard_urls();
    if (!urls) return [];
    if (task.key === 'bytes') return [await load(urls, 'default')];
    if (task.key === 'no_store') return self.SL_TIMING.time_async(() => load(urls, 'no-store'), task.repeats);
    // time_async's untimed first call is the load that fills the cache.
    if (task.key === 'warm') return self.SL_TIMING.time_async(() => load(urls, 'default'), task.repeats);
    if (task.key !== 'warm_network_bytes') throw new Error(`model_fetch: unknown key '${task.key}'`);
    await load(urls, 'default');
    const samples = [];
    for (let r = 0; r < task.repeats; ++r) {
      performance.clearResourceTimings();
      await load(urls, 'default');
      const bytes = network_bytes(urls);
      if (bytes === null) return [];   // no Resource Timing here: unknown, not zero
      samples.push(bytes);
    }
    return samples;
  };
})();
