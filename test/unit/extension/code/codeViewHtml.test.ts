// The code view's HTML shell: the CSP that stops script injection, the nonce, and escaping of every
// interpolated value; plus the view model the webview is sent.

import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  CODE_VIEW_WEBVIEW_OPTIONS,
  buildCodeViewModel, createNonce, escapeHtml, renderCodeViewHtml, type CodeViewHtmlOptions,
} from '../../../../src/extension/code/view/html';
import { aCode, aRefactor, aUser } from '../../../helpers/builders';

const CSP_SOURCE = 'https://*.vscode-cdn.net';
const BASE: CodeViewHtmlOptions = {
  cspSource: CSP_SOURCE,
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.js',
  styleUris: ['https://file+.vscode-resource.vscode-cdn.net/ext/media/codeView.css'],
  nonce: 'bm9uY2Utbm9uY2Utbm9uY2Utbm9uY2Utbm9uY2Utbm9u',
  title: 'Sum an array of prices',
  language: 'en',
  loading: 'Loading…',
};

/** The inverse of the entity forms escapeHtml writes, as an HTML parser would read them. */
function unescape(s: string): string {
  return s.replace(/&(amp|lt|gt|quot|#39|#96);/g, (_, e: string) =>
    ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#96': '`' })[e]!);
}

function head(html: string): string {
  const m = /<head>([\s\S]*?)<\/head>/.exec(html);
  assert.ok(m, 'has a head');
  return m[1];
}

function csp(html: string): string {
  const m = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
  assert.ok(m, 'has a CSP meta');
  return unescape(m[1]);
}

function scriptTags(html: string): string[] {
  return [...html.matchAll(/<script\b[^>]*>/gi)].map((m) => m[0]);
}

describe('renderCodeViewHtml', () => {
  it('puts the CSP meta first in <head>', () => {
    const firstTag = /^\s*<([^>]+)>/.exec(head(renderCodeViewHtml(BASE)))?.[1];
    assert.match(firstTag ?? '', /^meta http-equiv="Content-Security-Policy"/);
  });

  it('allows nothing by default, only the webview\'s own resources, and only the nonced script', () => {
    assert.equal(csp(renderCodeViewHtml(BASE)),
      `default-src 'none'; style-src ${CSP_SOURCE}; font-src ${CSP_SOURCE}; img-src ${CSP_SOURCE}; `
      + `script-src 'nonce-${BASE.nonce}'`);
  });

  it('lets the webview run its script but send no form, follow no command link, and read only media/ and dist/', () => {
    assert.deepEqual({ ...CODE_VIEW_WEBVIEW_OPTIONS }, {
      enableScripts: true, enableForms: false, enableCommandUris: false, localResourceFolders: ['media', 'dist'],
    });
    // The folders the shell loads from are the readable ones, and nothing else of the extension is.
    for (const uri of [BASE.scriptUri, ...BASE.styleUris]) {
      assert.ok(CODE_VIEW_WEBVIEW_OPTIONS.localResourceFolders.some((f) => uri.includes(`/ext/${f}/`)), uri);
    }
  });

  it('has one script, external, carrying the same nonce as the CSP', () => {
    const html = renderCodeViewHtml(BASE);
    const scripts = scriptTags(html);
    assert.equal(scripts.length, 1);
    assert.equal(scripts[0], `<script nonce="${BASE.nonce}" src="${BASE.scriptUri}">`);
    assert.ok(csp(html).includes(`'nonce-${BASE.nonce}'`));
  });

  it('makes a fresh nonce per render when none is given, and uses it in both places', () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const html = renderCodeViewHtml({ ...BASE, nonce: undefined });
      const nonce = /nonce="([^"]+)"/.exec(scriptTags(html)[0])?.[1];
      assert.ok(nonce && csp(html).endsWith(`script-src 'nonce-${nonce}'`));
      nonces.add(nonce);
    }
    assert.equal(nonces.size, 20);
  });

  it('escapes a title that tries to close <title> and open a script', () => {
    const title = `</title><script>alert(1)</script> "quoted" 'single' \`tick\` & more`;
    const html = renderCodeViewHtml({ ...BASE, title });
    assert.equal(scriptTags(html).length, 1, 'no second script tag');
    assert.ok(!html.includes('<script>alert'));
    const shown = /<title>([^<]*)<\/title>/.exec(html)?.[1];
    assert.equal(unescape(shown ?? ''), title, 'the title text reads as it was given');
  });

  it('carries the display language and the translations, escaped, for the script to read; says Loading in that language', () => {
    const bundle = { 'Insert at Cursor': 'An der Cursorposition einfügen', 'Refactorings ({0})': '"Refactorings" ({0}) </body><script>' };
    const html = renderCodeViewHtml({ ...BASE, language: 'de', l10nBundle: bundle, loading: 'Wird geladen…' });
    assert.match(html, /<html lang="de">/);
    const body = /<body data-locale="([^"]*)" data-l10n="([^"]*)">/.exec(html);
    assert.ok(body, html);
    assert.equal(unescape(body[1]), 'de');
    assert.deepEqual(JSON.parse(unescape(body[2])), bundle, 'the bundle reads back exactly from the attribute');
    assert.equal(scriptTags(html).length, 1, 'no script smuggled in through a translation');
    assert.match(html, /<p class="status" role="status">Wird geladen…<\/p>/);
  });

  it('escapes quotes in URIs so they cannot open a new attribute', () => {
    const evil = 'https://x/a.css" onload="alert(1)';
    const evilScript = "https://x/s.js' onerror='alert(1)\" x=\"";
    const html = renderCodeViewHtml({ ...BASE, scriptUri: evilScript, styleUris: [evil, evil] });
    // Each tag must match whole, with every value inside one pair of double quotes that reads back exactly.
    const links = [...html.matchAll(/<link rel="stylesheet" href="([^"<>]*)">/g)].map((m) => unescape(m[1]));
    assert.deepEqual(links, [evil, evil]);
    const script = /^<script nonce="[\w-]+" src="([^"'<>]*)">$/.exec(scriptTags(html)[0]);
    assert.equal(unescape(script?.[1] ?? ''), evilScript);
  });

  it('has no inline event handlers, inline scripts, inline styles or javascript: URLs', () => {
    const html = renderCodeViewHtml(BASE);
    assert.ok(!/\son[a-z]+\s*=/i.test(html));
    assert.ok(!/<style\b/i.test(html));
    assert.ok(!/\sstyle\s*=/i.test(html));
    assert.ok(!/javascript:/i.test(html));
    for (const tag of scriptTags(html)) assert.match(tag, /\ssrc="/, 'every script is external');
  });
});

describe('escapeHtml', () => {
  it('escapes & < > " \' and backtick', () => {
    assert.equal(escapeHtml(`&<>"'\``), '&amp;&lt;&gt;&quot;&#39;&#96;');
    assert.equal(escapeHtml('&amp;'), '&amp;amp;', 'escapes an existing entity again: the input is text');
    assert.equal(escapeHtml('plain – текст'), 'plain – текст');
  });

  it('property: the result holds no special character and reads back as the input', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (s) => {
      const e = escapeHtml(s);
      assert.ok(!/[<>"'`]/.test(e));
      assert.ok(!/&(?!(amp|lt|gt|quot|#39|#96);)/.test(e));
      assert.equal(unescape(e), s);
    }), { numRuns: 300 });
  });
});

describe('createNonce', () => {
  it('is 32 random bytes in base64url, different every time', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const n = createNonce();
      assert.match(n, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(Buffer.from(n, 'base64url').length, 32);
      seen.add(n);
    }
    assert.equal(seen.size, 200);
  });
});

describe('buildCodeViewModel', () => {
  const code = aCode({
    id: 7, title: 'Sum', code: 'def a\r\n  1\nend\n', comment: 'why\nnot', createdAt: new Date('2007-11-06T10:14:22-03:00'),
    user: aUser({ id: 1, name: 'ana', rating: 1.5, refactorsCount: 3, website: 'https://ana.example.org' }),
    refactors: [
      aRefactor({ id: 10, title: 'Inject', language: 'ruby', code: 'items.sum(&:price)\n', createdAt: new Date('2007-11-07T00:00:00Z'), rating: 3, ratingsCount: 5 }),
      // Neither its author's name nor website given beside its user.
      aRefactor({ id: 11, language: 'COBOL', code: '', comment: 'x', rating: NaN, ratingsCount: -1, userName: '', userWebsite: '',
        user: aUser({ id: 2, name: 'bo', website: 'http://bo.example' }) }),
    ],
  });

  it('keeps the code\'s text and fields exactly, with dates as ISO strings of the same instant', () => {
    const m = buildCodeViewModel(code, 'https://svc.example/codes/7-sum');
    assert.equal(m.code, code.code);
    assert.equal(m.comment, code.comment);
    assert.equal(m.createdAt, '2007-11-06T13:14:22.000Z');
    assert.equal(m.updatedAt, null);
    assert.equal(m.pageUrl, 'https://svc.example/codes/7-sum');
    assert.equal(m.userName, 'ana');
    assert.equal(m.userWebsite, 'https://ana.example.org');
    assert.deepEqual(m.refactors.map((r) => r.id), [10, 11]);
    assert.equal(m.refactors[0].code, 'items.sum(&:price)\n');
    assert.equal(m.refactors[0].createdAt, '2007-11-07T00:00:00.000Z');
  });

  it('names the highlight.js grammar for each block, or none for an unknown language', () => {
    const m = buildCodeViewModel(code, '');
    assert.equal(m.highlightLanguage, 'ruby');
    assert.equal(m.refactors[0].highlightLanguage, 'ruby');
    assert.equal(m.refactors[1].highlightLanguage, '');
  });

  it('takes an author from the nested user when the flat fields are empty, and drops impossible numbers', () => {
    const r = buildCodeViewModel(code, '').refactors[1];
    assert.equal(r.userName, 'bo');
    assert.equal(r.userWebsite, 'http://bo.example');
    assert.equal(r.rating, null);
    assert.equal(r.ratingsCount, null);
  });

  it('has no user name for a code without a nested user, and no refactorings when the response had none', () => {
    const m = buildCodeViewModel({ ...code, user: undefined, refactors: undefined }, '');
    assert.equal(m.userName, '');
    assert.equal(m.userId, 1);
    assert.deepEqual(m.refactors, []);
  });
});
