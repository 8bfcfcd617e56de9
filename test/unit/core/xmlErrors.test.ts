// The rewording of the XML validator's failures (src/core/xmlErrors.ts) when its report does not fit
// the body: a failure is only reworded to name elements when the names can be found where the
// validator points; otherwise the user reads the validator's own words with its line and column,
// never a message naming `<undefined>` or an element that is not there.
import { strict as assert } from 'node:assert';
import { XMLValidator } from 'fast-xml-parser';
import { DecodeError } from '../../../src/core/errors';
import { malformedXmlError, type ValidationFailure } from '../../../src/core/xmlErrors';

const SECOND_ROOT = 'Multiple possible root nodes found.';

function message(body: string, err: ValidationFailure): string {
  const e = malformedXmlError(body, err);
  assert.ok(e instanceof DecodeError);
  assert.equal(e.kind, 'invalid-xml');
  assert.match(String(e), /^DecodeError: malformed XML/, 'printed uncaught, it names its class');
  return e.message;
}

describe('xmlErrors: rewording the validator', () => {
  it('names both roots where the validator points, on any line', () => {
    const body = '<codes type="array">\n</codes>\n\n  <refactors x="1"></refactors>';
    const valid = XMLValidator.validate(body);
    assert.ok(valid !== true);
    assert.equal(message(body, valid.err), 'malformed XML: two root elements <codes> and <refactors>');
  });

  it('keeps the validator\'s words when its position is past the body\'s lines', () => {
    assert.equal(message('<codes></codes>', { msg: SECOND_ROOT, line: 5, col: 1 }),
      `malformed XML at line 5, column 1: ${SECOND_ROOT}`);
  });

  it('keeps the validator\'s words when its position is past the last line of a longer body', () => {
    // Line 6 of a body of two lines: counting lines must not wrap around to the start.
    assert.equal(message('<codes>\n<refactors/>', { msg: SECOND_ROOT, line: 6, col: 1 }), `malformed XML at line 6, column 1: ${SECOND_ROOT}`);
  });

  it('keeps the validator\'s words when its position is on a comment, not on a start tag', () => {
    const body = '<codes></codes><!-- c --><refactors/>';
    assert.equal(message(body, { msg: SECOND_ROOT, line: 1, col: 20 }), `malformed XML at line 1, column 20: ${SECOND_ROOT}`);
  });

  it('keeps the validator\'s words when the list of open elements is empty or not only names', () => {
    for (const msg of ['Invalid \'[]\' found.', 'Invalid \'["codes", 1]\' found.', 'Invalid \'[1, 2]\' found.']) {
      assert.equal(message('<codes>', { msg, line: 1, col: 1 }), `malformed XML at line 1, column 1: ${msg}`);
    }
    assert.equal(message('<codes><code>', { msg: 'Invalid \'[ "codes", "code" ]\' found.', line: 1, col: 1 }),
      'malformed XML: the body ends inside <codes>, <code> (truncated?)');
  });
});
