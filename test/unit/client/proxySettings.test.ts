// The proxy settings a user gives (VS Code's http.proxy and http.proxyStrictSSL, or the environment's
// http_proxy / HTTPS_PROXY / NO_PROXY in either case) and what they change on the wire: which proxy
// sees a CONNECT, whether a self-signed certificate behind the proxy is accepted, and that the connect
// timeout also bounds the connection to the proxy and the TLS handshake through it. The services are
// https servers with a throwaway self-signed certificate (openssl), reached through a loopback proxy.

import * as assert from 'node:assert/strict';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import type { Dispatcher } from 'undici';
import { createDispatcher, fetchVia, type DispatcherOptions } from '../../../src/client/dispatcher';
import { fetchXml } from '../../../src/client/http';
import { certificateOrSkip, type TestCertificate } from '../../hostile/tls';
import { rejectsWith } from '../../helpers/apiAssert';
import { startForwardProxy } from '../../helpers/forwardProxy';
import { startFullListener, startServer, type FullListener, type TestServer } from '../../helpers/testServer';

const XML = '<?xml version="1.0" encoding="UTF-8"?>\n<codes type="array"></codes>\n';

describe('proxy settings on the wire', function () {
  this.timeout(20_000);
  let cert: TestCertificate | undefined;
  let secure: TestServer;
  let proxy: TestServer & { seen: string[] };
  const dispatchers: Dispatcher[] = [];

  before(function () {
    cert = certificateOrSkip(this);
  });
  after(() => cert?.dispose());
  beforeEach(async () => {
    secure = await startServer((_req, res) => res.end(XML), { tls: cert });
    proxy = await startForwardProxy();
  });
  afterEach(async () => {
    await Promise.all(dispatchers.splice(0).map((d) => d.destroy()));
    await proxy.close();
    await secure.close();
  });

  const get = (url: string, options: DispatcherOptions, timeoutMs = 4000) => {
    const dispatcher = createDispatcher(options);
    dispatchers.push(dispatcher);
    return fetchXml(url, { fetch: fetchVia(dispatcher), timeoutMs, maxTries: 1 });
  };

  describe('an explicit proxy and http.proxyStrictSSL', () => {
    it('refuses a self-signed certificate behind the proxy by default, and when strictSSL is true', async () => {
      const url = `${secure.origin}/codes/recent.xml`;
      await rejectsWith(get(url, { proxy: { url: proxy.origin }, env: {} }), 'connection', `${url}: TLS error: self-signed certificate`);
      await rejectsWith(get(url, { proxy: { url: proxy.origin, strictSSL: true }, env: {} }), 'connection', `${url}: TLS error: self-signed certificate`);
      assert.deepEqual(proxy.seen, [`CONNECT 127.0.0.1:${secure.port}`, `CONNECT 127.0.0.1:${secure.port}`]);
      assert.equal(secure.requests.length, 0);
    });

    it('accepts any certificate through the proxy when strictSSL is false', async () => {
      const url = `${secure.origin}/codes/recent.xml`;
      assert.equal((await get(url, { proxy: { url: proxy.origin, strictSSL: false }, env: {} })).body, XML);
      assert.deepEqual(proxy.seen, [`CONNECT 127.0.0.1:${secure.port}`]);
      assert.equal(secure.requests[0].headers['accept'], 'application/xml');
    });

    it('takes an https proxy URL (only other schemes are refused)', async () => {
      assert.doesNotThrow(() => dispatchers.push(createDispatcher({ proxy: { url: 'https://proxy.example:3129' }, env: {} })));
    });
  });

  describe('the environment', () => {
    it('takes the lower-case https_proxy for an https service', async () => {
      const url = `${secure.origin}/codes/recent.xml`;
      // The certificate is not trusted here: the CONNECT the proxy saw is what proves the route.
      await rejectsWith(get(url, { env: { https_proxy: proxy.origin } }), 'connection', `${url}: TLS error: self-signed certificate`);
      assert.deepEqual(proxy.seen, [`CONNECT 127.0.0.1:${secure.port}`]);
    });

    it('sends an https service through HTTP_PROXY when no https proxy is set, as curl does', async () => {
      const url = `${secure.origin}/codes/recent.xml`;
      await rejectsWith(get(url, { env: { HTTP_PROXY: proxy.origin } }), 'connection', `${url}: TLS error: self-signed certificate`);
      assert.deepEqual(proxy.seen, [`CONNECT 127.0.0.1:${secure.port}`]);
    });

    it('reads only the environment it is given, not the process\'s', async () => {
      const saved = process.env.HTTP_PROXY;
      process.env.HTTP_PROXY = proxy.origin;
      try {
        const plain = await startServer((_req, res) => res.end(XML));
        try {
          assert.equal((await get(`${plain.origin}/codes/recent.xml`, { env: {} })).body, XML);
          assert.deepEqual(proxy.seen, [], 'went direct');
        } finally {
          await plain.close();
        }
      } finally {
        if (saved === undefined) delete process.env.HTTP_PROXY;
        else process.env.HTTP_PROXY = saved;
      }
    });
  });

  describe('the connect timeout with proxies', () => {
    let full: FullListener | undefined;
    before(async () => { full = await startFullListener(); });
    after(async () => { await full?.close(); });

    // Each request below has a 4 s deadline: had the 300 ms connect timeout not applied, undici's own
    // 10 s default would have let the deadline end it, with "timed out after 4 s" instead.
    it('bounds the connection to an explicit proxy', async () => {
      const url = `http://127.0.0.1:${secure.port}/codes/recent.xml`;
      await rejectsWith(get(url, { proxy: { url: `http://127.0.0.1:${full!.port}` }, env: {}, connectTimeoutMs: 300 }), 'timeout',
        `${url}: could not connect to 127.0.0.1 in time`);
    });

    it('bounds the connection to a proxy from the environment', async () => {
      const url = `${secure.origin}/codes/recent.xml`;
      await rejectsWith(get(url, { env: { HTTPS_PROXY: `http://127.0.0.1:${full!.port}` }, connectTimeoutMs: 300 }), 'timeout',
        `${url}: could not connect to 127.0.0.1 in time`);
    });

    it('bounds a direct connection for a host in NO_PROXY', async () => {
      const url = `http://127.0.0.1:${full!.port}/codes/recent.xml`;
      await rejectsWith(get(url, { env: { HTTP_PROXY: proxy.origin, NO_PROXY: '127.0.0.1' }, connectTimeoutMs: 300 }), 'timeout',
        `${url}: could not connect to 127.0.0.1 in time`);
      assert.deepEqual(proxy.seen, []);
    });

    it('bounds the TLS handshake through a proxy\'s tunnel', async () => {
      // A service that accepts the connection and never answers the TLS hello.
      const sockets = new Set<Socket>();
      const silent = createNetServer((socket) => { sockets.add(socket); socket.on('error', () => undefined); });
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const port = (silent.address() as AddressInfo).port;
      try {
        const url = `https://127.0.0.1:${port}/codes/recent.xml`;
        await rejectsWith(get(url, { env: { https_proxy: proxy.origin }, connectTimeoutMs: 300 }), 'timeout',
          `${url}: could not connect to 127.0.0.1 in time`);
        assert.deepEqual(proxy.seen, [`CONNECT 127.0.0.1:${port}`]);
      } finally {
        for (const s of sockets) s.destroy();
        await new Promise<void>((resolve) => silent.close(() => resolve()));
      }
    });
  });
});
