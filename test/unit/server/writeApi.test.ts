// The write API of the reference service over real HTTP, against the SQL store on an embedded
// PostgreSQL: what a contributor sends, what the service answers, and what every reader sees next.
import * as assert from 'node:assert/strict';
import { decodeCode, decodeCodes, decodeRefactors, decodeUser } from '../../../src/core/xmlDecode';
import { loadSampleDataset } from '../../../src/server/catalog/sampleDataset';
import { startServer, type RunningServer } from '../../../src/server/http/server';
import { plainParser, request, type RawResponse, type XmlNode } from '../../helpers/referenceService';
import { startWritableService, type WritableService } from '../../helpers/writableService';

const XML = { 'Content-Type': 'application/xml' };

function codeXml(fields: Record<string, string>): string {
  const body = Object.entries(fields).map(([k, v]) => `<${k}>${v}</${k}>`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?><code>${body}</code>`;
}

const GOOD_CODE = { title: 'Sum prices', language: 'Ruby', comment: 'Can this be shorter?', code: 'def total(items)\n  items.map(&amp;:price).sum\nend\n', 'tag-list': 'arrays, speed sums' };

/** Each `<error>`'s text (writeBodies.test.ts holds their `field` attributes). */
function errorsOf(res: RawResponse): string[] {
  const doc = plainParser.parse(res.text) as { errors: { error: string | XmlNode | (string | XmlNode)[] } };
  const e = doc.errors.error;
  return (Array.isArray(e) ? e : [e]).map((x) => (typeof x === 'string' ? x : String(x['#text'])));
}

function refactorOf(res: RawResponse): XmlNode {
  return (plainParser.parse(res.text) as { refactor: XmlNode }).refactor;
}

describe('reference service: the write API', function () {
  this.timeout(20_000);
  let service: WritableService;
  let ana: string;
  let bo: string;

  before(async function () {
    this.timeout(60_000);
    service = await startWritableService({ writesPerMinute: 1000 });
  });
  after(async () => service?.close());
  beforeEach(async () => {
    await service.reset();
    ana = await service.addPerson('Ana Lima', { website: 'https://ana.example.org' });
    bo = await service.addPerson('Bo Chen');
  });

  const post = (path: string, token: string | undefined, body: string, headers: Record<string, string> = XML) =>
    request(service.url, path, { method: 'POST', headers: { ...headers, ...(token ? { Authorization: `Bearer ${token}` } : {}) }, body });
  const del = (path: string, token: string) => request(service.url, path, { method: 'DELETE', headers: { Authorization: `Bearer ${token}` } });
  const get = (path: string) => request(service.url, path);

  async function postCode(token = ana, fields: Record<string, string> = GOOD_CODE): Promise<number> {
    const res = await post('/codes.xml', token, codeXml(fields));
    assert.equal(res.status, 201, res.text);
    return decodeCode(res.text).id;
  }

  async function postRefactor(codeId: number, token = bo, body = '<refactor><comment>Use sum</comment><code>items.sum(&amp;:price)</code></refactor>'): Promise<number> {
    const res = await post(`/codes/${codeId}/refactors.xml`, token, body);
    assert.equal(res.status, 201, res.text);
    return Number((refactorOf(res).id as XmlNode)['#text']);
  }

  it('takes a code: 201 with Location, the body GET gives, and it heads every list it belongs to', async () => {
    const before = await get('/codes/recent.xml');
    const res = await post('/codes.xml', ana, codeXml(GOOD_CODE));
    assert.equal(res.status, 201, res.text);
    const code = decodeCode(res.text);
    assert.equal(code.title, 'Sum prices');
    assert.equal(code.language, 'Ruby');
    assert.equal(code.code, 'def total(items)\n  items.map(&:price).sum\nend\n', 'the code verbatim');
    assert.equal(code.permalink, 'sum-prices');
    assert.equal(code.refactorsCount, 0);
    assert.equal(code.user, undefined, 'the single code\'s shape: its author by user-id alone');
    assert.ok(!res.text.includes('<user>'), res.text);
    const author = decodeUser((await get(`/users/${code.userId}.xml`)).text);
    assert.deepEqual([author.name, author.website, author.refactorsCount], ['Ana Lima', 'https://ana.example.org', 0], 'named at /users/<id>.xml');
    assert.equal(res.headers.location, `${service.url}/codes/${code.id}-sum-prices`);
    assert.equal(res.headers['cache-control'], 'no-store');
    const read = await get(`/codes/${code.id}.xml`);
    assert.equal(read.text, res.text, 'the answer is the code as GET gives it');

    const recent = await get('/codes/recent.xml');
    assert.notEqual(recent.headers.etag, before.headers.etag, 'a new ETag for the changed list');
    const [first] = decodeCodes(recent.text);
    assert.equal(first.id, code.id);
    assert.equal(first.user?.name, 'Ana Lima');
    assert.equal(first.user?.website, 'https://ana.example.org');
    assert.equal(decodeCodes((await get('/codes/recent/ruby.xml')).text)[0].id, code.id);
    assert.deepEqual(decodeCodes((await get('/codes/recent/python.xml')).text), []);
    for (const tag of ['arrays', 'speed', 'sums']) assert.equal(decodeCodes((await get(`/tags/${tag}.xml`)).text)[0]?.id, code.id, tag);
    assert.match((await get('/')).text, /1 code and 0 refactorings/);
  });

  it('names the new code at the address the client used: the Host, https behind a proxy that says so', async () => {
    const res = await post('/codes.xml', ana, codeXml(GOOD_CODE), { ...XML, Host: 'refactor.example.org', 'X-Forwarded-Proto': 'https' });
    assert.equal(res.status, 201, res.text);
    assert.match(String(res.headers.location), /^https:\/\/refactor\.example\.org\/codes\/\d+-sum-prices$/);
  });

  it('never takes ids, authors, dates, counts or ratings from a body', async () => {
    const res = await post('/codes.xml', ana, codeXml({ ...GOOD_CODE, id: '999', 'user-id': '2', 'created-at': '2001-01-01T00:00:00+00:00', 'refactors-count': '50', permalink: 'mine' }));
    assert.equal(res.status, 201, res.text);
    const code = decodeCode(res.text);
    assert.notEqual(code.id, 999);
    assert.equal(code.refactorsCount, 0);
    assert.equal(code.permalink, 'sum-prices');
    assert.notEqual(code.createdAt?.getUTCFullYear(), 2001);
    assert.equal(decodeCodes((await get('/codes/recent.xml')).text)[0].user?.name, 'Ana Lima', 'the token decides the author');
  });

  it('lists every invalid field in one 422, worded for a person, and stores nothing', async () => {
    const version = service.store.version;
    const res = await post('/codes.xml', ana, '<code><title>  </title><language>Cobol</language></code>');
    assert.equal(res.status, 422);
    assert.deepEqual(errorsOf(res), [
      "Title can't be blank",
      'Language must be one of Ruby, PHP, JavaScript, ActionScript, Java, C, C++, C#, VB.NET, Python, Perl, Lisp, Erlang, Haskell, Bash, Delphi',
      "Comment can't be blank",
      "Code can't be blank",
    ]);
    const long = await post('/codes.xml', ana, codeXml({ ...GOOD_CODE, title: 'x'.repeat(201) }));
    assert.deepEqual(errorsOf(long), ['Title is too long (maximum is 200 characters)']);
    const control = await post('/codes.xml', ana, codeXml({ ...GOOD_CODE, code: 'a\u0001b' }));
    assert.equal(control.status, 422);
    assert.deepEqual(errorsOf(control), ['Code holds U+0001, a character XML 1.0 cannot carry']);
    assert.equal(service.store.version, version, 'no write committed');
    assert.deepEqual(decodeCodes((await get('/codes/recent.xml')).text), []);
  });

  it('refuses a body it cannot read with the reason: type 415, size 413, DOCTYPE, entities and bad XML 400', async () => {
    const type = await post('/codes.xml', ana, codeXml(GOOD_CODE), { 'Content-Type': 'application/json' });
    assert.equal(type.status, 415);
    assert.deepEqual(errorsOf(type), ['send the body as XML, with Content-Type: application/xml']);
    assert.equal((await post('/codes.xml', ana, codeXml(GOOD_CODE), { 'Content-Type': 'text/xml; charset=utf-8' })).status, 201, 'text/xml too');

    const huge = codeXml({ ...GOOD_CODE, code: 'x'.repeat(1024 * 1024) });
    const large = await post('/codes.xml', ana, huge);
    assert.equal(large.status, 413);
    assert.deepEqual(errorsOf(large), ['the body is larger than 1 MiB (a code holds at most 60000 characters and a comment 20000, so that a page of 25 stays readable)']);

    const doctype = await post('/codes.xml', ana, '<!DOCTYPE code [<!ENTITY x "y">]><code><title>&x;</title></code>');
    assert.equal(doctype.status, 400);
    assert.match(errorsOf(doctype)[0], /DOCTYPE/);
    const entity = await post('/codes.xml', ana, codeXml({ ...GOOD_CODE, comment: 'caf&eacute;' }));
    assert.equal(entity.status, 400);
    assert.match(errorsOf(entity)[0], /&eacute; is not XML's/);
    const broken = await post('/codes.xml', ana, '<code><title>x</code>');
    assert.equal(broken.status, 400);
    assert.match(errorsOf(broken)[0], /not well-formed XML/);
    const root = await post('/codes.xml', ana, '<refactor><comment>x</comment></refactor>');
    assert.deepEqual(errorsOf(root), ['the body must be one <code> element']);
    const notUtf8 = await post('/codes.xml', ana, Buffer.from([0x3c, 0x63, 0x6f, 0x64, 0x65, 0x3e, 0xff, 0x3c, 0x2f, 0x63, 0x6f, 0x64, 0x65, 0x3e]) as unknown as string);
    assert.equal(notUtf8.status, 400);
    assert.equal(decodeCodes((await get('/codes/recent.xml')).text).length, 1, 'only the text/xml post was stored');
  });

  it('asks for a token: 401 with a Bearer challenge, the token never echoed', async () => {
    const none = await post('/codes.xml', undefined, codeXml(GOOD_CODE));
    assert.equal(none.status, 401);
    assert.equal(none.headers['www-authenticate'], 'Bearer realm="refactor-browser"');
    const wrong = await post('/codes.xml', `${ana}x`, codeXml(GOOD_CODE));
    assert.equal(wrong.status, 401);
    assert.deepEqual(errorsOf(wrong), ['the token was refused: it is unknown, revoked or replaced']);
    assert.ok(!wrong.text.includes(ana));
    const account = await request(service.url, '/account.xml', { headers: { Authorization: `Bearer ${ana}` } });
    assert.equal(account.status, 200);
    assert.equal(((plainParser.parse(account.text) as { user: XmlNode }).user.name), 'Ana Lima');
    assert.equal((await get('/account.xml')).status, 401);
    const revoked = await service.store.revoke('Ana Lima');
    assert.equal(revoked.refused, undefined);
    assert.equal((await post('/codes.xml', ana, codeXml(GOOD_CODE))).status, 401, 'a revoked token stops at once');
  });

  it('takes a refactoring of a code: 201 with Location, counts and lists change at once', async () => {
    const codeId = await postCode();
    const popularBefore = await get('/codes/popular.xml');
    const boId = decodeUser((await request(service.url, '/account.xml', { headers: { Authorization: `Bearer ${bo}` } })).text).id;
    const boBefore = await get(`/users/${boId}.xml`);
    const res = await post(`/codes/${codeId}/refactors.xml`, bo, '<refactor><title>Shorter</title><comment>Use sum</comment><code>items.sum(&amp;:price)</code></refactor>');
    assert.equal(res.status, 201, res.text);
    const r = refactorOf(res);
    const rid = Number((r.id as XmlNode)['#text']);
    assert.equal(res.headers.location, `${service.url}/codes/${codeId}/refactors/${rid}`);
    assert.equal((r['user-name']), 'Bo Chen');
    assert.equal((r.user as XmlNode).name, 'Bo Chen', 'a registered author is nested as in recent refactorings');
    assert.equal((await get(`/codes/${codeId}/refactors/${rid}.xml`)).text, res.text, 'GET of the Location answers the same');
    assert.equal((await get(`/codes/${codeId}/refactors/${rid}`)).status, 200, 'and its page exists');
    const boAfter = await get(`/users/${boId}.xml`);
    assert.notEqual(boAfter.headers.etag, boBefore.headers.etag, 'the author\'s count changed: a new ETag');
    assert.deepEqual([decodeUser(boBefore.text).refactorsCount, decodeUser(boAfter.text).refactorsCount], [0, 1]);
    const code = decodeCode((await get(`/codes/${codeId}.xml`)).text);
    assert.equal(code.refactorsCount, 1);
    assert.equal(code.refactors?.[0].comment, 'Use sum');
    assert.equal(code.refactors?.[0].language, 'ruby');
    assert.equal(decodeRefactors((await get('/refactorings/recent.xml')).text)[0].id, rid);
    const popular = await get('/codes/popular.xml');
    assert.notEqual(popular.headers.etag, popularBefore.headers.etag);
    assert.equal(decodeCodes(popular.text)[0].refactorsCount, 1);

    const commentOnly = await post(`/codes/${codeId}/refactors.xml`, ana, '<refactor><comment>Fine as it is</comment></refactor>');
    assert.equal(commentOnly.status, 201, 'a comment alone is a refactoring');
    const blank = await post(`/codes/${codeId}/refactors.xml`, ana, '<refactor><title>t</title><comment> </comment><code></code></refactor>');
    assert.deepEqual(errorsOf(blank), ["Comment and code can't both be blank"]);
    const missing = await post('/codes/9999/refactors.xml', ana, '<refactor><comment>x</comment></refactor>');
    assert.equal(missing.status, 404);
  });

  it('rates: the mean of the values, one rating a person, never one\'s own', async () => {
    const codeId = await postCode(ana);
    const rid = await postRefactor(codeId, bo);
    const carl = await service.addPerson('Carl');
    const rate = (token: string, value: string) => post(`/codes/${codeId}/refactors/${rid}/rate.xml`, token, `<rating><value>${value}</value></rating>`);
    const first = await rate(ana, '5');
    assert.equal(first.status, 200, first.text);
    assert.equal((refactorOf(first).rating as XmlNode)['#text'], '5');
    const second = await rate(carl, '2');
    assert.equal((refactorOf(second).rating as XmlNode)['#text'], '4', 'the mean 3.5, rounded half up');
    assert.equal((refactorOf(second)['ratings-count'] as XmlNode)['#text'], '2');
    const again = await rate(ana, '1');
    assert.equal(again.status, 422);
    assert.deepEqual(errorsOf(again), ['You have already rated this refactoring']);
    const own = await rate(bo, '5');
    assert.equal(own.status, 422);
    assert.deepEqual(errorsOf(own), ["You can't rate your own refactoring"]);
    for (const bad of ['0', '6', '2.5', 'five', '']) assert.deepEqual(errorsOf(await rate(carl, bad)), ['Value must be a whole number from 1 to 5'], bad);
    const listed = decodeRefactors((await get('/refactorings/recent.xml')).text)[0];
    assert.equal(listed.rating, 4);
    assert.equal(listed.ratingsCount, 2);
    assert.equal(listed.user?.rating, 4, "the author's rating: the mean of their rated refactorings");
  });

  it('deletes: a code by its author only, a refactoring by its author or the code\'s', async () => {
    const codeId = await postCode(ana);
    const byBo = await postRefactor(codeId, bo);
    const byAna = await postRefactor(codeId, ana, '<refactor><comment>mine</comment></refactor>');
    assert.equal((await del(`/codes/${codeId}.xml`, bo)).status, 403);
    assert.equal((await del(`/codes/${codeId}/refactors/${byAna}.xml`, bo)).status, 403);
    const removed = await del(`/codes/${codeId}/refactors/${byBo}.xml`, ana);
    assert.equal(removed.status, 204, "the code's author may remove a refactoring of it");
    assert.equal(removed.body.length, 0);
    assert.equal(decodeCode((await get(`/codes/${codeId}.xml`)).text).refactorsCount, 1);
    assert.equal((await del(`/codes/${codeId}.xml`, ana)).status, 204);
    assert.equal((await get(`/codes/${codeId}.xml`)).status, 404);
    assert.deepEqual(decodeRefactors((await get('/refactorings/recent.xml')).text), [], 'its refactorings went with it');
    assert.equal((await del(`/codes/${codeId}.xml`, ana)).status, 404);
  });

  it('answers 405 with Allow for a method a path does not take, and the preflight allows writes', async () => {
    const getCodes = await get('/codes.xml');
    assert.equal(getCodes.status, 405);
    assert.equal(getCodes.headers.allow, 'POST, OPTIONS');
    const postList = await post('/codes/recent.xml', ana, codeXml(GOOD_CODE));
    assert.equal(postList.status, 405);
    assert.equal(postList.headers.allow, 'GET, HEAD, OPTIONS');
    const preflight = await request(service.url, '/codes.xml', { method: 'OPTIONS' });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers['access-control-allow-methods'], 'GET, HEAD, POST, DELETE');
    assert.equal(preflight.headers['access-control-allow-headers'], 'Accept, Content-Type, If-None-Match, Authorization');
    assert.equal(preflight.headers['access-control-expose-headers'], 'ETag, Retry-After, Location');
  });

  it('serves an imported catalog as the read-only service does, byte for byte', async () => {
    const sample = loadSampleDataset();
    // Without the people beforeEach added: the sample names Ana Lima too, and an import refuses a name already stored.
    await service.reset();
    await service.load(sample);
    const readOnly: RunningServer = await startServer({ port: 0, catalog: sample });
    try {
      for (const path of ['/codes/recent.xml', '/codes/recent.xml?page=2', '/codes/popular/ruby.xml', '/refactorings/recent.xml', '/codes/1.xml', '/tags/arrays.xml', '/codes/recent', '/codes/1']) {
        const [a, b] = [await get(path), await request(readOnly.url, path)];
        assert.equal(a.status, b.status, path);
        assert.equal(a.text, b.text, path);
      }
    } finally {
      await readOnly.close();
    }
  });
});

describe('reference service: write rates', function () {
  this.timeout(60_000);

  it('answers 429 with Retry-After past the writes a person may make in a minute, and stores nothing more', async () => {
    const service = await startWritableService({ writesPerMinute: 3 });
    try {
      const token = await service.addPerson('Ana');
      const send = () => request(service.url, '/codes.xml', { method: 'POST', headers: { ...XML, Authorization: `Bearer ${token}` }, body: codeXml(GOOD_CODE) });
      for (let i = 0; i < 3; i++) assert.equal((await send()).status, 201);
      const refused = await send();
      assert.equal(refused.status, 429);
      const wait = Number(refused.headers['retry-after']);
      assert.ok(wait >= 1 && wait <= 60, `Retry-After ${wait}`);
      assert.equal(decodeCodes((await request(service.url, '/codes/recent.xml')).text).length, 3);
      const other = await service.addPerson('Bo');
      const fromBo = await request(service.url, '/codes.xml', { method: 'POST', headers: { ...XML, Authorization: `Bearer ${other}` }, body: codeXml(GOOD_CODE) });
      assert.equal(fromBo.status, 201, 'the rate is per person');
    } finally {
      await service.close();
    }
  });
});

describe('reference service: a read-only one refuses writes', () => {
  it('answers a write with 405 saying how to start a writable service, and keeps its preflight', async () => {
    const server = await startServer({ port: 0 });
    try {
      const res = await request(server.url, '/codes.xml', { method: 'POST', headers: XML, body: codeXml(GOOD_CODE) });
      assert.equal(res.status, 405);
      assert.equal(res.headers.allow, 'GET, HEAD, OPTIONS');
      assert.match(res.text, /serve --data-dir DIR/);
      const preflight = await request(server.url, '/codes.xml', { method: 'OPTIONS' });
      assert.equal(preflight.headers['access-control-allow-methods'], 'GET, HEAD');
      assert.equal((await request(server.url, '/account.xml')).status, 404);
    } finally {
      await server.close();
    }
  });
});
