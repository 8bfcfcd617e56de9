// Language mapping: the document language of Open as Document / compares, the catalog filter that
// follows the editor, and the highlighter the code view uses.

import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  HIGHLIGHTERS, SERVICE_LANGUAGES, canonicalServiceLanguage, fileExtensionOf, isServiceLanguage, languageSlug, highlightJsLanguage, toServiceLanguage, toVsCodeLanguageId,
} from '../../../src/core/languages';

// Language ids contributed by the extensions VS Code ships (microsoft/vscode, extensions/*/package.json)
// that matter here: an id outside this set would leave a document without a language in plain VS Code.
const VSCODE_BUILT_IN = new Set([
  'plaintext', 'ruby', 'php', 'javascript', 'javascriptreact', 'java', 'c', 'cpp', 'cuda-cpp', 'csharp', 'vb',
  'python', 'perl', 'perl6', 'shellscript', 'clojure', 'typescript', 'fsharp', 'go', 'lua', 'rust', 'sql',
]);

const EXPECTED: ReadonlyArray<[string, string, string]> = [
  // service, VS Code built-in id, highlight.js name
  ['Ruby', 'ruby', 'ruby'],
  ['PHP', 'php', 'php'],
  ['JavaScript', 'javascript', 'javascript'],
  ['ActionScript', 'plaintext', 'actionscript'],
  ['Java', 'java', 'java'],
  ['C', 'c', 'c'],
  ['C++', 'cpp', 'cpp'],
  ['C#', 'csharp', 'csharp'],
  ['VB.NET', 'vb', 'vbnet'],
  ['Python', 'python', 'python'],
  ['Perl', 'perl', 'perl'],
  ['Lisp', 'plaintext', 'lisp'],
  ['Erlang', 'plaintext', 'erlang'],
  ['Haskell', 'plaintext', 'haskell'],
  ['Bash', 'shellscript', 'bash'],
  ['Delphi', 'plaintext', 'delphi'],
];

describe('toVsCodeLanguageId', () => {
  it('maps every service language to the expected built-in id', () => {
    assert.deepEqual(EXPECTED.map(([s]) => s), [...SERVICE_LANGUAGES], 'the table covers every service language');
    for (const [service, id] of EXPECTED) assert.equal(toVsCodeLanguageId(service), id, service);
  });

  it('only ever answers ids VS Code ships when no installed languages are given', () => {
    for (const service of SERVICE_LANGUAGES) assert.ok(VSCODE_BUILT_IN.has(toVsCodeLanguageId(service)), service);
  });

  it('ignores lettercase and surrounding spaces (the service sends `ruby` and `Ruby`)', () => {
    assert.equal(toVsCodeLanguageId('ruby'), 'ruby');
    assert.equal(toVsCodeLanguageId('RUBY'), 'ruby');
    assert.equal(toVsCodeLanguageId(' Bash\n'), 'shellscript');
    assert.equal(toVsCodeLanguageId('vb.net'), 'vb');
    assert.equal(toVsCodeLanguageId('c#'), 'csharp');
    assert.equal(toVsCodeLanguageId('c++'), 'cpp');
  });

  it('answers plaintext for names it does not know', () => {
    for (const name of ['', 'COBOL', 'TypeScript', 'Rubyist', 'C+', 'VB6', 'plaintext']) {
      assert.equal(toVsCodeLanguageId(name), 'plaintext', JSON.stringify(name));
    }
  });

  it('treats names like Object.prototype members as unknown languages', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype']) {
      assert.equal(toVsCodeLanguageId(name), 'plaintext', name);
      assert.equal(toVsCodeLanguageId(name, new Set(['plaintext', name])), 'plaintext', name);
      assert.equal(toServiceLanguage(name), undefined, name);
      assert.equal(highlightJsLanguage(name), undefined, name);
      assert.equal(fileExtensionOf(name), 'txt', name);
      assert.equal(canonicalServiceLanguage(name), name, name);
      assert.equal(isServiceLanguage(name), false, name);
      assert.equal(languageSlug(name), name.toLowerCase(), name);
    }
  });

  it('knows a language by the slug the original service\'s URLs used for it', () => {
    assert.deepEqual(SERVICE_LANGUAGES.map(languageSlug), [
      'ruby', 'php', 'javascript', 'actionscript', 'java', 'c', 'cpp', 'cs', 'vb', 'python', 'perl', 'lisp',
      'erlang', 'haskell', 'bash', 'delphi',
    ]);
    for (const language of SERVICE_LANGUAGES) {
      assert.equal(canonicalServiceLanguage(languageSlug(language)), language, language);
      assert.equal(languageSlug(language.toUpperCase()), languageSlug(language), language);
    }
    assert.equal(canonicalServiceLanguage('CS'), 'C#');
    assert.equal(toVsCodeLanguageId('vb'), 'vb');
    assert.equal(languageSlug(' Objective C '), 'objective c', 'an unknown name goes in lower case');
  });

  it('prefers an installed extension\'s id where VS Code has none built in', () => {
    assert.equal(toVsCodeLanguageId('Delphi', new Set(['pascal', 'ruby'])), 'pascal');
    assert.equal(toVsCodeLanguageId('delphi', new Set(['objectpascal'])), 'objectpascal');
    assert.equal(toVsCodeLanguageId('Lisp', new Set(['lisp'])), 'lisp');
    assert.equal(toVsCodeLanguageId('Haskell', new Set(['haskell'])), 'haskell');
    assert.equal(toVsCodeLanguageId('Erlang', new Set(['erlang'])), 'erlang');
    assert.equal(toVsCodeLanguageId('ActionScript', new Set(['actionscript'])), 'actionscript');
  });

  it('falls back to the built-in answer when the preferred extension is not installed', () => {
    assert.equal(toVsCodeLanguageId('Delphi', new Set(['ruby', 'haskell'])), 'plaintext');
    assert.equal(toVsCodeLanguageId('Ruby', new Set(['pascal'])), 'ruby');
    assert.equal(toVsCodeLanguageId('COBOL', new Set(['cobol'])), 'plaintext');
  });
});

describe('toServiceLanguage', () => {
  it('maps editor languages to the service\'s spelling', () => {
    const cases: Array<[string, string | undefined]> = [
      ['shellscript', 'Bash'], ['cpp', 'C++'], ['c', 'C'], ['vb', 'VB.NET'], ['csharp', 'C#'],
      ['javascript', 'JavaScript'], ['javascriptreact', 'JavaScript'], ['ruby', 'Ruby'], ['php', 'PHP'],
      ['java', 'Java'], ['python', 'Python'], ['perl', 'Perl'], ['pascal', 'Delphi'], ['haskell', 'Haskell'],
      ['erlang', 'Erlang'], ['commonlisp', 'Lisp'], ['actionscript', 'ActionScript'],
    ];
    for (const [id, service] of cases) assert.equal(toServiceLanguage(id), service, id);
  });

  it('answers undefined for languages the service does not offer', () => {
    for (const id of ['typescript', 'typescriptreact', 'plaintext', 'markdown', 'json', 'clojure', 'perl6', '', 'Ruby']) {
      assert.equal(toServiceLanguage(id), undefined, id);
    }
  });

  it('round-trips every service language through its VS Code id when VS Code knows it', () => {
    const installed = new Set(['pascal', 'commonlisp', 'erlang', 'haskell', 'actionscript']);
    for (const service of SERVICE_LANGUAGES) {
      assert.equal(toServiceLanguage(toVsCodeLanguageId(service, installed)), service, service);
    }
  });
});

describe('canonicalServiceLanguage', () => {
  it('spells a known language as the service lists it, and leaves others trimmed', () => {
    assert.equal(canonicalServiceLanguage('ruby'), 'Ruby');
    assert.equal(canonicalServiceLanguage('vb.net'), 'VB.NET');
    assert.equal(canonicalServiceLanguage('  php '), 'PHP');
    assert.equal(canonicalServiceLanguage(' Cobol '), 'Cobol');
  });
});

describe('highlightJsLanguage', () => {
  it('names a highlight.js grammar for every service language, case-insensitive', () => {
    for (const [service, , hljs] of EXPECTED) {
      assert.equal(highlightJsLanguage(service), hljs, service);
      assert.equal(highlightJsLanguage(service.toLowerCase()), hljs, service);
    }
    assert.equal(highlightJsLanguage('COBOL'), undefined);
  });

  it('names only grammars highlight.js 11 actually ships', () => {
    for (const name of HIGHLIGHTERS) {
      assert.doesNotThrow(() => require.resolve(`highlight.js/lib/languages/${name}`), name);
    }
  });

  it('names exactly the grammars the webview registers (src/webview/highlight.ts)', () => {
    const source = readFileSync(path.join(__dirname, '../../../../src/webview/highlight.ts'), 'utf8');
    const imported = [...source.matchAll(/from 'highlight\.js\/lib\/languages\/([\w-]+)'/g)].map((m) => m[1]);
    assert.deepEqual(new Set(imported), new Set(HIGHLIGHTERS));
  });
});
