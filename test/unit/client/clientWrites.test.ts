// RefactorClient's writes against a loopback node:http server that answers as a writable service
// may (its statuses scripted per test), and against the read-only reference service: what each
// request carries, that a write is sent once whatever the answer, what each failure says, that the
// token is in no message or log line, and that what the client held is asked for again afterwards.
import * as assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RefactorClient } from '../../../src/client/client';
import { ApiError } from '../../../src/core/errors';
import type { Logger } from '../../../src/client/logger';
import { startServer as startReferenceService } from '../../../src/server/http/server';
import { startServer, type TestServer } from '../../helpers/testServer';

const DECL = '<?xml version="1.0" encoding="UTF-8"?>\n';
const TOKEN = 'sEcReT-t0ken_value';
const CODE = `${DECL}<code><code>puts 1\n</code><comment>c</comment><created-at type="datetime">2026-01-01T00:00:00Z</created-at>`
  + '<id type="integer">42</id><language>Ruby</language><permalink>sum</permalink><refactors-count type="integer">0</refactors-count>'
  + '<title>Sum</title><trackback-url></trackback-url><updated-at type="datetime">2026-01-01T00:00:00Z</updated-at>'
  + '<user-id type="integer">3</user-id><refactors type="array"></refactors></code>\n';
const REFACTOR = `${DECL}<refactor><code>p 1\n</code><code-id type="integer">42</code-id><comment></comment>`
  + '<created-at type="datetime">2026-01-02T00:00:00Z</created-at><id type="integer">7</id><language>Ruby</language>'
  + '<rating type="float">4.0</rating><ratings-count type="integer">1</ratings-count><title></title><user-id type="integer">3</user-id>'
  + '<user-name>ann</user-name><user-website></user-website></refactor>\n';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Answer = (seen: Seen, res: ServerResponse) => void;

describe('RefactorClient writes', function () {
  this.timeout(8000);
  let server: TestServer;
  let seen: Seen[];
  let answer: Answer;
  let lines: string[];
  let client: RefactorClient;

  const logger: Logger = {
    trace: (m) => lines.push(m),
    info: (m) => lines.push(m),
    warn: (m) => lines.push(m),
    error: (m) => lines.push(m),
  };

  before(async () => {
    server = await startServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (d: string) => (body += d)).on('end', () => {
        const s = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
        seen.push(s);
        answer(s, res);
      });
    });
  });
  after(() => server.close());
  beforeEach(() => {
    seen = [];
    lines = [];
    client = new RefactorClient({ baseUrl: `${server.origin}/api`, token: TOKEN, logger, retryBaseDelayMs: 1 });
  });
  afterEach(() => client.close());

  function xml(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'content-type': 'application/xml; charset=utf-8', ...headers }).end(body);
  }

  /** The error a write rejects with; the token must be in none of its text, its cause's included. */
  async function failure(write: () => Promise<unknown>): Promise<ApiError> {
    const err = await write().then(() => assert.fail('the write succeeded'), (e: unknown) => e);
    assert.ok(err instanceof ApiError, String(err));
    for (const text of [err.message, String(err.stack), String((err.cause as Error | undefined)?.message), ...err.reasons, ...lines]) {
      assert.ok(!text.includes(TOKEN), `the token in: ${text}`);
    }
    assert.ok(!err.message.includes('\n'), err.message);
    return err;
  }

  it('postCode sends the XML with the token and content type, and gives the code and its page from Location', async () => {
    answer = (_s, res) => xml(res, 201, CODE, { location: `${server.origin}/api/codes/42-sum` });
    const created = await client.postCode({ title: 'Sum & more', language: 'Ruby', comment: 'c', code: 'puts 1\n', tags: ['a', 'b'] });
    assert.equal(created.url, `${server.origin}/api/codes/42-sum`);
    assert.equal(created.value.id, 42);
    assert.equal(created.value.title, 'Sum');
    assert.equal(seen.length, 1);
    assert.equal(seen[0].method, 'POST');
    assert.equal(seen[0].url, '/api/codes.xml');
    assert.equal(seen[0].headers.authorization, `Bearer ${TOKEN}`);
    assert.equal(seen[0].headers['content-type'], 'application/xml');
    assert.match(seen[0].body, /<title>Sum &amp; more<\/title>/);
    assert.match(seen[0].body, /<tag-list>a b<\/tag-list>/);
    assert.ok(lines.length > 0 && lines.every((l) => !l.includes(TOKEN)), lines.join('\n'));
  });

  it('without a Location, the page is the one the API\'s rules give', async () => {
    answer = (_s, res) => xml(res, 201, REFACTOR);
    const created = await client.postRefactor('42-sum', { comment: '', code: 'p 1\n' });
    assert.equal(created.url, `${server.origin}/api/codes/42/refactors/7`);
    assert.equal(seen[0].url, '/api/codes/42/refactors.xml');
    assert.ok(!seen[0].body.includes('<title>'), seen[0].body);
  });

  it('rate posts the value and gives the refactoring; the deletes send DELETE to the id\'s URL', async () => {
    answer = (s, res) => (s.method === 'DELETE' ? res.writeHead(204).end() : xml(res, 200, REFACTOR));
    const rated = await client.rate('https://elsewhere.example/codes/42-sum', 7, 4);
    assert.deepEqual([rated.rating, rated.ratingsCount], [4, 1]);
    await client.deleteRefactor(42, 7);
    await client.deleteCode('42-sum');
    assert.deepEqual(seen.map((s) => `${s.method} ${s.url}`), [
      'POST /api/codes/42/refactors/7/rate.xml', 'DELETE /api/codes/42/refactors/7.xml', 'DELETE /api/codes/42.xml',
    ]);
    assert.match(seen[0].body, /<rating>\s*<value>4<\/value>\s*<\/rating>/);
    assert.ok(seen.every((s) => s.headers.authorization === `Bearer ${TOKEN}`));
  });

  for (const status of [503, 502, 429]) {
    it(`a POST answered ${status} is not sent again (reads are)`, async () => {
      answer = (_s, res) => xml(res, status, '', { 'retry-after': '0' });
      await failure(() => client.postCode({ title: 't', language: 'Ruby', comment: '', code: 'x' }));
      assert.equal(seen.length, 1);
      seen = [];
      await failure(() => client.code(42));
      assert.equal(seen.length, 3, 'a read is tried three times');
    });
  }

  it('a DELETE whose connection is reset is not sent again', async () => {
    answer = (_s, res) => res.socket?.destroy();
    const err = await failure(() => client.deleteCode(42));
    assert.equal(err.kind, 'connection');
    assert.equal(seen.length, 1);
  });

  it('a 422 lists every reason in one line and keeps them as a list', async () => {
    answer = (_s, res) => xml(res, 422, `${DECL}<errors>\n  <error>Title can't be blank</error>\n  <error>Code is too\n long</error>\n</errors>\n`);
    const err = await failure(() => client.postCode({ title: '', language: 'Ruby', comment: '', code: '' }));
    assert.equal(err.status, 422);
    assert.deepEqual(err.reasons, ["Title can't be blank", 'Code is too long']);
    assert.equal(err.message, `${server.origin}/api/codes.xml: HTTP 422 Unprocessable Content: Title can't be blank; Code is too long`);
  });

  it('a 401 says the token was refused, without it', async () => {
    answer = (_s, res) => xml(res, 401, `${DECL}<errors><error>invalid token ${TOKEN}</error></errors>`, { 'www-authenticate': 'Bearer realm="refactor-browser"' });
    const err = await failure(() => client.deleteCode(42));
    assert.equal(err.status, 401);
    assert.match(err.message, /: HTTP 401 Unauthorized: the token was refused/);
  });

  it('a service that quotes the token back has it masked in the message, the reasons and the log', async () => {
    answer = (_s, res) => xml(res, 403, `${DECL}<errors><error>${TOKEN} may not delete this</error></errors>`);
    const err = await failure(() => client.deleteCode(42));
    assert.deepEqual(err.reasons, ['*** may not delete this']);
    assert.ok(lines.some((l) => l.includes('*** may not delete this')), lines.join('\n'));
  });

  it('a 429 says when to try again', async () => {
    answer = (_s, res) => xml(res, 429, '', { 'retry-after': '30' });
    const err = await failure(() => client.rate(42, 7, 5));
    assert.match(err.message, /HTTP 429 Too Many Requests: too many requests: try again in 30 s$/);
  });

  it('a 403 and a 404 give the service\'s reason alone, or say whose and what when it gave none', async () => {
    answer = (_s, res) => xml(res, 403, `${DECL}<errors><error>Only its author can delete a code</error></errors>`);
    assert.match((await failure(() => client.deleteCode(42))).message, /HTTP 403 Forbidden: Only its author can delete a code$/);
    answer = (_s, res) => xml(res, 403, '');
    assert.match((await failure(() => client.deleteCode(42))).message, /HTTP 403 Forbidden: only its author may change it$/);
    answer = (_s, res) => xml(res, 404, `${DECL}<errors><error>no code with id 42</error></errors>`);
    assert.match((await failure(() => client.deleteCode(42))).message, /HTTP 404 Not Found: no code with id 42$/);
    answer = (_s, res) => xml(res, 404, 'not found');
    assert.match((await failure(() => client.deleteCode(42))).message, /HTTP 404 Not Found: no such code or refactoring$/);
  });

  it('a redirect is not followed: the body and the token do not go to another address', async () => {
    answer = (_s, res) => res.writeHead(307, { location: 'http://127.0.0.1:9/elsewhere' }).end();
    const err = await failure(() => client.deleteCode(42));
    assert.match(err.message, /HTTP 307 Temporary Redirect \(a write is not sent on to another address\)$/);
    assert.equal(seen.length, 1);
  });

  it('refuses, before sending, a token no service gives and a body XML cannot carry; the token is not quoted', async () => {
    answer = () => assert.fail('nothing should be sent');
    const odd = 'abc\ndef';
    const c = new RefactorClient({ baseUrl: server.origin, token: odd });
    const err = await c.deleteCode(1).then(() => assert.fail('sent'), (e: unknown) => e as ApiError);
    assert.equal(err.kind, 'invalid-input');
    assert.ok(!err.message.includes('abc'), err.message);
    const none = new RefactorClient({ baseUrl: server.origin });
    assert.match((await failure(() => none.deleteCode(1))).message, /a write needs a token, and none was given$/);
    const bad = await failure(() => client.postRefactor(1, { comment: '', code: 'a\u0001' }));
    assert.equal(bad.message, `${server.origin}/api/codes/1/refactors.xml: code holds the character U+0001, which XML cannot carry: remove it and send again`);
    assert.equal(seen.length, 0);
  });

  it('after a write, a code held for its max-age is asked for again', async () => {
    let title = 'Sum';
    answer = (s, res) => {
      if (s.method === 'GET') xml(res, 200, CODE.replace('<title>Sum</title>', `<title>${title}</title>`), { 'cache-control': 'max-age=60' });
      else xml(res, 201, REFACTOR);
    };
    assert.equal((await client.code(42)).title, 'Sum');
    title = 'Sum, refactored';
    assert.equal((await client.code(42)).title, 'Sum', 'held for its max-age');
    await client.postRefactor(42, { comment: '', code: 'p 1\n' });
    assert.equal((await client.code(42)).title, 'Sum, refactored');
  });

  it('account reads the person with the token, and is never held', async () => {
    answer = (_s, res) => xml(res, 200, `${DECL}<user><id type="integer">3</id><identity-url></identity-url><name>ann</name><rating type="float"></rating>`
      + '<refactors-count type="integer">2</refactors-count><website>https://ann.example</website></user>', { 'cache-control': 'max-age=60' });
    const me = await client.account();
    assert.deepEqual(me, { id: 3, name: 'ann', identityUrl: '', rating: null, refactorsCount: 2, website: 'https://ann.example' });
    await client.account();
    assert.deepEqual(seen.map((s) => `${s.method} ${s.url} ${s.headers.authorization}`), [`GET /api/account.xml Bearer ${TOKEN}`, `GET /api/account.xml Bearer ${TOKEN}`]);
  });

  it('a read never carries the token', async () => {
    answer = (_s, res) => xml(res, 200, CODE);
    await client.code(42);
    assert.equal(seen[0].headers.authorization, undefined);
  });

  it('the read-only reference service refuses with 405, and its own words say so', async () => {
    const readOnly = await startReferenceService({ port: 0 });
    try {
      const c = new RefactorClient({ baseUrl: readOnly.url, token: TOKEN });
      const err = await failure(() => c.postCode({ title: 't', language: 'Ruby', comment: '', code: 'x' }));
      assert.equal(err.status, 405);
      assert.match(err.message, /codes\.xml: HTTP 405 Method Not Allowed: \S/);
    } finally {
      await readOnly.close();
    }
  });
});

describe('withoutCredentials and bearer tokens', () => {
  it('masks the token after Bearer, as a refused header value would quote it, but not a challenge\'s realm', async () => {
    const { withoutCredentials } = await import('../../../src/core/errors');
    assert.equal(withoutCredentials('Headers.append: "Bearer abc.DEF~1/+=" is an invalid header value.'), 'Headers.append: "Bearer ***" is an invalid header value.');
    assert.equal(withoutCredentials('authorization: bearer  xyz, next'), 'authorization: bearer  ***, next');
    assert.equal(withoutCredentials('WWW-Authenticate: Bearer realm="refactor-browser"'), 'WWW-Authenticate: Bearer realm="refactor-browser"');
  });
});
