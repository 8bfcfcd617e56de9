// A code's sections (`## Title` and `## Title [Language]` lines): what the code view shows under each
// title, in which language, and exactly which text Insert at Cursor and Copy take for each.

import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { hasSections, sectionTitleOf, splitSections, type Section } from '../../../src/core/sections';

/** Title, language and text of each section: what a person sees and gets. */
function shown(code: string, language = 'Ruby'): Array<[string, string, string]> {
  return splitSections(code, language).map((s) => [s.title, s.language, s.text]);
}

/** The code given back: the blank lead before the first heading, then every heading line and text. */
function joined(code: string, sections: readonly Section[]): string {
  const rest = sections.map((s) => s.heading + s.text).join('');
  return code.slice(0, code.length - rest.length) + rest;
}

describe('splitSections', () => {
  it('is one untitled section holding the whole code when no line is a heading', () => {
    for (const code of ['', '\n', 'puts 1\n', '# ## not at the start\n  ## indented\n###three\n##\n##   \n#\n']) {
      assert.deepEqual(splitSections(code, 'Ruby'), [{ title: '', language: 'Ruby', heading: '', text: code }], JSON.stringify(code));
      assert.equal(hasSections(splitSections(code, 'Ruby')), false);
    }
  });

  it('starts a section at each heading, the heading line left out of its text, the rest kept exactly', () => {
    const code = '## user.rb\nclass User\n  def name; end\nend\n\n## user_spec.rb\ndescribe User do\nend\n';
    assert.deepEqual(shown(code), [
      ['user.rb', 'Ruby', 'class User\n  def name; end\nend\n\n'],
      ['user_spec.rb', 'Ruby', 'describe User do\nend\n'],
    ]);
    assert.deepEqual(splitSections(code, 'Ruby').map((s) => s.heading), ['## user.rb\n', '## user_spec.rb\n']);
    assert.equal(hasSections(splitSections(code, 'Ruby')), true);
  });

  it('takes a bracket as the section\'s language when it names a service language by name or slug, any lettercase', () => {
    const code = '## A [cs]\na\n## B [C++]\nb\n## Setup  [bash]  \nc\n## D [ vb ]\nd\n## E[Ruby]\ne';
    assert.deepEqual(shown(code, 'Java'), [
      ['A', 'C#', 'a\n'],
      ['B', 'C++', 'b\n'],
      ['Setup', 'Bash', 'c\n'],
      ['D', 'VB.NET', 'd\n'],
      // Not set off from the title: part of it.
      ['E[Ruby]', 'Java', 'e'],
    ]);
  });

  it('keeps any other bracket in the title, in the code\'s own language', () => {
    const code = '## C [COBOL]\nc\n## D [constructor]\nd\n## [Ruby]\ne\n## F [__proto__]\nf\n## G [toString]\ng\n## H []\nh\n## I [a] b\ni\n';
    assert.deepEqual(shown(code, 'Python'), [
      ['C [COBOL]', 'Python', 'c\n'],
      ['D [constructor]', 'Python', 'd\n'],
      ['[Ruby]', 'Python', 'e\n'],
      ['F [__proto__]', 'Python', 'f\n'],
      ['G [toString]', 'Python', 'g\n'],
      ['H []', 'Python', 'h\n'],
      ['I [a] b', 'Python', 'i\n'],
    ]);
  });

  it('takes the last bracket when a title has several', () => {
    assert.deepEqual(shown('## Main [v2] [Perl]\nx\n'), [['Main [v2]', 'Perl', 'x\n']]);
  });

  it('reads CRLF and lone CR line breaks: no \\r in a title, each text with its own breaks', () => {
    const code = '## a.cs [C#]\r\nclass A {}\r\n\r\n## b.cs\r\nclass B {}\r\n## c\rold mac\r';
    assert.deepEqual(shown(code, 'C#'), [
      ['a.cs', 'C#', 'class A {}\r\n\r\n'],
      ['b.cs', 'C#', 'class B {}\r\n'],
      ['c', 'C#', 'old mac\r'],
    ]);
    assert.deepEqual(splitSections(code, 'C#').map((s) => s.heading), ['## a.cs [C#]\r\n', '## b.cs\r\n', '## c\r']);
  });

  it('trims spaces and tabs around a title, keeps those inside it', () => {
    assert.deepEqual(shown('##\t  two  words\t \nx'), [['two  words', 'Ruby', 'x']]);
  });

  it('makes text before the first heading an untitled section, unless it is blank', () => {
    assert.deepEqual(shown('require "set"\n\n## main\nx\n'), [['', 'Ruby', 'require "set"\n\n'], ['main', 'Ruby', 'x\n']]);
    assert.deepEqual(shown(' \n\t\n\n## main\nx\n'), [['main', 'Ruby', 'x\n']]);
    assert.equal(sectionTitleOf(splitSections('x\n## y\n', 'Ruby')[0]), 'Untitled');
    assert.equal(sectionTitleOf(splitSections('x\n## y\n', 'Ruby')[1]), 'y');
  });

  it('gives an empty section an empty text, and a heading on the last line one too', () => {
    assert.deepEqual(shown('## empty\n## next\nx\n## last'), [['empty', 'Ruby', ''], ['next', 'Ruby', 'x\n'], ['last', 'Ruby', '']]);
    assert.deepEqual(shown('## last\n'), [['last', 'Ruby', '']]);
  });

  it('gives a long line of spaces after ## back at once (no backtracking)', () => {
    const line = `## a${' '.repeat(200_000)}b [${' '.repeat(200_000)}`;
    const started = Date.now();
    assert.equal(splitSections(`${line}\nx`, 'Ruby')[0].text, 'x');
    // Backtracking over 200,000 spaces would take minutes; 5 s is room for a loaded machine.
    assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
  });

  describe('properties', () => {
    // Lines built from what matters: heading markers, titles, brackets with and without a language, blanks, breaks.
    const join = (parts: string[]): string => parts.join('');
    const bit = fc.constantFrom(' ', '\t', 'x', 'user.rb', '[', ']', '#', 'é', '\u00a0', '\u2028');
    const heading = fc.tuple(
      fc.constantFrom('## ', '##\t', '##', '###', ' ## '),
      fc.array(bit, { maxLength: 4 }).map(join),
      fc.constantFrom('', ' [cs]', ' [C++]', '\t[ruby] ', ' [ vb ]', ' [COBOL]', ' [constructor]', ' [__proto__]', '[Bash]', ' []'),
      fc.constantFrom('', ' ', '\t'),
    ).map(join);
    const line = fc.oneof(heading, fc.array(bit, { maxLength: 6 }).map(join));
    const lines = fc.tuple(fc.array(fc.tuple(line, fc.constantFrom('\n', '\r\n', '\r')).map(join), { maxLength: 8 }), fc.option(line))
      .map(([ended, last]) => ended.join('') + (last ?? ''));
    const code = fc.oneof(lines, fc.string({ unit: 'binary' }));
    const language = fc.constantFrom('Ruby', 'ruby', 'COBOL', '');

    it('gives back the whole code: the blank lead, then every heading line and text in order', () => {
      fc.assert(fc.property(code, language, (c, lang) => {
        const sections = splitSections(c, lang);
        assert.ok(sections.length >= 1);
        assert.equal(joined(c, sections), c);
        assert.equal(c.slice(0, c.length - sections.map((s) => s.heading + s.text).join('').length).trim(), '', 'only a blank lead is left out');
      }), { numRuns: 2000 });
    });

    it('never puts a heading line in a section\'s text, nor a line break in a title', () => {
      fc.assert(fc.property(code, language, (c, lang) => {
        for (const s of splitSections(c, lang)) {
          assert.equal(hasSections(splitSections(s.text, lang)), false, JSON.stringify(s));
          assert.ok(!/[\r\n]/.test(s.title) && s.title === s.title.replace(/^[ \t]+|[ \t]+$/g, ''), JSON.stringify(s.title));
          assert.equal(s.heading === '', s.title === '');
        }
      }), { numRuns: 2000 });
    });
  });
});
