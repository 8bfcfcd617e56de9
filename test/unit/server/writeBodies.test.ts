// Bodies the write API must refuse with a reason and without storing anything, over real HTTP
// against the SQL store: markup nested past what the parser takes (a 400, never a 500), and
// character references to characters XML 1.0 cannot carry (a 422 naming the field, as for the
// character itself), which were once stored as the text `&#1;`.
import * as assert from 'node:assert/strict';
import { decodeCode, decodeCodes } from '../../../src/core/xmlDecode';
import { plainParser, request, type RawResponse, type XmlNode } from '../../helpers/referenceService';
import { startWritableService, type WritableService } from '../../helpers/writableService';

const XML = { 'Content-Type': 'application/xml' };
const GOOD = { title: 'Sum prices', language: 'Ruby', comment: 'Shorter?', code: 'items.sum\n' };

function codeXml(fields: Record<string, string>): string {
  return `<code>${Object.entries(fields).map(([k, v]) => `<${k}>${v}</${k}>`).join('')}</code>`;
}

/** Each `<error>`'s text and `field` attribute. */
function errorsOf(res: RawResponse): { text: string; field?: string }[] {
  const e = (plainParser.parse(res.text) as { errors: { error: XmlNode | XmlNode[] } }).errors.error;
  return (Array.isArray(e) ? e : [e]).map((x) => {
    const node = typeof x === 'string' ? { '#text': x } : x;
    const field = node['@_field'] as string | undefined;
    return { text: String(node['#text']), ...(field === undefined ? {} : { field }) };
  });
}

describe('reference service: bodies the write API refuses', function () {
  this.timeout(20_000);
  let service: WritableService;
  let token: string;

  before(async function () {
    this.timeout(60_000);
    service = await startWritableService({ writesPerMinute: 1000 });
  });
  after(async () => service?.close());
  beforeEach(async () => {
    await service.reset();
    token = await service.addPerson('Ana Lima');
  });

  const post = (path: string, body: string) => request(service.url, path, { method: 'POST', headers: { ...XML, Authorization: `Bearer ${token}` }, body });
  const nothingStored = async () => assert.deepEqual(decodeCodes((await request(service.url, '/codes/recent.xml')).text), []);

  it('answers markup nested deeper than the parser takes with a 400 and its reason, not a 500', async () => {
    for (const depth of [101, 200]) {
      const res = await post('/codes.xml', codeXml({ ...GOOD, comment: `${'<a>'.repeat(depth)}x${'</a>'.repeat(depth)}` }));
      assert.equal(res.status, 400, res.text);
      assert.deepEqual(errorsOf(res), [{ text: 'the body cannot be read: Maximum nested tags exceeded' }]);
    }
    // Deeper still is more elements than a write holds, refused before the parser sees it.
    const res = await post('/codes.xml', codeXml({ ...GOOD, comment: `${'<a>'.repeat(1000)}x${'</a>'.repeat(1000)}` }));
    assert.equal(res.status, 400, res.text);
    assert.match(errorsOf(res)[0].text, /^the body holds 1,00\d elements; a write has a few, and at most 256 are read$/);
    await nothingStored();
  });

  it('refuses a reference to a character XML 1.0 cannot carry with a 422 naming the field, and stores nothing', async () => {
    const cases: [Record<string, string>, string, string][] = [
      [{ code: 'a&#1;b' }, 'code', 'Code holds U+0001, a character XML 1.0 cannot carry'],
      [{ title: 'T&#x0;' }, 'title', 'Title holds U+0000, a character XML 1.0 cannot carry'],
      [{ comment: 'x&#xD800;y' }, 'comment', 'Comment holds U+D800, a character XML 1.0 cannot carry'],
      // Two surrogate references do not make one character: each is refused.
      [{ comment: '&#xD83D;&#xDE00;' }, 'comment', 'Comment holds U+D83D, a character XML 1.0 cannot carry'],
      [{ code: '&#xFFFE;' }, 'code', 'Code holds U+FFFE, a character XML 1.0 cannot carry'],
      [{ code: '&#65535;' }, 'code', 'Code holds U+FFFF, a character XML 1.0 cannot carry'],
    ];
    for (const [fields, field, text] of cases) {
      const res = await post('/codes.xml', codeXml({ ...GOOD, ...fields }));
      assert.equal(res.status, 422, `${JSON.stringify(fields)}: ${res.text}`);
      assert.deepEqual(errorsOf(res), [{ text, field }]);
    }
    const code = await post('/codes.xml', codeXml(GOOD));
    const refactor = await post(`/codes/${decodeCode(code.text).id}/refactors.xml`, '<refactor><code>&#x1F;</code></refactor>');
    assert.deepEqual(errorsOf(refactor), [{ text: 'Code holds U+001F, a character XML 1.0 cannot carry', field: 'code' }]);
    const nowhere = await post('/codes.xml', codeXml({ ...GOOD, code: '&#x110000;' }));
    assert.equal(nowhere.status, 400);
    assert.deepEqual(errorsOf(nowhere), [{ text: 'the reference &#x110000; names no character' }]);
    assert.equal(decodeCodes((await request(service.url, '/codes/recent.xml')).text).length, 1, 'only the good code');
  });

  it('takes what XML can carry: a reference to a good character, and `&#1;` as text inside CDATA', async () => {
    const res = await post('/codes.xml', codeXml({ ...GOOD, code: '<![CDATA[puts "&#1;"]]>&#x1F600;&#9;&#13;' }));
    assert.equal(res.status, 201, res.text);
    assert.equal(decodeCode(res.text).code, 'puts "&#1;"\u{1F600}\t\r');
  });
});
