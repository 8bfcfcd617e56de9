// The facts the code commands derive from a row: which rows count, and the page URL a person opens
// or copies (the XML URL without `.xml`, a refactoring by its anchor on its code's page).
import * as assert from 'node:assert/strict';
import type { Code } from '../../../../src/core/model';
import { codeIdOf, targetOf, itemOf, itemsOf, pageUrlOf, sectionsOf, snippetOf } from '../../../../src/extension/common/items';
import { titleOf } from '../../../../src/core/names';
import { aCode, aRefactor } from '../../../helpers/builders';

const code = aCode({ id: 42, title: 'Sum & <total>', code: 'x\n', refactorsCount: 1, userId: 1 });
const refactor = aRefactor({ id: 7, codeId: 42, code: 'y\n' });

describe('items', () => {
  it('recognises code and refactoring rows by contextValue and payload, nothing else', () => {
    assert.deepEqual(itemOf({ contextValue: 'refactorBrowser.code', code }), { kind: 'code', code });
    assert.deepEqual(itemOf({ contextValue: 'refactorBrowser.refactor', refactor }), { kind: 'refactor', refactor });
    for (const other of [undefined, null, 42, 'code', { contextValue: 'refactorBrowser.tag', tag: 'x' },
      { contextValue: 'refactorBrowser.code' }, { contextValue: 'refactorBrowser.code', code: { id: '42' } }]) {
      assert.equal(itemOf(other), undefined, JSON.stringify(other));
    }
  });

  it('takes the selected rows when VS Code passes them, else the clicked one', () => {
    const a = { contextValue: 'refactorBrowser.code', code };
    const b = { contextValue: 'refactorBrowser.refactor', refactor };
    assert.equal(itemsOf(a, [a, b]).length, 2);
    assert.equal(itemsOf(a, undefined).length, 1);
    assert.equal(itemsOf(a, [a, { contextValue: 'refactorBrowser.root.tags' }]).length, 1);
  });

  it('gives each item its code, title and document', () => {
    assert.equal(codeIdOf({ kind: 'refactor', refactor }), 42);
    assert.equal(titleOf({ kind: 'refactor', refactor }), 'Refactoring #7');
    assert.deepEqual(targetOf({ kind: 'refactor', refactor }), { kind: 'refactor', codeId: 42, refactorId: 7 });
  });

  it('inserts and copies a section\'s own text in its own language, and the whole code without one', () => {
    const sectioned: Code = { ...code, code: '## model.rb\nclass A; end\n## Run it [Bash]\nruby model.rb\n' };
    const item = { kind: 'code', code: sectioned } as const;
    const [model, run] = sectionsOf(item);
    assert.deepEqual(snippetOf(item, run), { text: 'ruby model.rb\n', language: 'Bash', sectionTitle: 'Run it' });
    assert.deepEqual(snippetOf(item, model), { text: 'class A; end\n', language: 'Ruby', sectionTitle: 'model.rb' });
    assert.deepEqual(snippetOf(item), { text: sectioned.code, language: 'Ruby' });
    // A refactoring is code too.
    assert.deepEqual(sectionsOf({ kind: 'refactor', refactor: { ...refactor, code: '## a\nx\n' } }).map((s) => s.text), ['x\n']);
  });

  it('builds page URLs under the base path', () => {
    assert.equal(pageUrlOf({ kind: 'code', code }, 'https://example.org/api/'), 'https://example.org/api/codes/42-sum-total');
    assert.equal(pageUrlOf({ kind: 'code', code: { ...code, permalink: '' } }, 'http://h:8080'), 'http://h:8080/codes/42');
    assert.equal(pageUrlOf({ kind: 'refactor', refactor }, 'https://example.org'), 'https://example.org/codes/42#refactor-7');
  });
});
