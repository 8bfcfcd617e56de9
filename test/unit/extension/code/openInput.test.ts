// What Open Code… and Go to Code… accept: ids, code_refs, page and XML URLs, with a refactoring's
// anchor; anything else is refused rather than guessed at.
import * as assert from 'node:assert/strict';
import { parseOpenInput } from '../../../../src/extension/code/openInput';

describe('parseOpenInput', () => {
  it('takes an id or a code_ref, trimmed', () => {
    assert.deepEqual(parseOpenInput('42'), { ref: '42', codeId: 42 });
    assert.deepEqual(parseOpenInput('  42-some-title\n'), { ref: '42-some-title', codeId: 42 });
  });

  it('takes page and XML URLs under any path prefix', () => {
    assert.deepEqual(parseOpenInput('https://example.org/codes/42-some-title'), { ref: '42-some-title', codeId: 42 });
    assert.deepEqual(parseOpenInput('http://127.0.0.1:8080/api/codes/42-some-title.xml'), { ref: '42-some-title', codeId: 42 });
    assert.deepEqual(parseOpenInput('http://h/codes/7/'), { ref: '7', codeId: 7 });
  });

  it("takes a refactoring's anchor from a page URL", () => {
    assert.deepEqual(parseOpenInput('https://example.org/codes/42-t#refactor-9'), { ref: '42-t', codeId: 42, refactorId: 9 });
    // Another anchor still names the code; only the service's refactoring anchors scroll.
    assert.deepEqual(parseOpenInput('https://example.org/codes/42-t#comments'), { ref: '42-t', codeId: 42 });
  });

  it('refuses everything else', () => {
    for (const input of ['', 'abc', '-1', '4 2', 'ftp://h/codes/1', 'https://h/users/1', 'https://h/codes/x', 'javascript:alert(1)',
      '1/2', '99999999999999999999']) {
      assert.equal(parseOpenInput(input), undefined, input);
    }
  });
});
