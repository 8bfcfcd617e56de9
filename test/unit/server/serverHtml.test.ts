// The reference service's HTML pages, what Open in Browser shows: every resource has one, without
// any script, with every catalog value escaped, codes linked to their pages, links that resolve,
// websites linked only when they are http(s).

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { SERVICE_LANGUAGES } from '../../../src/core/languages';
import { parseDataset } from '../../../src/server/catalog/dataset';
import { generateCatalogJson } from '../../../src/server/catalog/generatedCatalog';
import { startServer, type RunningServer } from '../../../src/server/http/server';
import { Oracle, readFixture, request, samplePath, type CatalogJson } from '../../helpers/referenceService';

const CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

/** Reverses HTML escaping, numeric and the usual named forms alike, so the test does not depend on which. */
function unescapeHtml(s: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return s.replace(/&(?:#(\d+)|#x([0-9a-f]+)|(amp|lt|gt|quot|apos));/gi, (_, dec: string, hex: string, name: string) =>
    name ? named[name.toLowerCase()] : String.fromCodePoint(dec ? Number(dec) : parseInt(hex, 16)));
}

async function page(server: RunningServer, path: string): Promise<string> {
  const res = await request(server.url, path);
  assert.equal(res.status, 200, path);
  assert.equal(res.headers['content-type'], 'text/html; charset=utf-8', path);
  assert.equal(res.headers['content-security-policy'], CSP, path);
  assert.ok(res.text.startsWith('<!DOCTYPE html>'), path);
  // Catalog text has every < escaped, so each tag in the page is the renderer's own markup.
  for (const tag of res.text.match(/<[^>]*>/g) ?? []) {
    assert.ok(!/^<\/?script|\son[a-z]+\s*=|style\s*=/i.test(tag), `${path}: no script, event handler or style attribute: ${tag}`);
  }
  for (const href of hrefs(res.text)) assert.match(href, /^(\/|#|https?:\/\/)/, `${path}: only http(s) and local links`);
  return res.text;
}

const hrefs = (html: string): string[] => [...html.matchAll(/href="([^"]*)"/g)].map((m) => unescapeHtml(m[1]));
const preCodes = (html: string): string[] => [...html.matchAll(/<pre><code[^>]*>([\s\S]*?)<\/code><\/pre>/g)].map((m) => unescapeHtml(m[1]));

describe('reference service HTML: the sample catalog', () => {
  const json = JSON.parse(fs.readFileSync(samplePath, 'utf8')) as CatalogJson;
  const oracle = new Oracle(json);
  let server: RunningServer;
  before(async () => {
    server = await startServer({});
  });
  after(() => server.close());

  it('has an index linking the lists, each language and every tag, and each of those links resolves', async () => {
    const links = hrefs(await page(server, '/'));
    for (const list of ['/codes/recent', '/codes/popular', '/refactorings/recent']) assert.ok(links.includes(list), list);
    for (const tag of new Set(json.codes.flatMap((c) => c.tags ?? []))) assert.ok(links.includes(`/tags/${encodeURIComponent(tag)}`), tag);
    assert.ok(links.includes('/codes/recent/cs') && links.includes('/codes/recent/cpp'), 'the original service\'s slugs');
    for (const link of new Set(links.filter((l) => l.startsWith('/')))) await page(server, link);
  });

  it("lists the catalog's languages in the service's order, not in the order the catalog first names them", async () => {
    const html = await page(server, '/');
    const listed = [...html.matchAll(/<li>([^<:]+): <a href="\/codes\/recent\//g)].map((m) => unescapeHtml(m[1]));
    const present = new Set(json.codes.map((c) => c.language));
    assert.deepEqual(listed, SERVICE_LANGUAGES.filter((l) => present.has(l)));
    assert.notDeepEqual(listed, [...present], 'the sample names them in another order, so the order is the service\'s');
  });

  it('lists codes with their author, language, date and refactoring count, each linked to its page', async () => {
    const html = await page(server, '/codes/recent');
    const links = hrefs(html);
    for (const id of oracle.recentCodeIds().slice(0, 25)) {
      const c = oracle.listCode(id);
      assert.ok(links.includes(`/codes/${c.id}-${c.permalink}`), `links code ${id}`);
      assert.ok(unescapeHtml(html).includes(c.title), `shows the title of ${id}`);
      assert.ok(unescapeHtml(html).includes(`by ${c.user!.name}`));
    }
    assert.match(html, /<time datetime="\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}">/);
    assert.match(html, /\d+ refactorings?/);
    assert.ok(!oracle.recentCodeIds().slice(25).some((id) => links.includes(`/codes/${id}-${oracle.listCode(id).permalink}`)), 'only the first page');
  });

  it('shows every code page with its code exactly, its comment and every refactoring', async () => {
    for (const c of json.codes) {
      const expected = oracle.singleCode(c.id);
      const html = await page(server, `/codes/${c.id}-${expected.permalink}`);
      assert.deepEqual(preCodes(html), [expected.code, ...expected.refactors!.map((r) => r.code)], `code ${c.id}`);
      for (const r of expected.refactors!) assert.ok(html.includes(`id="refactor-${r.id}"`));
      if (expected.comment) assert.ok(unescapeHtml(html).includes(expected.comment), `comment of ${c.id}`);
    }
  });

  it('has pages for the popular, tag, language and refactoring lists', async () => {
    assert.match(await page(server, '/codes/popular/ruby'), /<h1>Popular Ruby codes<\/h1>/);
    assert.match(await page(server, '/codes/recent/c%23'), /<h1>Recent C# codes<\/h1>/);
    assert.match(await page(server, '/tags/speed/ruby'), /<h1>Codes tagged speed in Ruby<\/h1>/);
    const refactorings = await page(server, '/refactorings/recent');
    const first = oracle.refactor(oracle.recentRefactorIds()[0], true);
    const code = oracle.listCode(first.codeId);
    assert.ok(hrefs(refactorings).includes(`/codes/${code.id}-${code.permalink}#refactor-${first.id}`));
  });
});

describe('reference service HTML: escaping and links', () => {
  const json = readFixture('escaping.json');
  let server: RunningServer;
  before(async () => {
    server = await startServer({ catalog: parseDataset(json, 'escaping.json') });
  });
  after(() => server.close());

  it('escapes every catalog value: markup shows as text, code round-trips exactly', async () => {
    const html = await page(server, '/codes/7');
    assert.ok(html.includes('<h1>&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; &#39;friends&#39;</h1>'));
    assert.ok(html.includes('Ana &#60;b&#62;&#38;amp;&#60;/b&#62; &#34;Lima&#34;'));
    assert.deepEqual(preCodes(html), [(json.codes[0].code as string[]).join('\n'), (json.refactors[0].code as string[]).join('\n'), json.refactors[1].code]);
    assert.ok(unescapeHtml(html).includes(json.codes[0].comment!));
    assert.ok(unescapeHtml(html).includes("O'Brien <anon> & co"));
  });

  it('links websites only when they are http(s), with the URL escaped in the attribute', async () => {
    const html = await page(server, '/codes/8');
    assert.ok(hrefs(html).includes(json.users[1].website!), 'the https website of the author is a link');
    assert.ok(html.includes('href="https://zoe.example.no/?q=&#34;x&#34;&#38;y=&#39;z&#39;"'));
    // The javascript: website of user 1, trackback of code 7 and website of refactor 100 are never links (page() checks).
    const seven = await page(server, '/codes/7');
    assert.ok(unescapeHtml(seven).includes(`by ${json.users[0].name}`), 'the name is shown as text');
  });

  it('links tags to their lists, percent-encoded, and shows a code without refactorings', async () => {
    const links = hrefs(await page(server, '/codes/7'));
    assert.ok(links.includes('/tags/a%2Fb') && links.includes('/tags/C%2B%2B'));
    assert.match(await page(server, '/tags/a%2Fb'), /<h1>Codes tagged a\/b<\/h1>/);
    assert.match(await page(server, '/codes/9'), /No refactorings yet\./);
  });

  it('answers an unknown code with an HTML 404 page', async () => {
    const res = await request(server.url, '/codes/12345-nothing');
    assert.equal(res.status, 404);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(res.text, /no code with id 12345/);
  });
});

describe('reference service HTML: paging', () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer({ catalog: parseDataset(generateCatalogJson({ codes: 60 }), 'generated') });
  });
  after(() => server.close());

  it('links the next and previous pages, as far as there are items', async () => {
    const first = hrefs(await page(server, '/codes/recent'));
    assert.ok(first.includes('/codes/recent?page=2'));
    assert.ok(!first.some((l) => l.includes('page=0')));
    const second = hrefs(await page(server, '/codes/recent?page=2'));
    assert.ok(second.includes('/codes/recent') && second.includes('/codes/recent?page=3'));
    const last = hrefs(await page(server, '/codes/recent?page=3'));
    assert.ok(last.includes('/codes/recent?page=2') && !last.includes('/codes/recent?page=4'));
    assert.match(await page(server, '/codes/recent?page=4'), /No codes here\./);
  });
});
