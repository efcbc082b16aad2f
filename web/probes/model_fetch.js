// Probe model_fetch: loading the generated model (assets/model.json lists its shards, written by
// scripts/build.mjs) with fetch + arrayBuffer(), all shards in parallel as a loader of a sharded checkpoint
// does. It runs only when the reader asked for it (the cell's `download` parameter, whose bytes C++
// declares): task.arg is the model's size in bytes, the first shards that make it up. task.key says what
// to measure:
//   "no_store"           seconds per load with the HTTP cache bypassed (cache: 'no-store');
//   "bytes"              one sample: the bytes the "no_store" task just before it received (no fetch);
//   "warm"               seconds per load through the HTTP cache; the untimed first load fills it;
//   "warm_network_bytes" per timed load of the "warm" task just before it (the plan keeps that order): the
//                        bytes that crossed the network, from Resource Timing's transferSize (0 when the
//                        cache answered).
// The model is sharded (4 MiB files) because browsers cache no single entry above a share of their cache
// (Chromium: 1/8, so 6 MB in a private window's 50 MB memory cache). No model file: an empty list.
'use strict';

(function () {
  const MANIFEST = 'assets/model.json';
  let warm_urls = [];       // the shards the last "warm" task loaded
  let warm_repeats = 0;     // and how many timed loads it took
  let received = 0;         // bytes of the last "no_store" load

  /** The URLs of the first shards that make up `bytes` (all of them when the model is smaller), or null. */
  async function shard_urls(bytes) {
    const response = await fetch(MANIFEST, { cache: 'no-store' });
    if (!response.ok) return null;
    const manifest = await response.json();
    const count = Math.min(manifest.shards.length, Math.max(1, Math.ceil(bytes / manifest.shard_bytes)));
    return manifest.shards.slice(0, count).map((name) => new URL(`assets/${name}`, self.location.href).href);
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

  /** Network bytes of each of the last `repeats` loads of `urls` (Resource Timing), or [] when unknown. */
  function network_bytes(urls, repeats) {
    const samples = new Array(repeats).fill(0);
    for (const url of urls) {
      const entries = performance.getEntriesByName(url, 'resource');
      if (entries.length < repeats) return [];
      entries.slice(-repeats).forEach((entry, r) => { samples[r] += entry.transferSize; });
    }
    return samples;
  }

  self.SL_PROBES.model_fetch = async function (task) {
    if (task.key === 'warm_network_bytes') return network_bytes(warm_urls, warm_repeats);
    if (task.key === 'bytes') return received > 0 ? [received] : [];
    const urls = await shard_urls(task.arg);
    if (!urls) return [];
    if (task.key === 'no_store') {
      // Each load is one download, timed alone (no warm-up, no calibration: a load of megabytes is far
      // above the timer's resolution), so the network moves exactly what C++ declared.
      const samples = [];
      for (let r = 0; r < task.repeats; ++r) {
        const t0 = performance.now();
        received = await load(urls, 'no-store');
        samples.push((performance.now() - t0) / 1000);
      }
      return samples;
    }
    if (task.key !== 'warm') throw new Error(`model_fetch: unknown key '${task.key}'`);
    performance.clearResourceTimings();   // the buffer holds 250 entries; keep room for this task's loads
    const samples = await self.SL_TIMING.time_async(() => load(urls, 'default'), task.repeats);
    warm_urls = urls;
    warm_repeats = task.repeats;
    return samples;
  };
})();
