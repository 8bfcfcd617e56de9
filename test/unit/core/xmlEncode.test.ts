// The bodies of writes: built so that an XML parser gives back exactly what was typed, and refused,
// naming the field, when they hold a character XML cannot carry.
import { strict as assert } from 'node:assert';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { ApiError } from '../../../src/core/errors';
import { parserOptions } from '../../../src/core/xmlDecode';
import { codeBody, escapedField, ratingBody, refactorBody } from '../../../src/core/xmlEncode';

// The client's own reading of XML: no trimming, no number guessing, XML's references decoded.
const parser = new XMLParser(parserOptions);

function fields(xml: string, root: string): Record<string, string> {
  assert.equal(XMLValidator.validate(xml), true, xml);
  // The indentation between the fields is the root's text, which no field holds.
  const { '#text': _between, ...rest } = (parser.parse(xml) as Record<string, Record<string, string>>)[root];
  void _between;
  return rest;
}

function refused(build: () => unknown, message: RegExp): void {
  assert.throws(build, (e: unknown) => {
    assert.ok(e instanceof ApiError, String(e));
    assert.equal(e.kind, 'invalid-input');
    assert.match(e.message, message);
    return true;
  });
}

const TRICKY = 'if a < b && c > d then\r\n  "x" <![CDATA[ ]]> &amp; &#65; \'y\'\n\t\u00e9\u{1F600}\n\n';

describe('write bodies', () => {
  it('a code reads back field for field, markup, entities, CR, tabs and astral characters included', () => {
    const xml = codeBody({ title: 'A <b> & "c"', language: 'Ruby', comment: TRICKY, code: TRICKY, tags: ['x', 'y'] });
    assert.deepEqual(fields(xml, 'code'), { title: 'A <b> & "c"', language: 'Ruby', comment: TRICKY, code: TRICKY, 'tag-list': 'x y' });
  });

  it('a code without tags sends an empty tag-list, and blank tags are dropped', () => {
    assert.equal(fields(codeBody({ title: 't', language: 'C', comment: '', code: 'x' }), 'code')['tag-list'], '');
    assert.equal(fields(codeBody({ title: 't', language: 'C', comment: '', code: 'x', tags: [' a ', '', 'b'] }), 'code')['tag-list'], 'a b');
  });

  it('refuses a tag with a space or a comma, which would arrive as two', () => {
    refused(() => codeBody({ title: 't', language: 'C', comment: '', code: 'x', tags: ['a,b'] }), /the tag "a,b" holds a space or a comma/);
    refused(() => codeBody({ title: 't', language: 'C', comment: '', code: 'x', tags: ['a b'] }), /the tag "a b"/);
  });

  it('says a client-side refusal in its own words, naming no URL: nothing was sent', () => {
    // The message is what the command line and the editor show as it is; a URL before it would
    // say that a request was made and answered.
    const exactly = (build: () => unknown, message: string) =>
      assert.throws(build, (e: unknown) => e instanceof ApiError && e.kind === 'invalid-input' && e.url === '' && e.message === message);
    exactly(() => codeBody({ title: 't', language: 'C', comment: '', code: 'x', tags: ['ok', 'a b'] }), 'the tag "a b" holds a space or a comma, which separate tags');
    exactly(() => ratingBody(6), 'a rating is a whole number from 1 to 5, got 6');
    exactly(() => escapedField('\u0007', 'title'), 'title holds the character U+0007, which XML cannot carry: remove it and send again');
  });

  it('sends each field on a line of its own under the root, nothing between them', () => {
    assert.equal(
      codeBody({ title: 'Sum', language: 'Ruby', comment: 'a & b', code: 'xs.sum\n', tags: ['x', 'y'] }),
      '<?xml version="1.0" encoding="UTF-8"?>\n<code>\n  <title>Sum</title>\n  <language>Ruby</language>\n  <comment>a &amp; b</comment>\n' +
        '  <code>xs.sum\n</code>\n  <tag-list>x y</tag-list>\n</code>\n',
    );
    assert.equal(refactorBody({ comment: 'c', code: 'd' }), '<?xml version="1.0" encoding="UTF-8"?>\n<refactor>\n  <comment>c</comment>\n  <code>d</code>\n</refactor>\n');
  });

  it('a refactoring sends a title only when given one', () => {
    assert.deepEqual(fields(refactorBody({ comment: 'c & d', code: TRICKY }), 'refactor'), { comment: 'c & d', code: TRICKY });
    assert.deepEqual(fields(refactorBody({ comment: '', code: 'x', title: '' }), 'refactor'), { title: '', comment: '', code: 'x' });
  });

  it('a rating is a whole number from 1 to 5', () => {
    assert.deepEqual(fields(ratingBody(4), 'rating'), { value: '4' });
    for (const bad of [0, 6, 2.5, NaN]) refused(() => ratingBody(bad), /a rating is a whole number from 1 to 5/);
  });

  it('escapes &, <, > and CR, and nothing else', () => {
    assert.equal(escapedField('a&b<c>d\re"f\'', 'f'), 'a&amp;b&lt;c&gt;d&#13;e"f\'');
  });

  it('refuses, naming the field and the character, what XML 1.0 cannot carry', () => {
    refused(() => codeBody({ title: 'bell\u0007', language: 'C', comment: '', code: '' }), /^title holds the character U\+0007, which XML cannot carry/);
    refused(() => refactorBody({ comment: '', code: 'a\u0000b' }), /^code holds the character U\+0000/);
    refused(() => refactorBody({ comment: 'x\uFFFE', code: '' }), /^comment holds the character U\+FFFE/);
    refused(() => refactorBody({ comment: '', code: 'half \uD83D of a pair' }), /^code holds a lone surrogate U\+D83D/);
    refused(() => refactorBody({ comment: '', code: 'x\uDE00' }), /a lone surrogate U\+DE00/);
  });

  it('names U+D800 and U+DFFF, the two ends of the surrogates, as lone surrogates', () => {
    // Either end, unpaired, is as much a lone surrogate as one inside the range (U+D7FF and U+E000,
    // just outside it, are characters XML carries: the next test sends them).
    refused(() => escapedField('x\uD800', 'code'), /^code holds a lone surrogate U\+D800, which XML cannot carry/);
    refused(() => escapedField('\uDFFFx', 'code'), /^code holds a lone surrogate U\+DFFF, which XML cannot carry/);
  });

  it('lets the edges of XML 1.0 through: tab, LF, U+D7FF, U+E000, U+FFFD, U+10FFFF', () => {
    const edges = '\t\n\uD7FF\uE000\uFFFD\u{10FFFF}';
    assert.equal(fields(refactorBody({ comment: '', code: edges }), 'refactor').code, edges);
  });
});
