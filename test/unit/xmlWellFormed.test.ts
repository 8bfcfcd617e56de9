// The decoder's fast well-formedness check must never accept what fast-xml-parser's validator
// refuses (the decoder would then parse a malformed body), and must accept what the service sends
// (or decoding pays for the validator after all, which bench/decode.ts measures).
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { XMLValidator } from 'fast-xml-parser';
import { isPlainWellFormed } from '../../src/api/xmlWellFormed';
import { loadSampleDataset } from '../../src/server/dataset';
import { renderCodeListXml, renderCodeXml, renderRefactorListXml } from '../../src/server/xmlRender';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/xml');
const DECL = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** Pieces that make well-formed and malformed bodies alike when strung together at random. */
const PIECES = [
  DECL, '<?xml version="1.0"?>', '<?pi x?>', '<a>', '</a>', '<b>', '</b>', '<a/>', '<b />', '<a x="1">', "<a x='1' y=\"2\">",
  '<a x="1" x="2">', '<a x="1"y="2">', '<a x=1>', '<a x>', '</a >', '< a>', '<1a>', '<a:b>', '</a:b>', '<é>', '</é>',
  'text', ' ', '\n', '\r\n', '&amp;', '&lt;', '&#13;', '&#x24;', '&#X24;', '&#;', '&nbsp;', '&', '&a', ';', '<', '>',
  '<!-- c -->', '<!--', '-->', '<![CDATA[<&]]>', '<![CDATA[', ']]>', '<!DOCTYPE a>', '<!x>', '"', "'", '=', '/',
];

/** Nested elements whose names, attributes and text are sometimes wrong: near-misses in good number. */
const NAMES = ['a', 'b', 'a:b', 'x-1', 'é', '1a'];
const ATTRIBUTES = ['', ' type="array"', " t='1'", ' t="1" u="2"', ' t="1" t="2"', ' t="a&amp;b"', ' t="<"', ' t=1', '  t = "1" ', ' t="1"u="2"'];
const TEXTS = ['', 'x', ' ', '\n  ', '&amp;', '&#13;', '&#x;', '&', 'a > b', '<!-- c -->', '<![CDATA[&<]]>', '&nbsp;', '<?pi?>'];
const { tree } = fc.letrec<{ tree: string; node: string }>((tie) => ({
  tree: fc.tuple(fc.constantFrom(...NAMES), fc.constantFrom(...NAMES), fc.constantFrom(...ATTRIBUTES), fc.array(tie('node'), { maxLength: 4 }), fc.boolean(), fc.nat(9))
    // The closing name matches nine times in ten; self-closing when asked and childless.
    .map(([open, close, attrs, kids, self, odd]) => (self && kids.length === 0 ? `<${open}${attrs}/>`
      : `<${open}${attrs}>${kids.join('')}</${odd === 0 ? close : open}>`)),
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constantFrom(...TEXTS), tie('tree')),
}));

function bodies(): string[] {
  const c = loadSampleDataset();
  return [
    renderCodeListXml(c.recentCodes.all.slice(0, 25)),
    renderCodeListXml([]),
    renderRefactorListXml(c.recentRefactors.all.slice(0, 25)),
    ...[...c.codes.values()].slice(0, 5).map(renderCodeXml),
  ];
}

describe('xmlWellFormed: the decoder\'s fast check', () => {
  it('accepts every body the reference service renders and every XML fixture', () => {
    for (const xml of bodies()) assert.ok(isPlainWellFormed(xml), xml.slice(0, 200));
    for (const f of readdirSync(FIXTURES).filter((n) => n.endsWith('.xml'))) {
      const xml = readFileSync(path.join(FIXTURES, f), 'utf8').replace(/^\uFEFF/, '').trimStart();
      assert.ok(isPlainWellFormed(xml), f);
    }
  });

  it('leaves truncated, mismatched, two-rooted and bare-ampersand bodies to the validator', () => {
    const full = bodies()[0];
    for (const xml of [
      full.slice(0, full.length >> 1),
      full.slice(0, -3),
      `${DECL}<codes><code></codes></code>`,
      `${DECL}<codes/><codes/>`,
      `${DECL}<codes>a & b</codes>`,
      `${DECL}<codes>a</codes>junk`,
      `${DECL}<codes x="1" x="2"/>`,
      `${DECL}<!DOCTYPE codes><codes/>`,
      `${DECL}`,
    ]) {
      assert.equal(isPlainWellFormed(xml), false, xml.slice(-60));
    }
  });

  it('never accepts what XMLValidator refuses: random strings of XML pieces', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 24 }), (pieces) => {
        const xml = pieces.join('');
        if (isPlainWellFormed(xml)) assert.equal(XMLValidator.validate(xml), true, JSON.stringify(xml));
      }),
      { numRuns: 3000 },
    );
  });

  it('never accepts what XMLValidator refuses: generated trees with near-misses', () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.constantFrom('', DECL, ' ', '<!-- c -->'), tree, fc.constantFrom('', '\n', 'x', '<a/>', '<!-- c -->'), (head, root, tail) => {
        const xml = head + root + tail;
        if (!isPlainWellFormed(xml)) return;
        accepted++;
        assert.equal(XMLValidator.validate(xml), true, JSON.stringify(xml));
      }),
      { numRuns: 3000 },
    );
    assert.ok(accepted > 100, `only ${accepted} of 3000 generated bodies took the fast path`);
  });

  it('never accepts what XMLValidator refuses: service bodies with a piece cut out or put in', () => {
    const all = bodies();
    fc.assert(
      fc.property(
        fc.nat(all.length - 1), fc.double({ min: 0, max: 1, noNaN: true }), fc.nat(40),
        fc.array(fc.constantFrom(...PIECES), { maxLength: 3 }),
        (which, at, cut, insert) => {
          const xml = all[which];
          const pos = Math.floor(at * xml.length);
          const mutated = xml.slice(0, pos) + insert.join('') + xml.slice(pos + cut);
          if (isPlainWellFormed(mutated)) assert.equal(XMLValidator.validate(mutated), true, JSON.stringify(mutated.slice(Math.max(0, pos - 40), pos + 40)));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
