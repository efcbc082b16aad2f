#!/usr/bin/env node
// Builds the static site: node scripts/build.mjs [--out dist] [--wasm-dir build/wasm] [--labs-dir labs]
// Bundles web/js with esbuild (minified, es2020, code-split so Vega loads after the form) and the worker
// (Emscripten's glue + web/probes + web/worker.js, one file), copies the HTML, CSS, i18n and the wasm module,
// writes each lab (labs/<lab>.json: the lab's cells with both languages' text, localized by the page,
// and their specs as the module's list_cells() gives them, called here once) and the manifest labs/index.json, copies the data assets the wasm build wrote beside the module
// (data/mnist-digits.bin: the digits two request cells fetch), and generates the model file that
// request/cold-start fetches when asked (assets/model-*.bin, deterministic noise, not in git).
// Every URL is relative, so the output works from any static host under any sub-path.
import { build, transform } from 'esbuild';
import { cp, mkdir, readFile, readdir, rm, writeFile, access } from 'node:fs/promises';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { load_labs } from './labs/load.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// Defaults are inside the repository; paths given on the command line are relative to the current directory.
const { values: options } = parseArgs({
  options: {
    out: { type: 'string', default: join(root, 'dist') },
    'wasm-dir': { type: 'string', default: join(root, 'build', 'wasm') },
    'labs-dir': { type: 'string', default: join(root, 'labs') },
  },
});
const out = resolve(options.out);
const wasm_dir = resolve(options['wasm-dir']);
const labs_dir = resolve(options['labs-dir']);
const web = join(root, 'web');
const WASM_FILES = ['serving_lab.js', 'serving_lab.wasm'];
// Data assets (core/cell.h DataAsset), written by the wasm build (cmake/Mnist.cmake, cmake/DefaultPhoto.cmake,
// cmake/SampleTrace.cmake): its file → the site's path.
const DATA_FILES = {
  'mnist-digits.bin': 'data/mnist-digits.bin', 'default-photo.jpg': 'data/default-photo.jpg',
  'azure-conv-2023-sample.csv': 'data/azure-conv-2023-sample.csv',
};
const ENTRY_POINTS = ['main_index.js', 'main_lab.js'];
// The pages, written from the one template web/page.html: its script, and what else its head holds.
const PAGES = {
  'index.html': {
    entry: 'main_index.js',
    head: '<meta name="description" content="A browser laboratory for model-serving systems: queues, batching, KV cache and LLM serving, computed by a C++ core in WebAssembly.">',
  },
  // A lab page fetches the module's bytes while its scripts load (main_lab.js compiles what this preload fetched).
  'lab.html': { entry: 'main_lab.js', head: '<link rel="preload" href="serving_lab.wasm" as="fetch" type="application/wasm" crossorigin>' },
};
// The cold-start model: 8 shards of 4 MiB (32 MiB), listed in assets/model.json like a sharded checkpoint's
// index. Browsers cache no single entry above a share of their cache (Chromium: 1/8), hence the shards.
const MODEL_SHARDS = 8;
const MODEL_SHARD_BYTES = 4 * 1024 * 1024;

/**
 * i18n/<lang>.json without its error templates, and i18n/<lang>.errors.json with them: a page's first result does
 * not wait for the sentences of every refusal (web/js/i18n.js load_errors fetches them before an error is shown).
 * Likewise i18n/<lang>.groups.json: the parameter groups' labels, fetched when "More parameters" first opens
 * (web/js/param_groups.js).
 */
async function write_i18n() {
  await mkdir(join(out, 'i18n'), { recursive: true });
  for (const lang of ['en', 'vi']) {
    const { errors, param_groups, ...strings } = JSON.parse(await readFile(join(web, 'i18n', `${lang}.json`), 'utf8'));
    await writeFile(join(out, 'i18n', `${lang}.json`), JSON.stringify(strings));
    await writeFile(join(out, 'i18n', `${lang}.groups.json`), JSON.stringify(param_groups));
    await writeFile(join(out, 'i18n', `${lang}.errors.json`), JSON.stringify({ errors }));
  }
}

async function main() {
  await check_wasm();
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  const chunks_of = await bundle();
  await write_pages(chunks_of);
  await write_css();
  await write_i18n();
  await write_worker();
  await cp(join(web, 'embed', 'embed.js'), join(out, 'embed.js'));   // the course page's listener (README)
  await writeFile(join(out, '_headers'), HEADERS_FILE);   // Netlify / Cloudflare Pages (docs/hosting.md)
  await cp(join(wasm_dir, 'serving_lab.wasm'), join(out, 'serving_lab.wasm'));   // the glue is in worker.js
  await mkdir(join(out, 'data'), { recursive: true });
  for (const [name, path] of Object.entries(DATA_FILES)) await cp(join(wasm_dir, name), join(out, path));
  const labs = await copy_labs();
  for (const name of ['manifest.webmanifest', 'icon.svg']) await cp(join(web, name), join(out, name));
  await write_model();
  const precached = await write_service_worker(out);
  console.log(`service worker: ${precached.files} files precached (${precached.bytes} bytes), version ${precached.version}`);
  const compressed = await precompress(out);
  console.log(`precompressed ${compressed.files} files: ${compressed.raw} → ${compressed.br} bytes (br), ${compressed.gz} (gzip)`);
  console.log(`built ${out}: ${labs.length} labs (${labs.map((lab) => `${lab.id}:${lab.status}`).join(', ')})`);
}

/** The style sheets, minified (comments and white space are bytes every page downloads before its first result). */
async function write_css() {
  await mkdir(join(out, 'css'), { recursive: true });
  for (const name of await readdir(join(web, 'css'))) {
    if (!name.endsWith('.css')) continue;
    const { code } = await transform(await readFile(join(web, 'css', name), 'utf8'), { loader: 'css', minify: true });
    await writeFile(join(out, 'css', name), code);
  }
}

/** Each page from the template, with a modulepreload link for each chunk its entry imports (no waterfall). */
async function write_pages(chunks_of) {
  const template = await readFile(join(web, 'page.html'), 'utf8');
  for (const [name, { entry, head }] of Object.entries(PAGES)) {
    const preloads = (chunks_of[entry] || []).map((chunk) => `<link rel="modulepreload" href="js/${chunk}">`);
    await writeFile(join(out, name), template.replace('<!-- head -->', [head, ...preloads].join('\n')).replace('{{entry}}', entry));
  }
}

/**
 * dist/worker.js: Emscripten's glue, the probes and web/worker.js in one minified classic script, so each of a page's
 * workers fetches one file (the first moves it, later ones revalidate it: a 304) instead of eight. The parts
 * are the files web/worker.js imports when it runs unbuilt (its importScripts list, the one list of them),
 * each but the glue in its own function scope, as it had as a script of its own ('use strict' included).
 */
async function write_worker() {
  const worker = await readFile(join(web, 'worker.js'), 'utf8');
  const call = worker.match(/importScripts\(([^)]*)\)/);
  const parts = call ? [...call[1].matchAll(/'([^']+)'/g)].map((match) => match[1]) : [];
  if (parts[0] !== 'serving_lab.js') throw new Error("web/worker.js: importScripts('serving_lab.js', 'probes/…') not found");
  const chunks = [`// Built by scripts/build.mjs from ${[...parts, 'worker.js'].join(', ')}.\n`];
  chunks.push(await readFile(join(wasm_dir, 'serving_lab.js'), 'utf8'));
  for (const part of [...parts.slice(1), 'worker.js']) {
    const text = part === 'worker.js' ? worker : await readFile(join(web, part), 'utf8');
    chunks.push(`\n// ---- ${part}\n;(function () {\n${text}\n})();\n`);
  }
  // Minified (esbuild, as the page's bundle): 81 → 40 kB, 19.9 → 13.0 kB as brotli; the first worker of a page
  // fetches it before the first result and compiles it before the module instantiates.
  const { code } = await transform(chunks.join(''), { minify: true, target: 'es2020', legalComments: 'inline' });
  await writeFile(join(out, 'worker.js'), code);
}

async function check_wasm() {
  const missing = [];
  for (const name of [...WASM_FILES, ...Object.keys(DATA_FILES)]) {
    try { await access(join(wasm_dir, name)); } catch { missing.push(join(wasm_dir, name)); }
  }
  if (missing.length) {
    console.error(`error: the WebAssembly module is missing:\n  ${missing.join('\n  ')}\n` +
      'Build it first (the Emscripten build writes build/wasm/serving_lab.{js,wasm}), or pass --wasm-dir DIR.');
    process.exit(1);
  }
}

/** Bundles web/js; returns {entry file: [the chunks it imports statically, at any depth]}. */
async function bundle() {
  const { metafile } = await build({
    metafile: true,
    entryPoints: ENTRY_POINTS.map((name) => join(web, 'js', name)),
    outdir: join(out, 'js'),
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: true,
    target: 'es2020',
    platform: 'browser',
    chunkNames: 'chunk-[hash]',
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'linked',
    logLevel: 'warning',
  });
  const outputs = metafile.outputs;
  const key_of = (file) => Object.keys(outputs).find((key) => resolve(key) === resolve(out, 'js', file));
  const static_imports = (key, seen) => {
    for (const { path, kind } of outputs[key]?.imports || []) {
      if (kind !== 'import-statement' || seen.has(path)) continue;
      seen.add(path);
      static_imports(path, seen);
    }
    return seen;
  };
  return Object.fromEntries(ENTRY_POINTS.map((entry) =>
    [entry, [...static_imports(key_of(entry), new Set())].map((path) => resolve(path).slice(resolve(out, 'js').length + 1))]));
}

/**
 * Writes labs/<lab>.json (and the text of its "Why?" sections, labs/<lab>.why.json, its checked challenges,
 * labs/<lab>.challenges.json, and its charts' Vega-Lite specs, labs/<lab>.charts.json) for every lab, in both languages ({en, vi} at every translated value; the page
 * localizes it, so switching language fetches nothing), and the manifest labs/index.json (id, order, status,
 * title, summary, in both languages). One file per lab rather than one per language: a first visit's service
 * worker precaches every lab, and the two languages share their structure (charts, book rows, declarations),
 * so the four labs move 176 kB brotli in place of 228 kB.
 */
async function copy_labs() {
  const labs = await load_labs(labs_dir);
  const specs = await cell_specs();
  await mkdir(join(out, 'labs'), { recursive: true });
  // Each lab file names its ready neighbours in the landing page's order, for the page's previous/next links.
  const ready = labs.filter((lab) => lab.status === 'ready').sort((a, b) => a.order - b.order);
  const neighbour = (lab) => (lab ? { id: lab.id, title: lab.title } : null);
  for (const lab of labs) {
    const at = ready.indexOf(lab);
    const neighbours = at < 0 ? {} : { previous: neighbour(ready[at - 1]), next: neighbour(ready[at + 1]) };
    // Each spec without its cost model's lines (`serving-lab list` prints them; no page shows them): 167 B of
    // the queues lab's first visit.
    const page_spec = ({ budget: _budget, ...spec }) => spec;
    const cell_specs_of_lab = Object.fromEntries((lab.cells || []).filter((cell) => specs.has(cell.id))
      .map((cell) => [cell.id, page_spec(specs.get(cell.id))]));
    // The lab's shared labels (params, outputs) are already in each cell (load.mjs): not written twice.
    const { params: _params, outputs: _outputs, ...rest } = lab;
    // The "Why?" sections' text goes to labs/<lab>.why.json, fetched when a reader first opens one: a third of
    // a lab file, closed until asked for (the queues lab moves 12.3 kB brotli less before its first result).
    // The checked challenges go to labs/<lab>.challenges.json, which web/js/challenges.js fetches after the first
    // result (the queues lab's three are 0.9 kB brotli).
    const why = {};
    // A book row as the page reads it (result_view.js): which C++ comparison it names, its label, and the reason
    // an expected difference is explained; the values, tolerances, scenarios and derivations are C++'s (check):
    // 1.9 kB brotli of the queues lab's first visit.
    const page_book = ({ ref, output, label, reason }) => ({ ref, output, label, ...(reason ? { reason } : {}) });
    const challenges = {};
    // The charts' Vega-Lite specs and their one-sentence summaries (read only when a chart is drawn) go to
    // labs/<lab>.charts.json, which a page fetches when it first draws a chart, after its first result, as Vega itself
    // comes then: the queues lab moves 3.0 kB (specs) and 2.3 kB (summaries) brotli less before it. Titles and notes
    // stay: a chart's frame shows them from the start.
    const chart_specs = {};
    const cells = (rest.cells || []).map(({ challenges: cell_challenges, ...lab_cell }) => {
      let cell = lab_cell.book ? { ...lab_cell, book: lab_cell.book.map(page_book) } : lab_cell;
      if (cell_challenges) challenges[cell.id] = cell_challenges;
      if (cell.charts) {
        chart_specs[cell.id] = Object.fromEntries(cell.charts.map((chart) => [chart.id, { spec: chart.spec, summary: chart.summary }]));
        cell = { ...cell, charts: cell.charts.map(({ spec: _spec, summary: _summary, ...head }) => head) };
      }
      if (!cell.why) return cell;
      why[cell.id] = cell.why.map((section) => section.text);
      return { ...cell, why: cell.why.map(({ text: _text, ...head }) => head) };
    });
    await writeFile(join(out, 'labs', `${lab.id}.json`), JSON.stringify({ ...rest, cells, neighbours, cell_specs: cell_specs_of_lab }));
    await writeFile(join(out, 'labs', `${lab.id}.why.json`), JSON.stringify(why));
    await writeFile(join(out, 'labs', `${lab.id}.challenges.json`), JSON.stringify(challenges));
    await writeFile(join(out, 'labs', `${lab.id}.charts.json`), JSON.stringify(chart_specs));
  }
  const index = labs.map(({ id, order, status, title, summary }) => ({ id, order, status, title, summary }));
  await writeFile(join(out, 'labs', 'index.json'), `${JSON.stringify({ labs: index }, null, 2)}\n`);
  return labs;
}

/**
 * The module's list_cells(), called once here under Node (id → spec): a lab page builds its first cell from
 * its lab file while the first worker instantiates the module, instead of waiting for that worker to call
 * list_cells() (~90 ms in a page's fresh worker, most of it compiling the functions it runs for the first time).
 * The build stops if a spec would not survive JSON unchanged (a non-finite bound, a typed array).
 */
async function cell_specs() {
  const create = createRequire(import.meta.url)(join(wasm_dir, 'serving_lab.js'));
  const module = await create({ wasmBinary: await readFile(join(wasm_dir, 'serving_lab.wasm')) });
  const specs = module.list_cells();
  if (!isDeepStrictEqual(JSON.parse(JSON.stringify(specs)), specs)) throw new Error('list_cells(): a spec does not survive JSON unchanged');
  return new Map(specs.map((spec) => [spec.id, spec]));
}

// The service worker precaches every file of the site but the measurement model (assets/), the data assets (data/
// but the default photo; the digits a reader is asked about and the sample trace a replay fetches are kept on
// their first fetch), the compressed twins, the host's _headers file, embed.js (a course page's script: a page on
// another origin is never controlled by this worker, so a cached copy would serve no one) and the bundler's
// *.LEGAL.txt licence texts (served, never loaded by a page): 1.7 kB less on a first visit. Nor the "Why?" texts
// (labs/<lab>.why.json, 64 kB for the four labs): a page fetches its own when a reader first opens a section, and the
// service worker keeps it then (web/sw.js); offline, a section never opened says it needs the network.
const NOT_PRECACHED = /^(assets\/|data\/(?!default-photo\.jpg$)|labs\/[^/]+\.why\.json$|_headers$|sw\.js$|embed\.js$)|\.(br|gz)$|\.LEGAL\.txt$/;

/**
 * dist/sw.js from web/sw.js with the precache list (each file with the SHA-256 of its bytes) and a version
 * that changes when any listed file does.
 */
async function write_service_worker(dir) {
  const files = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath ?? entry.path, entry.name).slice(dir.length + 1).split('\\').join('/');
    if (!NOT_PRECACHED.test(path)) files.push(path);
  }
  files.sort();
  const hash = createHash('sha256');
  const digests = {};   // path → SHA-256 of its bytes: the service worker caches those bytes or none
  let bytes = 0;
  for (const path of files) {
    const data = await readFile(join(dir, path));
    bytes += data.length;
    hash.update(`${path}\0${data.length}\0`).update(data);
    // The first 128 bits of its SHA-256: enough to tell a file of another deployment from this one's (a mix-up,
    // not an attacker), and half the bytes: the list is the bulk of sw.js, fetched on every first visit.
    digests[path] = createHash('sha256').update(data).digest('hex').slice(0, 32);
  }
  const version = hash.digest('hex').slice(0, 16);
  const template = await readFile(join(web, 'sw.js'), 'utf8');
  await writeFile(join(dir, 'sw.js'), template.replace('__VERSION__', version).replace("{ '__FILES__': '' }", JSON.stringify(digests)));
  return { files: files.length, bytes, version };
}

// The headers serve.mjs sends, for hosts that read a _headers file (Netlify, Cloudflare Pages).
const HEADERS_FILE = `/*
  Cross-Origin-Opener-Policy: same-origin
  Cross-Origin-Embedder-Policy: require-corp
  Cross-Origin-Resource-Policy: same-origin
  X-Content-Type-Options: nosniff
  Content-Security-Policy: default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; style-src 'self'
/embed.js
  Cross-Origin-Resource-Policy: cross-origin
`;

// Text and wasm are served compressed (scripts/serve.mjs picks <file>.br or <file>.gz by Accept-Encoding, as
// nginx gzip_static, Netlify and Cloudflare Pages do), and so are the data assets (data/: the digits halve).
// The model shards under assets/ are noise: not worth it.
const COMPRESSIBLE = /\.(html|js|mjs|css|json|wasm|svg|txt|map|webmanifest)$|^data\/[^/]+\.bin$/;

/** Writes <file>.br and <file>.gz beside every compressible file under dir; returns the byte totals. */
async function precompress(dir) {
  const totals = { files: 0, raw: 0, br: 0, gz: 0 };
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath ?? entry.path, entry.name);
    if (!entry.isFile() || !COMPRESSIBLE.test(path.slice(dir.length + 1).split('\\').join('/'))) continue;
    const data = await readFile(path);
    const br = brotliCompressSync(data, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: data.length } });
    const gz = gzipSync(data, { level: 9 });
    await writeFile(`${path}.br`, br);
    await writeFile(`${path}.gz`, gz);
    totals.files += 1; totals.raw += data.length; totals.br += br.length; totals.gz += gz.length;
  }
  return totals;
}

/** Writes the shards (xorshift32 noise seeded by the shard number: same bytes every build) and the index. */
async function write_model() {
  const dir = join(out, 'assets');
  await mkdir(dir, { recursive: true });
  const width = String(MODEL_SHARDS).length;
  const shards = [];
  for (let i = 1; i <= MODEL_SHARDS; ++i) {
    const words = new Uint32Array(MODEL_SHARD_BYTES / 4);
    let x = (0x9e3779b9 * i) >>> 0 || 1;
    for (let j = 0; j < words.length; ++j) {
      x ^= x << 13; x >>>= 0;
      x ^= x >>> 17;
      x ^= x << 5; x >>>= 0;
      words[j] = x;
    }
    const name = `model-${String(i).padStart(width, '0')}-of-${MODEL_SHARDS}.bin`;
    await writeFile(join(dir, name), new Uint8Array(words.buffer));
    shards.push(name);
  }
  await writeFile(join(dir, 'model.json'), `${JSON.stringify({ shard_bytes: MODEL_SHARD_BYTES, shards }, null, 2)}\n`);
}

main().catch((error) => {
  console.error(`error: ${error.message}`);
  process.exit(1);
});
