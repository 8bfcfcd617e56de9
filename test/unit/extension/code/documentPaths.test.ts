// Virtual document paths: built from numeric ids only, with a file extension VS Code knows for each
// service language, and read back strictly (anything else is not ours).
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { SERVICE_LANGUAGES } from '../../../../src/core/languages';
import { fileExtensionOf } from '../../../../src/core/languages';
import {
  documentPath, documentPathOfQuery, namedQuery, parseDocumentPath, serviceOfQuery, serviceQuery, type DocumentTarget,
} from '../../../../src/extension/code/documentPaths';
import { namedPath } from '../../../../src/extension/common/labels';

describe('documentPaths', () => {
  it('names codes, refactorings and selections by their ids', () => {
    assert.equal(documentPath({ kind: 'code', codeId: 42 }, 'Ruby'), '/codes/42/code.rb');
    assert.equal(documentPath({ kind: 'refactor', codeId: 42, refactorId: 7 }, 'c#'), '/codes/42/refactors/7.cs');
    assert.equal(documentPath({ kind: 'selection', id: 3 }, 'VB.NET'), '/selections/3.vb');
  });

  it('has an extension for every service language, any lettercase, and txt for others', () => {
    const expected = ['rb', 'php', 'js', 'as', 'java', 'c', 'cpp', 'cs', 'vb', 'py', 'pl', 'lisp', 'erl', 'hs', 'sh', 'pas'];
    assert.deepEqual(SERVICE_LANGUAGES.map(fileExtensionOf), expected);
    assert.deepEqual(SERVICE_LANGUAGES.map((l) => fileExtensionOf(l.toUpperCase())), expected);
    assert.equal(fileExtensionOf('COBOL'), 'txt');
    assert.equal(fileExtensionOf('../../etc'), 'txt');
  });

  it('refuses ids that are not whole numbers from 1', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1]) {
      assert.throws(() => documentPath({ kind: 'code', codeId: bad }, 'Ruby'), RangeError);
      assert.throws(() => documentPath({ kind: 'refactor', codeId: 1, refactorId: bad }, 'Ruby'), RangeError);
      assert.throws(() => documentPath({ kind: 'selection', id: bad }, 'Ruby'), RangeError);
    }
  });

  it('reads back every path it builds', () => {
    const id = fc.integer({ min: 1, max: 1e12 });
    const target: fc.Arbitrary<DocumentTarget> = fc.oneof(
      id.map((codeId) => ({ kind: 'code' as const, codeId })),
      fc.tuple(id, id).map(([codeId, refactorId]) => ({ kind: 'refactor' as const, codeId, refactorId })),
      id.map((n) => ({ kind: 'selection' as const, id: n })),
    );
    fc.assert(fc.property(target, fc.constantFrom(...SERVICE_LANGUAGES, 'Unknown'), (t, language) => {
      assert.deepEqual(parseDocumentPath(documentPath(t, language)), t);
    }), { numRuns: 300 });
  });

  it('reads nothing else', () => {
    for (const path of ['/codes/42', '/codes/42/code', '/codes/x/code.rb', '/codes/42/code.rb/..', '/codes/42/refactors/7',
      '/codes/42/refactors/seven.rb', '/codes/-1/code.rb', '/codes/0/code.rb', '/codes/1/refactors/0.rb', '/selections/0.rb', '/selections/1', '//codes/1/code.rb', '/codes/1/code.r b', '']) {
      assert.equal(parseDocumentPath(path), undefined, path);
    }
  });

  it('names a document\'s service in its query and reads exactly that service back', () => {
    for (const service of ['sample', 'http://127.0.0.1:3000/', 'https://svc.test/api/?a=1&b=2#x', 'http://h/é ü']) {
      assert.equal(serviceOfQuery(serviceQuery(service)), service, service);
    }
    fc.assert(fc.property(fc.string({ minLength: 1 }), (service) => {
      assert.equal(serviceOfQuery(serviceQuery(service)), service);
    }), { numRuns: 300 });
    for (const query of ['', 'service=', 'other=sample', 'service=a&service=b']) {
      assert.equal(serviceOfQuery(query), undefined, query);
    }
  });

  it('names a compare entry\'s path as a person reads it, one segment whatever the title holds', () => {
    assert.equal(namedPath('Refactoring #81 by bobby, rated 4.5 (2 votes)'), '/Refactoring #81 by bobby, rated 4.5 (2 votes)');
    assert.equal(namedPath('../../etc/passwd by a\\b, not rated'), '/.. .. etc passwd by a b, not rated');
    assert.equal(namedPath('a\u0000b\nc\u202Ed\u2028e'), '/a b c d e', 'control, bidi and line separators');
    assert.equal(namedPath(' \t/ '), '/_');
    const long = namedPath('x'.repeat(500));
    assert.equal([...long].length, 121);
    assert.ok(long.endsWith('…'));
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (name) => {
      const path = namedPath(name);
      assert.ok(path.startsWith('/') && !path.slice(1).includes('/') && !/[\\\p{Cc}]/u.test(path), JSON.stringify(path));
    }), { numRuns: 300 });
  });

  it('carries a named document\'s own path in its query and reads exactly one back', () => {
    const query = namedQuery(serviceQuery('https://example.org/api'), '/codes/42/refactors/7.rb');
    assert.equal(documentPathOfQuery(query), '/codes/42/refactors/7.rb');
    assert.equal(serviceOfQuery(query), 'https://example.org/api');
    assert.deepEqual(parseDocumentPath(documentPathOfQuery(query)!), { kind: 'refactor', codeId: 42, refactorId: 7 });
    assert.equal(documentPathOfQuery(serviceQuery('sample')), undefined);
    assert.equal(documentPathOfQuery('doc=%2Fcodes%2F1%2Fcode.rb&doc=%2Fcodes%2F2%2Fcode.rb'), undefined);
  });
});
