// RefactorClient against a real loopback server speaking the service's XML: the URL each call
// asks for, ETag revalidation, sharing of concurrent requests, cancellation, and errors.

import * as assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { RefactorClient, type ClientOptions } from '../../../src/client/client';
import { createDispatcher, fetchVia } from '../../../src/client/dispatcher';
import { ApiError, DecodeError } from '../../../src/core/errors';
import { maxAgeMs } from '../../../src/client/http';
import type { Logger } from '../../../src/client/logger';
import { codeUrl, popularCodesUrl, recentCodesUrl, recentRefactoringsUrl, tagCodesUrl, userUrl } from '../../../src/client/urls';
import { decodeCode, decodeCodes, decodeRefactors } from '../../../src/core/xmlDecode';
import { rejectsWith } from '../../helpers/apiAssert';
import { waitFor } from '../../helpers/poll';
import { startServer, type Handler, type TestServer } from '../../helpers/testServer';

const DECL = '<?xml version="1.0" encoding="UTF-8"?>\n';
const USER = '<user><id type="integer">7</id><identity-url>http://id.example/ann</identity-url><name>ann</name>'
  + '<rating type="float">4.5</rating><refactors-count type="integer">3</refactors-count><website></website></user>';

function codeXml(id: number, title: string, extra = USER): string {
  return `<code><code>def hi\n  puts "&lt;hi&gt;"\nend\n</code><comment>two\nlines</comment>`
    + `<created-at type="datetime">2008-02-01T10:20:30+09:00</created-at><id type="integer">${id}</id>`
    + `<language>Ruby</language><permalink>${title.toLowerCase().replace(/ /g, '-')}</permalink>`
    + `<refactors-count type="integer">1</refactors-count><title>${title}</title><trackback-url></trackback-url>`
    + `<updated-at type="datetime">2008-02-02T10:20:30+09:00</updated-at><user-id type="integer">7</user-id>${extra}</code>`;
}
const REFACTOR = '<refactor><code>def hi = puts "hi"\n</code><code-id type="integer">1</code-id><comment></comment>'
  + '<created-at type="datetime">2008-02-03T00:00:00+00:00</created-at><id type="integer">11</id>'
  + '<language>Ruby</language><rating type="integer">2</rating><ratings-count type="integer">1</ratings-count>'
  + '<title></title><user-id type="integer"></user-id><user-name>anon</user-name><user-website></user-website></refactor>';
const CODES = `${DECL}<codes type="array">${codeXml(1, 'Hello World')}${codeXml(2, 'Second One')}</codes>\n`;
const REFACTORS = `${DECL}<refactors type="array">${REFACTOR}</refactors>\n`;
const ONE_CODE = `${DECL}${codeXml(1, 'Hello World', `<refactors type="array">${REFACTOR}</refactors>`)}\n`;
const CODE_WITH_USER = `${DECL}${codeXml(1, 'Hello World', `${USER}<refactors type="array">${REFACTOR}</refactors>`)}\n`;

describe('RefactorClient', function () {
  this.timeout(4000);
  let server: TestServer | undefined;
  let client: RefactorClient | undefined;

  afterEach(async () => {
    await client?.close();
    client = undefined;
    await server?.close();
    server = undefined;
  });

  async function setup(handler: Handler, options: Partial<ClientOptions> = {}): Promise<RefactorClient> {
    server = await startServer(handler);
    client = new RefactorClient({ baseUrl: server.origin, retryBaseDelayMs: 5, ...options });
    return client;
  }
  const pathOf = (url: string) => { const u = new URL(url); return u.pathname + u.search; };
  const answered = (req: IncomingMessage) => req.headers['if-none-match'] === undefined;

  it('checks the base URL when it is made', () => {
    assert.throws(() => new RefactorClient({ baseUrl: 'ftp://example.org' }), (e: unknown) => e instanceof ApiError && e.kind === 'invalid-url');
    assert.throws(() => new RefactorClient({ baseUrl: 'not a url' }), (e: unknown) => e instanceof ApiError && e.kind === 'invalid-url');
  });

  it('asks each endpoint for its URL and decodes the answer', async () => {
    const c = await setup((req, res) => {
      res.setHeader('content-type', 'application/xml; charset=utf-8');
      if (req.url?.startsWith('/refactorings/')) res.end(REFACTORS);
      else if (/^\/codes\/\d/.test(req.url ?? '')) res.end(ONE_CODE);
      else if (req.url?.startsWith('/users/')) res.end(`${DECL}${USER}\n`);
      else res.end(CODES);
    });
    const base = c.baseUrl;
    const codes = await c.recentCodes();
    assert.deepEqual(codes, decodeCodes(CODES));
    assert.deepEqual(codes.map((x) => [x.id, x.title, x.user?.name]), [[1, 'Hello World', 'ann'], [2, 'Second One', 'ann']]);
    assert.equal(codes[0].code, 'def hi\n  puts "<hi>"\nend\n');
    assert.deepEqual(await c.popularCodes({ language: 'ruby', page: 2 }), decodeCodes(CODES));
    assert.deepEqual(await c.taggedCodes('sort', { language: 'ruby' }), decodeCodes(CODES));
    assert.deepEqual(await c.recentRefactorings(), decodeRefactors(REFACTORS));
    const one = await c.code('1-hello-world');
    assert.deepEqual(one, decodeCode(ONE_CODE));
    assert.equal(one.refactors?.[0].id, 11);
    assert.equal(one.user, undefined, 'the single code names its author by user-id alone');
    assert.deepEqual(await c.user(7), { id: 7, name: 'ann', identityUrl: 'http://id.example/ann', rating: 4.5, refactorsCount: 3, website: '' });
    assert.deepEqual(server!.requests.map((r) => r.url), [
      pathOf(recentCodesUrl(base)),
      pathOf(popularCodesUrl(base, { language: 'ruby', page: 2 })),
      pathOf(tagCodesUrl(base, 'sort', { language: 'ruby' })),
      pathOf(recentRefactoringsUrl(base)),
      pathOf(codeUrl(base, '1-hello-world')),
      pathOf(userUrl(base, 7)),
    ]);
    assert.equal(pathOf(userUrl(base, 7)), '/users/7.xml');
    for (const bad of [0, -1, 1.5, Number.NaN]) assert.throws(() => userUrl(base, bad), RangeError, String(bad));
  });

  it('revalidates with If-None-Match and returns the kept value on a 304', async () => {
    let version = 'v1';
    const c = await setup((req, res) => {
      if (req.headers['if-none-match'] === `"${version}"`) { res.statusCode = 304; res.end(); return; }
      res.setHeader('etag', `"${version}"`);
      res.end(version === 'v1' ? CODES : `${DECL}<codes type="array">${codeXml(3, 'Third')}</codes>`);
    });
    const first = await c.recentCodes();
    first[0].title = 'changed by the caller';
    const second = await c.recentCodes();
    assert.deepEqual(second, decodeCodes(CODES), 'the 304 gives back the first answer, untouched by the caller');
    assert.deepEqual(server!.requests.map((r) => r.headers['if-none-match']), [undefined, '"v1"']);

    version = 'v2';
    assert.deepEqual((await c.recentCodes()).map((x) => x.id), [3]);
    assert.equal(server!.requests.filter(answered).length, 1, 'only the first request went without an ETag');
  });

  it('uses an answer again without asking for as long as its max-age says, then revalidates; expire() asks at once', async () => {
    // The client's own clock, moved by hand: max-age is counted on it, so no wait depends on the machine.
    let now = 1_000_000;
    let maxAge = 'public, max-age=60';
    const c = await setup((req, res) => {
      res.setHeader('cache-control', maxAge);
      if (req.headers['if-none-match'] === '"v1"') { res.statusCode = 304; res.end(); return; }
      res.setHeader('etag', '"v1"');
      res.end(CODES);
    }, { now: () => now });
    await c.recentCodes();
    now += 59_999;
    const held = await c.recentCodes();
    held[0].title = 'changed by the caller';
    assert.deepEqual(await c.recentCodes(), decodeCodes(CODES), 'held, untouched by the caller');
    assert.equal(server!.requests.length, 1, 'fresh for 60 s: nothing asked');
    now += 1;
    await c.recentCodes();
    assert.deepEqual(server!.requests.map((r) => r.headers['if-none-match']), [undefined, '"v1"'], 'at 60 s stale: revalidated');
    await c.recentCodes();
    assert.equal(server!.requests.length, 2, "the 304's max-age holds it again");

    c.expire();
    assert.deepEqual(await c.recentCodes(), decodeCodes(CODES));
    assert.deepEqual(server!.requests.map((r) => r.headers['if-none-match']), [undefined, '"v1"', '"v1"'], 'expire() revalidates');

    now += 60_000;
    maxAge = 'no-cache, max-age=60';
    await c.recentCodes();
    await c.recentCodes();
    assert.deepEqual(server!.requests.slice(3).map((r) => r.headers['if-none-match']), ['"v1"', '"v1"'], 'stale, then no-cache: every call asks');
  });

  it('keeps an answer that has a max-age but no ETag while it is fresh, then asks afresh; one with neither is never kept', async () => {
    let now = 5_000_000;
    let cacheControl: string | undefined = 'max-age=30';
    const c = await setup((_req, res) => {
      if (cacheControl) res.setHeader('cache-control', cacheControl);
      res.end(CODES);
    }, { now: () => now });
    await c.recentCodes();
    now += 29_000;
    assert.deepEqual(await c.recentCodes(), decodeCodes(CODES));
    assert.equal(server!.requests.length, 1, 'fresh for 30 s without an ETag: nothing asked');
    now += 1_000;
    await c.recentCodes();
    assert.equal(server!.requests.length, 2, 'stale: asked again');
    assert.equal(server!.requests[1].headers['if-none-match'], undefined, 'nothing to revalidate with');

    cacheControl = undefined;
    now += 30_000;
    await c.recentCodes();
    await c.recentCodes();
    assert.equal(server!.requests.length, 4, 'no max-age and no ETag: every call asks');
  });

  it('holds the 200 answers used last: a fresh one used again outlives older ones, the 201st drops the least recently used', async function () {
    this.timeout(10_000);
    let now = 0;
    const c = await setup((req, res) => {
      res.setHeader('cache-control', 'max-age=60');
      if (req.headers['if-none-match'] === '"e"') { res.statusCode = 304; res.end(); return; }
      res.setHeader('etag', '"e"');
      res.end(ONE_CODE);
    }, { now: () => now });
    for (let id = 1; id <= 200; id++) await c.code(id);
    await c.code(1); // fresh: answered from the cache, and now the most recently used
    assert.equal(server!.requests.length, 200);
    await c.code(201); // one too many: 2 is now the least recently used
    now += 60_000; // every held answer stale: a held one is revalidated, a dropped one asked afresh
    const sent = async (id: number) => {
      await c.code(id);
      return server!.requests[server!.requests.length - 1].headers['if-none-match'];
    };
    assert.equal(await sent(1), '"e"', 'code 1, used again, was kept');
    assert.equal(await sent(201), '"e"', 'the newest was kept');
    assert.equal(await sent(3), '"e"', 'code 3 was kept: only one was dropped');
    assert.equal(await sent(2), undefined, 'code 2, the least recently used, was dropped');
  });

  it('keeps no answer with neither an ETag nor a max-age, so 200 of them push out no answer that can be revalidated', async function () {
    this.timeout(10_000);
    let one = '';
    const c = await setup((req, res) => {
      if (req.url !== one) { res.end(CODES); return; }
      if (req.headers['if-none-match'] === '"e"') { res.statusCode = 304; res.end(); return; }
      res.setHeader('etag', '"e"');
      res.end(ONE_CODE);
    });
    one = pathOf(codeUrl(c.baseUrl, 1));
    await c.code(1);
    for (let page = 1; page <= 200; page++) await c.recentCodes({ page });
    await c.code(1);
    assert.equal(server!.requests[server!.requests.length - 1].headers['if-none-match'], '"e"', 'code 1 was still held');
  });

  it('reads max-age from Cache-Control, and nothing where the service forbids keeping or says nothing', () => {
    const cases: Array<[string | undefined, number]> = [
      ['public, max-age=60', 60_000], ['max-age=0', 0], ['MAX-AGE=5', 5000], ['private,max-age=7', 7000],
      ['no-cache', 0], ['no-store, max-age=60', 0], ['max-age=60, no-cache', 0], ['s-maxage=60', 0],
      ['max-age=abc', 0], ['max-age=999999999', 86_400_000], [undefined, 0],
    ];
    for (const [value, ms] of cases) assert.equal(maxAgeMs(new Headers(value === undefined ? {} : { 'cache-control': value })), ms, String(value));
  });

  it('lets no caller change, however deep, what the cache or another caller holds', async () => {
    const c = await setup((req, res) => {
      if (req.headers['if-none-match'] === '"v1"') { res.statusCode = 304; res.end(); return; }
      res.setHeader('etag', '"v1"');
      setTimeout(() => res.end(req.url?.startsWith('/refactorings/') ? REFACTORS : CODE_WITH_USER), 50);
    });
    const [a, b] = await Promise.all([c.code(1), c.code(1)]);
    assert.notEqual(a, b);
    for (const mine of [a, b]) {
      mine.createdAt!.setTime(0);
      mine.updatedAt!.setUTCFullYear(1999);
      mine.user!.name = 'changed';
      mine.refactors![0].title = 'changed';
      mine.refactors![0].createdAt!.setTime(0);
      mine.refactors!.push(mine.refactors![0]);
    }
    assert.deepEqual(await c.code(1), decodeCode(CODE_WITH_USER), 'the 304 gives back the first answer, untouched');
    const [r] = await c.recentRefactorings();
    r.createdAt!.setTime(0);
    assert.deepEqual(await c.recentRefactorings(), decodeRefactors(REFACTORS));
  });

  it('keeps no ETag across different URLs', async () => {
    const c = await setup((_req, res) => { res.setHeader('etag', '"same"'); res.end(CODES); });
    await c.recentCodes({ language: 'ruby' });
    await c.recentCodes({ language: 'perl' });
    assert.deepEqual(server!.requests.map((r) => r.headers['if-none-match']), [undefined, undefined]);
  });

  it('shares one request between concurrent calls for the same URL', async () => {
    const c = await setup((_req, res) => setTimeout(() => res.end(CODES), 100));
    const [a, b] = await Promise.all([c.recentCodes(), c.recentCodes()]);
    assert.equal(server!.requests.length, 1);
    assert.deepEqual(a, b);
    assert.notEqual(a, b, 'each caller gets its own copy');
    await c.popularCodes();
    assert.equal(server!.requests.length, 2, 'another URL is another request');
  });

  it("does not let one caller's abort cancel the request for the others", async () => {
    let socketClosedEarly = false;
    const c = await setup((req, res) => {
      req.socket.once('close', () => { if (!res.writableEnded) socketClosedEarly = true; });
      setTimeout(() => res.end(CODES), 150);
    });
    const controller = new AbortController();
    const leaving = c.recentCodes({ signal: controller.signal });
    const staying = c.recentCodes();
    setTimeout(() => controller.abort(), 30);
    await rejectsWith(leaving, 'aborted', `${recentCodesUrl(c.baseUrl)}: cancelled`);
    assert.deepEqual(await staying, decodeCodes(CODES));
    assert.equal(server!.requests.length, 1);
    assert.equal(socketClosedEarly, false);
  });

  it('cancels the request once every caller has aborted, and starts afresh for the next', async () => {
    let closedEarly = 0;
    const c = await setup((req, res) => {
      req.socket.once('close', () => { if (!res.writableEnded) closedEarly++; });
      if (server!.requests.length === 1) return; // the first request is never answered
      res.end(CODES);
    });
    const one = new AbortController();
    const two = new AbortController();
    const calls = [c.recentCodes({ signal: one.signal }), c.recentCodes({ signal: two.signal })];
    await waitFor(() => server!.requests.length === 1, 'the request', 3000);
    one.abort();
    two.abort();
    for (const call of calls) await rejectsWith(call, 'aborted', `${recentCodesUrl(c.baseUrl)}: cancelled`);
    await waitFor(() => closedEarly === 1, 'the socket to close early', 3000);
    assert.deepEqual(await c.recentCodes(), decodeCodes(CODES));
    assert.equal(server!.requests.length, 2);
  });

  it('turns a decoding failure into an ApiError naming the URL', async () => {
    const c = await setup((req, res) => res.end(req.url?.startsWith('/refactorings/') ? CODES : '<html><body>Oops</body></html>'));
    const url = recentCodesUrl(c.baseUrl);
    const err = await c.recentCodes().then(() => assert.fail('decoded an HTML page'), (e: unknown) => e);
    assert.ok(err instanceof ApiError && err.cause instanceof DecodeError);
    assert.equal(err.kind, err.cause.kind);
    assert.equal(err.message, `${url}: ${err.cause.message}`);
    assert.ok(!err.message.includes('\n'));
    const wrong = await c.recentRefactorings().then(() => assert.fail('decoded codes as refactorings'), (e: unknown) => e);
    assert.ok(wrong instanceof ApiError && wrong.kind === 'wrong-root', String(wrong));
  });

  it('passes the deadline, retries and size cap on to the transport', async () => {
    const c = await setup((req, res) => {
      if (req.url?.startsWith('/codes/popular')) { res.statusCode = 503; res.end(); return; }
      if (req.url?.startsWith('/refactorings/')) { res.end(Buffer.alloc(2048, 0x61)); return; }
    }, { timeoutMs: 300, maxTries: 2, maxResponseBytes: 1024 });
    await rejectsWith(c.recentCodes(), 'timeout', `${recentCodesUrl(c.baseUrl)}: timed out after 0.3 s`);
    await rejectsWith(c.popularCodes(), 'http-status', `${popularCodesUrl(c.baseUrl)}: HTTP 503 Service Unavailable (after 2 tries)`);
    await rejectsWith(c.recentRefactorings(), 'too-large', `${recentRefactoringsUrl(c.baseUrl)}: response larger than 1 KiB`);
  });

  it('logs each request with its status and time, and each failure', async () => {
    const lines: string[] = [];
    const logger: Logger = {
      trace: () => undefined,
      info: (m) => lines.push(`info ${m}`),
      warn: (m) => lines.push(`warn ${m}`),
      error: (m) => lines.push(`error ${m}`),
    };
    const c = await setup((req, res) => {
      if (req.url?.startsWith('/codes/recent')) res.end(CODES);
      else { res.statusCode = 404; res.end(); }
    }, { logger });
    await c.recentCodes();
    await c.popularCodes().catch(() => undefined);
    const recent = recentCodesUrl(c.baseUrl);
    const popular = popularCodesUrl(c.baseUrl);
    assert.equal(lines.length, 3, lines.join('\n'));
    assert.match(lines[0], /^info GET \S+ -> 200 in \d+ ms$/);
    assert.ok(lines[0].startsWith(`info GET ${recent} `));
    assert.ok(lines[1].startsWith(`info GET ${popular} -> 404 in `));
    assert.equal(lines[2], `error ${popular}: HTTP 404 Not Found`);
  });

  it('cancels what is in flight on close and refuses calls afterwards', async () => {
    const c = await setup(() => undefined);
    const cancelled = rejectsWith(c.recentCodes(), 'aborted', `${recentCodesUrl(c.baseUrl)}: cancelled`);
    await waitFor(() => server!.requests.length === 1, 'the request', 3000);
    await c.close();
    await cancelled;
    await rejectsWith(c.popularCodes(), 'aborted', `${popularCodesUrl(c.baseUrl)}: client closed`);
  });

  it('sends its requests through the fetch it was given, and leaves it usable after close', async () => {
    const dispatcher = createDispatcher({ env: {} });
    const seen: string[] = [];
    const viaDispatcher = fetchVia(dispatcher);
    const fetch: typeof viaDispatcher = (input, init) => {
      seen.push(input);
      return viaDispatcher(input, init);
    };
    try {
      const c = await setup((_req, res) => res.end(CODES), { fetch });
      assert.equal((await c.recentCodes()).length, 2);
      assert.deepEqual(seen, [recentCodesUrl(c.baseUrl)]);
      await c.close();
      client = new RefactorClient({ baseUrl: server!.origin, fetch });
      assert.equal((await client.popularCodes()).length, 2);
      assert.deepEqual(seen, [recentCodesUrl(c.baseUrl), popularCodesUrl(c.baseUrl)]);
    } finally {
      await client?.close();
      await dispatcher.close();
    }
  });
});
