// Heading lines at the edges of the rules in src/core/sections.ts: titles that are only whitespace
// other than spaces and tabs, a bracket that is not closed at the end, and a code whose sections
// start after some text (sections.test.ts covers the common cases).

import * as assert from 'node:assert/strict';
import { hasSections, splitSections } from '../../../src/core/sections';

const shown = (code: string, language = 'Java'): Array<[string, string]> =>
  splitSections(code, language).map((s) => [s.title, s.language]);

describe('section headings at the edges', () => {
  it('is not a heading when the title is only other whitespace (a no-break space, a form feed)', () => {
    for (const code of ['## \u00a0\nx\n', '## \f\t\nx\n']) {
      assert.deepEqual(splitSections(code, 'Ruby'), [{ title: '', language: 'Ruby', heading: '', text: code }], JSON.stringify(code));
    }
  });

  it('takes only lines starting with ## as headings, not others whose third character is a space', () => {
    const code = 'if ok\n# # x\nab\tc\n';
    assert.deepEqual(splitSections(code, 'Ruby'), [{ title: '', language: 'Ruby', heading: '', text: code }]);
  });

  it('keeps the code\'s language when the bracket is not closed at the end of the title', () => {
    assert.deepEqual(shown('## Notes [Ruby)\nx\n'), [['Notes [Ruby)', 'Java']]);
    assert.deepEqual(shown('## Notes [Ruby] first\nx\n'), [['Notes [Ruby] first', 'Java']]);
  });

  it('keeps the bracket in the title when only other whitespace stands before it', () => {
    assert.deepEqual(shown('## \u00a0 [Ruby]\nx\n'), [['\u00a0 [Ruby]', 'Java']]);
  });

  it('shows sections section by section also when untitled text comes before the first heading', () => {
    const sections = splitSections('intro\n## A\na\n', 'Ruby');
    assert.deepEqual(sections.map((s) => s.title), ['', 'A']);
    assert.equal(hasSections(sections), true);
  });
});
