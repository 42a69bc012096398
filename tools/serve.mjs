// Serves dist/site/ on localhost (npm start) and prints its URL; opens a
// browser where the desktop has one. Also used by the page tests.
import { spawn } from 'node:child_process';
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.py': 'text/plain; charset=utf-8', '.pto': 'text/plain; charset=utf-8', '.json': 'application/json',
  '.map': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon',
  '.xml': 'application/xml', '.woff2': 'font/woff2',
};

/**
 * What a request for `rawUrl` with `method` gets from a server of `dir`:
 * { status } or { status: 200, path } of a file inside `dir`. A path that
 * is not valid percent-encoding, holds a NUL or leaves `dir` is refused.
 */
export function route(dir, method, rawUrl) {
  if (method !== 'GET' && method !== 'HEAD') return { status: 405 };
  let pathname;
  try {
    // The path as sent (origin form), or an absolute URL's.
    const target = rawUrl.startsWith('/') ? rawUrl.replace(/[?#].*$/s, '') : new URL(rawUrl).pathname;
    pathname = decodeURIComponent(target);
  } catch {
    return { status: 400 }; // `%E0%A4%A`, `%zz`, `*`, ...: not a path
  }
  if (pathname.includes('\0')) return { status: 400 };
  let path = normalize(join(dir, pathname));
  if (path !== dir && !path.startsWith(dir + sep)) return { status: 403 };
  try {
    if (statSync(path).isDirectory()) path = join(path, 'index.html');
    if (!statSync(path).isFile()) return { status: 404 };
  } catch {
    return { status: 404 };
  }
  return { status: 200, path };
}

const REASONS = { 400: 'bad request', 403: 'forbidden', 404: 'not found', 405: 'method not allowed' };

/** Starts a static server for `dir`; resolves to { server, url }. Port 0 picks a free one. */
export function serve(dir, { port = 0, host = '127.0.0.1' } = {}) {
  const server = createServer((request, response) => {
    const { status, path } = route(dir, request.method, request.url);
    if (status !== 200) {
      const headers = { 'content-type': 'text/plain' };
      if (status === 405) headers.allow = 'GET, HEAD';
      response.writeHead(status, headers).end(REASONS[status]);
      return;
    }
    response.writeHead(200, { 'content-type': TYPES[extname(path)] || 'application/octet-stream', 'cache-control': 'no-cache' });
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    // A file gone between the stat and the read ends this response, not the server.
    createReadStream(path).on('error', () => response.destroy()).pipe(response);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve({ server, url: `http://${host}:${server.address().port}/` }));
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(fileURLToPath(new URL('..', import.meta.url)), 'dist', 'site');
  const wanted = Number(process.env.PORT || 8000);
  const started = await serve(root, { port: wanted }).catch(() => serve(root, { port: 0 }));
  console.log(`memory-map is served at ${started.url}  (Ctrl+C stops it)`);
  if (process.env.DISPLAY && !process.env.CI) {
    spawn('xdg-open', [started.url], { stdio: 'ignore', detached: true }).on('error', () => {}).unref();
  }
}
