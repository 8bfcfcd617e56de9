// Proxy choice of the transport: an explicit proxy, the environment's HTTP_PROXY / HTTPS_PROXY with
// NO_PROXY, or none. The proxy is a tiny node:http forward proxy on loopback (helpers/forwardProxy.ts)
// that records the absolute-form request lines and CONNECT targets it received, which is what proves
// the request went through it.

import * as assert from 'node:assert/strict';
import type { Dispatcher } from 'undici';
import { createDispatcher, fetchVia } from '../../../src/client/dispatcher';
import { fetchXml } from '../../../src/client/http';
import { runCli } from '../../hostile/runCli';
import { certificateOrSkip } from '../../hostile/tls';
import { rejectsWith } from '../../helpers/apiAssert';
import { startForwardProxy } from '../../helpers/forwardProxy';
import { startServer, type TestServer } from '../../helpers/testServer';

const XML = '<?xml version="1.0" encoding="UTF-8"?>\n<codes type="array"></codes>\n';

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
    const result = await fetchXml(url, { fetch: fetchVia(dispatcher) });
    assert.equal(result.body, XML);
    assert.deepEqual(proxy.seen, [`GET ${url}`]);
    assert.equal(origin.requests[0].headers['accept'], 'application/xml', 'the headers reach the service');
  });

  it('takes the proxy from HTTP_PROXY when none is given', async () => {
    dispatcher = createDispatcher({ env: { HTTP_PROXY: proxy.origin } });
    const url = `${origin.origin}/codes/popular.xml`;
    assert.equal((await fetchXml(url, { fetch: fetchVia(dispatcher) })).body, XML);
    assert.deepEqual(proxy.seen, [`GET ${url}`]);
  });

  it('takes HTTPS_PROXY for an https service (a CONNECT tunnel) and HTTP_PROXY for an http one (CLI process)', async function () {
    this.timeout(20_000);
    const cert = certificateOrSkip(this);
    const secure = await startServer((_req, res) => res.end(XML), { tls: cert });
    const httpsProxy = await startForwardProxy();
    try {
      // The process trusts the throwaway certificate; its environment has no other proxy settings.
      const env = { HTTPS_PROXY: httpsProxy.origin, HTTP_PROXY: proxy.origin, NODE_EXTRA_CA_CERTS: cert.certFile };
      const viaTunnel = await runCli(['recent', '--json', '--base-url', secure.origin], { env });
      assert.equal(viaTunnel.code, 0, viaTunnel.stderr);
      assert.equal(viaTunnel.stdout, '[]\n');
      assert.deepEqual(httpsProxy.seen, [`CONNECT 127.0.0.1:${secure.port}`]);
      assert.deepEqual(proxy.seen, [], 'HTTP_PROXY is not used for https');
      assert.deepEqual(secure.requests.map((r) => [r.url, r.headers['accept']]), [['/codes/recent.xml', 'application/xml']]);

      const plain = await runCli(['popular', '--json', '--base-url', origin.origin], { env });
      assert.equal(plain.code, 0, plain.stderr);
      assert.deepEqual(proxy.seen, [`GET ${origin.origin}/codes/popular.xml`]);
      assert.equal(httpsProxy.seen.length, 1, 'HTTPS_PROXY is not used for http');

      // Without HTTPS_PROXY, https falls back to HTTP_PROXY, as curl does.
      const fallback = await runCli(['recent', '--json', '--base-url', secure.origin], { env: { ...env, HTTPS_PROXY: '' } });
      assert.equal(fallback.code, 0, fallback.stderr);
      assert.deepEqual(proxy.seen.slice(1), [`CONNECT 127.0.0.1:${secure.port}`]);
    } finally {
      await httpsProxy.close();
      await secure.close();
      cert.dispose();
    }
  });

  it('goes direct for hosts in NO_PROXY', async () => {
    dispatcher = createDispatcher({ env: { http_proxy: proxy.origin, NO_PROXY: '127.0.0.1' } });
    assert.equal((await fetchXml(`${origin.origin}/codes/recent.xml`, { fetch: fetchVia(dispatcher) })).body, XML);
    assert.deepEqual(proxy.seen, []);
    assert.equal(origin.requests.length, 1);
  });

  it('goes direct without proxy settings', async () => {
    dispatcher = createDispatcher({ env: {} });
    assert.equal((await fetchXml(`${origin.origin}/codes/recent.xml`, { fetch: fetchVia(dispatcher) })).body, XML);
    assert.deepEqual(proxy.seen, []);
  });

  it('refuses a proxy URL that is not http(s)', () => {
    assert.throws(() => createDispatcher({ proxy: { url: 'socks9://127.0.0.1:1' } }),
      { name: 'ApiError', kind: 'invalid-url', message: 'socks9://127.0.0.1:1: proxy URL must be http or https' });
    assert.throws(() => createDispatcher({ proxy: { url: 'not a url' } }),
      { name: 'ApiError', kind: 'invalid-url', message: 'not a url: proxy URL is not a valid URL' });
  });

  it('shows a proxy URL without its user name and password, in the message and in the error\'s url', async () => {
    assert.throws(() => createDispatcher({ proxy: { url: 'socks9://ana:s3cret@127.0.0.1:1' } }),
      { name: 'ApiError', kind: 'invalid-url', url: 'socks9://***@127.0.0.1:1', message: 'socks9://***@127.0.0.1:1: proxy URL must be http or https' });
    const port = proxy.port;
    await proxy.close();
    dispatcher = createDispatcher({ proxy: { url: `http://ana:s3cret@127.0.0.1:${port}` } });
    const err = await fetchXml(`${origin.origin}/codes/recent.xml`, { fetch: fetchVia(dispatcher) }).then(() => assert.fail('succeeded'), (e: unknown) => e);
    assert.doesNotMatch(`${String(err)} ${JSON.stringify(err)}`, /s3cret|ana/);
  });

  it('names a proxy that refuses connections', async () => {
    const port = proxy.port;
    await proxy.close();
    dispatcher = createDispatcher({ proxy: { url: `http://127.0.0.1:${port}` } });
    const url = `${origin.origin}/codes/recent.xml`;
    await rejectsWith(fetchXml(url, { fetch: fetchVia(dispatcher) }), 'connection', `${url}: connection refused`);
  });
});
