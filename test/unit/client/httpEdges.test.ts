// The transport at its edges, against real loopback servers: the deadline's allowed range, what an
// error keeps as its cause, a status's reason phrase never taken from the server, a 304 or a 300 nobody asked
// for, an abort while waiting to retry, a caller's signal left as it was found, and a browser's fetch,
// which hides a redirect behind an "opaqueredirect" answer and follows it only when asked to.
// (http.test.ts covers the common cases.)

import * as assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { Agent, type Dispatcher } from 'undici';
import { createDispatcher, fetchVia } from '../../../src/client/dispatcher';
import { fetchXml, maxAgeMs, parseRetryAfter, type RequestOptions } from '../../../src/client/http';
import type { Logger } from '../../../src/client/logger';
import { certificateOrSkip } from '../../hostile/tls';
import { rejectsWith } from '../../helpers/apiAssert';
import { browserLike } from '../../helpers/browserFetch';
import { closedPort, startServer, type Handler, type TestServer } from '../../helpers/testServer';

const XML = '<?xml version="1.0" encoding="UTF-8"?>\n<codes type="array"></codes>\n';

describe('fetchXml at its edges', function () {
  this.timeout(8000);
  const servers: TestServer[] = [];
  let dispatcher: Dispatcher;
  beforeEach(() => { dispatcher = createDispatcher({ env: {} }); });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
    await dispatcher.destroy();
  });
  async function serve(handler: Handler): Promise<string> {
    const server = await startServer(handler);
    servers.push(server);
    return server.origin;
  }
  const get = (url: string, options: Partial<RequestOptions> = {}) =>
    fetchXml(url, { fetch: fetchVia(dispatcher), retryBaseDelayMs: 5, ...options });

  describe('the deadline', () => {
    it('refuses a timeout that is negative, fractional or beyond what a timer can wait, naming it', async () => {
      const url = `${await serve((_req, res) => res.end(XML))}/codes/recent.xml`;
      for (const timeoutMs of [-1, 1.5, 2 ** 31]) {
        await assert.rejects(get(url, { timeoutMs }),
          { name: 'RangeError', message: `timeout must be a whole number of milliseconds, got ${timeoutMs}` });
      }
    });

    it('takes the longest timeout a timer can wait (about 24.8 days) as it is', async () => {
      // Node's timers fire after 1 ms for anything longer than 2^31 - 1 ms: a longer deadline would end
      // every request at once with "timed out after 4294967.3 s".
      const url = `${await serve((_req, res) => res.end(XML))}/codes/recent.xml`;
      assert.equal((await get(url, { timeoutMs: 2 ** 31 - 1 })).body, XML);
    });

    it('takes a timeout of 0 as a deadline already passed, and keeps the TimeoutError as the cause', async () => {
      const url = `${await serve(() => undefined)}/codes/recent.xml`; // never answers
      const err = await rejectsWith(get(url, { timeoutMs: 0 }), 'timeout', `${url}: timed out after 0 s`);
      const cause = err.options.cause as { name?: string; message?: string };
      assert.equal(cause.name, 'TimeoutError', 'the standard name of a deadline\'s abort (as AbortSignal.timeout gives)');
      assert.equal(cause.message, 'The operation was aborted due to timeout');
    });
  });

  describe('what an error keeps', () => {
    it('keeps the caller\'s abort reason and the transport\'s own error as the cause', async () => {
      const controller = new AbortController();
      const reason = new Error('the view was closed');
      const url = `${await serve(() => controller.abort(reason))}/codes/recent.xml`;
      const aborted = await rejectsWith(get(url, { signal: controller.signal }), 'aborted', `${url}: cancelled`);
      assert.equal(aborted.options.cause, reason);

      const refused = `http://127.0.0.1:${await closedPort()}/codes/recent.xml`;
      const err = await rejectsWith(get(refused), 'connection', `${refused}: connection refused`);
      assert.equal((err.options.cause as Error).message, 'fetch failed', 'undici\'s error, whose cause holds the socket\'s');
    });

    it('keeps the status of a redirect it refuses', async () => {
      const url = `${await serve((_req, res) => { res.writeHead(301, { location: 'ftp://127.0.0.1/x.xml' }); res.end(); })}/codes/recent.xml`;
      const err = await rejectsWith(get(url), 'insecure-redirect', `${url}: redirect to ftp: refused`);
      assert.equal(err.status, 301);
    });
  });

  describe('statuses', () => {
    it("never shows the server's reason phrase: a defined status gets its own, another status none", async () => {
      const hostile = 'Retry now](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22x%22%7D)';
      const origin = await serve((req, res) => {
        const status = req.url === '/defined.xml' ? 404 : 599;
        res.writeHead(status, req.url === '/none.xml' ? '' : `[${hostile}`);
        res.end();
      });
      await rejectsWith(get(`${origin}/odd.xml`), 'http-status', `${origin}/odd.xml: HTTP 599`);
      await rejectsWith(get(`${origin}/none.xml`), 'http-status', `${origin}/none.xml: HTTP 599`);
      await rejectsWith(get(`${origin}/defined.xml`), 'http-status', `${origin}/defined.xml: HTTP 404 Not Found`);
    });

    it('fails on a 300 Multiple Choices and on a 304 that was not asked for, whatever their body', async () => {
      const origin = await serve((req, res) => {
        res.writeHead(req.url === '/choices.xml' ? 300 : 304);
        res.end(req.url === '/choices.xml' ? XML : undefined);
      });
      await rejectsWith(get(`${origin}/choices.xml`), 'http-status', `${origin}/choices.xml: HTTP 300 Multiple Choices`);
      await rejectsWith(get(`${origin}/stale.xml`), 'http-status', `${origin}/stale.xml: HTTP 304 Not Modified`);
    });

    it('fails on a 404 to a revalidation: only a 304 means "not modified"', async () => {
      const url = `${await serve((_req, res) => { res.writeHead(404); res.end(); })}/codes/recent.xml`;
      await rejectsWith(get(url, { etag: '"v1"' }), 'http-status', `${url}: HTTP 404 Not Found`);
      assert.equal(servers[0].requests[0].headers['if-none-match'], '"v1"');
    });

    it('says an invalid Location of a redirect is invalid', async () => {
      const url = `${await serve((_req, res) => { res.writeHead(302, { location: 'http://[::1' }); res.end(); })}/codes/recent.xml`;
      await rejectsWith(get(url), 'http-status', `${url}: HTTP 302 Found with an invalid Location`);
    });

    it('refuses a URL that does not parse before any request', async () => {
      await rejectsWith(get('catalog.example/codes.xml'), 'invalid-url', 'catalog.example/codes.xml: not an http or https URL');
    });
  });

  describe('waiting to retry', () => {
    it('ends a wait for a retry as soon as the caller aborts, without asking again', async () => {
      const controller = new AbortController();
      const url = `${await serve((_req, res) => { res.writeHead(503); res.end(); })}/codes/recent.xml`;
      const warnings: string[] = [];
      const logger: Logger = {
        trace() {}, info() {}, error() {},
        // Abort once the wait has begun (the warning is logged just before it).
        warn(message) { warnings.push(message); setImmediate(() => controller.abort()); },
      };
      // The 60 s wait and deadline are only there so that nothing but the abort can end this test in time.
      await rejectsWith(get(url, { signal: controller.signal, logger, retryBaseDelayMs: 60_000, timeoutMs: 120_000 }), 'aborted', `${url}: cancelled`);
      assert.equal(servers[0].requests.length, 1);
      assert.deepEqual(warnings, [`GET ${url}: HTTP 503 Service Unavailable; retry 1 of 2 in 60000 ms`]);
    });

    it('leaves no listener on the caller\'s signal once a request is over, however it ended', async () => {
      const signal = new AbortController().signal;
      const origin = await serve((req, res) => { res.writeHead(req.url === '/ok.xml' ? 200 : 404); res.end(XML); });
      await get(`${origin}/ok.xml`, { signal });
      await get(`${origin}/gone.xml`, { signal }).catch(() => undefined);
      assert.equal(getEventListeners(signal, 'abort').length, 0);
    });
  });

  describe('what is logged', () => {
    it('does not try a cancelled request again: no retry is announced', async () => {
      const controller = new AbortController();
      const url = `${await serve(() => controller.abort())}/codes/recent.xml`;
      const warnings: string[] = [];
      await rejectsWith(get(url, { signal: controller.signal, logger: { trace() {}, info() {}, error() {}, warn: (m) => warnings.push(m) } }),
        'aborted', `${url}: cancelled`);
      assert.deepEqual(warnings, []);
    });

    it('logs each answer with its status and how long it took', async () => {
      const url = `${await serve((_req, res) => res.end(XML))}/codes/recent.xml`;
      const infos: string[] = [];
      await get(url, { logger: { trace() {}, warn() {}, error() {}, info: (m) => infos.push(m) } });
      assert.equal(infos.length, 1);
      const m = new RegExp(`^GET ${url.replace(/[.]/g, '\\.')} -> 200 in (\\d+) ms$`).exec(infos[0]);
      assert.ok(m, infos[0]);
      // Generous: a loopback answer on a loaded machine; a clock sum instead of a difference would be ~1.7e12.
      assert.ok(Number(m[1]) < 60_000, infos[0]);
    });
  });

  describe('a browser\'s fetch (an opaque redirect, then followed by the browser)', () => {
    it('follows it, sends the same headers to where it leads, and reports the URL that answered', async () => {
      const origin = await serve((req, res) => {
        if (req.url === '/old.xml') { res.writeHead(301, { location: '/new.xml' }); res.end(); return; }
        res.end(XML);
      });
      const result = await fetchXml(`${origin}/old.xml`, { fetch: browserLike(dispatcher) });
      assert.deepEqual({ url: result.url, status: result.status, body: result.body }, { url: `${origin}/new.xml`, status: 200, body: XML });
      const followed = servers[0].requests.filter((r) => r.url === '/new.xml');
      assert.equal(followed.length, 1);
      assert.equal(followed[0].headers['accept'], 'application/xml');
    });

    it('refuses where a followed redirect from https ended on http', async function () {
      this.timeout(20_000);
      const cert = certificateOrSkip(this);
      const plain = await serve((_req, res) => res.end(XML));
      const secure = await startServer((_req, res) => { res.writeHead(302, { location: `${plain}/codes/recent.xml` }); res.end(); }, { tls: cert });
      servers.push(secure);
      // The browser trusts the certificate: only the downgrade is left to refuse.
      const trusting = new Agent({ connect: { rejectUnauthorized: false } });
      try {
        const url = `${secure.origin}/codes/recent.xml`;
        const err = await rejectsWith(fetchXml(url, { fetch: browserLike(trusting) }), 'insecure-redirect', `${url}: redirect from https to http refused`);
        assert.equal(err.status, undefined, 'a browser hides the redirect\'s status');
      } finally {
        await trusting.destroy();
        cert.dispose();
      }
    });
  });
});

describe('headers read from an answer', () => {
  it('reads max-age wherever it stands among other Cache-Control directives', () => {
    const age = (value: string) => maxAgeMs(new Headers({ 'cache-control': value }));
    assert.equal(age('max-age=60'), 60_000);
    assert.equal(age('max-age=60, public'), 60_000);
    assert.equal(age('max-age=60 , public'), 60_000);
    assert.equal(age('public;max-age=60;x'), 0, 'a semicolon does not separate directives');
    assert.equal(age('private, max-age=60'), 60_000);
  });

  it('reads Retry-After as whole seconds or an HTTP-date starting with its day name, nothing else', () => {
    const now = Date.parse('Wed, 25 Nov 2026 10:00:00 GMT');
    assert.equal(parseRetryAfter('120', now), 120_000);
    assert.equal(parseRetryAfter('Wed, 25 Nov 2026 10:00:30 GMT', now), 30_000);
    assert.equal(parseRetryAfter('5 seconds', now), undefined);
    assert.equal(parseRetryAfter('25 Nov 2026 10:00:30 GMT', now), undefined, 'no day name: not an HTTP-date');
    assert.equal(parseRetryAfter('W 25 Nov 2026 10:00:30 GMT', now), undefined);
  });
});
