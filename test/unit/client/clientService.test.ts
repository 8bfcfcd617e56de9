// RefactorClient against the real writable reference service (SQL store over an in-memory PGlite,
// served over loopback HTTP): what a contributor sends is what everyone reads back, lists the
// client held show a write at once, refusals arrive with the service's own words, and a write is
// never sent twice.
import * as assert from 'node:assert/strict';
import { RefactorClient } from '../../../src/client/client';
import { SERVICE_LANGUAGES } from '../../../src/core/languages';
import { startFrontServer } from '../../helpers/frontServer';
import { refusal } from '../../helpers/apiAssert';
import { startWritableService, type WritableService } from '../../helpers/writableService';

/** Every character a code's text must survive: CR, CRLF, tabs, non-ASCII, and what XML escapes. */
const AWKWARD_CODE = 'def a(x)\r\n\tx && y < 3 ]]> "q" \'s\'\r  # héllo ✓ 𝄞\n\n  \t\nend\n';

describe('RefactorClient against the writable reference service', function () {
  this.timeout(20000);
  let service: WritableService;

  before(async function () {
    this.timeout(60000);
    service = await startWritableService();
  });
  after(() => service?.close());
  beforeEach(() => service.reset());

  async function writer(name = 'ann'): Promise<RefactorClient> {
    return new RefactorClient({ baseUrl: service.url, token: await service.addPerson(name) });
  }

  it('a posted code reads back exactly as sent, language in the service\'s spelling', async () => {
    const client = await writer();
    const sent = { title: 'Sum & <product> ]]> ✓', language: 'ruby', comment: 'Line one\r\nline\ttwo & <b> ]]>', code: AWKWARD_CODE, tags: ['math', 'loops'] };
    const created = await client.postCode(sent);
    assert.equal(created.value.language, 'Ruby');
    assert.ok(created.url.startsWith(`${service.url}/codes/${created.value.id}`), created.url);

    const reader = new RefactorClient({ baseUrl: service.url });
    const read = await reader.code(created.value.id);
    assert.equal(read.title, sent.title);
    assert.equal(read.language, 'Ruby');
    assert.equal(read.comment, sent.comment);
    assert.equal(read.code, sent.code);
    assert.equal(read.refactorsCount, 0);
    assert.deepEqual(read.refactors, []);
    assert.deepEqual(await reader.taggedCodes('loops').then((codes) => codes.map((c) => c.id)), [created.value.id]);
  });

  it('a code posted while the client held the recent list (max-age) is in that list at once', async () => {
    const client = await writer();
    const first = await client.postCode({ title: 'First', language: 'Python', comment: 'c', code: 'print(1)\n' });
    assert.deepEqual((await client.recentCodes()).map((c) => c.id), [first.value.id]);
    const second = await client.postCode({ title: 'Second', language: 'Python', comment: 'c', code: 'print(2)\n' });
    assert.deepEqual((await client.recentCodes()).map((c) => c.id), [second.value.id, first.value.id]);
  });

  it('postRefactor adds to the code\'s refactorings and its count; rate answers the new rating, once per person', async () => {
    const ann = await writer('ann');
    const bob = await writer('bob');
    const code = (await ann.postCode({ title: 'Loop', language: 'JavaScript', comment: 'c', code: 'for (;;) {}\n' })).value;
    assert.deepEqual((await bob.code(code.id)).refactors, []);

    const refactor = await bob.postRefactor(code.id, { comment: 'while reads better', code: 'while (true) {}\r\n\t// ✓ ]]>\n', title: 'While' });
    assert.equal(refactor.value.codeId, code.id);
    const read = await bob.code(code.id);
    assert.equal(read.refactorsCount, 1);
    assert.deepEqual(read.refactors?.map((r) => [r.id, r.title, r.comment, r.code, r.userName]), [[refactor.value.id, 'While', 'while reads better', 'while (true) {}\r\n\t// ✓ ]]>\n', 'bob']]);

    const rated = await ann.rate(code.id, refactor.value.id, 4);
    assert.equal(rated.id, refactor.value.id);
    assert.equal(rated.rating, 4);
    assert.equal(rated.ratingsCount, 1);
    assert.equal((await ann.code(code.id)).refactors?.[0].rating, 4);

    const again = await refusal(ann.rate(code.id, refactor.value.id, 2));
    assert.deepEqual(again.reasons, ['You have already rated this refactoring']);
    assert.equal((await ann.code(code.id)).refactors?.[0].ratingsCount, 1);
  });

  it('a 422 lists every reason the service gave, and nothing is stored', async () => {
    const client = await writer();
    const e = await refusal(client.postCode({ title: '', language: 'Klingon', comment: ' ', code: '' }));
    assert.equal(e.status, 422);
    assert.deepEqual([...e.reasons].sort(), [
      "Code can't be blank",
      "Comment can't be blank",
      `Language must be one of ${SERVICE_LANGUAGES.join(', ')}`,
      "Title can't be blank",
    ]);
    assert.deepEqual(await client.recentCodes(), []);
  });

  it('deleteCode: the code is gone (404) for the writer at once, though it held the code, and for everyone', async () => {
    const client = await writer();
    const reader = new RefactorClient({ baseUrl: service.url });
    const code = (await client.postCode({ title: 'Gone', language: 'Ruby', comment: 'c', code: 'x\n' })).value;
    await client.code(code.id);
    await reader.code(code.id);
    await client.deleteCode(code.id);
    assert.equal((await refusal(client.code(code.id))).status, 404);
    reader.expire();
    assert.equal((await refusal(reader.code(code.id))).status, 404);
  });

  it('account() answers the person the token belongs to', async () => {
    const token = await service.addPerson('carol', { website: 'https://carol.example/' });
    const me = await new RefactorClient({ baseUrl: service.url, token }).account();
    assert.equal(me.name, 'carol');
    assert.equal(me.website, 'https://carol.example/');
  });

  it('a wrong token: a one-line 401 that does not hold the token, and nothing is stored', async () => {
    await service.addPerson('ann');
    const wrong = 'Wr0ng-t0ken-nobody-was-given';
    const client = new RefactorClient({ baseUrl: service.url, token: wrong });
    for (const attempt of [() => client.postCode({ title: 'T', language: 'Ruby', comment: 'c', code: 'x\n' }), () => client.account()]) {
      const e = await refusal(attempt());
      assert.equal(e.status, 401);
      assert.ok(!e.message.includes('\n'), e.message);
      assert.ok(!e.message.includes(wrong) && !String(e.stack).includes(wrong), e.message);
    }
    assert.deepEqual(await client.recentCodes(), []);
  });

  it('a POST answered 503 is not sent again: the service receives it never, the next one once', async () => {
    const token = await service.addPerson('ann');
    const front = await startFrontServer(service.url, {});
    front.busy.set('/codes.xml', 1);
    const posts = () => front.requests.filter((r) => r.method === 'POST').length;
    try {
      const client = new RefactorClient({ baseUrl: front.url, token, retryBaseDelayMs: 1 });
      const e = await refusal(client.postCode({ title: 'Busy', language: 'Ruby', comment: 'c', code: 'x\n' }));
      assert.equal(e.status, 503);
      assert.equal(posts(), 1);
      assert.equal(front.busy.get('/codes.xml'), 0, 'the one POST was answered 503, not passed on');
      assert.deepEqual(await client.recentCodes(), []);

      const created = await client.postCode({ title: 'Calm', language: 'Ruby', comment: 'c', code: 'x\n' });
      assert.equal(posts(), 2, 'the next POST was sent once, and passed on');
      assert.deepEqual((await client.recentCodes()).map((c) => c.title), ['Calm']);
      assert.equal(created.value.title, 'Calm');
    } finally {
      await front.close();
    }
  });
});
