// Retries of the transport against real loopback servers: which failures are retried, how many
// times, how long it waits (Retry-After in both forms), and that the deadline still rules.

import * as assert from 'node:assert/strict';
import type { Dispatcher } from 'undici';
import { createDispatcher, fetchVia } from '../../../src/client/dispatcher';
import { fetchXml, parseRetryAfter, type RequestOptions } from '../../../src/client/http';
import type { Logger } from '../../../src/client/logger';
import { rejectsWith } from '../../helpers/apiAssert';
import { startServer, type Handler, type TestServer } from '../../helpers/testServer';

const XML = '<?xml version="1.0" encoding="UTF-8"?>\n<refactors type="array"></refactors>\n';

describe('fetchXml retries', function () {
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
    return `${server.origin}/refactorings/recent.xml`;
  }
  /** A server that fails the first `failures` requests with `fail`, then answers. */
  function failingFirst(failures: number, fail: Handler): Promise<string> {
    return serve((req, res) => (server!.requests.length <= failures ? fail(req, res) : res.end(XML)));
  }
  function get(url: string, options: Partial<RequestOptions> = {}) {
    return fetchXml(url, { fetch: fetchVia(dispatcher), retryBaseDelayMs: 5, ...options });
  }
  const status = (code: number, headers: Record<string, string> = {}): Handler => (_req, res) => {
    res.writeHead(code, headers);
    res.end('busy');
  };

  for (const code of [429, 502, 503, 504]) {
    it(`retries a ${code} and returns the answer that follows`, async () => {
      const url = await failingFirst(2, status(code));
      assert.equal((await get(url)).body, XML);
      assert.equal(server!.requests.length, 3);
    });
  }

  it('stops after 3 tries in all and says so', async () => {
    const url = await serve(status(503));
    const err = await rejectsWith(get(url), 'http-status', `${url}: HTTP 503 Service Unavailable (after 3 tries)`);
    assert.equal(err.status, 503);
    assert.equal(server!.requests.length, 3);
  });

  it('takes the number of tries from the options', async () => {
    const url = await serve(status(502));
    await rejectsWith(get(url, { maxTries: 2 }), 'http-status', `${url}: HTTP 502 Bad Gateway (after 2 tries)`);
    assert.equal(server!.requests.length, 2);
    await rejectsWith(get(url, { maxTries: 1 }), 'http-status', `${url}: HTTP 502 Bad Gateway`);
    assert.equal(server!.requests.length, 3);
  });

  for (const [code, text] of [[404, 'Not Found'], [500, 'Internal Server Error'], [403, 'Forbidden']] as const) {
    it(`never retries a ${code}`, async () => {
      const url = await serve(status(code));
      await rejectsWith(get(url), 'http-status', `${url}: HTTP ${code} ${text}`);
      assert.equal(server!.requests.length, 1);
    });
  }

  // The waits are read from the log, which says what was scheduled; the clock only checks that they
  // were not cut short (a timer never fires early, while a loaded machine may run it late).
  it('backs off, doubling the wait', async () => {
    const url = await failingFirst(2, status(503));
    const { logger, warnings } = recording();
    const started = Date.now();
    await get(url, { retryBaseDelayMs: 100, logger });
    assert.deepEqual(warnings, [
      `GET ${url}: HTTP 503 Service Unavailable; retry 1 of 2 in 100 ms`,
      `GET ${url}: HTTP 503 Service Unavailable; retry 2 of 2 in 200 ms`,
    ]);
    assert.ok(Date.now() - started >= 290, `100 + 200 ms of backoff, took ${Date.now() - started} ms`);
  });

  it('waits as long as Retry-After says in seconds', async () => {
    const url = await failingFirst(1, status(429, { 'retry-after': '1' }));
    const { logger, warnings } = recording();
    const started = Date.now();
    assert.equal((await get(url, { logger })).body, XML);
    assert.deepEqual(warnings, [`GET ${url}: HTTP 429 Too Many Requests; retry 1 of 2 in 1000 ms`]);
    assert.ok(Date.now() - started >= 950, `took ${Date.now() - started} ms`);
    assert.equal(server!.requests.length, 2);
  });

  it('waits until the HTTP-date Retry-After names', async () => {
    let until = 0;
    const url = await failingFirst(1, (req, res) => {
      // HTTP-dates have whole seconds: the next second boundary at least 600 ms away.
      until = Math.ceil((Date.now() + 600) / 1000) * 1000;
      status(503, { 'retry-after': new Date(until).toUTCString() })(req, res);
    });
    assert.equal((await get(url)).body, XML);
    const secondAt = Date.now();
    assert.equal(server!.requests.length, 2);
    assert.ok(secondAt >= until - 50, `retried ${until - secondAt} ms before the date`);
  });

  it('fails at once with the status when Retry-After would pass the deadline', async () => {
    const url = await serve(status(503, { 'retry-after': '5' }));
    // Had it waited, the 1 s deadline would have ended it as a timeout: this message is only given before waiting.
    await rejectsWith(get(url, { timeoutMs: 1000 }), 'http-status',
      `${url}: HTTP 503 Service Unavailable (Retry-After 5 s exceeds the deadline)`);
    assert.equal(server!.requests.length, 1);
  });

  it('counts retries and their waits against the one deadline', async () => {
    const url = await serve(status(503));
    await rejectsWith(get(url, { timeoutMs: 300, maxTries: 10, retryBaseDelayMs: 100 }), 'http-status',
      `${url}: HTTP 503 Service Unavailable (after 2 tries)`);
    assert.equal(server!.requests.length, 2, '100 ms then 200 ms of backoff would pass 300 ms');
  });

  it('retries a connection reset', async () => {
    const url = await failingFirst(2, (req) => req.socket.destroy());
    assert.equal((await get(url)).body, XML);
    assert.equal(server!.requests.length, 3);
  });

  it('names a connection reset that persists', async () => {
    const url = await serve((req) => req.socket.destroy());
    await rejectsWith(get(url), 'connection', `${url}: connection reset (after 3 tries)`);
    assert.equal(server!.requests.length, 3);
  });

  it('retries a reset in the middle of the body', async () => {
    const url = await failingFirst(1, (req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('<refactors');
      setTimeout(() => req.socket.destroy(), 20);
    });
    assert.equal((await get(url)).body, XML);
    assert.equal(server!.requests.length, 2);
  });

  it('logs each exchange and each retry', async () => {
    const lines: string[] = [];
    const logger: Logger = {
      trace: () => undefined,
      info: (m) => lines.push(`info ${m}`),
      warn: (m) => lines.push(`warn ${m}`),
      error: (m) => lines.push(`error ${m}`),
    };
    const url = await failingFirst(1, status(503));
    await get(url, { logger });
    assert.equal(lines.length, 3, lines.join('\n'));
    assert.match(lines[0], new RegExp(`^info GET ${escape(url)} -> 503 in \\d+ ms$`));
    assert.match(lines[1], new RegExp(`^warn GET ${escape(url)}: HTTP 503 Service Unavailable; retry 1 of 2 in 5 ms$`));
    assert.match(lines[2], new RegExp(`^info GET ${escape(url)} -> 200 in \\d+ ms$`));
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP-dates, and ignores nonsense', () => {
    const now = Date.parse('Sun, 06 Nov 1994 08:49:37 GMT');
    assert.equal(parseRetryAfter('120', now), 120_000);
    assert.equal(parseRetryAfter(' 0 ', now), 0);
    assert.equal(parseRetryAfter('Sun, 06 Nov 1994 08:49:40 GMT', now), 3000);
    assert.equal(parseRetryAfter('Sun, 06 Nov 1994 08:49:00 GMT', now), 0, 'a date in the past: now');
    assert.equal(parseRetryAfter('-5', now), undefined);
    assert.equal(parseRetryAfter('soon', now), undefined);
    assert.equal(parseRetryAfter(undefined, now), undefined);
  });
});

/** A logger that keeps the warnings (the retries it announces). */
function recording(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  const ignore = () => undefined;
  return { warnings, logger: { trace: ignore, info: ignore, error: ignore, warn: (m) => warnings.push(m) } };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
