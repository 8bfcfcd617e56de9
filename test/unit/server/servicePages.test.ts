// What a reader of the reference service's pages sees (Open in Browser), and what its XML and routing
// answer, through the service's in-process fetch: counts said in words, paging links and numbering,
// titles of language and tag lists, dates, tags, authors, error pages, the empty XML lists, and which
// request targets name nothing. Each catalog is parsed inside its test, so that mutation testing's
// per-test coverage credits the test that would notice.

import * as assert from 'node:assert/strict';
import { PAGE_SIZE } from '../../../src/core/model';
import { parseDataset } from '../../../src/server/catalog/dataset';
import { inProcessFetch, type Fetch } from '../../../src/server/http/fetchHandler';
import { generateCatalogJson } from '../../../src/server/catalog/generatedCatalog';
import { startServer } from '../../../src/server/http/server';
import { Oracle, request, type CatalogJson } from '../../helpers/referenceService';

const BASE = 'http://pages.test/';

function service(json: CatalogJson): Fetch {
  return inProcessFetch(parseDataset(json, 'pages.json'));
}

interface Page { status: number; text: string; headers: Headers }

async function get(fetch: Fetch, path: string, init?: RequestInit): Promise<Page> {
  const res = await fetch(new URL(path, BASE), init);
  return { status: res.status, text: await res.text(), headers: res.headers };
}

/** A page that must exist: its text, entities decoded. */
async function page(fetch: Fetch, path: string): Promise<string> {
  const res = await get(fetch, path);
  assert.equal(res.status, 200, path);
  return unescapeHtml(res.text);
}

function unescapeHtml(s: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return s.replace(/&(?:#(\d+)|#x([0-9a-f]+)|(amp|lt|gt|quot|apos));/gi, (_, dec: string, hex: string, name: string) =>
    name ? named[name.toLowerCase()] : String.fromCodePoint(dec ? Number(dec) : parseInt(hex, 16)));
}

const h1 = (html: string): string => /<h1>([^<]*)<\/h1>/.exec(html)![1];
const alternate = (html: string): string | undefined => /<link rel="alternate" type="application\/xml" href="([^"]*)">/.exec(html)?.[1];
const pagerLinks = (html: string): Record<string, string> =>
  Object.fromEntries([...(/<nav class="pager">(.*?)<\/nav>/.exec(html)?.[1] ?? '').matchAll(/<a href="([^"]*)" rel="(\w+)">/g)].map((m) => [m[2], m[1]]));
const listStart = (html: string): number | undefined => {
  const m = /<ol class="items" start="(\d+)">/.exec(html);
  return m ? Number(m[1]) : undefined;
};
const itemCount = (html: string): number => (html.match(/<li><a href="\/codes\/\d+/g) ?? []).length;

/** One code by user 1 (no website), one refactoring by user 2; each test changes what it needs. */
function tiny(): CatalogJson {
  return {
    users: [
      { id: 1, name: 'Ada Lovelace', identityUrl: '', rating: 1 },
      { id: 2, name: 'Bob', identityUrl: '', rating: 2, website: 'https://bob.example/' },
    ],
    codes: [{ id: 1, title: 'Only code', language: 'Ruby', userId: 1, createdAt: '2008-03-14T09:26:53+01:00', updatedAt: '2008-03-14T09:26:53+01:00', tags: [], code: 'x = 1' }],
    refactors: [{ id: 1, codeId: 1, userId: 2, title: 'Better', rating: 4, ratingsCount: 1, createdAt: '2008-03-14T10:00:00+01:00', code: 'x=1' }],
  };
}

describe('service pages: counts in words', () => {
  it('says "1 code", "1 refactoring" and "1 vote" in the singular', async () => {
    const fetch = service(tiny());
    assert.match(await page(fetch, '/'), /<p>1 code and 1 refactoring\. /);
    assert.match(await page(fetch, '/codes/recent'), / · 1 refactoring<\/span>/);
    const code = await page(fetch, '/codes/1');
    assert.match(code, /<h2>1 refactoring<\/h2>/);
    assert.match(code, /rated 4 \(1 vote\)/);
    assert.match(await page(fetch, '/refactorings/recent'), /rated 4 \(1 vote\)<\/span>/);
  });

  it('says "2 codes", "2 refactorings" and "0 votes" in the plural', async () => {
    const json = tiny();
    json.codes.push({ ...json.codes[0], id: 2, title: 'Second code' });
    json.refactors.push({ ...json.refactors[0], id: 2, rating: 0, ratingsCount: 0 });
    const fetch = service(json);
    assert.match(await page(fetch, '/'), /<p>2 codes and 2 refactorings\. /);
    assert.match(await page(fetch, '/codes/recent'), / · 2 refactorings<\/span>/);
    const code = await page(fetch, '/codes/1');
    assert.match(code, /<h2>2 refactorings<\/h2>/);
    assert.match(code, /rated 0 \(0 votes\)/);
    assert.match(await page(fetch, '/refactorings/recent'), /rated 0 \(0 votes\)<\/span>/);
  });
});

describe('service pages: paging', () => {
  it('numbers a list page\'s items from where the page starts, and links its neighbours and its XML', async () => {
    const fetch = service(generateCatalogJson({ codes: 60 }));
    const first = await page(fetch, '/codes/recent');
    assert.equal(listStart(first), 1);
    assert.equal(itemCount(first), PAGE_SIZE);
    assert.deepEqual(pagerLinks(first), { next: '/codes/recent?page=2' });
    assert.equal(alternate(first), '/codes/recent.xml');
    const second = await page(fetch, '/codes/recent?page=2');
    assert.equal(listStart(second), PAGE_SIZE + 1);
    // Page 2 links back to the list's own address, not to ?page=1.
    assert.deepEqual(pagerLinks(second), { prev: '/codes/recent', next: '/codes/recent?page=3' });
    assert.equal(alternate(second), '/codes/recent.xml?page=2');
    const third = await page(fetch, '/codes/recent?page=3');
    assert.equal(listStart(third), 2 * PAGE_SIZE + 1);
    assert.equal(itemCount(third), 60 - 2 * PAGE_SIZE);
    assert.deepEqual(pagerLinks(third), { prev: '/codes/recent?page=2' });
    assert.match(third, /<span>Page 3<\/span>/);
  });

  it('shows no pager on a list that fits one page exactly', async () => {
    const fetch = service(generateCatalogJson({ codes: PAGE_SIZE }));
    const html = await page(fetch, '/codes/recent');
    assert.equal(itemCount(html), PAGE_SIZE);
    assert.ok(!html.includes('class="pager"'), 'no pager');
    assert.ok(!html.includes('Next page'));
  });

  it('pages the refactorings list the same way', async () => {
    const json = generateCatalogJson({ codes: 30 });
    assert.equal(json.refactors.length, 90, 'three per code: four pages, the last one partial');
    const fetch = service(json);
    const first = await page(fetch, '/refactorings/recent');
    assert.equal(listStart(first), 1);
    assert.deepEqual(pagerLinks(first), { next: '/refactorings/recent?page=2' });
    assert.equal(alternate(first), '/refactorings/recent.xml');
    const second = await page(fetch, '/refactorings/recent?page=2');
    assert.equal(listStart(second), PAGE_SIZE + 1);
    assert.deepEqual(pagerLinks(second), { prev: '/refactorings/recent', next: '/refactorings/recent?page=3' });
    assert.equal(alternate(second), '/refactorings/recent.xml?page=2');
    const last = await page(fetch, '/refactorings/recent?page=4');
    assert.equal(listStart(last), 3 * PAGE_SIZE + 1);
    assert.deepEqual(pagerLinks(last), { prev: '/refactorings/recent?page=3' });
  });

  it('says when a list is empty instead of showing an empty list', async () => {
    const json = generateCatalogJson({ codes: 3 });
    assert.ok(!json.codes.some((c) => c.language === 'Haskell') && json.refactors.length < PAGE_SIZE, 'no Haskell, one page of refactorings');
    const fetch = service(json);
    for (const [path, says] of [['/codes/recent/haskell', 'No codes here.'], ['/refactorings/recent/haskell', 'No refactorings here.'], ['/refactorings/recent?page=2', 'No refactorings here.']]) {
      const html = await page(fetch, path);
      assert.ok(html.includes(`<p>${says}</p>`), path);
      assert.equal(listStart(html), undefined, path);
    }
    assert.equal(listStart(await page(fetch, '/refactorings/recent')), 1);
  });
});

describe('service pages: titles, authors, dates and tags', () => {
  it('titles each list after its kind and language, and links its XML and pages under its own path', async () => {
    const json = generateCatalogJson({ codes: 300 });
    const styleInRuby = json.codes.filter((c) => c.language === 'Ruby' && (c.tags?.includes('style') ?? false));
    assert.ok(styleInRuby.length > PAGE_SIZE, `${styleInRuby.length} Ruby codes tagged style, more than a page`);
    const fetch = service(json);
    const cases: [string, string][] = [
      ['/codes/recent', 'Recent codes'],
      ['/codes/recent/ruby', 'Recent Ruby codes'],
      ['/codes/popular', 'Popular codes'],
      ['/codes/popular/python', 'Popular Python codes'],
      ['/refactorings/recent', 'Recent refactorings'],
      ['/refactorings/recent/python', 'Recent Python refactorings'],
      ['/tags/speed', 'Codes tagged speed'],
      ['/tags/style/ruby', 'Codes tagged style in Ruby'],
    ];
    for (const [path, title] of cases) {
      const html = await page(fetch, path);
      assert.equal(h1(html), title, path);
      assert.equal(/<title>([^<]*)<\/title>/.exec(html)![1], title, path);
      assert.equal(alternate(html), `${path}.xml`, path);
      const next = pagerLinks(html).next;
      if (next !== undefined) assert.equal(next, `${path}?page=2`, path);
    }
    assert.equal(pagerLinks(await page(fetch, '/tags/style/ruby')).next, '/tags/style/ruby?page=2', 'the language list of a tag has a second page here');
  });

  it('names a language no code has as it was asked, each spelling on its own', async () => {
    const fetch = service(generateCatalogJson({ codes: 3 }));
    assert.equal(h1(await page(fetch, '/codes/recent/Cobol')), 'Recent Cobol codes');
    assert.equal(h1(await page(fetch, '/codes/recent/cobol')), 'Recent cobol codes');
    assert.equal(h1(await page(fetch, '/codes/recent/COBOL')), 'Recent COBOL codes');
  });

  it('names a refactoring without a title after its code, and marks anonymous authors', async () => {
    const json = tiny();
    json.refactors.push({ id: 2, codeId: 1, userId: null, userName: 'Passer-by', rating: 0, ratingsCount: 0, createdAt: '2008-03-14T11:00:00+01:00', code: 'x  =  1' });
    const fetch = service(json);
    const list = await page(fetch, '/refactorings/recent');
    assert.ok(list.includes('<a href="/codes/1-only-code#refactor-2">Refactoring of Only code</a>'), list);
    assert.ok(list.includes('<a href="/codes/1-only-code#refactor-1">Better</a>'));
    const code = await page(fetch, '/codes/1');
    assert.match(code, /by Passer-by \(anonymous\) · /);
    assert.match(code, /by <a href="https:\/\/bob\.example\/" rel="nofollow noopener">Bob<\/a> · /);
    assert.ok(!code.includes('Bob</a> (anonymous)'));
  });

  it('names a code\'s author without a website as text, shows "updated" only when it was, and tags only when there are some', async () => {
    const json = tiny();
    const plain = await page(service(json), '/codes/1');
    assert.match(plain, /<p class="meta">by Ada Lovelace · <a href="\/codes\/recent\/ruby">Ruby<\/a> · posted <time datetime="2008-03-14T09:26:53\+01:00">2008-03-14 09:26 \+01:00<\/time><\/p>/);
    assert.ok(!plain.includes('updated'));
    assert.ok(!plain.includes('Tags:'));
    json.codes[0].updatedAt = '2008-04-01T12:00:00+02:00';
    json.codes[0].tags = ['speed', 'io'];
    const changed = await page(service(json), '/codes/1');
    assert.match(changed, / · posted <time[^>]*>2008-03-14 09:26 \+01:00<\/time> · updated <time datetime="2008-04-01T12:00:00\+02:00">2008-04-01 12:00 \+02:00<\/time><\/p>/);
    assert.match(changed, /<p class="meta">Tags: <a href="\/tags\/speed" rel="tag">speed<\/a> <a href="\/tags\/io" rel="tag">io<\/a><\/p>/);
  });
});

describe('service pages: errors and routing', () => {
  it('answers a missing code with an HTML 404 page titled with the status and linking back to the index', async () => {
    const res = await get(service(tiny()), '/codes/99-gone');
    assert.equal(res.status, 404);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(res.text, /<title>404: no code with id 99<\/title>/);
    assert.match(res.text, /<p><a href="\/">Back to the index<\/a><\/p>/);
  });

  it('refuses other methods with 405, in HTML for a page and in XML for an .xml path', async () => {
    const fetch = service(tiny());
    const htmlRes = await get(fetch, '/codes/recent', { method: 'POST' });
    assert.equal(htmlRes.status, 405);
    assert.equal(htmlRes.headers.get('allow'), 'GET, HEAD, OPTIONS');
    assert.equal(htmlRes.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(htmlRes.text, /<title>405: only GET, HEAD and OPTIONS are allowed: this service is read-only \(`refactor-browser serve --data-dir DIR` starts one that takes contributions\)<\/title>/);
    const xmlRes = await get(fetch, '/codes/recent.xml?page=2', { method: 'DELETE' });
    assert.equal(xmlRes.status, 405);
    assert.match(xmlRes.headers.get('content-type')!, /^application\/xml/);
    assert.match(xmlRes.text, /<errors>\s*<error>only GET, HEAD and OPTIONS are allowed: this service is read-only \(`refactor-browser serve --data-dir DIR` starts one that takes contributions\)<\/error>\s*<\/errors>/);
  });

  it('finds nothing at paths that only look like a list: a trailing slash, bad percent-encoding, unknown names', async () => {
    const json = generateCatalogJson({ codes: 3 });
    const second = `/codes/2-${new Oracle(json).permalink(json.codes[1])}`;
    const fetch = service(json);
    for (const path of ['/codes/recent/', '/codes/recent/%ZZ', '/codes/recent.xml/', '/refactorings/popular', '/refactorings/recent/ruby/x', '/snippets/recent', '/foo/bar', '/codes',
      // A URL inside the path is not an absolute-form target: only a target that starts with one is.
      '/xxxxxhttp://codes/recent',
      // A code has one page: nothing below it.
      `${second}/more`, '/codes/2/2']) {
      const res = await get(fetch, path);
      assert.equal(res.status, 404, path);
    }
    assert.equal((await get(fetch, '/refactorings/recent/ruby')).status, 200);
    assert.equal((await get(fetch, second)).status, 200);
  });

  it('ignores ?page on a code, reads a page that is not a number as page 1, and refuses negative ones however written', async () => {
    const json = generateCatalogJson({ codes: 30 });
    const fetch = service(json);
    const code = await get(fetch, '/codes/2-x?page=-1');
    assert.equal(code.status, 200);
    assert.ok(unescapeHtml(code.text).includes(`<h1>${json.codes[1].title}</h1>`));
    for (const q of ['12345678901x', 'x12345678901', '2-1']) {
      const res = await get(fetch, `/codes/recent?page=${q}`);
      assert.equal(res.status, 200, q);
      assert.match(res.text, /<span>Page 1<\/span>/, q);
    }
    for (const q of ['-1', '-01', '-0001', '12345678901']) assert.equal((await get(fetch, `/codes/recent?page=${q}`)).status, 400, q);
    assert.equal((await get(fetch, '/codes/recent?page=-0')).status, 200, '-0 is page 1');
  });

  it('answers an absolute-form target (as a proxy sends it) without a path with the index', async () => {
    const server = await startServer({ host: '127.0.0.1', port: 0, catalog: parseDataset(tiny(), 'pages.json') });
    try {
      const res = await request(server.url, `http://127.0.0.1:${server.port}`);
      assert.equal(res.status, 200);
      assert.match(res.text, /<h1>Code sharing and refactoring<\/h1>/);
      const list = await request(server.url, `HTTP://127.0.0.1:${server.port}/codes/recent.xml`);
      assert.equal(list.status, 200);
      assert.match(list.text, /<codes type="array">/);
    } finally {
      await server.close();
    }
  });
});

describe('service XML: empty lists', () => {
  it('writes an empty list, or a code without refactorings, as one empty element', async () => {
    const json = tiny();
    json.refactors = [];
    const fetch = service(json);
    assert.match((await get(fetch, '/codes/1.xml')).text, /\n {2}<refactors type="array"><\/refactors>\n<\/code>\n$/);
    assert.match((await get(fetch, '/refactorings/recent.xml')).text, /\n<refactors type="array"><\/refactors>\n$/);
    assert.match((await get(fetch, '/codes/recent/perl.xml')).text, /\n<codes type="array"><\/codes>\n$/);
  });
});
