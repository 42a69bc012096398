// npm start's server (tools/serve.mjs) under hostile requests: each gets an
// answer, none a file outside the site, and the page is still served after.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { serve } from '../../tools/serve.mjs';

let server;
let port;
const outside = 'SECRET-OUTSIDE-THE-SITE';

before(async () => {
  const root = mkdtempSync(join(tmpdir(), 'mm-serve-'));
  const site = join(root, 'site');
  mkdirSync(join(site, 'examples'), { recursive: true });
  writeFileSync(join(site, 'index.html'), '<!doctype html><title>memory-map</title>');
  writeFileSync(join(site, 'examples', 'a.py'), 'x = 1\n');
  writeFileSync(join(root, 'secret.txt'), outside);
  writeFileSync(join(root, 'site-secret.txt'), outside); // shares the site's name as a prefix
  const started = await serve(site);
  server = started.server;
  port = Number(new URL(started.url).port);
});
after(() => new Promise((resolve) => server.close(resolve)));

/** Sends `request` as raw bytes (no client-side normalising of the path);
 * resolves to { status, body } ({ status: 0 } when the server closed). */
function raw(request) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks = [];
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', () => {});
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4) });
    });
    socket.write(request); // not end(): a half-closed client may get no answer
  });
}

const get = (path, method = 'GET') => raw(`${method} ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);

test('malformed, escaping and unusual requests are answered and never reach outside the site', async () => {
  const cases = [
    ['/%E0%A4%A', 400], ['/%zz', 400], ['/%', 400], ['/a%00b', 400], ['/%00', 400],
    ['/../secret.txt', 403], ['/..%2fsecret.txt', 403], ['/%2e%2e/secret.txt', 403], ['/%2E%2E%2Fsecret.txt', 403],
    ['/examples/..%2f..%2fsecret.txt', 403], ['/%2e%2e%5csecret.txt', 404], ['/..%5c..%5csecret.txt', 404],
    ['/%252e%252e/secret.txt', 404], ['/../site-secret.txt', 403], ['/..%2fsite-secret.txt', 403],
    ['//secret.txt', 404], ['/examples', 404], ['/nope.html', 404],
  ];
  for (const [path, status] of cases) {
    const answer = await get(path);
    assert.equal(answer.status, status, path);
    assert.ok(!answer.body.includes(outside), `${path} served a file outside the site`);
  }
  assert.match((await get('/examples/a.py')).body, /x = 1\n/);
});

test('a 100 KB path, a HEAD and a POST are answered; the page is served after them all', async () => {
  const long = await get(`/${'a'.repeat(100_000)}`);
  assert.ok(long.status === 431 || long.status === 404 || long.status === 0, `status ${long.status}`);
  const head = await get('/', 'HEAD');
  assert.equal(head.status, 200);
  assert.equal(head.body, '');
  assert.equal((await get('/', 'POST')).status, 405);
  assert.equal((await raw('garbage\r\n\r\n')).status, 400);
  const page = await get('/');
  assert.equal(page.status, 200);
  assert.match(page.body, /<title>memory-map<\/title>/);
});
