#!/usr/bin/env node
// A tiny static server for the built site: node scripts/serve.mjs [--dir dist] [--port 8080] [--no-isolation]
// Listens on 127.0.0.1 and sends COOP/COEP/CORP so the page is cross-origin isolated (finer timer);
// --no-isolation leaves those headers out, to check that the page works without them.
// Files under assets/ (the generated model request/cold-start fetches) may be cached for an hour, so a
// warm fetch can come from the browser's HTTP cache; everything else is revalidated (no-cache).
// A file is sent as its precompressed twin (<file>.br, else <file>.gz, written by scripts/build.mjs) when the
// request's Accept-Encoding allows it, with Vary: Accept-Encoding — as nginx gzip_static does. Each answer
// carries an ETag, and a request whose If-None-Match holds it gets a 304.
// Every answer carries the site's Content-Security-Policy (no eval anywhere, worker included; docs/hosting.md), but a
// 304, which updates a stored answer that has it.
// URLs up to MAX_URL_BYTES reach the page, whose own checks name a value that is too long; a longer request
// line gets a small page saying the link is too long (HTTP 414), not Node's bare 431.
// --port 0 picks a free port. Prints "serving <dir> at <url>". Exits on SIGINT/SIGTERM.
import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';

const { values: options } = parseArgs({
  options: {
    dir: { type: 'string', default: 'dist' },
    port: { type: 'string', default: '8080' },
    'no-isolation': { type: 'boolean', default: false },
  },
});
const root = resolve(options.dir);
const port = Number(options.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`error: --port must be an integer in [0, 65535], got ${options.port}`);
  process.exit(2);
}

const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

// The same policy as dist/_headers and docs/hosting.md's nginx snippet.
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; style-src 'self'";
// Chromium opens URLs up to 2 MiB; Node's default header limit (16 KiB) would answer a long link with 431.
const MAX_URL_BYTES = 2 * 1024 * 1024;
const MAX_HEADER_BYTES = MAX_URL_BYTES + 64 * 1024;

const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/** The file under root that a URL path names, or null when the path escapes root. */
function file_for(url_path) {
  let path;
  try { path = decodeURIComponent(url_path.split('?')[0]); } catch { return null; }
  if (path.endsWith('/')) path += 'index.html';
  const file = normalize(join(root, path));
  return file === root || file.startsWith(root + sep) ? file : null;
}

const CACHEABLE_PREFIX = '/assets/';
const ENCODINGS = [['br', '.br'], ['gzip', '.gz']];   // in order of preference

/** Accept-Encoding "gzip, deflate, br;q=0.5" → the encodings it accepts (q > 0). */
function accepted(header) {
  return new Set(header.split(',').map((part) => part.trim().split(';')).filter(([, q]) => !q || Number(q.split('=')[1]) > 0)
    .map(([name]) => name.trim().toLowerCase()));
}

/** {file, size, encoding} of the precompressed twin the client accepts, or null. */
async function compressed_twin(file, accept_encoding) {
  const ok = accepted(accept_encoding);
  for (const [encoding, extension] of ENCODINGS) {
    if (!ok.has(encoding)) continue;
    const info = await stat(file + extension).catch(() => null);
    if (info?.isFile()) return { file: file + extension, size: info.size, encoding };
  }
  return null;
}

async function handle(request, response) {
  const url_path = new URL(request.url, 'http://localhost').pathname;
  const headers = {
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': CSP,
    'Cache-Control': url_path.startsWith(CACHEABLE_PREFIX) ? 'public, max-age=3600' : 'no-cache',
    ...(options['no-isolation'] ? {} : ISOLATION_HEADERS),
  };
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { ...headers, Allow: 'GET, HEAD' }).end();
    return;
  }
  const file = file_for(url_path);
  const info = file && (await stat(file).catch(() => null));
  if (!info || !info.isFile()) {
    response.writeHead(404, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' }).end('not found\n');
    return;
  }
  // embed.js is loaded by course pages of other origins (a no-cors script load, which CORP same-origin blocks).
  if (url_path === '/embed.js') headers['Cross-Origin-Resource-Policy'] = 'cross-origin';
  const twin = await compressed_twin(file, request.headers['accept-encoding'] || '');
  // An ETag per file version and encoding, so a revalidation (no-cache) of an unchanged file is a 304.
  const etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}${twin ? `-${twin.encoding}` : ''}"`;
  const validators = { ETag: etag, Vary: 'Accept-Encoding' };
  if ((request.headers['if-none-match'] || '').split(',').map((tag) => tag.trim()).includes(etag)) {
    // As RFC 9110 (15.4.5) asks of a 304: the fields a 200 would carry that guide the cache (Cache-Control, ETag,
    // Vary; Date is Node's), nothing else. The browser keeps the stored response's other headers (the CSP, the
    // isolation headers), and a revalidated file costs ~200 bytes instead of ~470.
    response.writeHead(304, { 'Cache-Control': headers['Cache-Control'], ...validators }).end();
    return;
  }
  response.writeHead(200, {
    ...headers,
    ...validators,
    'Content-Type': MIME_TYPES[extname(file).toLowerCase()] || 'application/octet-stream',
    'Content-Length': twin ? twin.size : info.size,
    ...(twin ? { 'Content-Encoding': twin.encoding } : {}),
  });
  if (request.method === 'HEAD') return response.end();
  createReadStream(twin ? twin.file : file).on('error', () => response.destroy()).pipe(response);
}

// What a reader sees for a link longer than any browser keeps (no script, no style: the CSP holds here too).
const TOO_LONG_PAGE = `<!doctype html>
<html lang="en"><meta charset="utf-8"><title>Link too long · Serving Lab</title>
<h1>This link is too long</h1>
<p>The address holds more than ${MAX_URL_BYTES / 1024 / 1024} MiB, more than a browser keeps, so the page cannot read its
parameters. Open <a href="/">Serving Lab</a> and set them in the form, or share a shorter link.</p>
<p lang="vi">Liên kết này quá dài (hơn ${MAX_URL_BYTES / 1024 / 1024} MiB) nên trang không đọc được các tham số. Hãy mở
<a href="/">Serving Lab</a> và nhập chúng vào biểu mẫu, hoặc chia sẻ một liên kết ngắn hơn.</p>
</html>
`;

const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (request, response) => {
  handle(request, response).catch(() => {
    if (!response.headersSent) response.writeHead(500).end();
    else response.destroy();
  });
});

// Node answers a request whose line and headers exceed maxHeaderSize before any handler sees it: say why.
server.on('clientError', (error, socket) => {
  if (!socket.writable) return socket.destroy();
  if (error.code !== 'HPE_HEADER_OVERFLOW') return socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
  const body = Buffer.from(TOO_LONG_PAGE);
  socket.end(`HTTP/1.1 414 URI Too Long\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: ${body.length}\r\n` +
    `Content-Security-Policy: ${CSP}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`);
});

server.listen(port, '127.0.0.1', () => {
  const { port: actual } = server.address();
  const isolation = options['no-isolation'] ? ' (no cross-origin isolation headers)' : '';
  console.log(`serving ${root} at http://127.0.0.1:${actual}/${isolation}`);
});

function shut_down() {
  server.close(() => process.exit(0));
  server.closeAllConnections();
  setTimeout(() => process.exit(0), 1000).unref();
}
process.on('SIGINT', shut_down);
process.on('SIGTERM', shut_down);
