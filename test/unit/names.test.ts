// How codes and refactorings are named wherever they are shown: one rule for a missing title and
// a missing author (the tree, the code view, Go to Code, the CLI and the service's pages use it).
import * as assert from 'node:assert/strict';
import { authorOf, titleOf } from '../../src/api/names';

describe('names', () => {
  it('shows the title, or says which code or refactoring it is when the title is empty', () => {
    assert.equal(titleOf({ id: 20, title: 'Clamp a value' }), 'Clamp a value');
    assert.equal(titleOf({ id: 20, title: '' }), 'Code #20');
    assert.equal(titleOf({ id: 81, codeId: 20, title: '' }), 'Refactoring #81');
    assert.equal(titleOf({ id: 81, codeId: 20, title: 'Use min/max' }), 'Use min/max');
  });

  it('names the author as posted first, then the registered user, then by id, else anonymous', () => {
    assert.equal(authorOf({ userId: 7, userName: 'ana', user: { name: 'Ana B.' } }), 'ana', 'the name the refactoring was posted under');
    assert.equal(authorOf({ userId: 7, userName: '', user: { name: 'Ana B.' } }), 'Ana B.');
    assert.equal(authorOf({ userId: 7, user: { name: 'Ana B.' } }), 'Ana B.', 'a code names its author only through its user');
    assert.equal(authorOf({ userId: 7 }), 'user #7', 'the single-code response nests no user');
    assert.equal(authorOf({ userId: null, userName: 'guest' }), 'guest', 'an anonymous author who left a name');
    assert.equal(authorOf({ userId: null, userName: '' }), 'anonymous');
    assert.equal(authorOf({ userId: null }), 'anonymous');
  });
});
