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
};

/** Starts a static server for `dir`; resolves to { server, url }. Port 0 picks a free one. */
export function serve(dir, { port = 0, host = '127.0.0.1' } = {}) {
  const server = createServer((request, response) => {
    const url = new URL(request.url, 'http://localhost');
    let path = normalize(join(dir, decodeURIComponent(url.pathname)));
    if (path !== dir && !path.startsWith(dir + sep)) {
      response.writeHead(403).end();
      return;
    }
    try {
      if (statSync(path).isDirectory()) path = join(path, 'index.html');
      statSync(path);
    } catch {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': TYPES[extname(path)] || 'application/octet-stream', 'cache-control': 'no-cache' });
    createReadStream(path).pipe(response);
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
