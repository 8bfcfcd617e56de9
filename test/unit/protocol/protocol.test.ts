// The code view's message protocol: what each side accepts from the other. A webview runs pages
// strangers wrote into, so anything malformed must be dropped, and nothing unknown passed through.

import * as assert from 'node:assert/strict';
import { inspect } from 'node:util';
import fc from 'fast-check';
import type { Code, Refactor } from '../../../src/core/model';
import { buildCodeViewModel } from '../../../src/extension/code/view/html';
import {
  parseCodeViewState, parseToExtension, parseToWebview, type CodeViewModel, type ToExtension, type ToWebview,
} from '../../../src/protocol/codeView';

const WRONG_NUMBERS: unknown[] = ['1', 1.5, -1, NaN, Infinity, null, undefined, {}, [], true, 2 ** 60];
/** Ids are whole numbers from 1 (src/core/ids.ts): 0 is no id, though it is a section index. */
const WRONG_IDS: unknown[] = [...WRONG_NUMBERS, 0];
const WRONG_STRINGS: unknown[] = [1, null, undefined, {}, [], true];

function sampleCode(): CodeViewModel {
  return {
    id: 12, title: 'Sum', language: 'Ruby', highlightLanguage: 'ruby', permalink: 'sum', code: 'a\n', comment: '',
    createdAt: '2007-11-06T13:14:22.000Z', updatedAt: null, refactorsCount: 1, userId: null, userName: '',
    userWebsite: '', pageUrl: 'http://127.0.0.1:1/codes/12-sum',
    refactors: [{
      id: 3, codeId: 12, title: '', language: 'ruby', highlightLanguage: 'ruby', code: 'b', comment: 'better',
      createdAt: null, rating: 2.5, ratingsCount: 4, userId: 7, userName: 'ana', userWebsite: 'javascript:alert(1)',
    }],
  };
}

/** `msg` with `field` (a dotted path) set to `value`, or removed when value is undefined. */
function withField(msg: object, field: string, value: unknown): unknown {
  const copy = structuredClone(msg) as Record<string, unknown>;
  const keys = field.split('.');
  let target: Record<string, unknown> = copy;
  for (const k of keys.slice(0, -1)) target = target[k] as Record<string, unknown>;
  const last = keys[keys.length - 1];
  if (value === undefined) delete target[last];
  else target[last] = value;
  return copy;
}

describe('parseToExtension (webview → extension)', () => {
  const valid: ToExtension[] = [
    { type: 'ready' },
    { type: 'retry' },
    { type: 'refactor' },
    { type: 'insert', target: { kind: 'code', id: 1 } },
    { type: 'insert', target: { kind: 'refactor', id: 1 } },
    { type: 'copy', target: { kind: 'refactor', id: 42 } },
    { type: 'insert', target: { kind: 'code', id: 1, section: 0 } },
    { type: 'insert', target: { kind: 'refactor', id: 3, section: 2 } },
    { type: 'copy', target: { kind: 'code', id: 1, section: 7 } },
    { type: 'openDocument', target: { kind: 'code', id: 9 } },
    { type: 'compareWithOriginal', refactorId: 5 },
    { type: 'openExternal', url: 'https://example.org/a?b=c#d' },
    { type: 'openExternal', url: 'HTTP://EXAMPLE.ORG' },
    { type: 'setOrder', order: 'bestRated' },
    { type: 'setOrder', order: 'newest' },
    { type: 'setOrder', order: 'oldest' },
  ];

  it('accepts every message in its valid shape, unchanged', () => {
    for (const msg of valid) assert.deepEqual(parseToExtension(structuredClone(msg)), msg);
  });

  it('rejects what is not a message', () => {
    for (const v of [undefined, null, 'ready', 1, [], [{ type: 'ready' }], {}, { type: 'READY' }, { type: 'unknown' },
      { type: 'show' }, { type: 'reveal', refactorId: 1 }, { kind: 'ready' }]) {
      assert.equal(parseToExtension(v), undefined, JSON.stringify(v));
    }
  });

  it('rejects a target with a missing or wrong-typed kind or id', () => {
    for (const type of ['insert', 'copy', 'openDocument'] as const) {
      const msg = { type, target: { kind: 'code', id: 1 } };
      assert.equal(parseToExtension(withField(msg, 'target', undefined)), undefined);
      for (const t of [null, 'code', 1, []]) assert.equal(parseToExtension(withField(msg, 'target', t)), undefined);
      for (const kind of [undefined, 'Code', 'user', '', 1, null]) {
        assert.equal(parseToExtension(withField(msg, 'target.kind', kind)), undefined, `${type} kind ${String(kind)}`);
      }
      for (const id of WRONG_IDS) {
        assert.equal(parseToExtension(withField(msg, 'target.id', id)), undefined, `${type} id ${String(id)}`);
      }
    }
  });

  it('rejects Insert or Copy of a section unless the section is a non-negative safe integer', () => {
    for (const type of ['insert', 'copy'] as const) {
      for (const section of WRONG_NUMBERS.filter((x) => x !== undefined)) {
        const msg = { type, target: { kind: 'code', id: 1, section } };
        assert.equal(parseToExtension(msg), undefined, `${type} section ${inspect(section)}`);
      }
    }
  });

  it('opens the whole block as a document even when the target names a section', () => {
    assert.deepEqual(parseToExtension({ type: 'openDocument', target: { kind: 'code', id: 9, section: 1 } }),
      { type: 'openDocument', target: { kind: 'code', id: 9 } });
  });

  it('rejects compareWithOriginal without a valid refactor id', () => {
    for (const id of WRONG_IDS) {
      assert.equal(parseToExtension({ type: 'compareWithOriginal', refactorId: id }), undefined, String(id));
    }
  });

  it('rejects openExternal unless the URL is absolute http or https', () => {
    for (const url of [...WRONG_STRINGS, '', 'javascript:alert(1)', 'file:///etc/passwd', 'vscode://x/y',
      'command:workbench.action.quit', 'ms-msdt:/id', 'data:text/html,x', '//example.org', '/codes/1', 'example.org',
      'http//example.org']) {
      assert.equal(parseToExtension({ type: 'openExternal', url }), undefined, String(url));
    }
  });

  it('rejects setOrder unless it names one of the orders, spelt as the setting spells it', () => {
    for (const order of [...WRONG_STRINGS, '', 'best', 'BestRated', 'newest ', 'rating', '__proto__', 'toString']) {
      assert.equal(parseToExtension({ type: 'setOrder', order }), undefined, String(order));
    }
    assert.equal(parseToExtension({ type: 'setOrder' }), undefined);
    assert.deepEqual(parseToExtension({ type: 'setOrder', order: 'oldest', write: 'workspace' }), { type: 'setOrder', order: 'oldest' });
  });

  it('rejects star unless it names a block and says star or unstar with a boolean', () => {
    assert.deepEqual(parseToExtension({ type: 'star', target: { kind: 'refactor', id: 3 }, starred: true }),
      { type: 'star', target: { kind: 'refactor', id: 3 }, starred: true });
    assert.deepEqual(parseToExtension({ type: 'star', target: { kind: 'code', id: 1, section: 0 }, starred: false }),
      { type: 'star', target: { kind: 'code', id: 1 }, starred: false });
    for (const starred of [undefined, null, 'true', 1, 0, {}]) {
      assert.equal(parseToExtension({ type: 'star', target: { kind: 'code', id: 1 }, starred }), undefined, inspect(starred));
    }
    for (const target of [undefined, null, { kind: 'user', id: 1 }, { kind: 'code', id: -1 }, { kind: 'code' }]) {
      assert.equal(parseToExtension({ type: 'star', target, starred: true }), undefined, JSON.stringify(target));
    }
  });

  it('ignores extra fields and does not pass them on', () => {
    const parsed = parseToExtension({ type: 'insert', target: { kind: 'code', id: 1, evil: 1 }, command: 'rm -rf' });
    assert.deepEqual(parsed, { type: 'insert', target: { kind: 'code', id: 1 } });
    const section = parseToExtension({ type: 'copy', target: { kind: 'code', id: 1, section: 2, evil: 1 } });
    assert.deepEqual(section, { type: 'copy', target: { kind: 'code', id: 1, section: 2 } });
    const polluted = parseToExtension(JSON.parse('{"type":"ready","__proto__":{"polluted":true}}'));
    assert.deepEqual(polluted, { type: 'ready' });
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
});

describe('parseToWebview (extension → webview)', () => {
  const valid: ToWebview[] = [
    { type: 'show', code: sampleCode(), order: 'bestRated', starred: [] },
    { type: 'show', code: sampleCode(), order: 'oldest', starred: [{ kind: 'code', id: 1 }], revealRefactorId: 3 },
    { type: 'show', code: { ...sampleCode(), refactors: [] }, order: 'newest', starred: [], note: 'kept' },
    { type: 'stars', starred: [] },
    { type: 'stars', starred: [{ kind: 'refactor', id: 3 }, { kind: 'code', id: 1 }] },
    { type: 'loading' },
    { type: 'loading', codeId: 12 },
    { type: 'error', message: 'http://x/codes/1.xml: HTTP 404 Not Found' },
    { type: 'error', message: '', codeId: 1 },
    { type: 'reveal', refactorId: 3 },
    { type: 'order', order: 'bestRated' },
    { type: 'order', order: 'newest' },
  ];

  it('accepts every message in its valid shape, unchanged', () => {
    for (const msg of valid) assert.deepEqual(parseToWebview(structuredClone(msg)), msg);
  });

  it('rejects unknown types and non-objects', () => {
    for (const v of [undefined, null, 'show', 7, [], {}, { type: 'Show' }, { type: 'ready' }, { type: 'insert' }]) {
      assert.equal(parseToWebview(v), undefined, JSON.stringify(v));
    }
  });

  it('rejects a show or stars whose starred blocks are missing or malformed, and a note that is not text', () => {
    const msg = { type: 'show', code: sampleCode(), order: 'bestRated', starred: [] };
    for (const starred of [undefined, null, {}, 'code', [null], [{ kind: 'code' }], [{ kind: 'user', id: 1 }], [{ kind: 'code', id: 1.5 }]]) {
      assert.equal(parseToWebview({ ...msg, starred }), undefined, `show starred=${JSON.stringify(starred)}`);
      assert.equal(parseToWebview({ type: 'stars', starred }), undefined, `stars starred=${JSON.stringify(starred)}`);
    }
    for (const note of [null, 1, {}, []]) assert.equal(parseToWebview({ ...msg, note }), undefined, `note=${JSON.stringify(note)}`);
  });

  it('rejects a show whose code lacks any field or has it with the wrong type', () => {
    const msg = { type: 'show', code: sampleCode(), order: 'bestRated', starred: [] };
    const stringFields = ['title', 'language', 'highlightLanguage', 'permalink', 'code', 'comment', 'userName',
      'userWebsite', 'pageUrl'];
    for (const f of stringFields) {
      for (const v of WRONG_STRINGS) assert.equal(parseToWebview(withField(msg, `code.${f}`, v)), undefined, `${f}=${inspect(v)}`);
    }
    for (const v of WRONG_IDS) assert.equal(parseToWebview(withField(msg, 'code.id', v)), undefined, `id=${inspect(v)}`);
    for (const f of ['refactorsCount', 'userId']) {
      for (const v of WRONG_NUMBERS.filter((x) => x !== null)) {
        assert.equal(parseToWebview(withField(msg, `code.${f}`, v)), undefined, `${f}=${inspect(v)}`);
      }
    }
    for (const f of ['createdAt', 'updatedAt']) {
      for (const v of [undefined, 'yesterday', '', 0, {}]) {
        assert.equal(parseToWebview(withField(msg, `code.${f}`, v)), undefined, `${f}=${inspect(v)}`);
      }
    }
    for (const v of [undefined, null, {}, 'x', [null], [{}]]) {
      assert.equal(parseToWebview(withField(msg, 'code.refactors', v)), undefined, `refactors=${JSON.stringify(v)}`);
    }
    assert.equal(parseToWebview({ type: 'show' }), undefined);
    assert.equal(parseToWebview({ type: 'show', code: null }), undefined);
  });

  it('rejects a show when any refactoring has a missing or wrong-typed field', () => {
    const msg = { type: 'show', code: sampleCode(), order: 'bestRated', starred: [] };
    const r = sampleCode().refactors[0];
    for (const f of Object.keys(r)) {
      assert.equal(parseToWebview(withField(msg, `code.refactors.0.${f}`, undefined)), undefined, `without ${f}`);
      assert.equal(parseToWebview(withField(msg, `code.refactors.0.${f}`, {})), undefined, `${f}={}`);
    }
    for (const v of ['2', NaN, Infinity]) {
      assert.equal(parseToWebview(withField(msg, 'code.refactors.0.rating', v)), undefined, `rating=${inspect(v)}`);
    }
    assert.notEqual(parseToWebview(withField(msg, 'code.refactors.0.rating', -1.5)), undefined, 'ratings are any finite number');
  });

  it('rejects wrong optional and required ids of the other messages', () => {
    for (const v of WRONG_IDS.filter((x) => x !== undefined)) {
      assert.equal(parseToWebview({ type: 'show', code: sampleCode(), order: 'newest', revealRefactorId: v }), undefined, inspect(v));
      assert.equal(parseToWebview({ type: 'loading', codeId: v }), undefined, inspect(v));
      assert.equal(parseToWebview({ type: 'error', message: 'x', codeId: v }), undefined, inspect(v));
    }
    for (const v of WRONG_IDS) assert.equal(parseToWebview({ type: 'reveal', refactorId: v }), undefined, inspect(v));
    for (const v of WRONG_STRINGS) assert.equal(parseToWebview({ type: 'error', message: v }), undefined, inspect(v));
  });

  it('rejects a show or an order message without one of the orders', () => {
    for (const order of [...WRONG_STRINGS, '', 'best', 'Newest', 'rating']) {
      assert.equal(parseToWebview({ type: 'show', code: sampleCode(), order }), undefined, `show ${String(order)}`);
      assert.equal(parseToWebview({ type: 'order', order }), undefined, `order ${String(order)}`);
    }
    assert.equal(parseToWebview({ type: 'show', code: sampleCode() }), undefined, 'a show says its order');
  });

  it('ignores extra fields and does not pass them on', () => {
    const code = { ...sampleCode(), extra: '<img src=x onerror=alert(1)>' };
    const parsed = parseToWebview({ type: 'show', code, order: 'newest', starred: [], html: '<script>' });
    assert.deepEqual(parsed, { type: 'show', code: sampleCode(), order: 'newest', starred: [] });
    assert.deepEqual(parseToWebview({ type: 'order', order: 'oldest', code }), { type: 'order', order: 'oldest' });
  });

  it('keeps hostile strings as data: they are the webview\'s to render as text', () => {
    const hostile = '</pre><script>alert(1)</script>\u0000\u2028';
    const parsed = parseToWebview(withField({ type: 'show', code: sampleCode(), order: 'bestRated', starred: [] }, 'code.title', hostile));
    assert.equal(parsed?.type === 'show' && parsed.code.title, hostile);
  });
});

describe('buildCodeViewModel output and the protocol', () => {
  const date = fc.option(fc.date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }));
  const count = fc.option(fc.integer({ min: -5, max: 10_000 }));
  // Ids as the decoder lets them through (src/core/ids.ts).
  const id = fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER });
  const refactor: fc.Arbitrary<Refactor> = fc.record({
    id, codeId: id, title: fc.string(), language: fc.constantFrom('ruby', 'Bash', 'COBOL', ''),
    code: fc.string(), comment: fc.string(), createdAt: date, rating: fc.option(fc.double()), ratingsCount: count,
    userId: fc.option(id), userName: fc.string(), userWebsite: fc.string(),
  });
  const code: fc.Arbitrary<Code> = fc.record({
    id, title: fc.string(), language: fc.string(), permalink: fc.string(), code: fc.string(),
    comment: fc.string(), createdAt: date, updatedAt: date, refactorsCount: count, trackbackUrl: fc.string(),
    userId: fc.option(id), refactors: fc.array(refactor, { maxLength: 4 }),
  });

  it('property: whatever the decoder produced, the webview accepts the show message after postMessage', () => {
    fc.assert(fc.property(code, (c) => {
      const model = buildCodeViewModel(c, 'https://example.org/codes/1');
      const sent = structuredClone({ type: 'show', code: model, order: 'bestRated', starred: [] });
      assert.deepEqual(parseToWebview(sent), { type: 'show', code: model, order: 'bestRated', starred: [] });
    }), { numRuns: 200 });
  });
});

describe('parseCodeViewState', () => {
  it('reads back what the webview persisted, and nothing else', () => {
    assert.deepEqual(parseCodeViewState({ codeId: 4 }), { codeId: 4 });
    assert.deepEqual(parseCodeViewState({ codeId: 4, other: 1 }), { codeId: 4 });
    for (const v of [undefined, null, {}, { codeId: '4' }, { codeId: 1.5 }, { codeId: -1 }, 4, []]) {
      assert.equal(parseCodeViewState(v), undefined, JSON.stringify(v));
    }
  });
});
