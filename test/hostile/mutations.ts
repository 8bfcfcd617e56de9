// Arbitraries for fuzzing the XML decoder: real responses from the sample catalog, mutated the
// ways a broken server, a proxy or an attacker would (truncation, flipped characters, duplicated and
// removed tags, random type attributes, entities, stray markup, any text in a field), plus strings of XML pieces.

import fc from 'fast-check';
import { loadSampleDataset } from '../../src/server/catalog/sampleDataset';
import { renderCodeListXml, renderCodeXml, renderRefactorListXml } from '../../src/server/render/xmlRender';

/** Small real responses (1 to 3 items), so ten thousand decodes fit in a few seconds. */
export function seedResponses(): string[] {
  const c = loadSampleDataset();
  const codes = c.recentCodes.all;
  const refactors = c.recentRefactors.all;
  const withMany = [...c.codes.values()].sort((a, b) => b.refactors.length - a.refactors.length)[0];
  return [
    renderCodeListXml(codes.slice(0, 1)),
    renderCodeListXml(codes.slice(5, 8)),
    renderCodeListXml([]),
    renderRefactorListXml(refactors.slice(0, 3)), // registered and anonymous authors
    renderRefactorListXml(refactors.slice(10, 11)),
    renderCodeXml(codes[0]),
    renderCodeXml(withMany),
  ];
}

export const TYPES = ['integer', 'float', 'datetime', 'array', 'string', 'boolean', '', 'INTEGER', 'nil', 'integer" type="float', 'yaml'];

export const ENTITIES = [
  '&amp;', '&lt;', '&gt;', '&quot;', '&apos;', '&#0;', '&#x0;', '&#13;', '&#36;', '&#x1F600;', '&#x110000;', '&#55296;',
  '&#99999999999;', '&nbsp;', '&copy;', '&foo;', '&lol9;', '&', '&#', '&#x;', '&amp;lt;', '&__proto__;',
];

/** Pieces that make well-formed and malformed XML alike when strung together. */
export const PIECES = [
  '<?xml version="1.0" encoding="UTF-8"?>', '<codes type="array">', '</codes>', '<refactors type="array">', '</refactors>',
  '<code>', '</code>', '<refactor>', '</refactor>', '<user>', '</user>', '<id type="integer">', '</id>', '<code-id type="integer">',
  '</code-id>', '<title>', '</title>', '<created-at type="datetime">', '</created-at>', '<rating type="float">', '</rating>',
  '<user-id type="integer">', '</user-id>', '<user-id type="integer"/>', '<refactors type="array"/>', '<nil-classes type="array"/>',
  '<__proto__>', '</__proto__>', '<constructor>', '</constructor>', '<!DOCTYPE codes>', '<!DOCTYPE html>', '<html>',
  '<![CDATA[', ']]>', '<!--', '-->', '<?pi x?>', '<', '>', '/>', '</', '=', '"', "'", ' type="integer"', ' x="1"',
  '42', '-7', '1e309', '9007199254740993', '2008-03-14T09:26:53+01:00', '2008-02-30T00:00:00Z', 'twenty', ' ', '\n', '\r\n',
  '\t', '\u0000', '\u001b[2J', '\uFEFF', '\uD800', '\uFFFF', 'é', '😀', '{', '[', ...ENTITIES,
];

type Mutation =
  | { op: 'truncate'; at: number }
  | { op: 'flip'; at: number; bit: number }
  | { op: 'duplicate'; at: number }
  | { op: 'remove'; at: number }
  | { op: 'type'; at: number; type: string }
  | { op: 'insert'; at: number; text: string }
  | { op: 'text'; at: number; text: string };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('flip' as const), at: fc.nat(), bit: fc.nat(15) }),
  fc.record({ op: fc.constant('duplicate' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('remove' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('type' as const), at: fc.nat(), type: fc.constantFrom(...TYPES) }),
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), text: fc.constantFrom(...PIECES) }),
  fc.record({ op: fc.constant('text' as const), at: fc.nat(), text: fc.string({ maxLength: 24, unit: 'binary' }) }),
);

const LEAF = /<([a-z-]+)(?: type="[^"]*")?>[^<]*<\/\1>/g;
const TAG = /<\/?[A-Za-z_][^<>]*>/g;
const START_TAG = /<([a-z-]+)(?: type="[^"]*")?(\/?)>/g;

function pick(xml: string, re: RegExp, at: number): RegExpExecArray | undefined {
  const all = [...xml.matchAll(re)];
  return all.length ? (all[at % all.length]) : undefined;
}

export function applyMutation(xml: string, m: Mutation): string {
  const n = Math.max(1, xml.length);
  switch (m.op) {
    case 'truncate':
      return xml.slice(0, m.at % n);
    case 'flip': {
      const i = m.at % n;
      return xml.slice(0, i) + String.fromCharCode(xml.charCodeAt(i) ^ (1 << m.bit)) + xml.slice(i + 1);
    }
    case 'duplicate': {
      const hit = pick(xml, LEAF, m.at);
      if (!hit) return xml;
      const end = hit.index + hit[0].length;
      return xml.slice(0, end) + hit[0] + xml.slice(end);
    }
    case 'remove': {
      const hit = pick(xml, TAG, m.at);
      return hit ? xml.slice(0, hit.index) + xml.slice(hit.index + hit[0].length) : xml;
    }
    case 'type': {
      const hit = pick(xml, START_TAG, m.at);
      if (!hit) return xml;
      const tag = `<${hit[1]} type="${m.type}"${hit[2]}>`;
      return xml.slice(0, hit.index) + tag + xml.slice(hit.index + hit[0].length);
    }
    case 'insert': {
      const i = m.at % (xml.length + 1);
      return xml.slice(0, i) + m.text + xml.slice(i);
    }
    case 'text': {
      // Any text, unescaped, in place of a field's value.
      const hit = pick(xml, LEAF, m.at);
      if (!hit) return xml;
      const open = hit[0].indexOf('>') + 1;
      const close = hit[0].lastIndexOf('</');
      return xml.slice(0, hit.index + open) + m.text + xml.slice(hit.index + close);
    }
  }
}

/** A real response with one to four mutations applied in turn. */
export function mutatedResponse(seeds: readonly string[]): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom(...seeds), fc.array(mutation, { minLength: 1, maxLength: 4 }))
    .map(([xml, ms]) => ms.reduce(applyMutation, xml));
}

/** Strings of XML pieces and random text: mostly garbage, sometimes well-formed. */
export function pieceSoup(): fc.Arbitrary<string> {
  return fc
    .array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...PIECES) }, { weight: 1, arbitrary: fc.string({ maxLength: 8, unit: 'binary' }) }), { maxLength: 40 })
    .map((parts) => parts.join(''));
}
