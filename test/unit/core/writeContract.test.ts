// The write contract both sides share (src/core/writeContract.ts), held against the real writable
// reference service and the real client over loopback HTTP: the longest texts the service takes
// still make list pages every client reads (one person once made Recent Codes unreadable for all
// with thirteen codes of 0.9 MiB), and a refusal names its field in a form the client reads.
import * as assert from 'node:assert/strict';
import { RefactorClient } from '../../../src/client/client';
import { ApiError } from '../../../src/core/errors';
import { PAGE_SIZE } from '../../../src/core/model';
import { DEFAULT_MAX_RESPONSE_BYTES, escapeXmlText, FIELD, MAX_CODE_CHARS, MAX_COMMENT_CHARS, MAX_TITLE_CHARS, READ_BOUNDS, WORST_ESCAPED_BYTES } from '../../../src/core/writeContract';
import { request } from '../../helpers/referenceService';
import { refusal } from '../../helpers/apiAssert';
import { startWritableService, type WritableService } from '../../helpers/writableService';

/** `&` is the worst case: `&amp;`, five bytes a character in every answer that carries it. */
const worst = (chars: number): string => '&'.repeat(chars);

describe('the write contract: bounds both sides agree on', function () {
  this.timeout(120_000);
  let service: WritableService;
  let writer: RefactorClient;

  before(async function () {
    service = await startWritableService({ writesPerMinute: 1000 });
    writer = new RefactorClient({ baseUrl: service.url, token: await service.addPerson('Ana Lima') });
  });
  after(async () => {
    await writer?.close();
    await service?.close();
  });

  it('a full page of the longest codes and refactorings, every character escaped, is read by the client', async () => {
    const longest = { title: worst(MAX_TITLE_CHARS), comment: worst(MAX_COMMENT_CHARS), code: worst(MAX_CODE_CHARS) };
    const ids: number[] = [];
    for (let i = 0; i < PAGE_SIZE; i++) ids.push((await writer.postCode({ ...longest, language: 'Ruby' })).value.id);
    for (const id of ids) await writer.postRefactor(id, longest);

    const raw = await request(service.url, '/codes/recent.xml');
    assert.ok(raw.body.length > 0.9 * DEFAULT_MAX_RESPONSE_BYTES, `a page near the bound: ${raw.body.length} bytes`);
    const reader = new RefactorClient({ baseUrl: service.url });
    try {
      const codes = await reader.recentCodes();
      assert.equal(codes.length, PAGE_SIZE);
      assert.ok(codes.every((c) => c.code === longest.code && c.comment === longest.comment && c.title === longest.title));
      const refactors = await reader.recentRefactorings();
      assert.equal(refactors.length, PAGE_SIZE);
      assert.ok(refactors.every((r) => r.code === longest.code && r.comment === longest.comment));
      assert.equal((await reader.code(ids[0])).refactors?.length, 1);
    } finally {
      await reader.close();
    }

    // One character more is refused, naming the field and saying why, and nothing is stored.
    const before = service.store.version;
    const code = await refusal(writer.postCode({ ...longest, language: 'Ruby', code: worst(MAX_CODE_CHARS + 1) }));
    assert.equal(code.status, 422);
    assert.equal(code.reasonFor(FIELD.code), `Code is too long (maximum is ${MAX_CODE_CHARS} characters, so that a page of 25 stays readable)`);
    const comment = await refusal(writer.postRefactor(ids[0], { ...longest, comment: worst(MAX_COMMENT_CHARS + 1) }));
    assert.equal(comment.reasonFor(FIELD.comment), `Comment is too long (maximum is ${MAX_COMMENT_CHARS} characters, so that a page of 25 stays readable)`);
    assert.equal(service.store.version, before);

    // A code's page carries all its refactorings: the longest are taken until one more would not fit.
    let taken = 1;
    let full: ApiError | undefined;
    while (!full && taken < 40) {
      try {
        await writer.postRefactor(ids[0], longest);
        taken++;
      } catch (e) {
        full = e as ApiError;
      }
    }
    assert.ok(full instanceof ApiError && full.status === 422, String(full));
    assert.deepEqual(full.reasons, [`Code ${ids[0]} has as many refactorings as its page can carry: a shorter one may still fit`]);
    assert.ok(taken >= PAGE_SIZE, `${taken} of the longest refactorings fit`);
    const again = new RefactorClient({ baseUrl: service.url });
    try {
      assert.equal((await again.code(ids[0])).refactors?.length, taken, 'the fullest page is read');
    } finally {
      await again.close();
    }
  });

  it('leaves room on a page: 25 items of the longest texts at the worst escaping, with 16 KiB of markup and author each', () => {
    for (const c of ['&', '<', '>', '\r', '"', '\u{10FFFF}', '\uFFFD', 'a']) {
      assert.ok(Buffer.byteLength(escapeXmlText(c)) <= WORST_ESCAPED_BYTES * [...c].length, JSON.stringify(c));
    }
    const item = WORST_ESCAPED_BYTES * (MAX_TITLE_CHARS + MAX_COMMENT_CHARS + MAX_CODE_CHARS) + 16 * 1024;
    assert.ok(READ_BOUNDS.pageItems * item < READ_BOUNDS.answerBytes, `${READ_BOUNDS.pageItems} × ${item} bytes`);
  });

  it('a 422 names each refused field in the form the client reads', async () => {
    const err = await refusal(writer.postCode({ title: ' ', language: 'Cobol', comment: 'c', code: 'x', tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }));
    assert.equal(err.reasonFor(FIELD.title), "Title can't be blank");
    assert.match(err.reasonFor(FIELD.language) ?? '', /^Language must be one of Ruby, /);
    assert.equal(err.reasonFor(FIELD.tags), 'Tag list has more than 20 tags');
    assert.equal(err.reasonFor(FIELD.comment), undefined);
    assert.equal(err.reasons.length, 3);
  });
});
