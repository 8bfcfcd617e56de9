// The reference service's reading and checking of a write's body (src/server/writes/body.ts) rule by
// rule: which parts of the XML are fields, and each validation at its bound, worded as the service
// answers it. The write API's tests send whole requests; these hold each rule on its own.
import { strict as assert } from 'node:assert';
import { FIELD, MAX_CODE_CHARS, MAX_COMMENT_CHARS, MAX_TAG_CHARS, MAX_TAGS, MAX_TITLE_CHARS, READ_BOUNDS } from '../../../src/core/writeContract';
import { loadSampleDataset } from '../../../src/server/catalog/sampleDataset';
import { renderCodeXml } from '../../../src/server/render/xmlRender';
import { checkCodePageRoom, checkNewCode, checkNewRefactor, checkRating, MAX_WRITE_MARKUP, readSubmission, REFACTOR_MARKUP_BYTES, SubmissionError } from '../../../src/server/writes/body';

const fields = (entries: Record<string, string>): Map<string, string> => new Map(Object.entries(entries));
const good = { [FIELD.title]: 'Sum', [FIELD.language]: 'ruby', [FIELD.comment]: 'Shorter?', [FIELD.code]: 'xs.sum' };
const refusals = (checked: { ok: boolean; reasons?: readonly { field?: string; text: string }[] }) => (checked.ok ? [] : checked.reasons!.map((r) => `${r.field}: ${r.text}`));

describe('a write\'s body, read and checked (server/writes/body.ts)', () => {
  describe('readSubmission', () => {
    it('reads each child element\'s text; attributes (as a Rails client sends them), the root\'s own attributes and stray text are no fields', () => {
      const read = readSubmission('<code id="5">stray<title type="string">Sum</title><comment type="text"/><code>  x\n</code></code>', 'code');
      assert.deepEqual([...read], [['title', 'Sum'], ['comment', ''], ['code', '  x\n']]);
    });

    it('refuses a body of far more markup than any write holds before parsing it, naming how much', () => {
      // Fields take no attributes and a write has a few elements: 99,999 attributes once took seconds of the service's thread.
      const attributes = `<code ${Array.from({ length: 99_999 }, (_, i) => `a${i}="1"`).join(' ')}><title>Sum</title></code>`;
      const elements = `<code>${'<x/>'.repeat(5_000)}<title>Sum</title></code>`;
      assert.throws(() => readSubmission(attributes, 'code'), (e: unknown) => e instanceof SubmissionError && e.message === `the body holds 99,999 attributes; a write's fields take none, and at most ${MAX_WRITE_MARKUP} are read past`);
      assert.throws(() => readSubmission(elements, 'code'), (e: unknown) => e instanceof SubmissionError && e.message === `the body holds 5,002 elements; a write has a few, and at most ${MAX_WRITE_MARKUP} are read`);
      // As many as a client writing every field with a type attribute sends, and more, are read.
      const typed = `<code>${Array.from({ length: MAX_WRITE_MARKUP - 2 }, (_, i) => `<f${i} type="string">x</f${i}>`).join('')}<title type="string">Sum</title></code>`;
      assert.equal(readSubmission(typed, 'code').get('title'), 'Sum');
    });

    it('takes a root holding only text as no fields', () => {
      assert.deepEqual([...readSubmission('<code>just text</code>', 'code')], []);
    });

    it('refuses a field holding an element, or given twice, naming it', () => {
      for (const xml of ['<code><title><b>Sum</b></title></code>', '<code><title>a</title><title>b</title></code>', '<code><title x="1"><b/>Sum</title></code>']) {
        assert.throws(() => readSubmission(xml, 'code'), (e: unknown) => e instanceof SubmissionError && e.message === '<title> must hold text only, once', xml);
      }
    });
  });

  describe('readSubmission: one root', () => {
    it('refuses an empty second element after the root (which the validator lets through) instead of reading the first alone', () => {
      for (const xml of ['<code><title>a</title></code><refactor/>', '<code/><title/>']) {
        assert.throws(() => readSubmission(xml, 'code'), (e: unknown) => e instanceof SubmissionError && e.message === 'the body must be one <code> element', xml);
      }
    });
  });

  describe('checkCodePageRoom', () => {
    it('takes a refactoring that fills the code\'s page to exactly what a client reads, escaped bytes counted, and refuses one byte more', () => {
      // A client reads an answer of READ_BOUNDS.answerBytes and no more (http.ts, readCapped).
      const code = loadSampleDataset().codes.get(1)!;
      const room = READ_BOUNDS.answerBytes - Buffer.byteLength(renderCodeXml(code)) - REFACTOR_MARKUP_BYTES;
      const full = (text: string) => ({ title: '', comment: '', code: text });
      const refused = { ok: false, reasons: [{ text: `Code ${code.id} has as many refactorings as its page can carry: a shorter one may still fit` }] };
      assert.deepEqual(checkCodePageRoom(code, full('x'.repeat(room))), { ok: true, value: full('x'.repeat(room)) });
      assert.deepEqual(checkCodePageRoom(code, full('x'.repeat(room + 1))), refused);
      // `&` is sent as `&amp;`: five bytes of the page.
      assert.equal(checkCodePageRoom(code, full(`${'x'.repeat(room - 5)}&`)).ok, true);
      assert.deepEqual(checkCodePageRoom(code, full(`${'x'.repeat(room - 4)}&`)), refused);
    });
  });

  describe('checkNewCode', () => {
    it('takes a good code: title and language trimmed, the language as the service spells it, the code exactly as sent', () => {
      const checked = checkNewCode(fields({ ...good, [FIELD.title]: '  Sum  ', [FIELD.language]: ' RUBY ', [FIELD.code]: '  xs.sum\n' }));
      assert.deepEqual(checked, { ok: true, value: { title: 'Sum', language: 'Ruby', comment: 'Shorter?', code: '  xs.sum\n', tags: [] } });
    });

    it('says each missing field by name, one reason each, a blank code or language included', () => {
      assert.deepEqual(refusals(checkNewCode(fields({}))), [
        "title: Title can't be blank", "language: Language can't be blank", "comment: Comment can't be blank", "code: Code can't be blank",
      ]);
      assert.deepEqual(refusals(checkNewCode(fields({ ...good, [FIELD.language]: '  ', [FIELD.code]: ' \n\t' }))), [
        "language: Language can't be blank", "code: Code can't be blank",
      ]);
      assert.match(refusals(checkNewCode(fields({ ...good, [FIELD.language]: 'klingon' })))[0], /^language: Language must be one of /);
    });

    it('bounds the tags: as many as MAX_TAGS, each of MAX_TAG_CHARS, one tag for spellings that differ in case alone', () => {
      const tags = (n: number, length = 3) => Array.from({ length: n }, (_, i) => `t${i}`.padEnd(length, 'x')).join(' ');
      assert.equal(checkNewCode(fields({ ...good, [FIELD.tags]: tags(MAX_TAGS) })).ok, true);
      assert.deepEqual(refusals(checkNewCode(fields({ ...good, [FIELD.tags]: tags(MAX_TAGS + 1) }))), [`tag-list: Tag list has more than ${MAX_TAGS} tags`]);
      assert.equal(checkNewCode(fields({ ...good, [FIELD.tags]: tags(1, MAX_TAG_CHARS) })).ok, true);
      assert.deepEqual(refusals(checkNewCode(fields({ ...good, [FIELD.tags]: `short ${tags(1, MAX_TAG_CHARS + 1)}` }))),
        [`tag-list: Tag list has a tag longer than ${MAX_TAG_CHARS} characters`]);
      const once = checkNewCode(fields({ ...good, [FIELD.tags]: 'Parsing parsing PARSING' }));
      assert.ok(once.ok);
      assert.equal(once.value.tags.length, 1);
      assert.equal(once.value.tags[0].toLowerCase(), 'parsing');
    });

    it('bounds the title, comment and code in characters (code points), not UTF-16 units', () => {
      const astral = (n: number) => '😀'.repeat(n); // two UTF-16 units each
      assert.equal(checkNewCode(fields({ ...good, [FIELD.title]: astral(MAX_TITLE_CHARS) })).ok, true);
      assert.deepEqual(refusals(checkNewCode(fields({ ...good, [FIELD.title]: 'x'.repeat(MAX_TITLE_CHARS + 1) }))), [`title: Title is too long (maximum is ${MAX_TITLE_CHARS} characters)`]);
      assert.equal(checkNewCode(fields({ ...good, [FIELD.comment]: astral(MAX_COMMENT_CHARS), [FIELD.code]: astral(MAX_CODE_CHARS) })).ok, true);
      assert.equal(checkNewCode(fields({ ...good, [FIELD.comment]: 'c'.repeat(MAX_COMMENT_CHARS), [FIELD.code]: 'x'.repeat(MAX_CODE_CHARS) })).ok, true);
      assert.deepEqual(refusals(checkNewCode(fields({ ...good, [FIELD.comment]: 'c'.repeat(MAX_COMMENT_CHARS + 1), [FIELD.code]: 'x'.repeat(MAX_CODE_CHARS + 1) }))), [
        `comment: Comment is too long (maximum is ${MAX_COMMENT_CHARS} characters, so that a page of 25 stays readable)`,
        `code: Code is too long (maximum is ${MAX_CODE_CHARS} characters, so that a page of 25 stays readable)`,
      ]);
    });
  });

  describe('checkNewRefactor and checkRating', () => {
    it('takes a refactoring of a comment alone or code alone, title optional and trimmed; refuses both blank', () => {
      assert.deepEqual(checkNewRefactor(fields({ [FIELD.comment]: 'Use sum' })), { ok: true, value: { title: '', comment: 'Use sum', code: '' } });
      assert.deepEqual(checkNewRefactor(fields({ [FIELD.title]: ' Shorter ', [FIELD.code]: ' xs.sum\n' })), { ok: true, value: { title: 'Shorter', comment: '', code: ' xs.sum\n' } });
      assert.deepEqual(refusals(checkNewRefactor(fields({ [FIELD.comment]: ' ', [FIELD.code]: ' \n' }))), ["comment: Comment and code can't both be blank"]);
    });

    it('takes a rating of a whole number from 1 to 5, spaces around it aside', () => {
      assert.deepEqual(checkRating(fields({ [FIELD.value]: ' 4 ' })), { ok: true, value: 4 });
      for (const value of ['0', '6', '4.0', '', 'four']) {
        assert.deepEqual(refusals(checkRating(fields({ [FIELD.value]: value }))), ['value: Value must be a whole number from 1 to 5'], value);
      }
      assert.equal(checkRating(fields({})).ok, false);
    });
  });
});
