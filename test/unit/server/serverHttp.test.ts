// The reference service as an HTTP server: headers, ETags and 304, HEAD, 405 with Allow, 400 for a
// bad page, 404 for anything that is not a catalog resource (path tricks included), and a close()
// that really ends keep-alive connections.

import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import * as net from 'node:net';
import { parseDataset } from '../../../src/server/catalog/dataset';
import { startServer, type RunningServer } from '../../../src/server/http/server';
import { readFixture, request } from '../../helpers/referenceService';

describe('reference service HTTP', () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer({ catalog: parseDataset(readFixture('escaping.json'), 'escaping.json') });
  });
  after(() => server.close());

  it('listens on loopback by default, with a url without a trailing slash', () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(server.url, `http://127.0.0.1:${server.port}`);
    assert.ok(server.port > 0);
  });

  it('sends XML with its type, length, a strong ETag and a public cache lifetime', async () => {
    const res = await request(server.url, '/codes/recent.xml');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'application/xml; charset=utf-8');
    assert.equal(res.headers['content-length'], String(res.body.length));
    assert.equal(res.headers['cache-control'], 'public, max-age=60');
    assert.match(res.headers.etag ?? '', /^"[A-Za-z0-9_-]+"$/);
  });

  it('gives the same bytes the same ETag, and different bodies different ones', async () => {
    const a = await request(server.url, '/codes/recent.xml');
    const b = await request(server.url, '/codes/recent.xml?page=1');
    const c = await request(server.url, '/codes/popular.xml');
    const d = await request(server.url, '/codes/recent');
    assert.deepEqual(a.body, b.body);
    assert.equal(a.headers.etag, b.headers.etag);
    assert.notDeepEqual(a.body, c.body);
    assert.notEqual(a.headers.etag, c.headers.etag);
    assert.notEqual(a.headers.etag, d.headers.etag);
  });

  it('answers 304 without a body to a matching If-None-Match: exact, in a list, weak, or *', async () => {
    const { headers } = await request(server.url, '/codes/7.xml');
    const etag = headers.etag!;
    for (const inm of [etag, `"nope", ${etag}`, `W/${etag}`, '*']) {
      const res = await request(server.url, '/codes/7.xml', { headers: { 'If-None-Match': inm } });
      assert.equal(res.status, 304, inm);
      assert.equal(res.body.length, 0);
      assert.equal(res.headers.etag, etag);
      assert.equal(res.headers['cache-control'], 'public, max-age=60');
    }
    const head = await request(server.url, '/codes/7.xml', { method: 'HEAD', headers: { 'If-None-Match': etag } });
    assert.equal(head.status, 304);
    const other = await request(server.url, '/codes/7.xml', { headers: { 'If-None-Match': '"something-else"' } });
    assert.equal(other.status, 200);
    assert.ok(other.body.length > 0);
    const missing = await request(server.url, '/codes/999.xml', { headers: { 'If-None-Match': '*' } });
    assert.equal(missing.status, 404, 'no representation, nothing to be "not modified"');
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    for (const path of ['/codes/recent.xml', '/codes/7', '/']) {
      const get = await request(server.url, path);
      const head = await request(server.url, path, { method: 'HEAD' });
      assert.equal(head.status, 200);
      assert.equal(head.body.length, 0);
      for (const h of ['content-type', 'content-length', 'etag', 'cache-control']) assert.equal(head.headers[h], get.headers[h], `${path} ${h}`);
    }
  });

  it('refuses other methods with 405 and Allow: GET, HEAD, OPTIONS', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const res = await request(server.url, '/codes/recent.xml', { method });
      assert.equal(res.status, 405, method);
      assert.equal(res.headers.allow, 'GET, HEAD, OPTIONS');
      assert.equal(res.headers['content-type'], 'application/xml; charset=utf-8');
      assert.match(res.text, /<error>only GET, HEAD and OPTIONS are allowed: this service is read-only \(`refactor-browser serve --data-dir DIR` starts one that takes contributions\)<\/error>/);
    }
    const html = await request(server.url, '/codes/7', { method: 'POST' });
    assert.equal(html.status, 405);
    assert.equal(html.headers['content-type'], 'text/html; charset=utf-8');
  });

  it('reads ?page=0 and a page that is not a number as page 1, as the original service did', async () => {
    const first = await request(server.url, '/codes/recent.xml');
    for (const q of ['page=0', 'page=x', 'page=1.5', 'page=', 'page=%201', 'page=-0', 'page=abc', 'page=1']) {
      const xml = await request(server.url, `/codes/recent.xml?${q}`);
      assert.equal(xml.status, 200, q);
      assert.deepEqual(xml.body, first.body, q);
      assert.equal((await request(server.url, `/tags/speed?${q}`)).status, 200, q);
    }
    const second = await request(server.url, '/codes/recent.xml?page=2');
    assert.equal(second.status, 200);
    assert.notDeepEqual(second.body, first.body);
    assert.deepEqual((await request(server.url, '/codes/recent.xml?page=02')).body, second.body, 'leading zeros');
  });

  it('refuses a negative page, one past 999999999 or two pages with 400 and a one-line reason', async () => {
    for (const q of ['page=-1', 'page=-25', 'page=1&page=2', 'page=10000000000']) {
      const xml = await request(server.url, `/codes/recent.xml?${q}`);
      assert.equal(xml.status, 400, q);
      assert.equal(xml.headers['content-type'], 'application/xml; charset=utf-8');
      assert.match(xml.text, /<errors>\s*<error>page must not be negative or past 999999999, nor given twice \(e\.g\. \?page=2\)<\/error>\s*<\/errors>/);
      assert.equal(xml.headers.etag, undefined);
      const html = await request(server.url, `/tags/speed?${q}`);
      assert.equal(html.status, 400, q);
      assert.match(html.text, /page must not be negative/);
    }
  });

  it('answers an empty list past the last page', async () => {
    const xml = await request(server.url, '/codes/recent.xml?page=999');
    assert.equal(xml.status, 200);
    assert.match(xml.text, /<codes type="array"><\/codes>/);
  });

  it('answers 404 for an unknown code and for every path that is not a resource', async () => {
    const paths = [
      '/codes/999.xml', '/codes/999-x', '/codes/abc.xml', '/codes.xml', '/codes', '/codes/recent/ruby/extra.xml',
      '/codes/..%2F..%2Fetc%2Fpasswd.xml', '/codes/../../etc/passwd', '/../package.json', '/%2e%2e/%2e%2e/package.json',
      '/etc/passwd', '/package.json', '/src/server/sample-catalog.json', '/sample-catalog.json', '/out/src/server/server.js',
      '/codes/%E0%A4%A.xml', '//codes/recent.xml', '/codes/recent.xml/', '/codes//recent.xml', '/refactorings.xml',
      '/refactorings/popular.xml', '/tags.xml', '/tags', '/index.xml', '/.xml', '/codes/recent.XML',
    ];
    for (const path of paths) {
      const res = await request(server.url, path);
      assert.equal(res.status, 404, path);
      assert.ok(!/root:|"name":\s*"refactor-browser"|"users"\s*:/.test(res.text), `${path} leaks nothing`);
      assert.equal(res.headers['content-type'], path.endsWith('.xml') ? 'application/xml; charset=utf-8' : 'text/html; charset=utf-8', path);
    }
    const res = await request(server.url, '/codes/999.xml');
    assert.match(res.text, /<error>no code with id 999<\/error>/);
  });

  it('serves a person as /users/<id>.xml and /users/<id>, with an ETag and 304 as any read; an unknown id is 404', async () => {
    const res = await request(server.url, '/users/1.xml');
    assert.equal(res.status, 200);
    assert.match(res.text, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<user>\n {2}<id type="integer">1<\/id>\n {2}<identity-url>[^<]*<\/identity-url>\n {2}<name>[^<]+<\/name>\n {2}<rating type="float">-?[0-9.]+<\/rating>\n {2}<refactors-count type="integer">\d+<\/refactors-count>\n {2}<website>[^<]*<\/website>\n<\/user>\n$/);
    assert.equal(res.headers['cache-control'], 'public, max-age=60');
    const etag = res.headers.etag!;
    assert.match(etag, /^"[A-Za-z0-9_-]+"$/);
    assert.equal((await request(server.url, '/users/1.xml', { headers: { 'If-None-Match': etag } })).status, 304);
    const page = await request(server.url, '/users/1');
    assert.equal(page.status, 200);
    assert.match(page.text, /<link rel="alternate" type="application\/xml" href="\/users\/1\.xml">/);
    for (const path of ['/users/99999.xml', '/users/99999', '/users/x.xml', '/users.xml', '/users/1/codes.xml']) {
      assert.equal((await request(server.url, path)).status, 404, path);
    }
    assert.match((await request(server.url, '/users/99999.xml')).text, /<error>no user with id 99999<\/error>/);
  });

  it('accepts an absolute-form request target, as a proxy sends it', async () => {
    const direct = await request(server.url, '/codes/recent.xml');
    const absolute = await request(server.url, `${server.url}/codes/recent.xml`);
    assert.equal(absolute.status, 200);
    assert.deepEqual(absolute.body, direct.body);
  });
});

describe('reference service lifecycle', () => {
  it('close() ends idle keep-alive connections and resolves promptly; a second close() is harmless', async () => {
    const server = await startServer({ catalog: parseDataset(readFixture('escaping.json'), 'escaping.json') });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    let stalled: net.Socket | undefined;
    try {
      let answered!: () => void;
      const responseEnded = new Promise<void>((resolve) => (answered = resolve));
      const socketClosed = new Promise<void>((resolve, reject) => {
        http
          .get(`${server.url}/codes/recent.xml`, { agent }, (res) => {
            res.socket.once('close', () => resolve());
            res.once('end', answered);
            res.resume();
          })
          .on('error', reject);
      });
      // A client that stalls halfway through its request headers: not idle, so only closing every
      // connection ends it before the server's request timeout.
      const socket = net.connect(server.port, '127.0.0.1');
      stalled = socket;
      const stalledClosed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      socket.on('error', () => {});
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write('GET /codes/recent.xml HTTP/1.1\r\nHost: x\r\n');
      // The response has finished, so its socket is idle in the agent's pool.
      await responseEnded;
      // Bounded, so that a regression fails here (and the finally block frees the sockets) instead of
      // hanging; the server's own request timeout is minutes away, so 3 s is room for a loaded machine.
      const within3s = <T>(p: Promise<T>) => Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 3000).unref())]);
      assert.ok(await within3s(server.close()), 'close() resolves without waiting for connections to time out');
      assert.ok(await within3s(Promise.all([socketClosed, stalledClosed])), 'both connections were ended');
      await server.close();
      await assert.rejects(request(server.url, '/codes/recent.xml'), { code: 'ECONNREFUSED' });
    } finally {
      // If close() ever regresses, these would keep mocha alive after the failure.
      agent.destroy();
      stalled?.destroy();
    }
  });

  it('rejects when the port is taken, and serves the sample catalog when given none', async () => {
    const first = await startServer({});
    try {
      await assert.rejects(startServer({ port: first.port }), { code: 'EADDRINUSE' });
      const res = await request(first.url, '/codes/recent.xml');
      assert.equal(res.status, 200);
      assert.equal((res.text.match(/<code>\n/g) ?? []).length, 25, 'a full first page from the sample catalog');
    } finally {
      await first.close();
    }
  });

  it('takes a host, writing an IPv6 one in brackets', async function () {
    let server: RunningServer;
    try {
      server = await startServer({ host: '::1' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EADDRNOTAVAIL' || (e as NodeJS.ErrnoException).code === 'EAFNOSUPPORT') this.skip();
      throw e;
    }
    try {
      assert.equal(server.url, `http://[::1]:${server.port}`);
      const res = await new Promise<number>((resolve, reject) => {
        http.get({ host: '::1', port: server.port, path: '/codes/recent.xml', agent: false }, (r) => {
          r.resume();
          resolve(r.statusCode ?? 0);
        }).on('error', reject);
      });
      assert.equal(res, 200);
    } finally {
      await server.close();
    }
  });
});

describe('reference service connection bounds', () => {
  /** Resolves to whether `p` settled within `ms`: a regression then fails an assertion instead of hanging. */
  const within = <T>(p: Promise<T>, ms: number) => Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref())]);

  /** A connection that sends nothing (or `written`), and when the server ended it. */
  async function connectSilently(port: number, written?: string): Promise<{ socket: net.Socket; closed: Promise<void>; isClosed: () => boolean }> {
    const socket = net.connect(port, '127.0.0.1');
    let ended = false;
    const closed = new Promise<void>((resolve) => socket.once('close', () => {
      ended = true;
      resolve();
    }));
    socket.on('error', () => {});
    // Whatever the server answers (a 408) is read, so that its close is seen.
    socket.resume();
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    if (written !== undefined) socket.write(written);
    return { socket, closed, isClosed: () => ended };
  }

  it('closes a connection that never sends anything, one that stalls in its headers, and an idle kept-alive one', async () => {
    const server = await startServer({ limits: { idleTimeoutMs: 200, headersTimeoutMs: 300, keepAliveTimeoutMs: 100 } });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets: net.Socket[] = [];
    try {
      const silent = await connectSilently(server.port);
      const stalled = await connectSilently(server.port, 'GET /codes/recent.xml HTTP/1.1\r\nHost: x\r\n');
      sockets.push(silent.socket, stalled.socket);
      const kept = await new Promise<{ closed: Promise<void> }>((resolve, reject) => {
        http.get(`${server.url}/codes/recent.xml`, { agent }, (res) => {
          const socket = res.socket;
          const closed = new Promise<void>((done) => socket.once('close', () => done()));
          res.resume();
          res.once('end', () => resolve({ closed }));
        }).on('error', reject);
      });
      assert.ok(await within(silent.closed, 5000), 'the silent connection was closed by the server');
      assert.ok(await within(stalled.closed, 5000), 'the stalled one too');
      assert.ok(await within(kept.closed, 5000), 'and the kept-alive one');
      // The server still answers.
      assert.equal((await request(server.url, '/codes/recent.xml')).status, 200);
    } finally {
      agent.destroy();
      for (const s of sockets) s.destroy();
      await server.close();
    }
  });

  it('answers a request while silent connections fill its bound: the oldest idle one is closed to make room', async () => {
    const bound = 8;
    // Timeouts far away: only the bound closes anything here.
    const server = await startServer({ limits: { maxConnections: bound, idleTimeoutMs: 60_000, headersTimeoutMs: 60_000, requestTimeoutMs: 60_000 } });
    const silent: Array<Awaited<ReturnType<typeof connectSilently>>> = [];
    try {
      for (let i = 0; i < 3 * bound; i++) silent.push(await connectSilently(server.port));
      const res = await request(server.url, '/codes/recent.xml');
      assert.equal(res.status, 200);
      // The server accepts in order, so it has seen every silent connection before the request's.
      const expected = silent.length - (bound - 2);
      const closedEnough = new Promise<void>((resolve) => {
        const check = () => (silent.filter((s) => s.isClosed()).length >= expected ? resolve() : setTimeout(check, 10));
        check();
      });
      assert.ok(await within(closedEnough, 5000), `${silent.filter((s) => s.isClosed()).length} of ${silent.length} silent connections closed, ${expected} expected`);
      // The oldest were the ones closed.
      assert.deepEqual(silent.map((s) => s.isClosed()), silent.map((_, i) => i < expected));
    } finally {
      for (const s of silent) s.socket.destroy();
      await server.close();
    }
  });
});
