// The reference service answered in process (the fetch the extension uses for its sample catalog)
// and `serve` over loopback give a client the same status, reason phrase, headers and bytes, for
// every kind of request, so that what a test proves over loopback holds in a browser extension host.

import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { type Dataset } from '../../../src/server/catalog/dataset';
import { loadSampleDataset } from '../../../src/server/catalog/sampleDataset';
import { handle, inProcessFetch, type Fetch } from '../../../src/server/http/fetchHandler';
import { memoryStore } from '../../../src/server/catalog/memoryStore';
import { Responder } from '../../../src/server/http/responses';
import { startServer, type RunningServer } from '../../../src/server/http/server';
import { request } from '../../helpers/referenceService';

/** What only a connection adds: the in-process answer has no connection. */
const CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
const IN_PROCESS_ORIGIN = 'http://sample.invalid';

interface Seen {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: Buffer;
}

interface Exchange {
  method: string;
  path: string;
  headers?: Record<string, string>;
}

/** The target as a fetch client sends it: the URL parser's normalisation (`..`, escapes) applied. */
function wireTarget(path: string): string {
  const url = new URL(IN_PROCESS_ORIGIN + path);
  return url.pathname + url.search;
}

async function overLoopback(server: RunningServer, { method, path, headers }: Exchange): Promise<Seen> {
  const res = await request(server.url, wireTarget(path), { method, headers });
  const kept = Object.entries(res.headers).filter(([name]) => !CONNECTION_HEADERS.has(name));
  return { status: res.status, statusText: res.statusText, headers: Object.fromEntries(kept.map(([n, v]) => [n, String(v)])), body: res.body };
}

async function inProcess(fetch: Fetch, { method, path, headers }: Exchange): Promise<Seen> {
  const res = await fetch(IN_PROCESS_ORIGIN + wireTarget(path), { method, headers });
  return { status: res.status, statusText: res.statusText, headers: Object.fromEntries(res.headers), body: Buffer.from(await res.arrayBuffer()) };
}

async function assertSame(server: RunningServer, fetch: Fetch, exchange: Exchange): Promise<Seen> {
  const what = `${exchange.method} ${exchange.path} ${JSON.stringify(exchange.headers ?? {})}`;
  const [a, b] = [await overLoopback(server, exchange), await inProcess(fetch, exchange)];
  assert.equal(b.status, a.status, what);
  assert.equal(b.statusText, a.statusText, what);
  assert.deepEqual(b.headers, a.headers, what);
  assert.ok(b.body.equals(a.body), `${what}: ${b.body.length} bytes in process, ${a.body.length} over loopback`);
  return a;
}

const LISTS = ['/codes/recent', '/codes/popular', '/tags/style', '/tags/no-such-tag', '/refactorings/recent'];
const LANGUAGES = ['', '/ruby', '/cs', '/c%23', '/C++', '/vb.net', '/all', '/klingon'];
const PAGES = ['', '?page=2', '?page=3', '?page=0', '?page=abc', '?page=999'];

describe('reference service: in-process fetch and serve agree', () => {
  let server: RunningServer;
  let fetch: Fetch;
  before(async () => {
    const catalog = loadSampleDataset();
    server = await startServer({ catalog });
    fetch = inProcessFetch(catalog);
  });
  after(() => server.close());

  it('on every list, with and without a language and a page, as XML and as a page', async function () {
    this.timeout(30_000);
    for (const list of LISTS) {
      for (const language of LANGUAGES) {
        for (const page of PAGES) {
          await assertSame(server, fetch, { method: 'GET', path: `${list}${language}.xml${page}` });
          await assertSame(server, fetch, { method: 'GET', path: `${list}${language}${page}` });
        }
      }
    }
  });

  it('on codes, the index, 404, 400 and 405 answers, and HEAD', async () => {
    const paths = [
      '/', '/codes/1.xml', '/codes/1', '/codes/1-sum-an-array-of-prices.xml', '/codes/1-any-text', '/codes/53.xml',
      '/codes/99999.xml', '/codes/99999', '/codes/abc.xml', '/nothing-here', '/codes/recent.xml/', '/codes/../../etc/passwd',
      '/codes/%E0%A4%A.xml', '/codes/recent.xml?page=-1', '/tags/style?page=1&page=2', '/codes/recent.xml?page=10000000000',
    ];
    for (const path of paths) {
      for (const method of ['GET', 'HEAD', 'POST', 'DELETE']) await assertSame(server, fetch, { method, path });
    }
  });

  it('on conditional requests: 304 with the ETag (exact, listed, weak or *), 200 otherwise', async () => {
    for (const path of ['/codes/recent.xml', '/codes/7', '/tags/speed/ruby.xml', '/']) {
      const { headers } = await assertSame(server, fetch, { method: 'GET', path });
      const etag = headers.etag;
      for (const inm of [etag, `"nope", ${etag}`, `W/${etag}`, '*', '"something-else"']) {
        for (const method of ['GET', 'HEAD']) {
          const seen = await assertSame(server, fetch, { method, path, headers: { 'If-None-Match': inm } });
          assert.equal(seen.status, inm === '"something-else"' ? 200 : 304, `${method} ${path} ${inm}`);
        }
      }
    }
    await assertSame(server, fetch, { method: 'GET', path: '/codes/99999.xml', headers: { 'If-None-Match': '*' } });
  });

  it('on the CORS preflight, on any path', async () => {
    const preflight = { Origin: 'https://vscode.dev', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'content-type, if-none-match' };
    for (const path of ['/codes/recent.xml', '/codes/1', '/no/such/path', '/']) {
      const seen = await assertSame(server, fetch, { method: 'OPTIONS', path, headers: preflight });
      assert.equal(seen.status, 204);
    }
  });

  it('on a 500 when rendering fails', async () => {
    const sample = loadSampleDataset();
    const broken: Dataset = { ...sample, codes: { get: () => { throw new Error('a broken catalog'); } } as unknown as Dataset['codes'] };
    const failing = await startServer({ catalog: broken });
    try {
      const seen = await assertSame(failing, inProcessFetch(broken), { method: 'GET', path: '/codes/1.xml' });
      assert.equal(seen.status, 500);
    } finally {
      await failing.close();
    }
  });

  it('on any generated request (property)', async function () {
    this.timeout(60_000);
    const segment = fc.oneof(
      fc.constantFrom('codes', 'recent', 'popular', 'tags', 'refactorings', 'ruby', 'cs', 'c%23', 'C++', 'all', 'style', '1', '7-x', '..', '.', '%2F', '%', ''),
      fc.string({ maxLength: 8 }),
    );
    const exchange = fc.record({
      method: fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT'),
      path: fc
        .tuple(fc.array(segment, { maxLength: 4 }), fc.boolean(), fc.oneof(fc.constantFrom('', '?page=2', '?page=-1', '?page=x', '?page=1&page=1', '?q=1'), fc.string({ maxLength: 8 }).map((q) => `?${q}`)))
        .map(([segments, xml, query]) => `/${segments.join('/')}${xml ? '.xml' : ''}${query}`),
      headers: fc.option(fc.constantFrom('*', '"nope"', 'W/"nope"'), { nil: undefined }).map((inm) => (inm === undefined ? undefined : { 'If-None-Match': inm })),
    });
    await fc.assert(fc.asyncProperty(exchange, async (e) => {
      await assertSame(server, fetch, e);
    }), { numRuns: 300 });
  });
});

describe('reference service in process, as a fetch', () => {
  const fetch = inProcessFetch(loadSampleDataset());

  it('answers the catalog it was given, as handle() does', async () => {
    const viaFetch = await fetch(`${IN_PROCESS_ORIGIN}/codes/recent.xml`);
    const viaHandle = await handle(new Request(`${IN_PROCESS_ORIGIN}/codes/recent.xml`), new Responder(memoryStore(loadSampleDataset())));
    assert.equal(viaFetch.status, 200);
    assert.equal(viaHandle.headers.get('etag'), viaFetch.headers.get('etag'));
    assert.equal((await viaFetch.text()).match(/<code>\n/g)?.length, 25, 'a full first page of the sample catalog');
  });

  it('takes a Request or a URL as fetch does, and reports the URL it answered', async () => {
    const byRequest = await fetch(new Request(`${IN_PROCESS_ORIGIN}/codes/1.xml`, { headers: { 'Content-Type': 'text/xml' } }));
    assert.equal(byRequest.status, 200);
    assert.equal(byRequest.url, `${IN_PROCESS_ORIGIN}/codes/1.xml`);
    const byUrl = await fetch(new URL(`${IN_PROCESS_ORIGIN}/codes/1.xml?page=1#part`));
    assert.equal(byUrl.url, `${IN_PROCESS_ORIGIN}/codes/1.xml?page=1`, 'without the fragment, as fetch reports it');
  });

  it('has no body on HEAD, 204 and 304, as fetch over a connection has none', async () => {
    const get = await fetch(`${IN_PROCESS_ORIGIN}/codes/recent.xml`);
    const etag = get.headers.get('etag')!;
    for (const [init, status] of [[{ method: 'HEAD' }, 200], [{ method: 'OPTIONS' }, 204], [{ headers: { 'If-None-Match': etag } }, 304]] as const) {
      const res = await fetch(`${IN_PROCESS_ORIGIN}/codes/recent.xml`, init);
      assert.equal(res.status, status);
      assert.equal(res.body, null);
    }
  });

  it('rejects with the abort reason when the signal is already aborted, as fetch does', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(fetch(`${IN_PROCESS_ORIGIN}/codes/recent.xml`, { signal: controller.signal }), { name: 'AbortError' });
  });

  it('hands out a copy of the body: a reader changing its bytes changes no later answer', async () => {
    const first = new Uint8Array(await (await fetch(`${IN_PROCESS_ORIGIN}/codes/2.xml`)).arrayBuffer());
    const copy = first.slice();
    first.fill(0);
    const second = new Uint8Array(await (await fetch(`${IN_PROCESS_ORIGIN}/codes/2.xml`)).arrayBuffer());
    assert.deepEqual(second, copy);
  });
});
