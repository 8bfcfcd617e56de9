// Bodies at the edges of the checks made before parsing: what a user reads about a body that is not
// XML, the markup bound counted correctly after comments and CDATA and through quoted values, bodies
// cut off inside a quote or a comment (refused as malformed, never a hang), and the Rails empty list
// only where a list was asked for. (xmlDecode.test.ts covers the common cases.)
import { strict as assert } from 'node:assert';
import { MAX_ATTRIBUTES, MAX_ELEMENTS, decodeCode, decodeCodes, decodeRefactors } from '../../../src/core/xmlDecode';
import { throwsDecode } from '../../helpers/apiAssert';

const DECL = '<?xml version="1.0" encoding="UTF-8"?>\n';
const ITEM = '<id type="integer">1</id><title>t</title><language>Ruby</language>';
/** One code whose <code> element holds `markup` as it is. */
const codeHolding = (markup: string): string => `${DECL}<codes type="array"><code>${ITEM}<code>${markup}</code></code></codes>\n`;

describe('xml bodies: before parsing', () => {
  it('quotes the first 40 characters of a plain-text body, whitespace runs shown as one space', () => {
    throwsDecode(() => decodeCodes('Service   temporarily\n\n unavailable, please try again later'), 'not-xml',
      'expected XML, got plain text: "Service temporarily unavailable, ple"');
  });

  it('keeps counting elements after a CDATA section and a comment', () => {
    const many = '<z/>'.repeat(MAX_ELEMENTS + 1);
    for (const before of ['<![CDATA[a <b> c]]>', '<!-- a <b> c -->']) {
      throwsDecode(() => decodeCodes(codeHolding(`${before}${many}`)), 'too-large',
        `more than ${MAX_ELEMENTS.toLocaleString('en-US')} elements: far more than any list or code of the API holds, so it is not parsed`);
    }
  });

  it('reads CDATA sections and comments that follow each other directly, as "]]>" in code is written', () => {
    // A CDATA section cannot hold "]]>", so a serializer splits it: `]]]]><![CDATA[>`.
    const code = (markup: string): string => decodeCodes(codeHolding(markup))[0].code;
    assert.equal(code('<![CDATA[a[i[j]]]]><![CDATA[> b]]>'), 'a[i[j]]> b');
    assert.equal(code('x<!--one--><!--two-->y'), 'xy');
  });

  it('does not count the = signs of a quoted value (a URL query, say) as attributes, in either quotes', () => {
    const equals = '='.repeat(MAX_ATTRIBUTES + 1);
    for (const value of [`'${equals}'`, `"${equals}"`]) {
      // Parsed, so the error is the field's: its text holds an element.
      throwsDecode(() => decodeCodes(codeHolding(`<z q=${value}/>`)), 'type-mismatch', /has child elements where text was expected$/);
    }
  });

  it('refuses a body cut off inside a quoted value or a comment as malformed, without hanging', () => {
    throwsDecode(() => decodeCodes(`${DECL}<codes type="array"><code q='never closed`), 'invalid-xml', /^malformed XML/);
    throwsDecode(() => decodeCodes(`${DECL}<codes type="array"><code q="never closed`), 'invalid-xml', /^malformed XML/);
    throwsDecode(() => decodeCodes(`${DECL}<codes type="array"><!-- never closed`), 'invalid-xml', /^malformed XML/);
  });
});

describe('xml bodies: the root', () => {
  it('takes <nil-classes> as an empty list only when it is empty and a list was asked for', () => {
    assert.deepEqual(decodeRefactors(`${DECL}<nil-classes type="array"/>`), []);
    throwsDecode(() => decodeCodes(`${DECL}<nil-classes type="array"><code>${ITEM}</code></nil-classes>`), 'wrong-root',
      'expected <codes>, got <nil-classes>');
    throwsDecode(() => decodeCode(`${DECL}<nil-classes type="array"></nil-classes>`), 'wrong-root', 'expected <code>, got <nil-classes>');
    throwsDecode(() => decodeCodes(`${DECL}<refactors type="array"/>`), 'wrong-root', 'expected <codes>, got <refactors>');
  });
});
