// Loads the built wasm module under node, and runs the native CLI, so tests can compare the two.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// SERVING_LAB_WASM_DIR: another build of the module (a bench or a check against an older build).
const wasmDir = path.resolve(process.env.SERVING_LAB_WASM_DIR || path.join(root, 'build/wasm'));
export const cli = path.join(root, 'build/native/serving-lab');

export async function loadModule() {
  const require = createRequire(import.meta.url);
  const createServingLab = require(path.join(wasmDir, 'serving_lab.js'));
  // Node's built-in fetch cannot read file paths: hand the bytes over directly.
  return createServingLab({ wasmBinary: readFileSync(path.join(wasmDir, 'serving_lab.wasm')) });
}

/**
 * The inputs "asset.<name>" a cell's data assets fill (core/cell.h DataAsset), read from the wasm build
 * (cmake/Mnist.cmake writes them beside the module) as the page's worker fetches them from the site.
 */
export function assetInputs(cell) {
  return Object.fromEntries((cell.assets || []).map(({ name, path: site_path }) =>
    [`asset.${name}`, new Uint8Array(readFileSync(path.join(wasmDir, path.basename(site_path))))]));
}

/** Runs the native CLI with args; returns {status, stdout, stderr}. */
export function runCli(args) {
  try {
    const stdout = execFileSync(cli, args, { encoding: 'utf8', maxBuffer: 256 << 20, stdio: ['ignore', 'pipe', 'pipe'] });
    return { status: 0, stdout, stderr: '' };
  } catch (e) {
    return { status: e.status, stdout: e.stdout, stderr: e.stderr };
  }
}

/** The wasm result with typed arrays turned into plain arrays, comparable to the CLI's JSON. */
export function plain(result) {
  return JSON.parse(JSON.stringify(result, (k, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v)));
}
