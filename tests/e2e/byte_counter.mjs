// A counting proxy for byte budgets (tests/e2e/budgets.spec.mjs, bench/page_timing.mjs): the browser loads the
// site through it, so every request counts — the page's, the cell workers', the service worker's — and its
// bytes are counted as they cross the wire, compressed as served (status line, headers and body; the body is
// passed through untouched). Each response is recorded with the moment its request arrived, so a test can
// count what was asked for before a given moment (the first result).
import { createServer, request as http_request } from 'node:http';

/** Starts a proxy in front of `target` (http://127.0.0.1:PORT/); resolves with {url, responses, bytes(), reset(), set_offline(), stop()}. */
export async function start_counter(target) {
  const upstream = new URL(target);
  const responses = [];   // {path, status, bytes, at_ms (request arrival, Date.now()), done}
  let offline = false;    // set_offline(true): every connection is refused, as with the network down
  const server = createServer((req, res) => {
    if (offline) return req.socket.destroy();
    const record = { method: req.method, path: req.url, status: 0, bytes: 0, at_ms: Date.now(), done: false };
    responses.push(record);
    const forward = http_request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url,
      headers: { ...req.headers, host: upstream.host } }, (answer) => {
      record.status = answer.statusCode;
      // The header block as it crosses the wire: status line, "name: value\r\n" each, blank line.
      record.bytes += `HTTP/1.1 ${answer.statusCode} ${answer.statusMessage}\r\n`.length + 2 +
        answer.rawHeaders.reduce((sum, part) => sum + Buffer.byteLength(part) + 2, 0);   // ": " or "\r\n"
      res.writeHead(answer.statusCode, answer.statusMessage, answer.rawHeaders);
      answer.on('data', (chunk) => { record.bytes += chunk.length; });
      answer.on('end', () => { record.done = true; });
      answer.pipe(res);
    });
    forward.on('error', () => { record.status = 502; record.done = true; res.destroy(); });
    req.pipe(forward);
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${server.address().port}/`;
  return {
    url,
    responses,
    /** Bytes of the responses to requests that arrived before `before_ms` (Date.now() time; default: all). */
    bytes(before_ms = Infinity) { return responses.filter((r) => r.at_ms < before_ms).reduce((sum, r) => sum + r.bytes, 0); },
    reset() { responses.length = 0; },
    set_offline(is_offline) { offline = is_offline; if (is_offline) server.closeAllConnections?.(); },
    stop() { return new Promise((done) => { server.closeAllConnections?.(); server.close(() => done()); }); },
  };
}

/** Injected into pages: window.__sl_first_result_ms / __sl_all_done_ms (Date.now()) once a cell / every cell has finished (or waits for a button). */
export const RESULT_CLOCK = `(() => {
  const settled = (cell) => ['done', 'error', 'waiting'].includes(cell.dataset.state);   // waiting: for a button
  const watch = () => {
    const cells = [...document.querySelectorAll('.sl-cell')];
    if (!window.__sl_first_result_ms && cells.some((cell) => cell.dataset.state === 'done')) window.__sl_first_result_ms = Date.now();
    if (!window.__sl_all_done_ms && document.body?.dataset.ready === 'true' && cells.length && cells.every(settled)) window.__sl_all_done_ms = Date.now();
  };
  new MutationObserver(watch).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-state', 'data-ready'], childList: true });
})();`;
