// The XML decoder against hand-written service responses (test/fixtures/xml) and against small
// bodies that each break one rule of read-only-xml-api.md.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { DecodeError } from '../../../src/core/errors';
import type { Code } from '../../../src/core/model';
import { MAX_ATTRIBUTES, MAX_ELEMENTS, decodeCode, decodeCodes, decodeRefactors, parserOptions } from '../../../src/core/xmlDecode';
import { throwsDecode } from '../../helpers/apiAssert';

const FIXTURES = path.resolve(__dirname, '../../../../test/fixtures/xml');
const fixture = (name: string): string => readFileSync(path.join(FIXTURES, name), 'utf8');
const DECL = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** The fields of one list item; a field set to null is left out. */
type Fields = Record<string, string | null>;

const CODE_FIELDS: Fields = {
  code: '<code>x = 1</code>',
  comment: '<comment></comment>',
  'created-at': '<created-at type="datetime">2008-03-02T10:15:30+09:00</created-at>',
  id: '<id type="integer">1</id>',
  language: '<language>Ruby</language>',
  permalink: '<permalink>p</permalink>',
  'refactors-count': '<refactors-count type="integer">0</refactors-count>',
  title: '<title>t</title>',
  'trackback-url': '<trackback-url></trackback-url>',
  'updated-at': '<updated-at type="datetime">2008-03-02T10:15:30+09:00</updated-at>',
  'user-id': '<user-id type="integer">2</user-id>',
};

function codeItem(over: Fields = {}): string {
  const all = { ...CODE_FIELDS, ...over };
  return `<code>${Object.values(all).filter((v) => v !== null).join('\n')}</code>`;
}

const codes = (...items: string[]): string => `${DECL}<codes type="array">\n${items.join('\n')}\n</codes>\n`;
const oneCode = (over: Fields): Code => decodeCodes(codes(codeItem(over)))[0];
const withText = (text: string): string => oneCode({ code: `<code>${text}</code>` }).code;

describe('xmlDecode: service responses', () => {
  it('decodes a recent-codes list in order with every field, text kept exactly', () => {
    const list = decodeCodes(fixture('recent-codes.xml'));
    assert.deepEqual(list.map((c) => c.id), [1042, 1041, 1040]);
    assert.deepEqual(list[0], {
      id: 1042,
      title: 'Stack with a maximum size',
      language: 'Ruby',
      permalink: 'stack-with-a-maximum-size',
      code: 'class Stack\n  def initialize\n    @items = []\n  end\n\n'
        + '  # Pushes unless full: a <= b && "quoted" & \'single\'\n'
        + '  def push(item)\n    raise ArgumentError, "stack > #{MAX}" if @items.size >= MAX\n'
        + '    @items << item\n  end\nend\n',
      comment: "Is there a cleaner way to do this?\nI'd like to avoid the raise.\n\nThanks — Jürgen",
      createdAt: new Date('2008-03-02T01:15:30Z'),
      updatedAt: new Date('2008-03-03T13:00:00Z'),
      refactorsCount: 2,
      trackbackUrl: '',
      userId: 17,
      user: {
        id: 17,
        name: 'Jürgen Müller',
        identityUrl: 'http://juergen.example.org/',
        rating: 4.25,
        refactorsCount: 12,
        website: 'http://juergen.example.org/blog',
      },
    });
    assert.equal(list[1].code, '#!/bin/bash\nfor f in *.log; do\n\tgzip -9 "$f" && echo "done: $f"\ndone');
    assert.equal(list[1].title, 'Compress logs & report');
    assert.equal(list[1].trackbackUrl, 'http://blog.example.com/trackback/7');
    assert.equal(list[1].user?.rating, null, 'an empty float is null');
    assert.equal(list[1].refactorsCount, 0);
    assert.equal(list[2].code, '    puts "日本語 ✓ café"\n\n');
    assert.equal(list[2].title, 'Unicode “output”');
    assert.equal(list[2].comment, '');
    assert.equal(list[2].createdAt?.toISOString(), '2008-02-29T11:00:00.000Z');
  });

  it('keeps the JSON field order of the contract', () => {
    const [code] = decodeCodes(fixture('recent-codes.xml'));
    assert.deepEqual(Object.keys(code), ['id', 'title', 'language', 'permalink', 'code', 'comment', 'createdAt',
      'updatedAt', 'refactorsCount', 'trackbackUrl', 'userId', 'user']);
    assert.deepEqual(Object.keys(code.user ?? {}), ['id', 'name', 'identityUrl', 'rating', 'refactorsCount', 'website']);
    const [refactor] = decodeRefactors(fixture('recent-refactors.xml'));
    assert.deepEqual(Object.keys(refactor), ['id', 'codeId', 'title', 'language', 'code', 'comment', 'createdAt',
      'rating', 'ratingsCount', 'userId', 'userName', 'userWebsite', 'user']);
  });

  it('decodes recent refactorings by a registered and an anonymous author', () => {
    const [registered, anonymous] = decodeRefactors(fixture('recent-refactors.xml'));
    assert.deepEqual(registered, {
      id: 311,
      codeId: 1042,
      title: 'Early return',
      language: 'Ruby',
      code: 'class Stack\n  def push(item)\n    return self if full?\n    @items << item\n  end\nend\n',
      comment: 'Return early instead of raising.',
      createdAt: new Date('2008-03-04T00:30:00Z'),
      rating: 4,
      ratingsCount: 3,
      userId: 23,
      userName: 'ada',
      userWebsite: 'http://ada.example.net',
      user: { id: 23, name: 'ada', identityUrl: 'http://ada.example.net/', rating: 4.8, refactorsCount: 40, website: 'http://ada.example.net' },
    });
    assert.equal(anonymous.userId, null);
    assert.equal(anonymous.userName, 'anonymous coward');
    assert.equal(anonymous.title, '');
    assert.equal(anonymous.rating, 0);
    assert.equal('user' in anonymous, false, 'no user key at all, not an undefined one');
  });

  it('decodes a single code with many, one and no refactorings, and no user', () => {
    const many = decodeCode(fixture('code-with-refactors.xml'));
    assert.equal(many.id, 900);
    assert.equal(many.code, 'def fib(n)\n  n < 2 ? n : fib(n - 1) + fib(n - 2)\nend\n');
    assert.equal('user' in many, false);
    assert.deepEqual(many.refactors?.map((r) => [r.id, r.codeId, r.language, r.userId]),
      [[71, 900, 'ruby', 8], [72, 900, 'ruby', null], [73, 900, 'ruby', 8]]);
    assert.equal(many.refactors?.[2].code, 'FIB = Hash.new { |h, n| h[n] = n < 2 ? n : h[n - 1] + h[n - 2] }\n');

    const one = decodeCode(fixture('code-one-refactor.xml'));
    assert.equal(one.refactors?.length, 1);
    assert.equal(one.refactors?.[0].code, "print('hello')");

    const none = decodeCode(fixture('code-no-refactors.xml'));
    assert.deepEqual(none.refactors, []);
    assert.equal(none.permalink, '');
    const absent = decodeCode(fixture('code-no-refactors.xml').replace('<refactors type="array"/>', ''));
    assert.deepEqual(absent.refactors, [], 'refactors is [] when the element is missing');
  });

  it('decodes empty lists in both spellings and one-item lists as arrays', () => {
    assert.deepEqual(decodeCodes(fixture('codes-empty-self-closing.xml')), []);
    assert.deepEqual(decodeCodes(fixture('codes-empty.xml')), []);
    assert.deepEqual(decodeRefactors(`${DECL}<refactors type="array"></refactors>`), []);
    const single = decodeCodes(fixture('codes-single.xml'));
    assert.ok(Array.isArray(single));
    assert.deepEqual(single.map((c) => [c.id, c.code, c.user?.rating]), [[55, 'echo 1', 1]]);
    const singleRefactor = decodeRefactors(fixture('refactors-single.xml'));
    assert.deepEqual(singleRefactor.map((r) => [r.id, r.codeId, r.userId]), [[400, 55, null]]);
  });

  it('reads the Rails spelling of an empty list, <nil-classes type="array"/>, as empty', () => {
    assert.deepEqual(decodeCodes(`${DECL}<nil-classes type="array"/>`), []);
    assert.deepEqual(decodeRefactors(`${DECL}<nil-classes type="array"></nil-classes>`), []);
    throwsDecode(() => decodeCode(`${DECL}<nil-classes type="array"/>`), 'wrong-root', 'expected <code>, got <nil-classes>');
  });
});

describe('xmlDecode: typed elements', () => {
  it('reads integers strictly, allowing a sign and surrounding whitespace', () => {
    assert.equal(oneCode({ 'refactors-count': '<refactors-count type="integer">\n  +7 \n</refactors-count>' }).refactorsCount, 7);
    assert.equal(oneCode({ 'refactors-count': '<refactors-count type="integer">007</refactors-count>' }).refactorsCount, 7);
    assert.equal(oneCode({ 'refactors-count': '<refactors-count type="integer">-3</refactors-count>' }).refactorsCount, -3);
    assert.ok(Object.is(oneCode({ 'refactors-count': '<refactors-count type="integer">-0</refactors-count>' }).refactorsCount, 0));
    for (const bad of ['4.0', '0x1F', '1e3', '12abc', '1 2', 'twenty', '٣']) {
      throwsDecode(() => oneCode({ 'user-id': `<user-id type="integer">${bad}</user-id>` }), 'type-mismatch',
        `<user-id type="integer"> in code 1 of the list is ${JSON.stringify(bad)}, not an integer`, 'codes/code/user-id');
    }
    throwsDecode(() => oneCode({ 'user-id': '<user-id type="integer">12345678901234567890</user-id>' }), 'type-mismatch',
      /too large for an integer/, 'codes/code/user-id');
  });

  it('reads every id as a whole number from 1, and refuses 0, -1, 1.5 and one too large, naming the element', () => {
    const refactor = (name: string, text: string): string =>
      fixture('refactors-single.xml').replace(new RegExp(`<${name} type="integer">[^<]*</${name}>`), `<${name} type="integer">${text}</${name}>`);
    const places: Array<[element: string, where: string, decode: (text: string) => number | null | undefined]> = [
      ['codes/code/id', 'code 1 of the list', (t) => oneCode({ id: `<id type="integer">${t}</id>` }).id],
      ['codes/code/user-id', 'code 1 of the list', (t) => oneCode({ 'user-id': `<user-id type="integer">${t}</user-id>` }).userId],
      ['codes/code/user/id', 'the user of code 1 of the list', (t) => oneCode({ user: `<user><id type="integer">${t}</id><name>u</name></user>` }).user?.id],
      ['refactors/refactor/id', 'refactor 1 of the list', (t) => decodeRefactors(refactor('id', t))[0].id],
      ['refactors/refactor/code-id', 'refactor 1 of the list', (t) => decodeRefactors(refactor('code-id', t))[0].codeId],
    ];
    for (const [element, where, decode] of places) {
      const name = element.split('/').pop();
      assert.equal(decode('1'), 1, element);
      assert.equal(decode(String(Number.MAX_SAFE_INTEGER)), Number.MAX_SAFE_INTEGER, element);
      for (const bad of ['0', '-1', '-0']) {
        throwsDecode(() => decode(bad), 'type-mismatch',
          `<${name} type="integer"> in ${where} is ${Number(bad) || 0}, not an id (a whole number from 1)`, element);
      }
      throwsDecode(() => decode('1.5'), 'type-mismatch', `<${name} type="integer"> in ${where} is "1.5", not an integer`, element);
      throwsDecode(() => decode(String(2 ** 53 + 2)), 'type-mismatch', /too large for an integer$/, element);
    }
  });

  it('reads floats as strict decimals with an optional exponent', () => {
    const rating = (text: string): number | null | undefined => decodeCodes(codes(codeItem({
      user: `<user><id type="integer">1</id><rating type="float">${text}</rating></user>`,
    })))[0].user?.rating;
    assert.equal(rating('4.25'), 4.25);
    assert.equal(rating(' -.5 '), -0.5);
    assert.equal(rating('4.'), 4);
    assert.equal(rating('1e3'), 1000);
    assert.equal(rating('2.5E-1'), 0.25);
    assert.equal(rating('3'), 3);
    for (const bad of ['NaN', 'Infinity', '0x10', '1,5', '4.2.1', 'e5', '']) {
      if (bad === '') continue;
      throwsDecode(() => rating(bad), 'type-mismatch',
        `<rating type="float"> in the user of code 1 of the list is ${JSON.stringify(bad)}, not a float`, 'codes/code/user/rating');
    }
    throwsDecode(() => rating('1e400'), 'type-mismatch', /too large for a float/);
  });

  it('reads the spec datetime form, plus Z and fractional seconds', () => {
    const at = (text: string): string | undefined =>
      oneCode({ 'created-at': `<created-at type="datetime">${text}</created-at>` }).createdAt?.toISOString();
    assert.equal(at('2008-03-02T10:15:30+09:00'), '2008-03-02T01:15:30.000Z');
    assert.equal(at('2008-03-02T10:15:30-05:30'), '2008-03-02T15:45:30.000Z');
    assert.equal(at('2008-03-02T10:15:30Z'), '2008-03-02T10:15:30.000Z');
    assert.equal(at('2008-03-02T10:15:30.123456+00:00'), '2008-03-02T10:15:30.123Z');
    assert.equal(at('2008-03-02T10:15:30.5Z'), '2008-03-02T10:15:30.500Z');
    assert.equal(at('2008-02-29T00:00:00+00:00'), '2008-02-29T00:00:00.000Z');
    assert.equal(at('2000-02-29T23:59:59+00:00'), '2000-02-29T23:59:59.000Z');
    assert.equal(at('0099-01-01T00:00:00Z'), '0099-01-01T00:00:00.000Z');
    // The widest offsets that exist: a day less a minute either way.
    assert.equal(at('2008-03-02T10:15:30+23:59'), '2008-03-01T10:16:30.000Z');
    assert.equal(at('2008-03-02T10:15:30-23:59'), '2008-03-03T10:14:30.000Z');
    assert.equal(at(' 2008-03-02T10:15:30Z\n'), '2008-03-02T10:15:30.000Z');
  });

  it('refuses other datetime forms and dates that do not exist', () => {
    for (const bad of ['2008-02-30T00:00:00+00:00', '2007-02-29T00:00:00+00:00', '1900-02-29T00:00:00+00:00',
      '2008-13-01T00:00:00+00:00', '2008-04-31T00:00:00+00:00', '2008-03-02T24:00:00+00:00', '2008-03-02T10:60:00+00:00',
      '2008-03-02T10:15:60+00:00', '2008-03-02T10:15:30+24:00', '2008-03-02T10:15:30-24:00', '2008-03-02T10:15:30+05:60']) {
      throwsDecode(() => oneCode({ 'created-at': `<created-at type="datetime">${bad}</created-at>` }), 'type-mismatch',
        `<created-at type="datetime"> in code 1 of the list is ${JSON.stringify(bad)}, not a valid date and time`,
        'codes/code/created-at');
    }
    for (const bad of ['2008-03-02 10:15:30+09:00', '2008-03-02T10:15:30', '2008-03-02T10:15:30+0900', '2008-03-02',
      'yesterday', '1204420530']) {
      throwsDecode(() => oneCode({ 'updated-at': `<updated-at type="datetime">${bad}</updated-at>` }), 'type-mismatch',
        /not a datetime of the form YYYY-MM-DDThh:mm:ss\+hh:mm$/, 'codes/code/updated-at');
    }
  });

  it('decides by the type attribute, never by the look of the text', () => {
    const code = oneCode({ title: '<title>007</title>', permalink: '<permalink>2008-03-02T10:15:30+09:00</permalink>' });
    assert.equal(code.title, '007');
    assert.equal(code.permalink, '2008-03-02T10:15:30+09:00');
    throwsDecode(() => oneCode({ 'user-id': '<user-id>17</user-id>' }), 'type-mismatch',
      '<user-id> in code 1 of the list is "17" without type="integer" or type="float", not a number', 'codes/code/user-id');
    throwsDecode(() => oneCode({ 'created-at': '<created-at>2008-03-02T10:15:30+09:00</created-at>' }), 'type-mismatch',
      /^<created-at> in code 1 of the list is "2008-03-02T10:15:30\+09:00" without type="datetime"/, 'codes/code/created-at');
  });

  it('maps empty and missing elements to null, "" or an absent user', () => {
    const empty = oneCode({
      comment: '<comment/>', title: '<title></title>', 'trackback-url': null, permalink: null,
      'user-id': '<user-id type="integer"></user-id>', 'refactors-count': '<refactors-count type="integer" nil="true"/>',
      'created-at': '<created-at type="datetime"></created-at>', 'updated-at': null,
    });
    assert.equal(empty.comment, '');
    assert.equal(empty.title, '');
    assert.equal(empty.trackbackUrl, '');
    assert.equal(empty.permalink, '');
    assert.equal(empty.userId, null);
    assert.equal(empty.refactorsCount, null);
    assert.equal(empty.createdAt, null);
    assert.equal(empty.updatedAt, null);
    assert.equal('user' in empty, false);
    assert.equal('user' in oneCode({ user: '<user/>' }), false);
    const missing = oneCode({ 'user-id': null, 'refactors-count': null, 'created-at': null, code: null, language: null });
    assert.deepEqual([missing.userId, missing.refactorsCount, missing.createdAt, missing.code, missing.language],
      [null, null, null, '', '']);
  });

  it('requires the id of codes, refactorings and users and the code-id of refactorings', () => {
    throwsDecode(() => decodeCodes(codes(codeItem(), codeItem(), codeItem({ id: '<id type="integer">twenty</id>' }))),
      'type-mismatch', '<id type="integer"> in code 3 of the list is "twenty", not an integer', 'codes/code/id');
    throwsDecode(() => oneCode({ id: null }), 'type-mismatch', '<id> in code 1 of the list is missing', 'codes/code/id');
    throwsDecode(() => oneCode({ id: '<id type="integer"></id>' }), 'type-mismatch',
      '<id type="integer"> in code 1 of the list is empty', 'codes/code/id');
    throwsDecode(() => oneCode({ id: '<id type="float">1.5</id>' }), 'type-mismatch',
      '<id type="float"> in code 1 of the list is 1.5, not an integer', 'codes/code/id');
    throwsDecode(() => oneCode({ user: '<user><name>x</name><id type="integer"> </id></user>' }), 'type-mismatch',
      '<id type="integer"> in the user of code 1 of the list is empty', 'codes/code/user/id');
    const refactors = fixture('recent-refactors.xml');
    throwsDecode(() => decodeRefactors(refactors.replace('<code-id type="integer">1041</code-id>', '')), 'type-mismatch',
      '<code-id> in refactor 2 of the list is missing', 'refactors/refactor/code-id');
    const single = fixture('code-with-refactors.xml');
    throwsDecode(() => decodeCode(single.replace('<id type="integer">72</id>', '<id type="integer"/>')), 'type-mismatch',
      '<id type="integer"> in refactor 2 of the code is empty', 'code/refactors/refactor/id');
    throwsDecode(() => decodeCode(single.replace('<id type="integer">900</id>', '')), 'type-mismatch',
      '<id> in the code is missing', 'code/id');
  });

  it('refuses child elements where a field holds text', () => {
    throwsDecode(() => oneCode({ title: '<title><b>bold</b></title>' }), 'type-mismatch',
      '<title> in code 1 of the list has child elements where text was expected', 'codes/code/title');
  });
});

describe('xmlDecode: text kept exactly', () => {
  it('keeps indentation, blank lines and trailing newlines', () => {
    assert.equal(withText('\n\n    indented\n\n\n\tafter blanks\n\n'), '\n\n    indented\n\n\n\tafter blanks\n\n');
    assert.equal(withText('   '), '   ');
  });

  it('decodes the XML escapes and numeric references once', () => {
    assert.equal(withText('&lt;a href=&quot;x&quot;&gt; &amp; &apos;y&apos;'), '<a href="x"> & \'y\'');
    assert.equal(withText('cost: &#36;5 or &#x24;6 &#128512; &#x1F680;'), 'cost: $5 or $6 😀 🚀');
    throwsDecode(() => withText('&#X24;'), 'invalid-xml', /^malformed XML/); // XML spells hex with a lower-case x
    assert.equal(withText('&amp;lt; stays &amp;#36;'), '&lt; stays &#36;');
  });

  it('leaves HTML named entities and forbidden characters exactly as sent', () => {
    // &nbsp; is not an XML entity: turning it into U+00A0 would silently change code.
    assert.equal(withText('a&nbsp;b &copy; &euro;'), 'a&nbsp;b &copy; &euro;');
    assert.equal(withText('nul: &#0; surrogate: &#xD800;'), 'nul: &#0; surrogate: &#xD800;');
  });

  it('turns raw CRLF and CR into LF, as XML does, while &#13; survives as CR', () => {
    assert.equal(withText('line 1\r\nline 2\rline 3\r\n'), 'line 1\nline 2\nline 3\n');
    assert.equal(withText('dos&#13;\nline'), 'dos\r\nline');
  });

  it('reads CDATA sections literally, also mixed with text', () => {
    assert.equal(withText('<![CDATA[if (a < b && c > d) { x = "&amp;"; }]]>'), 'if (a < b && c > d) { x = "&amp;"; }');
    assert.equal(withText('a &lt; <![CDATA[<b>]]>\n  c'), 'a < <b>\n  c');
    assert.equal(withText('<![CDATA[<!DOCTYPE html>\n<html></html>\n]]>'), '<!DOCTYPE html>\n<html></html>\n');
  });

  it('keeps non-ASCII text intact, from a BOM-prefixed body too', () => {
    const xml = `\uFEFF  \n${codes(codeItem({ code: '<code>Grüße, 世界 🚀 \u00a0 \u200b</code>' }))}`;
    assert.equal(decodeCodes(xml)[0].code, 'Grüße, 世界 🚀 \u00a0 \u200b');
  });
});

describe('xmlDecode: tolerated shapes', () => {
  it('ignores blank lines, tabs and CRLF between elements, while the text inside keeps its blank lines', () => {
    // The same single code twice: elements packed together, and with whitespace-only runs between them.
    const single = (gap: string): string => {
      const el = (...children: string[]): string => `${gap}${children.join(gap)}${gap}`;
      const refactor = (id: number, text: string) => `<refactor>${el(
        `<code>${text}</code>`, '<code-id type="integer">5</code-id>', '<comment>why\r\n\r\nbecause</comment>',
        '<created-at type="datetime">2008-05-02T00:00:00+00:00</created-at>', `<id type="integer">${id}</id>`,
        '<language>ruby</language>', '<rating type="integer">1</rating>', '<ratings-count type="integer">1</ratings-count>',
        '<title></title>', '<user-id type="integer"></user-id>', '<user-name>anon</user-name>', '<user-website></user-website>',
      )}</refactor>`;
      const fields = Object.entries(CODE_FIELDS).map(([name, xml]) => name === 'code'
        ? '<code>def f(x)\r\n\r\n  x\n\n\n\tend\n\n</code>'
        : name === 'comment' ? '<comment>\r\n\t\r\n</comment>' : xml!);
      const refactors = `<refactors type="array">${el(refactor(1, '\n\nf = 1\n\n'), refactor(2, 'g'))}</refactors>`;
      return `${DECL}${gap}<code>${el(...fields, refactors)}</code>${gap}`;
    };
    const gap = '\r\n\r\n\t  \r\n\n\t\t';
    const spaced = decodeCode(single(gap));
    assert.deepEqual(spaced, decodeCode(single('')));
    assert.equal(spaced.code, 'def f(x)\n\n  x\n\n\n\tend\n\n', 'blank lines inside the code are kept (CRLF read as LF)');
    assert.equal(spaced.comment, '\n\t\n', 'a whitespace-only text field is text, not a gap');
    assert.deepEqual(spaced.refactors?.map((r) => [r.id, r.code, r.comment]), [[1, '\n\nf = 1\n\n', 'why\n\nbecause'], [2, 'g', 'why\n\nbecause']]);
    assert.deepEqual(decodeCode(single(gap).replace(/<refactors type="array">[^]*<\/refactors>/, `<refactors type="array">${gap}</refactors>`)).refactors, []);

    // A list: between items, between fields and inside the nested user.
    const user = `<user>${gap}<id type="integer">2</id>${gap}<name>Zoë</name>${gap}</user>`;
    const item = (gapped: string) => `<code>${gapped}${Object.values({ ...CODE_FIELDS, user }).join(gapped)}${gapped}</code>`;
    const list = (gapped: string) => `${DECL}<codes type="array">${gapped}${item(gapped)}${gapped}${item(gapped)}${gapped}</codes>`;
    const decoded = decodeCodes(list(gap));
    assert.deepEqual(decoded, decodeCodes(list('')));
    assert.equal(decoded.length, 2);
    assert.deepEqual(decoded[0].user && [decoded[0].user.id, decoded[0].user.name], [2, 'Zoë']);
    assert.deepEqual(decodeCodes(`${DECL}<codes type="array">${gap}</codes>${gap}`), []);
  });

  it('takes element order freely and ignores unknown elements and attributes', () => {
    const reversed = Object.fromEntries(Object.entries(CODE_FIELDS).reverse());
    const item = codeItem(reversed).replace('<code>', '<code xmlns:x="urn:x" x:extra="1">');
    const xml = codes(`<note>ignored</note>${item.replace('<title>', '<labels type="array"><label>a</label></labels><title lang="en">')}`);
    const [code] = decodeCodes(xml);
    assert.equal(code.id, 1);
    assert.equal(code.title, 't');
    assert.equal(code.code, 'x = 1');
    assert.equal(code.createdAt?.toISOString(), '2008-03-02T01:15:30.000Z');
    assert.equal('labels' in code, false);
    assert.equal('tags' in code, false, 'no tags element: no tags field');
  });

  it('reads a code\'s tags where the XML carries them (the reference service\'s own), and none where it does not', () => {
    const tagged = codes(codeItem().replace('<title>', '<tags type="array"><tag>speed</tag><tag>C&amp;C</tag><tag></tag></tags><title>'));
    assert.deepEqual(decodeCodes(tagged)[0].tags, ['speed', 'C&C'], 'an empty tag is no tag');
    assert.deepEqual(decodeCodes(codes(codeItem().replace('<title>', '<tags type="array"></tags><title>')))[0].tags, []);
    assert.deepEqual(decodeCodes(codes(codeItem().replace('<title>', '<tags type="array"><tag>one</tag></tags><title>')))[0].tags, ['one'], 'one tag is a list of one');
    assert.throws(() => decodeCodes(codes(codeItem().replace('<title>', '<tags type="array"><tag><b>x</b></tag></tags><title>'))), /tag/);
  });

  it('ignores __proto__, constructor and prototype elements without polluting anything', () => {
    const hostile = '<__proto__><polluted>yes</polluted><id type="integer">666</id></__proto__>'
      + '<constructor><prototype><polluted>yes</polluted></prototype></constructor><hasOwnProperty>1</hasOwnProperty>';
    const xml = codes(`<__proto__><polluted>yes</polluted></__proto__>`,
      codeItem({ extra: hostile, user: `<user>${hostile}<id type="integer">9</id></user>` }));
    const [code] = decodeCodes(xml);
    assert.equal(code.id, 1);
    assert.equal(code.user?.id, 9);
    assert.equal(Object.getPrototypeOf(code), Object.prototype);
    assert.equal((Object.prototype as Record<string, unknown>).polluted, undefined);
    assert.equal((code as unknown as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.keys(code).includes('__proto__'), false);
  });

  it('parses with the exported options exactly as the decoder reads', () => {
    const xml = fixture('recent-codes.xml');
    const raw = new XMLParser(parserOptions).parse(xml) as { codes: { code: Array<{ code: string }> } };
    assert.equal(raw.codes.code.length, 3);
    assert.deepEqual(raw.codes.code.map((c) => c.code), decodeCodes(xml).map((c) => c.code));
    // A one-item list is an array in the raw parse too, so a raw benchmark walks the same shape.
    const single = new XMLParser(parserOptions).parse(fixture('codes-single.xml')) as { codes: { code: unknown } };
    assert.ok(Array.isArray(single.codes.code));
  });
});

describe('xmlDecode: bodies that are not the expected XML', () => {
  it('says not-xml for empty, HTML, JSON and plain-text bodies', () => {
    throwsDecode(() => decodeCodes(''), 'not-xml', 'expected XML, got an empty body');
    throwsDecode(() => decodeCodes('\uFEFF \r\n\t'), 'not-xml', 'expected XML, got an empty body');
    const page = '<!DOCTYPE html>\n<html lang="en"><head><title>Oops</title></head><body>Not found</body></html>';
    throwsDecode(() => decodeCodes(page), 'not-xml', 'expected XML, got an HTML page');
    throwsDecode(() => decodeCode('\n  <HTML><BODY>Server error</BODY></HTML>'), 'not-xml', 'expected XML, got an HTML page');
    const xhtml = `${DECL}<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "x.dtd">\n<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>`;
    throwsDecode(() => decodeCodes(xhtml), 'not-xml', 'expected XML, got an HTML page');
    throwsDecode(() => decodeCodes(`${DECL}<html><body>hi</body></html>`), 'not-xml', 'expected XML, got an HTML page');
    const nginx = '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n'
      + '<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
    throwsDecode(() => decodeCodes(nginx), 'not-xml', 'expected XML, got an HTML page');
    throwsDecode(() => decodeCodes('[{"id": 1}]'), 'not-xml', 'expected XML, got JSON: "[{\\"id\\": 1}]"');
    throwsDecode(() => decodeRefactors('{"error": "nope"}'), 'not-xml', /^expected XML, got JSON/);
    throwsDecode(() => decodeCodes('Internal Server Error\n'), 'not-xml', 'expected XML, got plain text: "Internal Server Error "');
    throwsDecode(() => decodeCodes('< codes/>'), 'not-xml', /^expected XML, got plain text/);
  });

  it('says invalid-xml for truncated, two-rooted, mismatched or trailing-text bodies', () => {
    const full = fixture('recent-codes.xml');
    throwsDecode(() => decodeCodes(full.slice(0, Math.floor(full.length / 2))), 'invalid-xml',
      /^malformed XML: the body ends inside <codes>, <code>(, <[a-z-]+>)* \(truncated\?\)$/);
    throwsDecode(() => decodeCodes(`${DECL}<codes type="array"><code>`), 'invalid-xml', 'malformed XML: the body ends inside <codes>, <code> (truncated?)', 'codes/code');
    throwsDecode(() => decodeCodes(`${DECL}<codes type="array">`), 'invalid-xml', 'malformed XML: the body ends inside <codes> (truncated?)');
    throwsDecode(() => decodeCodes(`${DECL}<codes type="array"></codes>\n<refactors type="array"><code/></refactors>`), 'invalid-xml',
      'malformed XML: two root elements <codes> and <refactors>', 'refactors');
    throwsDecode(() => decodeCodes(`${DECL}<codes type="array"/>\n<codes type="array"/>`), 'invalid-xml', 'malformed XML: two root elements <codes>');
    throwsDecode(() => decodeCodes(`${DECL}<codes type="array"/><refactors type="array"/>`), 'invalid-xml',
      'malformed XML: two root elements <codes> and <refactors>');
    throwsDecode(() => decodeCodes(`${DECL}<codes type="array"><code></codes></code>`), 'invalid-xml',
      /^malformed XML at line 2, column \d+: .*closing tag/);
    throwsDecode(() => decodeCodes(`${DECL}<codes type="array"/>\ntrailing junk`), 'invalid-xml', 'malformed XML: text after the root element');
    throwsDecode(() => decodeCodes(`${DECL}<codes type="array"><code>a & b</code></codes>`), 'invalid-xml', /^malformed XML at line 2/);
  });

  it('refuses any DOCTYPE before parsing, so an entity bomb never expands', () => {
    const lol = Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join('\n');
    const bomb = `${DECL}<!DOCTYPE codes [\n<!ENTITY l0 "lol">\n${lol}\n]>\n<codes type="array"><code><code>&l9;</code></code></codes>`;
    const started = Date.now();
    throwsDecode(() => decodeCodes(bomb), 'invalid-xml', /<!DOCTYPE> is not accepted/);
    // Expanding 10^9 entities would take minutes; 5 s is room for a loaded machine.
    assert.ok(Date.now() - started < 5000, 'refused without expanding');
    throwsDecode(() => decodeCodes(`${DECL}<!DOCTYPE codes>\n<codes type="array"/>`), 'invalid-xml', /<!DOCTYPE> is not accepted/);
    throwsDecode(() => decodeCodes(`${DECL}<codes type="array"><!DOCTYPE x></codes>`), 'invalid-xml', /<!DOCTYPE> is not accepted/);
    // The same words as code text are fine.
    assert.equal(withText('&lt;!DOCTYPE codes [&lt;!ENTITY x "y"&gt;]&gt;'), '<!DOCTYPE codes [<!ENTITY x "y">]>');
  });

  it('says wrong-root, naming both elements, for another resource', () => {
    throwsDecode(() => decodeCodes(fixture('recent-refactors.xml')), 'wrong-root', 'expected <codes>, got <refactors>', 'refactors');
    throwsDecode(() => decodeCode(fixture('recent-codes.xml')), 'wrong-root', 'expected <code>, got <codes>', 'codes');
    throwsDecode(() => decodeRefactors(fixture('code-one-refactor.xml')), 'wrong-root', 'expected <refactors>, got <code>', 'code');
    throwsDecode(() => decodeCodes(`${DECL}<errors><error>Not found</error></errors>`), 'wrong-root', 'expected <codes>, got <errors>');
  });
});

describe('xmlDecode: size', () => {
  it('decodes a 2,000-item list', () => {
    const items = Array.from({ length: 2000 }, (_, i) => codeItem({
      id: `<id type="integer">${i + 1}</id>`,
      code: `<code>def m${i}\n  ${i} &lt; ${i + 1}\nend\n</code>`,
      user: `<user><id type="integer">${(i % 7) + 1}</id><name>u${i % 7}</name></user>`,
    }));
    const started = Date.now();
    const list = decodeCodes(codes(...items));
    assert.ok(Date.now() - started < 5000, 'well under the test timeout');
    assert.equal(list.length, 2000);
    assert.equal(list[1999].id, 2000);
    assert.equal(list[1234].code, 'def m1234\n  1234 < 1235\nend\n');
    assert.equal(list[1234].user?.name, 'u2');
  });

  it('refuses, before parsing, a body with more elements or attributes than the API\'s shapes hold', () => {
    const inCode = (markup: string): string => codes(codeItem({ code: `<code>${markup}</code>` }));
    const overBound = [
      [inCode('<z/>'.repeat(2_400_000)), 'elements'],
      [inCode(`<z ${Array.from({ length: 800_000 }, (_, i) => `a${i}=""`).join(' ')}/>`), 'attributes'],
      // A `>` inside a quoted value does not end the tag, so it hides no attribute.
      [inCode(`<z ${Array.from({ length: MAX_ATTRIBUTES }, (_, i) => `a${i}=">"`).join(' ')}/>`), 'attributes'],
    ] as const;
    for (const [body, what] of overBound) {
      assert.throws(() => decodeCodes(body), (e: unknown) => e instanceof DecodeError && e.kind === 'too-large'
        && e.message === `more than ${(what === 'elements' ? MAX_ELEMENTS : MAX_ATTRIBUTES).toLocaleString('en-US')} ${what}: far more than any list or code of the API holds, so it is not parsed`);
    }
  });

  it('counts markup exactly to the bound, and not inside comments, CDATA or escaped text', function () {
    // Parses bodies at the bounds (100,000 elements, 100,000 attributes): seconds, more on a busy machine.
    this.timeout(60_000);
    // codes(codeItem()) holds the root, one item and its 11 fields (13 elements) and 6 type attributes.
    const base = 13;
    const atBound = codes(codeItem({ code: `<code>${'<z/>'.repeat(MAX_ELEMENTS - base)}</code>` }));
    assert.throws(() => decodeCodes(atBound), (e: unknown) => e instanceof DecodeError && e.kind === 'type-mismatch', 'parsed: the field holds elements');
    const overBound = codes(codeItem({ code: `<code>${'<z/>'.repeat(MAX_ELEMENTS - base + 1)}</code>` }));
    assert.throws(() => decodeCodes(overBound), (e: unknown) => e instanceof DecodeError && e.kind === 'too-large');
    const attributes = (n: number): string => codes(codeItem({ code: `<code><z ${Array.from({ length: n }, (_, i) => `a${i}='='`).join(' ')}/></code>` }));
    assert.throws(() => decodeCodes(attributes(MAX_ATTRIBUTES - 6)), (e: unknown) => e instanceof DecodeError && e.kind === 'type-mismatch');
    assert.throws(() => decodeCodes(attributes(MAX_ATTRIBUTES - 5)), (e: unknown) => e instanceof DecodeError && e.kind === 'too-large');
    const text = '<z a="1"/>'.repeat(MAX_ELEMENTS);
    assert.equal(withText(`<![CDATA[${text}]]>`), text);
    assert.equal(withText(`<!--${text}-->x`), 'x');
    assert.equal(withText(text.replace(/</g, '&lt;')), text);
  });

  it('decodes a 1 MB single-line code exactly', () => {
    const line = 'x = [1, 2, 3].map { |v| v < 2 && v * 2 } # é ';
    const text = line.repeat(Math.ceil(1_048_576 / line.length));
    const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    const code = decodeCode(`${DECL}<code>${CODE_FIELDS.id}<code>${escaped}&lt;end&gt;</code></code>`);
    assert.equal(code.code.length, text.length + '<end>'.length);
    assert.ok(code.code === `${text}<end>`);
  });
});
