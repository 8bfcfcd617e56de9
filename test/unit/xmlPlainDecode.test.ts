// The one-pass reader of plain bodies (xmlPlainDecode.ts) must be invisible: for every body, the
// decoders give what the full way alone (fast-xml-parser and the walk) gives, the same values or a
// DecodeError of the same kind, message and element. And it must actually read what the service
// sends, or decoding pays for fast-xml-parser after all (bench/decode.ts measures).
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { DecodeError } from '../../src/api/errors';
import { decodeCode, decodeCodes, decodeRefactors, fullDecoders } from '../../src/api/xmlDecode';
import { plainCode, plainCodes, plainRefactors } from '../../src/api/xmlPlainDecode';
import { loadSampleDataset } from '../../src/server/dataset';
import { renderCodeListXml, renderCodeXml, renderRefactorListXml } from '../../src/server/xmlRender';
import { ENTITIES, mutatedResponse, pieceSoup, seedResponses, TYPES } from '../hostile/mutations';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/xml');
const DECODERS = [
  { name: 'decodeCodes', decode: decodeCodes, full: fullDecoders.decodeCodes, plain: plainCodes },
  { name: 'decodeRefactors', decode: decodeRefactors, full: fullDecoders.decodeRefactors, plain: plainRefactors },
  { name: 'decodeCode', decode: decodeCode, full: fullDecoders.decodeCode, plain: plainCode },
] as const;

type Outcome = { value: unknown } | { kind: string; message: string; element: string | undefined };

function outcome(decode: (xml: string) => unknown, xml: string): Outcome {
  try {
    return { value: decode(xml) };
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    return { kind: e.kind, message: e.message, element: e.element };
  }
}

/** Asserts that every decoder agrees with its full way on `xml`; returns how many read it in one pass. */
function agree(xml: string): number {
  let plain = 0;
  for (const d of DECODERS) {
    assert.deepStrictEqual(outcome(d.decode, xml), outcome(d.full, xml), `${d.name} on ${JSON.stringify(xml)}`);
    try {
      if (d.plain(xml.replace(/^\uFEFF?[ \t\r\n]*/, '')) !== undefined) plain++;
    } catch {
      // markupStart's own errors are the same for both ways
    }
  }
  return plain;
}

function serviceBodies(): string[] {
  const c = loadSampleDataset();
  const codes = [...c.codes.values()];
  return [
    renderCodeListXml(c.recentCodes.all.slice(0, 25)),
    renderCodeListXml([]),
    renderRefactorListXml(c.recentRefactors.all.slice(0, 25)),
    renderRefactorListXml([]),
    ...codes.slice(0, 10).map(renderCodeXml),
    renderCodeXml(codes.sort((a, b) => b.refactors.length - a.refactors.length)[0]),
  ];
}

/** Field values that sit at the edges of the rules: numbers, dates, blanks, references, markup. */
const VALUES = [
  '', ' ', '\n  ', '0', '-0', '+7', ' 42 ', '007', '1.5', '.5', '1e3', '1e309', '9007199254740993', 'twenty',
  '2008-03-14T09:26:53+01:00', '2008-03-14T09:26:53Z', '2008-03-14T09:26:53.1234-05:30', '0099-01-01T00:00:00Z',
  '2008-02-30T00:00:00Z', '2008-03-14 09:26:53', ' 2008-03-14T09:26:53+01:00\n', 'a > b', '\u0000', '😀', ...ENTITIES,
];
const LEAF = /<([a-z-]+)( type="[^"]*")?>[^<]*<\/\1>/g;

/** A field's new value and its type attribute: kept (null), none (''), or `type="…"`. */
const edit = fc.tuple(fc.constantFrom(...VALUES), fc.option(fc.constantFrom('', ...TYPES.map((t) => ` type="${t}"`))));

/** A body the service really sends, with the values and type attributes of its first fields drawn from the edges. */
function editedResponse(seeds: readonly string[]): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom(...seeds), fc.array(edit, { minLength: 1, maxLength: 60 }))
    .map(([xml, edits]) => {
      let k = 0;
      return xml.replace(LEAF, (leaf, name: string, type: string | undefined) => {
        if (k >= edits.length) return leaf;
        const [value, newType] = edits[k++];
        return `<${name}${newType ?? type ?? ''}>${value}</${name}>`;
      });
    });
}

describe('xmlPlainDecode: the one-pass reader of plain bodies', function () {
  this.timeout(60_000);
  const seeds = seedResponses();

  it('reads every body the reference service renders, to what the full way gives', () => {
    for (const xml of serviceBodies()) {
      const root = /<(codes|refactors|code)[ >]/.exec(xml)?.[1];
      const d = DECODERS.find((x) => x.name === { codes: 'decodeCodes', refactors: 'decodeRefactors', code: 'decodeCode' }[root as string]);
      assert.ok(d, xml.slice(0, 100));
      assert.notEqual(d.plain(xml), undefined, `not read in one pass: ${xml.slice(0, 300)}`);
      agree(xml);
    }
  });

  it('agrees with the full way on the XML fixtures and on bodies just outside the subset', () => {
    const bodies = readdirSync(FIXTURES).filter((n) => n.endsWith('.xml')).map((f) => readFileSync(path.join(FIXTURES, f), 'utf8'));
    const list = renderCodeListXml(loadSampleDataset().recentCodes.all.slice(0, 2));
    for (const xml of [...bodies, list]) {
      agree(xml);
      agree(xml.replace(/\n/g, '\r\n'));                                   // CRLF
      agree(xml.replace('<title>', '<!-- c --><title>'));                  // a comment
      agree(xml.replace(/<title>[^<]*<\/title>/, '$&$&'));                 // a repeated field: the first counts
      agree(xml.replace('<title>', '<note>n</note><title>'));              // an unknown element, ignored
      agree(xml.replace(/<user>[\s\S]*?<\/user>/, '<user/>'));             // a user without fields
      agree(xml.replace(/<user>[\s\S]*?<\/user>/, '<user>\n</user>'));
      agree(xml.replace(/<id type="integer">/, '<id type="integer" x="1">'));
      agree(xml.replace(/<id type="integer">[^<]*<\/id>/, '<id type="integer"/>'));
      agree(xml.replace(/<\/title>/, '</titel>'));                         // malformed
      agree(xml.replace(/<title>/, '<title>&nbsp;&#0;&#x1F600;&amp;lt;'));
      agree(xml.replace(/<(codes|refactors|code)( type="array")?>/, '<nil-classes type="array">'));
      agree(xml.replace(/<(codes|refactors) type="array">/, '<$1>'));
      agree(xml.replace(/^<\?xml[^>]*>/, '<?xml version="1.0"?>'));
      agree(xml.slice(0, -20));                                            // truncated
    }
  });

  it('agrees with the full way on 6,000 mutated responses, 3,000 edited ones and 3,000 strings of XML pieces', () => {
    let plain = 0;
    fc.assert(fc.property(mutatedResponse(seeds), (xml) => {
      plain += agree(xml);
    }), { numRuns: 6000 });
    let edited = 0;
    fc.assert(fc.property(editedResponse(seeds), (xml) => {
      edited += agree(xml);
    }), { numRuns: 3000 });
    fc.assert(fc.property(pieceSoup(), (xml) => {
      agree(xml);
    }), { numRuns: 3000 });
    // Both sides of the comparison must be exercised: bodies read in one pass, and bodies not.
    console.log(`      ${plain} mutated and ${edited} edited bodies read in one pass`);
    assert.ok(plain > 150, `only ${plain} mutated bodies were read in one pass`);
    assert.ok(edited > 150, `only ${edited} edited bodies were read in one pass`);
  });
});
