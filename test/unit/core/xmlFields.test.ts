// Field values as a user reads them in a decoded code: character references at the edges of what XML
// allows, numbers and datetimes at the edges of what exists, and how a long offending value is quoted
// in the message that names it. (xmlDecode.test.ts covers the common cases.)
import { strict as assert } from 'node:assert';
import type { Code } from '../../../src/core/model';
import { decodeCodes } from '../../../src/core/xmlDecode';
import { throwsDecode } from '../../helpers/apiAssert';

const DECL = '<?xml version="1.0" encoding="UTF-8"?>\n';
const BASE: Record<string, string> = {
  code: '<code>x = 1</code>',
  'created-at': '<created-at type="datetime">2008-03-02T10:15:30+09:00</created-at>',
  id: '<id type="integer">1</id>',
  language: '<language>Ruby</language>',
  title: '<title>t</title>',
};
const oneCode = (over: Record<string, string>): Code =>
  decodeCodes(`${DECL}<codes type="array">\n<code>${Object.values({ ...BASE, ...over }).join('\n')}</code>\n</codes>\n`)[0];
const withText = (text: string): string => oneCode({ code: `<code>${text}</code>` }).code;

describe('xmlFields: character references', () => {
  it('decodes a reference to every character XML allows, at each edge of the allowed ranges', () => {
    const allowed: [string, string][] = [
      ['&#9;', '\t'], ['&#10;', '\n'], ['&#13;', '\r'], ['&#32;', ' '], ['&#x20;', ' '],
      ['&#xD7FF;', '\ud7ff'], ['&#xE000;', '\ue000'], ['&#xFFFD;', '\ufffd'],
      ['&#x10000;', '\u{10000}'], ['&#x10FFFF;', '\u{10ffff}'], ['&#128512;', '😀'],
    ];
    assert.deepEqual(allowed.map(([ref]) => [ref, withText(`a${ref}b`)]), allowed.map(([ref, ch]) => [ref, `a${ch}b`]));
  });

  it('keeps a reference to a character XML forbids exactly as sent, instead of dropping or mangling it', () => {
    // NUL and other controls, lone surrogates, the two non-characters U+FFFE/U+FFFF, beyond U+10FFFF.
    const forbidden = ['&#0;', '&#8;', '&#11;', '&#12;', '&#31;', '&#xD800;', '&#xDFFF;', '&#xFFFE;', '&#xFFFF;', '&#x110000;', '&#1114112;'];
    assert.deepEqual(forbidden.map((ref) => withText(`a${ref}b`)), forbidden.map((ref) => `a${ref}b`));
  });
});

describe('xmlFields: numbers and datetimes at the edges', () => {
  it('reads a negative zero float as 0, which a formatted rating would otherwise show as "-0"', () => {
    const rating = oneCode({ user: '<user><id type="integer">1</id><rating type="float">-0.0</rating></user>' }).user?.rating;
    assert.ok(Object.is(rating, 0), `got ${String(rating)}`);
  });

  it('reads a blank untyped number element as no value, not as a type error', () => {
    assert.equal(oneCode({ 'user-id': '<user-id>  </user-id>' }).userId, null);
  });

  it('refuses month 00, day 00 and the 31st of June, September and November', () => {
    for (const bad of ['2008-00-10T00:00:00+00:00', '2008-03-00T00:00:00+00:00', '2008-06-31T00:00:00+00:00',
      '2008-09-31T00:00:00+00:00', '2008-11-31T00:00:00+00:00']) {
      throwsDecode(() => oneCode({ 'created-at': `<created-at type="datetime">${bad}</created-at>` }), 'type-mismatch',
        `<created-at type="datetime"> in code 1 of the list is ${JSON.stringify(bad)}, not a valid date and time`);
    }
    assert.equal(oneCode({ 'created-at': '<created-at type="datetime">2008-06-30T00:00:00Z</created-at>' }).createdAt?.toISOString(),
      '2008-06-30T00:00:00.000Z');
  });
});

describe('xmlFields: quoting the offending value', () => {
  it('quotes a value of up to 40 characters whole and cuts a longer one at 40 with an ellipsis', () => {
    const forty = 'x'.repeat(40);
    throwsDecode(() => oneCode({ id: `<id type="integer">${forty}</id>` }), 'type-mismatch',
      `<id type="integer"> in code 1 of the list is "${forty}", not an integer`);
    throwsDecode(() => oneCode({ id: `<id type="integer">${forty}yz</id>` }), 'type-mismatch',
      `<id type="integer"> in code 1 of the list is "${forty}…", not an integer`);
  });
});
