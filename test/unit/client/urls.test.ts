// URL building for every endpoint of read-only-xml-api.md and code references read from user input,
// including what a real HTTP client and server make of the built paths.
import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { ApiError, withoutCredentials } from '../../../src/core/errors';
import {
  codeRefOf, codeUrl, normalizeBaseUrl, pageUrl, parseCodeRef, popularCodesUrl, recentCodesUrl,
  recentRefactoringsUrl, tagCodesUrl,
} from '../../../src/client/urls';

const BASE = 'http://svc.test/api';

function throwsInvalidUrl(fn: () => unknown, url: string, reason: RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof ApiError, `expected an ApiError, got ${String(e)}`);
    assert.equal(e.kind, 'invalid-url');
    assert.equal(e.url, url);
    assert.match(e.reason, reason);
    return true;
  });
}

describe('urls: base address', () => {
  it('treats a base with and without a trailing slash alike, path prefix kept', () => {
    for (const base of ['http://svc.test/api', 'http://svc.test/api/', '  http://svc.test/api?x=1#top ']) {
      assert.equal(normalizeBaseUrl(base).href, 'http://svc.test/api/');
    }
    assert.equal(normalizeBaseUrl('https://svc.test').href, 'https://svc.test/');
    assert.equal(normalizeBaseUrl('HTTPS://Svc.Test:8443/a/b').href, 'https://svc.test:8443/a/b/');
    assert.equal(recentCodesUrl('http://svc.test/api'), recentCodesUrl('http://svc.test/api/'));
    assert.equal(recentCodesUrl(new URL('http://svc.test/api')), 'http://svc.test/api/codes/recent.xml');
  });

  it('refuses anything but http and https', () => {
    for (const base of ['ftp://svc.test/', 'file:///etc/passwd', 'javascript:alert(1)', 'vscode://x/y']) {
      throwsInvalidUrl(() => normalizeBaseUrl(base), base, /only http and https/);
    }
    for (const base of ['', 'svc.test/api', 'http//svc.test', 'http://']) {
      throwsInvalidUrl(() => normalizeBaseUrl(base), base, /not a valid URL/);
    }
    throwsInvalidUrl(() => recentCodesUrl('mailto:a@b.c'), 'mailto:a@b.c', /only http and https/);
  });

  it('refuses a base with a user name or password, and never repeats them', () => {
    for (const [base, shown] of [
      ['http://ana:s3cret@svc.test/api', 'http://***@svc.test/api'],
      ['https://token-x9@svc.test/', 'https://***@svc.test/'],
      ['http://:s3cret@svc.test/', 'http://***@svc.test/'],
    ]) {
      throwsInvalidUrl(() => normalizeBaseUrl(base), shown, /^a base URL must not contain a user name or password$/);
      assert.throws(() => recentCodesUrl(base), (e: unknown) => e instanceof ApiError && !/s3cret|token-x9|ana/.test(e.message));
    }
  });

  it('masks the credentials of every URL in a text', () => {
    assert.equal(withoutCredentials('via http://ana:s3cret@proxy:8080/ to https://t@svc.test/x?u=a@b'),
      'via http://***@proxy:8080/ to https://***@svc.test/x?u=a@b');
    assert.equal(withoutCredentials('mail ana@svc.test, see http://svc.test/a@b'), 'mail ana@svc.test, see http://svc.test/a@b');
  });
});

describe('urls: endpoints', () => {
  it('builds the list endpoints with and without a language', () => {
    assert.equal(recentCodesUrl(BASE), 'http://svc.test/api/codes/recent.xml');
    assert.equal(recentCodesUrl(BASE, { language: 'Ruby' }), 'http://svc.test/api/codes/recent/ruby.xml');
    assert.equal(popularCodesUrl(BASE), 'http://svc.test/api/codes/popular.xml');
    assert.equal(popularCodesUrl(BASE, { language: 'JavaScript' }), 'http://svc.test/api/codes/popular/javascript.xml');
    assert.equal(recentRefactoringsUrl(BASE), 'http://svc.test/api/refactorings/recent.xml');
    assert.equal(recentRefactoringsUrl(BASE, { language: 'Bash' }), 'http://svc.test/api/refactorings/recent/bash.xml');
    assert.equal(tagCodesUrl(BASE, 'sort', { language: 'Ruby' }), 'http://svc.test/api/tags/sort/ruby.xml');
    assert.equal(tagCodesUrl(BASE, 'sort'), 'http://svc.test/api/tags/sort.xml');
    assert.equal(codeUrl(BASE, '42-some-title'), 'http://svc.test/api/codes/42-some-title.xml');
    assert.equal(codeUrl(BASE, 42), 'http://svc.test/api/codes/42.xml');
    assert.equal(codeUrl('https://svc.test', 0), 'https://svc.test/codes/0.xml');
  });

  it('sends the original service\'s language slugs: cs, cpp, vb, every other name lower-cased and percent-encoded', () => {
    const lang = (language: string): string => recentCodesUrl(BASE, { language }).slice(`${BASE}/codes/recent`.length);
    assert.equal(lang('C#'), '/cs.xml');
    assert.equal(lang('c#'), '/cs.xml');
    assert.equal(lang('C++'), '/cpp.xml');
    assert.equal(lang('VB.NET'), '/vb.xml');
    assert.equal(lang('JavaScript'), '/javascript.xml');
    assert.equal(lang('constructor'), '/constructor.xml');
    assert.equal(lang(' Python '), '/python.xml');
    assert.equal(lang('Objective C'), '/objective%20c.xml');
    assert.equal(lang(''), '.xml', 'an empty language means all languages');
    assert.equal(lang('   '), '.xml');
  });

  it('adds ?page=N only after the first page and refuses other pages', () => {
    assert.equal(recentCodesUrl(BASE, { page: 1 }), 'http://svc.test/api/codes/recent.xml');
    assert.equal(recentCodesUrl(BASE, { page: 2 }), 'http://svc.test/api/codes/recent.xml?page=2');
    assert.equal(tagCodesUrl(BASE, 'io', { language: 'C', page: 10 }), 'http://svc.test/api/tags/io/c.xml?page=10');
    assert.equal(recentRefactoringsUrl(`${BASE}/?ignored=1`, { page: 3 }), 'http://svc.test/api/refactorings/recent.xml?page=3');
    for (const page of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]) {
      assert.throws(() => popularCodesUrl(BASE, { page }), RangeError, `page ${page}`);
    }
  });

  it('keeps every tag inside one path segment', () => {
    const tag = (t: string, language?: string): string => new URL(tagCodesUrl(BASE, t, { language })).pathname;
    assert.equal(tag('a/b', 'Ruby'), '/api/tags/a%2Fb/ruby.xml');
    assert.equal(tag('../etc', 'Ruby'), '/api/tags/..%2Fetc/ruby.xml');
    assert.equal(tag('../../admin'), '/api/tags/..%2F..%2Fadmin.xml');
    assert.equal(tag('c# & f#?x=1'), '/api/tags/c%23%20%26%20f%23%3Fx%3D1.xml');
    assert.equal(tag('50%'), '/api/tags/50%25.xml');
    assert.equal(tag('café'), '/api/tags/caf%C3%A9.xml');
    assert.equal(tag('..'), '/api/tags/%2E%2E.xml');
    assert.equal(tag('.'), '/api/tags/%2E.xml');
    assert.equal(tag('...', 'C'), '/api/tags/%2E%2E%2E/c.xml');
    assert.equal(tag('  spaced  '), '/api/tags/spaced.xml', 'a tag is trimmed');
  });

  it('refuses a tag of "." or ".." before a language, which every URL parser would fold away', () => {
    for (const t of ['.', '..']) {
      assert.throws(() => tagCodesUrl(BASE, t, { language: 'Ruby' }), (e: unknown) =>
        e instanceof ApiError && e.kind === 'invalid-url' && /only dots/.test(e.reason));
    }
    assert.throws(() => tagCodesUrl(BASE, '  '), RangeError);
  });

  it('keeps any tag and language as exactly their own segments (property)', () => {
    const special = fc.constantFrom('.', '/', '\\', '%', '2', 'e', 'E', '?', '#', ' ', ';', '&', '+', 'é', '😀');
    const text = fc.oneof(fc.string({ unit: special, maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 12 }));
    const prefix = new URL(`${BASE}/`).pathname;
    fc.assert(fc.property(text, text, (t, language) => {
      const name = t.trim();
      const lang = language.trim().toLowerCase();
      fc.pre(name !== '' && !(lang !== '' && (name === '.' || name === '..')));
      const url = new URL(tagCodesUrl(BASE, t, { language }));
      assert.equal(url.search, '');
      assert.ok(url.pathname.startsWith(`${prefix}tags/`), url.pathname);
      const segments = url.pathname.slice(`${prefix}tags/`.length).split('/').map(decodeURIComponent);
      assert.deepEqual(segments, lang === '' ? [`${name}.xml`] : [name, `${lang}.xml`]);
    }), { numRuns: 400 });
  });

  it('encodes a code reference as one segment and refuses non-ids', () => {
    assert.equal(new URL(codeUrl(BASE, '42-a/b?c')).pathname, '/api/codes/42-a%2Fb%3Fc.xml');
    assert.equal(codeUrl(BASE, ' 7-x '), 'http://svc.test/api/codes/7-x.xml');
    for (const id of [-1, 1.5, Number.NaN]) assert.throws(() => codeUrl(BASE, id), RangeError);
    assert.throws(() => codeUrl(BASE, ''), RangeError);
  });
});

describe('urls: pages and code references', () => {
  it('turns an XML URL into its page URL, query kept', () => {
    assert.equal(pageUrl('http://svc.test/api/codes/42-some-title.xml'), 'http://svc.test/api/codes/42-some-title');
    assert.equal(pageUrl('http://svc.test/api/codes/recent/c%23.xml?page=2'), 'http://svc.test/api/codes/recent/c%23?page=2');
    assert.equal(pageUrl(tagCodesUrl(BASE, 'a/b', { page: 2 })), 'http://svc.test/api/tags/a%2Fb?page=2');
    assert.equal(pageUrl('http://svc.test/api/codes/42'), 'http://svc.test/api/codes/42');
    throwsInvalidUrl(() => pageUrl('not a url'), 'not a url', /not a valid URL/);
  });

  it('builds a code reference from id and permalink', () => {
    assert.equal(codeRefOf({ id: 42, permalink: 'some-title' }), '42-some-title');
    assert.equal(codeRefOf({ id: 42, permalink: '' }), '42');
    const ref = codeRefOf({ id: 9, permalink: 'stack-with-a-maximum-size' });
    assert.equal(parseCodeRef(ref), ref, 'round trip');
    assert.equal(codeUrl(BASE, ref), 'http://svc.test/api/codes/9-stack-with-a-maximum-size.xml');
  });

  it('reads a code reference from an id, a ref or a page or XML URL', () => {
    const cases: Array<[string, string]> = [
      ['42', '42'],
      ['  42-some-title\n', '42-some-title'],
      ['https://svc.test/prefix/codes/42-some-title', '42-some-title'],
      ['http://svc.test/codes/42-x.xml', '42-x'],
      ['https://svc.test/codes/42-x/', '42-x'],
      ['https://svc.test/codes/42?page=2#refactor-7', '42'],
      ['HTTPS://svc.test/a/b/codes/7-caf%C3%A9', '7-café'],
      ['42-', '42'],
    ];
    for (const [input, ref] of cases) assert.equal(parseCodeRef(input), ref, input);
  });

  it('answers undefined for anything that is not a code reference', () => {
    for (const input of ['', '   ', 'abc', '-42', 'x42', '42 some title', '42/43', '4 2', 'https://svc.test/codes/recent',
      'https://svc.test/codes/', 'https://svc.test/users/42', 'https://svc.test/codes/42/refactors', 'ftp://svc.test/codes/42',
      'https://svc.test/codes/%E0%A4%A', 'codes/42', '42-a#b', '42-a?b', '42-a\tb']) {
      assert.equal(parseCodeRef(input), undefined, JSON.stringify(input));
    }
  });
});

describe('urls: through a real HTTP client and server', () => {
  let server: Server;
  let base: string;
  const seen: string[] = [];

  before(async () => {
    server = createServer((req, res) => {
      seen.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/xml' }).end('<codes type="array"/>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('delivers the built paths unchanged to the server', async () => {
    seen.length = 0;
    const urls = [
      tagCodesUrl(base, '../etc', { language: 'C#', page: 2 }),
      tagCodesUrl(base, 'a/b', { language: 'C++' }),
      tagCodesUrl(base, '..'),
      codeUrl(base, '42-some-title'),
    ];
    for (const url of urls) {
      const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
      assert.equal(res.status, 200);
      await res.text();
    }
    assert.deepEqual(seen, [
      '/api/tags/..%2Fetc/cs.xml?page=2',
      '/api/tags/a%2Fb/cpp.xml',
      '/api/tags/%2E%2E.xml',
      '/api/codes/42-some-title.xml',
    ]);
  });
});
