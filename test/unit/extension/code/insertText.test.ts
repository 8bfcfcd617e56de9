// Insert at Cursor's text: what lands in the user's file, character for character.

import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { indentationAt, prepareInsertion } from '../../../../src/extension/code/insertText';

const LF = { indentation: '', eol: '\n' } as const;

describe('prepareInsertion', () => {
  describe('re-indentation', () => {
    it('leaves a single line as it is, whatever the indentation', () => {
      assert.equal(prepareInsertion('x = 1', { indentation: '        ', eol: '\n' }), 'x = 1');
    });

    it('prefixes lines 2..n with the cursor line indentation, not line 1', () => {
      const code = 'def f\n  1\nend';
      assert.equal(prepareInsertion(code, { indentation: '    ', eol: '\n' }), 'def f\n      1\n    end');
    });

    it('uses tabs when the cursor line is indented with tabs, keeping the code\'s own tabs', () => {
      assert.equal(prepareInsertion('if (a) {\n\tb();\n}', { indentation: '\t\t', eol: '\n' }),
        'if (a) {\n\t\t\tb();\n\t\t}');
    });

    it('keeps empty lines empty and whitespace-only lines unchanged (no added trailing whitespace)', () => {
      const out = prepareInsertion('a\n\nb\n   \nc', { indentation: '  ', eol: '\n' });
      assert.equal(out, 'a\n\n  b\n   \n  c');
    });

    it('with no indentation returns the code unchanged apart from the final line break', () => {
      assert.equal(prepareInsertion('a\n  b\n', LF), 'a\n  b');
    });
  });

  describe('line endings', () => {
    it('converts CRLF to LF for an LF document', () => {
      assert.equal(prepareInsertion('a\r\nb\r\nc', LF), 'a\nb\nc');
    });

    it('converts LF to CRLF for a CRLF document', () => {
      assert.equal(prepareInsertion('a\nb\nc', { indentation: '', eol: '\r\n' }), 'a\r\nb\r\nc');
    });

    it('treats a lone CR as a line break (old Mac files)', () => {
      assert.equal(prepareInsertion('a\rb', { indentation: ' ', eol: '\r\n' }), 'a\r\n b');
    });

    it('normalises mixed endings and re-indents every line after them', () => {
      assert.equal(prepareInsertion('a\r\nb\nc\rd', { indentation: '  ', eol: '\r\n' }), 'a\r\n  b\r\n  c\r\n  d');
    });

    it('does not read \\n\\r as one break (it is two)', () => {
      assert.equal(prepareInsertion('a\n\rb', LF), 'a\n\nb');
    });
  });

  describe('the final line break', () => {
    it('is dropped when nothing follows the cursor, so no blank line is added', () => {
      assert.equal(prepareInsertion('a\nb\n', { indentation: '  ', eol: '\n' }), 'a\n  b');
      assert.equal(prepareInsertion('a\nb\r\n', { indentation: '', eol: '\n', lineRest: '' }), 'a\nb');
    });

    it('is dropped when only whitespace follows the cursor', () => {
      assert.equal(prepareInsertion('a\n', { indentation: '', eol: '\n', lineRest: '   ' }), 'a');
    });

    it('is kept, then indented, when text follows the cursor, so that text keeps its own aligned line', () => {
      const out = prepareInsertion('x = 1\ny = 2\n', { indentation: '    ', eol: '\r\n', lineRest: 'return y' });
      assert.equal(out, 'x = 1\r\n    y = 2\r\n    ');
    });

    it('is not invented when the code has none, even with text after the cursor', () => {
      assert.equal(prepareInsertion('a\nb', { indentation: '', eol: '\n', lineRest: 'rest' }), 'a\nb');
    });

    it('drops only one of several trailing line breaks: the others are blank lines of the code', () => {
      assert.equal(prepareInsertion('a\n\n\n', LF), 'a\n\n');
    });

    it('turns an empty code or a lone line break into nothing', () => {
      assert.equal(prepareInsertion('', { indentation: '  ', eol: '\n' }), '');
      assert.equal(prepareInsertion('\n', { indentation: '  ', eol: '\n' }), '');
      assert.equal(prepareInsertion('\r\n', { indentation: '', eol: '\r\n' }), '');
    });
  });

  describe('literal text', () => {
    it('keeps snippet syntax, backticks and backslashes exactly', () => {
      const code = 'echo "$1 ${TM_FILENAME} $0 ${1:x}"\nmsg = `hi ${name}` \\n\\t\n';
      assert.equal(prepareInsertion(code, { indentation: '  ', eol: '\n' }),
        'echo "$1 ${TM_FILENAME} $0 ${1:x}"\n  msg = `hi ${name}` \\n\\t');
    });

    it('keeps trailing spaces inside lines and non-ASCII text', () => {
      assert.equal(prepareInsertion('été  \n日本 \u00a0', { indentation: '\t', eol: '\n' }), 'été  \n\t日本 \u00a0');
    });
  });

  it('property: undoing the indentation and the EOL gives back the code (without its final break)', () => {
    const line = fc.string({ unit: fc.constantFrom('a', ' ', '\t', '$', '{', '`', 'é', '}') , maxLength: 12 });
    fc.assert(fc.property(
      fc.array(line, { minLength: 1, maxLength: 12 }),
      fc.constantFrom('', '  ', '    ', '\t'),
      fc.constantFrom('\n' as const, '\r\n' as const),
      fc.constantFrom('\n', '\r\n', '\r'),
      (lines, indentation, eol, sourceEol) => {
        const code = lines.join(sourceEol);
        const out = prepareInsertion(code, { indentation, eol });
        const outLines = out.split(eol);
        const expected = lines.length > 1 && lines[lines.length - 1] === '' ? lines.slice(0, -1) : lines;
        assert.equal(outLines.length, expected.length);
        outLines.forEach((l, i) => {
          const blank = expected[i].trim() === '';
          assert.equal(l, i === 0 || blank ? expected[i] : indentation + expected[i]);
        });
        if (eol === '\n') assert.ok(!out.includes('\r'));
        else assert.ok(!/\r(?!\n)|(?<!\r)\n/.test(out), 'every break is CRLF');
      },
    ), { numRuns: 300 });
  });
});

describe('indentationAt', () => {
  it('is the leading whitespace of the line', () => {
    assert.equal(indentationAt('    foo(', 8), '    ');
    assert.equal(indentationAt('\t\tbar', 5), '\t\t');
    assert.equal(indentationAt('baz', 3), '');
  });

  it('stops at the cursor when the cursor is inside the indentation', () => {
    assert.equal(indentationAt('        x', 4), '    ');
    assert.equal(indentationAt('    ', 0), '');
  });

  it('counts a whitespace-only line up to the cursor', () => {
    assert.equal(indentationAt('      ', 6), '      ');
  });

  it('ignores whitespace after the first non-blank character', () => {
    assert.equal(indentationAt('  a  b', 6), '  ');
  });
});
