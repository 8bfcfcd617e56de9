// The write API's own rules, answered in process by the handler the server runs (Contributions, over
// the SQL store on an embedded PostgreSQL) with a clock the test moves: how long an address that
// sent refused tokens waits and when it is forgiven, which accepted tokens pass its bound, what a
// body must say of itself before it is read, which tokens are looked up at all, and where Location
// points. writeApi.test.ts holds the same API over real HTTP.
import * as assert from 'node:assert/strict';
import type { Answer } from '../../../src/server/answers';
import type { Route, ServiceRequest } from '../../../src/server/routes';
import { newToken, tokenHash } from '../../../src/server/tokens';
import { Contributions, MAX_COUNTED, type ContributionLimits } from '../../../src/server/writes/handler';
import { startWritableService, type WritableService } from '../../helpers/writableService';

const CODE = '<code><title>Sum prices</title><language>Ruby</language><comment>Shorter?</comment><code>p 1</code><tag-list>sums</tag-list></code>';
const NEW_CODE: Route = { kind: 'newCode' };
const T0 = Date.parse('2026-11-28T10:00:00Z');

interface Ask {
  token?: string;
  authorization?: string;
  client?: string;
  url?: string;
  headers?: ServiceRequest['headers'];
  body?: string | Uint8Array;
  /** Called when the handler reads the body. */
  onRead?: () => void;
}

describe('reference service: the write handler\'s rules, in process with a clock', function () {
  this.timeout(30_000);
  let service: WritableService;
  let ana: string;
  let bo: string;
  let now = T0;

  before(async function () {
    this.timeout(60_000);
    service = await startWritableService();
  });
  after(async () => service?.close());
  beforeEach(async () => {
    now = T0;
    await service.reset();
    ana = await service.addPerson('Ana Lima');
    bo = await service.addPerson('Bo Chen');
  });

  const handler = (limits: Partial<ContributionLimits> = {}): Contributions => new Contributions(service.store, service.store.writer, limits, () => now);

  function request(ask: Ask): ServiceRequest {
    const body = typeof ask.body === 'string' ? new TextEncoder().encode(ask.body) : ask.body ?? new TextEncoder().encode(CODE);
    const authorization = ask.authorization ?? (ask.token === undefined ? undefined : `Bearer ${ask.token}`);
    return {
      method: 'POST',
      url: ask.url ?? '/codes.xml',
      headers: { 'content-type': 'application/xml', host: 'refactor.example.org', ...(authorization === undefined ? {} : { authorization }), ...ask.headers },
      client: ask.client,
      body: async () => {
        ask.onRead?.();
        return body;
      },
    };
  }

  const reason = (a: Answer): string => new TextDecoder().decode(a.body);
  const post = (h: Contributions, ask: Ask, route: Route = NEW_CODE): Promise<Answer> => h.answer(route, request(ask), 'xml');

  it('makes an address that sent refused tokens wait until the oldest is a minute old, at least a second, then forgives it', async () => {
    const h = handler({ refusedPerMinute: 3 });
    const guess = (at: number): Promise<Answer> => {
      now = T0 + at;
      return post(h, { token: 'guessed', client: '198.51.100.7' });
    };
    for (const at of [0, 10_000, 20_000]) assert.equal((await guess(at)).status, 401);
    const stopped = await guess(30_000);
    assert.equal(stopped.status, 429);
    assert.equal(stopped.headers['Retry-After'], '30', 'until the refusal at 0 s is a minute old');
    assert.match(reason(stopped), /more than 3 requests without an accepted token in a minute from this address: try again in 30 s/);
    const last = await guess(59_900);
    assert.equal(last.headers['Retry-After'], '1', 'never less than a second');
    assert.equal((await guess(60_000)).status, 401, 'the refusal at 0 s has left the minute: looked up again');
    assert.equal((await guess(60_001)).status, 429, 'and counted: three in the minute again');
    assert.equal((await post(h, { token: 'guessed', client: '198.51.100.8' })).status, 401, 'another address is counted apart');
  });

  it('asks a request without a token to sign in, and counts no address for a request made in process', async () => {
    const h = handler({ refusedPerMinute: 1 });
    const unsigned = await post(h, {});
    assert.equal(unsigned.status, 401);
    assert.match(reason(unsigned), /sign in first: send Authorization: Bearer TOKEN/);
    assert.equal(unsigned.headers['WWW-Authenticate'], 'Bearer realm="refactor-browser"');
    assert.match(reason(await post(h, { token: 'guessed' })), /the token was refused/);
    assert.equal((await post(h, { token: 'guessed' })).status, 401, 'no client address (in process): nothing to count');
  });

  it('forgets the oldest address once MAX_COUNTED (100,000) are counted, so that claimed addresses cannot fill its memory', async function () {
    this.timeout(120_000);
    const h = handler({ refusedPerMinute: 1 });
    assert.equal((await post(h, { client: 'first' })).status, 401);
    for (let i = 1; i < MAX_COUNTED; i++) await post(h, { client: `a${i}` });
    assert.equal((await post(h, { client: 'first' })).status, 429, 'as many counted as it keeps: the first is still among them');
    await post(h, { client: 'one-more' });
    assert.equal((await post(h, { client: 'first' })).status, 401, 'one more: the first, the oldest, was let go');
  });

  it('keeps counting an address while others are refused, and lets a token accepted before through from a stopped address', async () => {
    const h = handler({ refusedPerMinute: 1 });
    assert.equal((await post(h, { client: '203.0.113.1' })).status, 401);
    assert.equal((await post(h, { client: '203.0.113.2' })).status, 401);
    assert.equal((await post(h, { client: '203.0.113.1' })).status, 429, 'the first address is still counted after a second one');
    // Ana and Bo write from one address; then it sends a refused token and is stopped.
    assert.equal((await post(h, { token: ana, client: '192.0.2.9' })).status, 201);
    assert.equal((await post(h, { token: bo, client: '192.0.2.9' })).status, 201);
    assert.equal((await post(h, { token: 'guessed', client: '192.0.2.9' })).status, 401);
    assert.equal((await post(h, { token: 'guessed', client: '192.0.2.9' })).status, 429);
    assert.equal((await post(h, { token: ana, client: '192.0.2.9' })).status, 201, 'Ana\'s token was accepted before: Bo\'s did not push it out');
  });

  it('says how many writes a person may make when they made them all', async () => {
    const h = handler({ writesPerMinute: 2 });
    for (let i = 0; i < 2; i++) assert.equal((await post(h, { token: ana })).status, 201);
    const refused = await post(h, { token: ana });
    assert.equal(refused.status, 429);
    assert.match(reason(refused), /more than 2 writes in a minute: try again in 60 s/);
  });

  it('shows the account in XML only: its HTML path is not one', async () => {
    const h = handler();
    const xml = await h.answer({ kind: 'account' }, request({ token: ana }), 'xml');
    assert.equal(xml.status, 200);
    assert.match(reason(xml), /<name>Ana Lima<\/name>/);
    const html = await h.answer({ kind: 'account' }, request({ token: ana }), 'html');
    assert.equal(html.status, 404);
    assert.doesNotMatch(reason(html), /Ana Lima/);
  });

  it('reads XML of any spelling of its type, refuses a body of another or none before reading it, and one too large before reading it', async () => {
    const h = handler({ maxBodyBytes: CODE.length });
    for (const type of ['application/xml; charset=utf-8', 'Text/XML ; charset=UTF-8', ' application/xml']) {
      assert.equal((await post(h, { token: ana, headers: { 'content-type': type } })).status, 201, type);
    }
    let read = 0;
    const onRead = (): void => void read++;
    const untyped = await h.answer(NEW_CODE, { ...request({ token: ana, onRead }), headers: { authorization: `Bearer ${ana}` } }, 'xml');
    assert.equal(untyped.status, 415);
    assert.match(reason(untyped), /Content-Type: application\/xml/);
    assert.equal((await post(h, { token: ana, headers: { 'content-type': 'text/plain' }, onRead })).status, 415);
    const large = await post(h, { token: ana, headers: { 'content-length': String(CODE.length + 1) }, onRead });
    assert.equal(large.status, 413);
    assert.equal(read, 0, 'no body was read');
    assert.equal((await post(h, { token: ana, headers: { 'content-length': String(CODE.length) } })).status, 201, 'a body of the largest size is taken');
    const bad = await post(h, { token: ana, body: new Uint8Array([0x3c, 0x63, 0xff, 0xfe]) });
    assert.equal(bad.status, 400);
    assert.match(reason(bad), /the body is not UTF-8/);
  });

  it('looks up a token of up to 256 characters, after up to 16 of Authorization\'s own, and no longer one', async () => {
    const long = newToken().padEnd(256, 'x');
    assert.ok(!(await service.store.addPerson('Cy Long', {}, await tokenHash(long))).refused);
    const h = handler();
    assert.equal((await post(h, { token: long })).status, 201);
    assert.equal((await post(h, { authorization: `Bearer${' '.repeat(10)}${long}` })).status, 201, '272 characters in all');
    assert.equal((await post(h, { authorization: `Bearer${' '.repeat(11)}${long}` })).status, 401, 'one more is not looked up');
    const longer = `${long}y`;
    assert.ok(!(await service.store.addPerson('Di Longer', {}, await tokenHash(longer))).refused);
    assert.equal((await post(h, { token: longer })).status, 401, 'a token of 257 characters is not one users add makes: never looked up');
  });

  it('names the new code where the request reached the service: its absolute target, else a well-formed Host, else a path', async () => {
    const h = handler();
    const location = async (ask: Ask): Promise<string> => {
      const a = await post(h, { token: ana, ...ask });
      assert.equal(a.status, 201, reason(a));
      return a.headers.Location;
    };
    assert.match(await location({ url: 'http://proxy.example.net:8080/codes.xml' }), /^http:\/\/proxy\.example\.net:8080\/codes\/\d+/);
    assert.match(await location({ url: 'HTTPS://Proxy.example.net/codes.xml' }), /^HTTPS:\/\/Proxy\.example\.net\/codes\/\d+/);
    assert.match(await location({ url: '/codes.xml?from=http://elsewhere.example/' }), /^http:\/\/refactor\.example\.org\/codes\/\d+/, 'not an address in the query');
    assert.match(await location({ headers: { 'x-forwarded-proto': 'HTTPS, http' } }), /^https:\/\/refactor\.example\.org\/codes\/\d+/, 'the first proxy\'s word');
    assert.match(await location({ headers: { 'x-forwarded-proto': ' https ,http' } }), /^https:\/\/refactor\.example\.org\/codes\/\d+/, 'spaces around it');
    assert.match(await location({ headers: { host: '[::1]:3000' } }), /^http:\/\/\[::1\]:3000\/codes\/\d+/);
    assert.match(await location({ headers: { host: 'evil.example/<x>' } }), /^\/codes\/\d+/, 'a Host that is not one: a path');
    assert.match(await location({ headers: { host: '<x>evil.example' } }), /^\/codes\/\d+/);
  });
});
