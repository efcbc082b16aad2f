// scripts/serve.mjs sends the precompressed twin that scripts/build.mjs wrote, by Accept-Encoding, and answers
// a long link with the page (a very long one with a page that says so), never Node's bare 431.
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
    for (const path of ['lab.html', 'serving_lab.wasm', 'worker.js', 'labs/queues.json']) {
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

test('a link with a 100 KB query gets the page; one longer than a browser keeps gets a page saying so (414)', async () => {
  const server = await start_server();
  try {
    const page = await readFile(join(DIST, 'lab.html'));
    const long = await get(`${server.url}lab.html?lab=queues&littles-law.lambda=${'9'.repeat(100_000)}`, {});
    assert.equal(long.status, 200);
    assert.ok(long.body.equals(page), 'the page itself');
    const too_long = await get(`${server.url}lab.html?lab=queues&x=${'a'.repeat(3 << 20)}`, {});
    assert.equal(too_long.status, 414);
    assert.match(too_long.headers['content-type'], /^text\/html/);
    assert.match(too_long.headers['content-security-policy'], /default-src 'self'/);
    const text = too_long.body.toString('utf8');
    assert.match(text, /This link is too long/);
    assert.match(text, /Liên kết này quá dài/);
    // The server keeps answering afterwards.
    assert.equal((await get(`${server.url}lab.html`, {})).status, 200);
  } finally {
    await server.stop();
  }
});
