// The transport against real loopback servers: headers, deadlines, the size cap, redirects, body
// decoding and the exact one-line messages users see. Retries and proxies: httpRetry/httpProxy tests.

import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Agent, type Dispatcher } from 'undici';
import { createDispatcher, fetchVia } from '../../../src/client/dispatcher';
import { fetchXml, redirectRefusal, type RequestOptions } from '../../../src/client/http';
import { rejectsWith } from '../../helpers/apiAssert';
import { lookupNothing } from '../../helpers/noResolver';
import { waitFor } from '../../helpers/poll';
import { closedPort, startFullListener, startServer, streamBytes, type FullListener, type Handler, type TestServer } from '../../helpers/testServer';

const XML = '<?xml version="1.0" encoding="UTF-8"?>\n<codes type="array"></codes>\n';
const PACKAGE_VERSION = (JSON.parse(readFileSync(path.resolve(__dirname, '../../../../package.json'), 'utf8')) as { version: string }).version;

describe('fetchXml (transport)', function () {
  this.timeout(4000);
  let server: TestServer | undefined;
  let dispatcher: Dispatcher;

  beforeEach(() => { dispatcher = createDispatcher(); });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await dispatcher.close();
  });

  async function serve(handler: Handler): Promise<string> {
    server = await startServer(handler);
    return server.origin;
  }
  function get(url: string, options: Partial<RequestOptions> = {}) {
    return fetchXml(url, { fetch: fetchVia(dispatcher), retryBaseDelayMs: 5, ...options });
  }

  describe('request headers', () => {
    it('sends Accept, Content-Type and User-Agent on every request', async () => {
      const origin = await serve((_req, res) => res.end(XML));
      const result = await get(`${origin}/codes/recent.xml`);
      assert.equal(result.body, XML);
      assert.equal(result.status, 200);
      const seen = server!.requests[0].headers;
      assert.equal(seen['accept'], 'application/xml');
      assert.equal(seen['content-type'], 'text/xml');
      assert.equal(seen['user-agent'], `refactor-browser/${PACKAGE_VERSION}`, 'the name and the version of package.json');
      assert.equal(seen['if-none-match'], undefined);
    });

    it('sends a given User-Agent and If-None-Match, and reports a 304 with an empty body', async () => {
      const origin = await serve((req, res) => {
        if (req.headers['if-none-match'] === '"v1"') { res.statusCode = 304; res.end(); return; }
        res.setHeader('ETag', '"v1"');
        res.end(XML);
      });
      const first = await get(`${origin}/a.xml`, { userAgent: 'refactor-browser/9.9.9' });
      assert.equal(first.etag, '"v1"');
      const second = await get(`${origin}/a.xml`, { etag: first.etag });
      assert.deepEqual({ status: second.status, body: second.body }, { status: 304, body: '' });
      assert.equal(server!.requests[0].headers['user-agent'], 'refactor-browser/9.9.9');
      assert.equal(server!.requests[1].headers['if-none-match'], '"v1"');
    });

    it('treats a 304 it did not ask for as an error', async () => {
      const origin = await serve((_req, res) => { res.statusCode = 304; res.end(); });
      await rejectsWith(get(`${origin}/a.xml`), 'http-status', `${origin}/a.xml: HTTP 304 Not Modified`);
    });
  });

  describe('body', () => {
    it('decodes UTF-8 even when a character is split across chunks', async () => {
      const text = '<?xml version="1.0" encoding="UTF-8"?><t>caf\u00e9 \u2014 \u{1F600}</t>';
      const bytes = Buffer.from(text, 'utf8');
      const origin = await serve((_req, res) => {
        const cut = bytes.indexOf(0xc3) + 1; // inside the two bytes of "é"
        res.write(bytes.subarray(0, cut));
        setTimeout(() => res.end(bytes.subarray(cut)), 20);
      });
      assert.equal((await get(`${origin}/u.xml`)).body, text);
    });

    it('rejects a body that is not valid UTF-8', async () => {
      const origin = await serve((_req, res) => res.end(Buffer.from([0x3c, 0x61, 0x3e, 0xff, 0xfe, 0x3c])));
      await rejectsWith(get(`${origin}/bad.xml`), 'invalid-xml', `${origin}/bad.xml: body is not valid UTF-8`);
    });

    it('refuses a URL that is not http(s)', async () => {
      await rejectsWith(get('ftp://127.0.0.1/x.xml'), 'invalid-url', 'ftp://127.0.0.1/x.xml: not an http or https URL');
    });
  });

  describe('timeouts', () => {
    it('gives up on a server that never answers at the overall deadline', async () => {
      const origin = await serve(() => undefined);
      const started = Date.now();
      await rejectsWith(get(`${origin}/slow.xml`, { timeoutMs: 300 }), 'timeout', `${origin}/slow.xml: timed out after 0.3 s`);
      // Only a lower bound: a timer never fires early, while a loaded machine may run it late. The
      // message names this deadline, so no other timer can have ended the request.
      assert.ok(Date.now() - started >= 280, `took ${Date.now() - started} ms`);
    });

    it('gives up on a body that never comes after the headers', async () => {
      const origin = await serve((_req, res) => { res.writeHead(200, { 'content-type': 'application/xml' }); res.flushHeaders(); });
      await rejectsWith(get(`${origin}/stall.xml`, { timeoutMs: 400 }), 'timeout', `${origin}/stall.xml: timed out after 0.4 s`);
    });

    it('gives up on a drip of 1 byte every 200 ms, which no per-chunk timeout would catch', async () => {
      let dripped = 0;
      const origin = await serve((req, res) => {
        res.writeHead(200);
        const timer = setInterval(() => { res.write('<'); dripped++; }, 200);
        req.socket.once('close', () => clearInterval(timer));
      });
      const started = Date.now();
      await rejectsWith(get(`${origin}/drip.xml`, { timeoutMs: 1000 }), 'timeout', `${origin}/drip.xml: timed out after 1 s`);
      assert.ok(Date.now() - started >= 980, `took ${Date.now() - started} ms`);
      // Bytes kept coming, so a timer reset by each chunk would never have fired.
      assert.ok(dripped >= 2, `the server had dripped ${dripped} bytes`);
    });

    describe('while a connect hangs', function () {
      this.timeout(10_000);
      let full: FullListener | undefined;
      const dispatchers: Dispatcher[] = [];
      before(async () => { full = await startFullListener(); });
      after(async () => {
        // destroy, not close: close would wait for the connects still hanging in the background.
        await Promise.all(dispatchers.map((d) => d.destroy()));
        await full?.close();
      });
      const hanging = (connectTimeoutMs: number) => {
        dispatchers.push(createDispatcher({ connectTimeoutMs, env: {} }));
        return { dispatcher: dispatchers[dispatchers.length - 1], url: `http://127.0.0.1:${full!.port}/codes/recent.xml` };
      };

      it('has a connect timeout of its own, shorter than the deadline, and does not retry it', async () => {
        const { dispatcher: d, url } = hanging(300);
        const started = Date.now();
        await rejectsWith(fetchXml(url, { fetch: fetchVia(d), timeoutMs: 5000, maxTries: 3 }), 'timeout',
          `${url}: could not connect to 127.0.0.1 in time`);
        // The message is the connect timeout's, without "(after 3 tries)": neither the 5 s deadline
        // nor a retry ended it. undici runs this timer coarsely, so only a lower bound.
        assert.ok(Date.now() - started >= 250, `took ${Date.now() - started} ms`);
      });

      // undici itself only notices a signal once connected (nodejs/undici#386).
      it('still ends at the overall deadline when the connect timeout is longer', async () => {
        const { dispatcher: d, url } = hanging(4000);
        const started = Date.now();
        await rejectsWith(fetchXml(url, { fetch: fetchVia(d), timeoutMs: 400 }), 'timeout', `${url}: timed out after 0.4 s`);
        assert.ok(Date.now() - started >= 380, `took ${Date.now() - started} ms`);
      });

      it('stops at once when the caller cancels', async () => {
        const { dispatcher: d, url } = hanging(4000);
        const controller = new AbortController();
        setTimeout(() => controller.abort(), 100);
        // "cancelled", not the connect timeout's or the deadline's message: the abort ended it.
        await rejectsWith(fetchXml(url, { fetch: fetchVia(d), timeoutMs: 5000, signal: controller.signal }), 'aborted', `${url}: cancelled`);
      });
    });
  });

  describe('cancellation', () => {
    it('stops at once when the caller aborts', async () => {
      const origin = await serve(() => undefined);
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      // The server never answers and the deadline would say "timed out": "cancelled" is the abort's.
      await rejectsWith(get(`${origin}/c.xml`, { signal: controller.signal }), 'aborted', `${origin}/c.xml: cancelled`);
    });

    it('sends nothing when the signal is already aborted', async () => {
      const origin = await serve((_req, res) => res.end(XML));
      await rejectsWith(get(`${origin}/c.xml`, { signal: AbortSignal.abort() }), 'aborted', `${origin}/c.xml: cancelled`);
      assert.equal(server!.requests.length, 0);
    });
  });

  describe('size cap', () => {
    const cap = 1024 * 1024;

    it('rejects a Content-Length over the cap before reading the body', async () => {
      let sent = -1;
      const total = 32 * cap;
      const origin = await serve((_req, res) => {
        res.writeHead(200, { 'content-length': String(total) });
        void streamBytes(res, total).then((n) => (sent = n));
      });
      await rejectsWith(get(`${origin}/big.xml`, { maxResponseBytes: cap }), 'too-large', `${origin}/big.xml: response larger than 1 MiB`);
      await waitFor(() => sent >= 0, 'the server to finish sending', 3000);
      assert.ok(sent < total, `the server sent all ${sent} bytes`);
    });

    it('refuses on the Content-Length alone: a body declared over the cap is never waited for', async () => {
      // Headers only, then silence: a client that read the body to count it would hang until the deadline.
      const origin = await serve((_req, res) => {
        res.writeHead(200, { 'content-length': String(cap + 1) });
        res.flushHeaders();
      });
      await rejectsWith(get(`${origin}/declared.xml`, { maxResponseBytes: cap, timeoutMs: 3000 }), 'too-large',
        `${origin}/declared.xml: response larger than 1 MiB`);
    });

    it('stops a chunked body as soon as it passes the cap', async () => {
      let sent = -1;
      const total = 64 * cap;
      const origin = await serve((_req, res) => {
        res.writeHead(200);
        void streamBytes(res, total).then((n) => (sent = n));
      });
      await rejectsWith(get(`${origin}/big.xml`, { maxResponseBytes: cap }), 'too-large', `${origin}/big.xml: response larger than 1 MiB`);
      await waitFor(() => sent >= 0, 'the server to finish sending', 3000);
      assert.ok(sent > cap && sent < total / 4, `the server sent ${sent} of ${total} bytes`);
    });

    it('accepts a body of exactly the cap', async () => {
      const origin = await serve((_req, res) => res.end(Buffer.alloc(1000, 0x61)));
      assert.equal((await get(`${origin}/ok.xml`, { maxResponseBytes: 1000 })).body.length, 1000);
    });
  });

  describe('redirects', () => {
    /** `/r/<n>` redirects to `/r/<n-1>`, `/r/0` answers; odd hops are relative, even ones absolute. */
    async function chain(): Promise<string> {
      return serve((req, res) => {
        const n = Number(/^\/r\/(\d+)$/.exec(req.url ?? '')?.[1] ?? 0);
        if (n === 0) { res.end(XML); return; }
        res.writeHead(n % 2 ? 302 : 301, { location: n % 2 ? `${n - 1}` : `${server!.origin}/r/${n - 1}` });
        res.end();
      });
    }

    it('follows relative and absolute redirects, up to 5', async () => {
      const origin = await chain();
      const result = await get(`${origin}/r/5`);
      assert.equal(result.body, XML);
      assert.equal(result.url, `${origin}/r/0`);
      assert.deepEqual(server!.requests.map((r) => r.url), ['/r/5', '/r/4', '/r/3', '/r/2', '/r/1', '/r/0']);
    });

    it('refuses a 6th redirect', async () => {
      const origin = await chain();
      await rejectsWith(get(`${origin}/r/6`), 'too-many-redirects', `${origin}/r/1: too many redirects (more than 5)`);
      assert.equal(server!.requests.length, 6);
    });

    it('honours a smaller redirect limit', async () => {
      const origin = await chain();
      await rejectsWith(get(`${origin}/r/2`, { maxRedirects: 1 }), 'too-many-redirects', `${origin}/r/1: too many redirects (more than 1)`);
    });

    it('detects a loop', async () => {
      const origin = await serve((req, res) => {
        res.writeHead(307, { location: req.url === '/a.xml' ? '/b.xml' : '/a.xml' });
        res.end();
      });
      await rejectsWith(get(`${origin}/a.xml`), 'too-many-redirects', `${origin}/b.xml: redirect loop back to ${origin}/a.xml`);
      assert.equal(server!.requests.length, 2);
    });

    it('refuses a redirect to another scheme, and one without a Location', async () => {
      const origin = await serve((req, res) => {
        res.writeHead(302, req.url === '/ftp.xml' ? { location: 'ftp://127.0.0.1/x.xml' } : {});
        res.end();
      });
      await rejectsWith(get(`${origin}/ftp.xml`), 'insecure-redirect', `${origin}/ftp.xml: redirect to ftp: refused`);
      await rejectsWith(get(`${origin}/none.xml`), 'http-status', `${origin}/none.xml: HTTP 302 Found without a Location`);
    });

    it('never follows https to http (the rule)', () => {
      assert.equal(redirectRefusal('https://a.example/x', 'http://a.example/x'), 'redirect from https to http refused');
      assert.equal(redirectRefusal('https://a.example/x', 'https://b.example/y'), undefined);
      assert.equal(redirectRefusal('http://a.example/x', 'https://a.example/x'), undefined);
      assert.equal(redirectRefusal('http://a.example/x', 'http://b.example/x'), undefined);
      assert.equal(redirectRefusal('http://a.example/x', 'javascript:alert(1)'), 'redirect to javascript: refused');
      assert.equal(redirectRefusal('https://a.example/x', 'file:///etc/passwd'), 'redirect to file: refused');
    });
  });

  describe('connection failures', () => {
    it('names a refused connection', async () => {
      const port = await closedPort();
      const url = `http://127.0.0.1:${port}/codes/recent.xml`;
      await rejectsWith(get(url), 'connection', `${url}: connection refused`);
    });

    it('names an unknown host', async () => {
      // The name is looked up by a resolver that knows none, as the machine's answers for it, without asking it.
      const url = 'http://no-such-host.invalid/codes/recent.xml';
      const noNames = new Agent({ connect: { lookup: lookupNothing } });
      try {
        await rejectsWith(fetchXml(url, { fetch: fetchVia(noNames) }), 'connection', `${url}: unknown host no-such-host.invalid`);
      } finally {
        await noNames.close();
      }
    });

    it('words a failure that says nothing, as a browser\'s fetch refusing a cross-origin answer does, as the caller asks', async () => {
      // A browser's fetch rejects with a bare TypeError for CORS, DNS and offline alike: no status, no code.
      const browserLike = (): Promise<Response> => Promise.reject(new TypeError('Failed to fetch'));
      const url = 'https://svc.example/codes/recent.xml';
      await rejectsWith(fetchXml(url, { fetch: browserLike }), 'connection', `${url}: request failed (Failed to fetch)`);
      const cors = (u: string) => `no readable answer: ${new URL(u).origin} may not allow requests from VS Code for the Web (CORS), or cannot be reached`;
      await rejectsWith(fetchXml(url, { fetch: browserLike, unexplainedFailure: cors }), 'connection',
        `${url}: no readable answer: https://svc.example may not allow requests from VS Code for the Web (CORS), or cannot be reached`);
      // undici's failures carry their cause, so they keep their own words even with the option.
      const port = await closedPort();
      const refused = `http://127.0.0.1:${port}/codes/recent.xml`;
      await rejectsWith(get(refused, { unexplainedFailure: cors }), 'connection', `${refused}: connection refused`);
    });

    it('names an HTTP error status with its text', async () => {
      const origin = await serve((_req, res) => { res.statusCode = 404; res.end('<html>nope</html>'); });
      const err = await rejectsWith(get(`${origin}/codes/9.xml`), 'http-status', `${origin}/codes/9.xml: HTTP 404 Not Found`);
      assert.equal(err.status, 404);
      assert.equal(err.url, `${origin}/codes/9.xml`);
    });
  });
});
