// scripts/serve.mjs sends the precompressed twin that scripts/build.mjs wrote, by Accept-Encoding.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { DIST, start_server } from './helpers.mjs';

/** GET url with headers → {status, headers, body: Buffer} (node's fetch would decompress behind our back). */
function get(url, headers) {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject).end();
  });
}

test('text and wasm are served as .br or .gz by Accept-Encoding, identical once decompressed, and revalidated with a 304', async () => {
  const server = await start_server();
  try {
    for (const path of ['lab.html', 'serving_lab.wasm', 'serving_lab.js', 'labs/queues.en.json']) {
      const original = await readFile(join(DIST, path));
      const br = await get(`${server.url}${path}`, { 'Accept-Encoding': 'gzip, deflate, br' });
      assert.equal(br.headers['content-encoding'], 'br', path);
      assert.equal(br.headers.vary, 'Accept-Encoding');
      assert.ok(br.body.length < original.length, `${path}: ${br.body.length} of ${original.length} bytes`);
      assert.ok(brotliDecompressSync(br.body).equals(original), path);
      const gz = await get(`${server.url}${path}`, { 'Accept-Encoding': 'gzip' });
      assert.equal(gz.headers['content-encoding'], 'gzip', path);
      assert.ok(gunzipSync(gz.body).equals(original), path);
      const plain = await get(`${server.url}${path}`, { 'Accept-Encoding': 'identity' });
      assert.equal(plain.headers['content-encoding'], undefined, path);
      assert.ok(plain.body.equals(original), path);
      const refused = await get(`${server.url}${path}`, { 'Accept-Encoding': 'br;q=0, gzip;q=0' });
      assert.equal(refused.headers['content-encoding'], undefined, `${path}: q=0 refuses an encoding`);
      // A revalidation of the same representation is a 304 without a body; another encoding's ETag differs.
      const again = await get(`${server.url}${path}`, { 'Accept-Encoding': 'br', 'If-None-Match': br.headers.etag });
      assert.equal(again.status, 304, path);
      assert.equal(again.body.length, 0, path);
      assert.notEqual(gz.headers.etag, br.headers.etag, path);
      const stale = await get(`${server.url}${path}`, { 'Accept-Encoding': 'br', 'If-None-Match': '"other"' });
      assert.equal(stale.status, 200, path);
    }
  } finally {
    await server.stop();
  }
});
