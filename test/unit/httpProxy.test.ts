// Proxy choice of the transport: an explicit proxy, the environment's HTTP_PROXY with NO_PROXY, or
// none. The proxy is a tiny node:http forward proxy on loopback that records the absolute-form
// request lines it received, which is what proves the request went through it.

import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { Dispatcher } from 'undici';
import { createDispatcher } from '../../src/api/dispatcher';
import { fetchXml } from '../../src/api/http';
import { rejectsWith } from './helpers/apiAssert';
import { startServer, type TestServer } from './helpers/testServer';

const XML = '<?xml version="1.0" encoding="UTF-8"?>\n<codes type="array"></codes>\n';

/** Forwards each absolute-form request to its target; `seen` keeps `METHOD url` lines. */
async function startForwardProxy(): Promise<TestServer & { seen: string[] }> {
  const seen: string[] = [];
  const proxy = await startServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400);
      res.end();
      return;
    }
    const upstream = http.request(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => { res.writeHead(502); res.end(); });
    req.pipe(upstream);
  });
  return Object.assign(proxy, { seen });
}

describe('proxies', function () {
  this.timeout(4000);
  let origin: TestServer;
  let proxy: TestServer & { seen: string[] };
  let dispatcher: Dispatcher | undefined;

  beforeEach(async () => {
    origin = await startServer((_req, res) => res.end(XML));
    proxy = await startForwardProxy();
  });
  afterEach(async () => {
    await dispatcher?.close();
    dispatcher = undefined;
    await proxy.close();
    await origin.close();
  });

  it('sends requests through an explicit proxy in absolute form', async () => {
    dispatcher = createDispatcher({ proxy: { url: proxy.origin }, env: {} });
    const url = `${origin.origin}/codes/recent.xml`;
    const result = await fetchXml(url, { dispatcher });
    assert.equal(result.body, XML);
    assert.deepEqual(proxy.seen, [`GET ${url}`]);
    assert.equal(origin.requests[0].headers['accept'], 'application/xml', 'the headers reach the service');
  });

  it('takes the proxy from HTTP_PROXY when none is given', async () => {
    dispatcher = createDispatcher({ env: { HTTP_PROXY: proxy.origin } });
    const url = `${origin.origin}/codes/popular.xml`;
    assert.equal((await fetchXml(url, { dispatcher })).body, XML);
    assert.deepEqual(proxy.seen, [`GET ${url}`]);
  });

  it('goes direct for hosts in NO_PROXY', async () => {
    dispatcher = createDispatcher({ env: { http_proxy: proxy.origin, NO_PROXY: '127.0.0.1' } });
    assert.equal((await fetchXml(`${origin.origin}/codes/recent.xml`, { dispatcher })).body, XML);
    assert.deepEqual(proxy.seen, []);
    assert.equal(origin.requests.length, 1);
  });

  it('goes direct without proxy settings', async () => {
    dispatcher = createDispatcher({ env: {} });
    assert.equal((await fetchXml(`${origin.origin}/codes/recent.xml`, { dispatcher })).body, XML);
    assert.deepEqual(proxy.seen, []);
  });

  it('refuses a proxy URL that is not http(s)', () => {
    assert.throws(() => createDispatcher({ proxy: { url: 'socks9://127.0.0.1:1' } }),
      { name: 'ApiError', kind: 'invalid-url', message: 'socks9://127.0.0.1:1: proxy URL must be http or https' });
    assert.throws(() => createDispatcher({ proxy: { url: 'not a url' } }),
      { name: 'ApiError', kind: 'invalid-url', message: 'not a url: proxy URL is not a valid URL' });
  });

  it('names a proxy that refuses connections', async () => {
    const port = proxy.port;
    await proxy.close();
    dispatcher = createDispatcher({ proxy: { url: `http://127.0.0.1:${port}` } });
    const url = `${origin.origin}/codes/recent.xml`;
    await rejectsWith(fetchXml(url, { dispatcher }), 'connection', `${url}: connection refused`);
  });
});
