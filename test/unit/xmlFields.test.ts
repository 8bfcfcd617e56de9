// The shortcuts inside the fields' rules must change nothing: references decoded without a global
// regular expression, and the service's own datetime form read without DATETIME.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { DecodeError } from '../../src/api/errors';
import { datetimeValue, decodeReferences, type Where } from '../../src/api/xmlFields';
import { ENTITIES } from '../hostile/mutations';

// The rule as it was first written: the five XML entities and numeric references, nothing else.
const ENTITY_REF = /&(?:#([0-9]{1,7})|#x([0-9a-fA-F]{1,6})|(lt|gt|amp|quot|apos));/g;
const XML_ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
function byRegExp(text: string): string {
  return text.replace(ENTITY_REF, (ref: string, dec?: string, hex?: string, name?: string) => {
    if (name !== undefined) return XML_ENTITIES[name];
    const cp = dec !== undefined ? Number(dec) : parseInt(hex as string, 16);
    const xmlChar = cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff)
      || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
    return xmlChar ? String.fromCodePoint(cp) : ref;
  });
}

const HERE: Where = { path: 'codes/code', item: 'code', index: 0 };

function dateOrError(text: string): number | string | null {
  try {
    return datetimeValue(text, 'datetime', 'created-at', HERE)?.getTime() ?? null;
  } catch (e) {
    assert.ok(e instanceof DecodeError);
    return e.kind;
  }
}

describe('xmlFields: shortcuts in the fields\' rules', () => {
  it('decodes references exactly as the regular expression does', () => {
    const piece = fc.oneof(fc.constantFrom(...ENTITIES, '&lt', '&#x41;', '&#X41;', '&#65;', '&#1234567;', '&#12345678;', '&#xFFFFFF;', '&#xD800;', '&amp;amp;', ';', '#', 'x'),
      fc.string({ maxLength: 4, unit: 'binary' }));
    fc.assert(fc.property(fc.array(piece, { maxLength: 12 }).map((p) => p.join('')), (text) => {
      assert.equal(decodeReferences(text), byRegExp(text), JSON.stringify(text));
    }), { numRuns: 20_000 });
  });

  it('reads the service\'s datetime form as DATETIME reads it, valid or not', () => {
    const digits = (n: number) => fc.array(fc.constantFrom(...'0123456789'), { minLength: n, maxLength: n }).map((d) => d.join(''));
    const zone = fc.oneof(fc.constant('Z'), fc.tuple(fc.constantFrom('+', '-'), digits(2), digits(2)).map(([s, h, m]) => `${s}${h}:${m}`),
      fc.constantFrom('z', '+0100', '+01:0', ''));
    const plausible = fc.tuple(fc.constantFrom('2008', '2000', '1900', '0099', '0000', '9999'), fc.integer({ min: 0, max: 13 }),
      fc.integer({ min: 0, max: 32 }), fc.integer({ min: 0, max: 24 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 }))
      .map(([y, ...rest]) => [y, ...rest.map((v) => String(v).padStart(2, '0'))]);
    const text = fc.tuple(fc.oneof(plausible, fc.tuple(digits(4), digits(2), digits(2), digits(2), digits(2), digits(2))), fc.constantFrom('T', 't', ' '), zone)
      .map(([[y, mo, d, h, mi, s], t, z]) => `${y}-${mo}-${d}${t}${h}:${mi}:${s}${z}`);
    let valid = 0;
    fc.assert(fc.property(text, (t) => {
      // A blank before the text turns the shortcut off; DATETIME allows the blank and reads the same instant.
      const got = dateOrError(t);
      assert.deepEqual(got, dateOrError(` ${t}`), t);
      if (typeof got === 'number') valid++;
    }), { numRuns: 20_000 });
    assert.ok(valid > 500, `only ${valid} valid datetimes`);
  });
});
