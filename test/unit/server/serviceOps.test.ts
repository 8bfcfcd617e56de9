// What running several instances behind a proxy relies on: the health check (asked of the storage on
// every request, never cached), the client's address behind a trusted proxy (for the write API's
// per-address bound) and ignored otherwise, and the graceful stop (no new connections, the answers
// under way finished). Over real loopback HTTP.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import * as net from 'node:net';
import { inProcessFetch } from '../../../src/server/http/fetchHandler';
import { memoryStore } from '../../../src/server/catalog/memoryStore';
import { loadSampleDataset } from '../../../src/server/catalog/sampleDataset';
import { startServer } from '../../../src/server/http/server';
import type { CatalogStore } from '../../../src/server/store';
import { request } from '../../helpers/referenceService';
import { startWritableService, type WritableService } from '../../helpers/writableService';

describe('reference service: GET /healthz', function () {
  this.timeout(30_000);

  it('answers 200 "ok" in the read-only service, never to be cached, readable from any origin', async () => {
    const server = await startServer({ port: 0 });
    try {
      for (let i = 0; i < 2; i++) {
        const res = await request(server.url, '/healthz');
        assert.equal(res.status, 200);
        assert.equal(res.text, 'ok\n');
        assert.equal(res.headers['cache-control'], 'no-store');
        assert.equal(res.headers['access-control-allow-origin'], '*');
        assert.equal(res.headers.etag, undefined, 'no ETag: nothing to revalidate');
      }
      const head = await request(server.url, '/healthz', { method: 'HEAD' });
      assert.equal(head.status, 200);
      assert.equal(head.body.length, 0);
      assert.equal((await request(server.url, '/healthz.xml')).status, 404, 'one path only');
      assert.equal((await request(server.url, '/healthz', { method: 'POST' })).status, 405);
    } finally {
      await server.close();
    }
  });

  it('answers the same in process, as the extension\'s sample service', async () => {
    const res = await inProcessFetch(loadSampleDataset())('http://sample.invalid/healthz');
    assert.equal(res.status, 200);
    assert.equal(await res.text(), 'ok\n');
    assert.equal(res.headers.get('cache-control'), 'no-store');
  });

  it('asks the storage each time: 200 while it answers, 503 once it does not, whatever was answered before', async () => {
    const service = await startWritableService();
    let closed = false;
    try {
      const up = await request(service.url, '/healthz');
      assert.equal(up.status, 200);
      assert.equal(up.headers['access-control-allow-origin'], '*');
      // Pages kept from before the database went away would still be served; the health check is not one of them.
      assert.equal((await request(service.url, '/codes/recent.xml')).status, 200);
      await service.sql.close();
      closed = true;
      const down = await request(service.url, '/healthz');
      assert.equal(down.status, 503);
      assert.equal(down.text, 'the storage does not answer\n');
      assert.equal(down.headers['cache-control'], 'no-store');
    } finally {
      await service.server.close();
      if (!closed) await service.store.close();
    }
  });

  it('answers 503 when the storage hangs, within a few seconds', async () => {
    const hanging: CatalogStore = { ...memoryStore(loadSampleDataset()), ping: () => new Promise<void>(() => undefined) };
    // The memory store's fields are getters and methods: the spread keeps what the Responder reads.
    const server = await startServer({ port: 0, store: hanging });
    try {
      const started = performance.now();
      const res = await request(server.url, '/healthz', {});
      assert.equal(res.status, 503);
      assert.ok(performance.now() - started < 4_000, `answered after ${Math.round(performance.now() - started)} ms`);
    } finally {
      await server.close();
    }
  });
});

describe('reference service: the client address behind a proxy', function () {
  this.timeout(60_000);
  let service: WritableService | undefined;
  afterEach(async () => {
    await service?.close();
    service = undefined;
  });

  /** A write without a token, as if forwarded for `client` (or sent with that header by anyone). */
  const refused = (url: string, forwardedFor?: string) =>
    request(url, '/codes.xml', {
      method: 'POST',
      headers: { 'Content-Type': 'application/xml', ...(forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {}) },
      body: '<code/>',
    });

  async function trusting(trustProxy: boolean): Promise<string> {
    service = await startWritableService({ refusedPerMinute: 2 });
    // A second server over the same store, as `serve --trust-proxy` would be.
    const server = await startServer({ port: 0, store: service.store, contributions: { refusedPerMinute: 2 }, trustProxy });
    const close = service.close.bind(service);
    service.close = async () => {
      await server.close();
      await close();
    };
    return server.url;
  }

  it('without --trust-proxy, ignores X-Forwarded-For: one address is one address whatever it claims', async () => {
    const url = await trusting(false);
    assert.equal((await refused(url, '203.0.113.1')).status, 401);
    assert.equal((await refused(url, '203.0.113.2')).status, 401);
    const third = await refused(url, '203.0.113.3');
    assert.equal(third.status, 429);
    assert.match(third.text, /more than 2 requests without an accepted token in a minute from this address/);
    assert.ok(Number(third.headers['retry-after']) >= 1);
  });

  it('with --trust-proxy, counts each forwarded client apart, by the address the proxy appended', async () => {
    const url = await trusting(true);
    assert.equal((await refused(url, '203.0.113.1')).status, 401);
    // What the client wrote before the proxy's own entry is the client's word, not its address.
    assert.equal((await refused(url, '198.51.100.7, 203.0.113.1')).status, 401);
    assert.equal((await refused(url, '203.0.113.1')).status, 429, '203.0.113.1 used its two');
    assert.equal((await refused(url, '198.51.100.7, 203.0.113.2')).status, 401, 'another client is not held up');
    // Not an address: the peer's own is counted (loopback, unused so far here).
    assert.equal((await refused(url, 'unknown')).status, 401);
  });

  it('a refusal counted against an address does not keep a person with an accepted token there from writing', async () => {
    const url = await trusting(true);
    const token = await service!.addPerson('Ana');
    assert.equal((await refused(url, '203.0.113.5')).status, 401);
    assert.equal((await request(url, '/codes.xml', {
      method: 'POST',
      headers: { 'Content-Type': 'application/xml', Authorization: `Bearer ${token}`, 'X-Forwarded-For': '203.0.113.5' },
      body: '<code><title>t</title><language>Ruby</language><comment>c</comment><code>p 1</code><tag-list>x</tag-list></code>',
    })).status, 201);
  });

  it('past the default bound of refused tokens from an address, a good token from that address still reads its account and writes', async () => {
    service = await startWritableService();
    const token = await service.addPerson('Ana');
    const good = { Authorization: `Bearer ${token}` };
    // Signed in once before the guessing starts, and once only after it.
    assert.equal((await request(service.url, '/account.xml', { headers: good })).status, 200);
    const bad = { Authorization: 'Bearer guessed-not-given' };
    for (let i = 0; i < 60; i++) assert.equal((await request(service.url, '/account.xml', { headers: bad })).status, 401);
    const stopped = await request(service.url, '/account.xml', { headers: bad });
    assert.equal(stopped.status, 429, 'the 61st refused token in a minute is stopped');
    assert.equal((await request(service.url, '/account.xml', { headers: good })).status, 200);
    assert.equal((await request(service.url, '/codes.xml', {
      method: 'POST',
      headers: { ...good, 'Content-Type': 'application/xml' },
      body: '<code><title>t</title><language>Ruby</language><comment>c</comment><code>p 1</code><tag-list>x</tag-list></code>',
    })).status, 201);
    assert.equal((await request(service.url, '/account.xml', { headers: bad })).status, 429, 'guessing stays stopped');
  });
});

describe('reference service: a graceful stop', function () {
  this.timeout(30_000);

  /** The sample catalog in memory, whose code reads wait until `release` is called. */
  function slowStore(): { store: CatalogStore; asked: Promise<void>; release: () => void } {
    const inner = memoryStore(loadSampleDataset());
    let release!: () => void;
    let markAsked!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const asked = new Promise<void>((r) => (markAsked = r));
    const store: CatalogStore = {
      ...inner,
      get version() {
        return inner.version;
      },
      code: async (id) => {
        markAsked();
        await gate;
        return inner.code(id);
      },
    };
    return { store, asked, release };
  }

  function connect(port: number): Promise<net.Socket> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
      socket.once('error', reject);
    });
  }

  it('stops accepting at once, finishes the answer under way (closing its connection), then resolves', async () => {
    const { store, asked, release } = slowStore();
    const server = await startServer({ port: 0, store });
    const agent = new http.Agent({ keepAlive: true });
    try {
      // An idle kept-alive connection, and a request that waits on the store.
      const idle = await connect(server.port);
      const idleClosed = new Promise<void>((r) => idle.once('close', () => r()));
      const slow = new Promise<{ status: number; connection?: string; body: string }>((resolve, reject) => {
        http.get(`${server.url}/codes/1.xml`, { agent }, (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (d: string) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
        }).on('error', reject);
      });
      await asked;
      let drained = false;
      const drain = server.drain().then(() => (drained = true));
      await idleClosed;
      await assert.rejects(connect(server.port), { code: 'ECONNREFUSED' }, 'no new connection once stopping');
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(drained, false, 'the answer under way is waited for');
      release();
      const answer = await slow;
      assert.equal(answer.status, 200);
      assert.match(answer.body, /<code>/);
      assert.equal(answer.connection, 'close');
      await drain;
    } finally {
      release();
      agent.destroy();
      await server.close();
    }
  });

  it('ends what is still under way after the grace period', async () => {
    const { store, asked, release } = slowStore();
    const server = await startServer({ port: 0, store });
    try {
      const slow = request(server.url, '/codes/1.xml');
      await asked;
      const started = performance.now();
      await server.drain(300);
      assert.ok(performance.now() - started < 3_000);
      await assert.rejects(slow, 'the unfinished answer is cut off');
    } finally {
      release();
      await server.close();
    }
  });
});
