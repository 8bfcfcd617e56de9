// The reference service's XML read as raw bytes with a plain parse: the declaration, the roots,
// every field with its type attribute in the spec's order, the orders of the listings, paging,
// language and tag matching, and escaping. Expected values come from the catalogs' raw JSON.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { XMLValidator } from 'fast-xml-parser';
import { parseDataset } from '../../../src/server/catalog/dataset';
import { generateCatalogJson } from '../../../src/server/catalog/generatedCatalog';
import { startServer, type RunningServer } from '../../../src/server/http/server';
import { Oracle, plainParser, readFixture, request, samplePath, type CatalogJson, type XmlNode } from '../../helpers/referenceService';

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;

// The spec's tables, in their order; undefined: a string element without a type attribute.
const USER = { id: 'integer', 'identity-url': undefined, name: undefined, rating: 'float', 'refactors-count': 'integer', website: undefined };
const CODE = {
  code: undefined, comment: undefined, 'created-at': 'datetime', id: 'integer', language: undefined, permalink: undefined,
  'refactors-count': 'integer', title: undefined, 'trackback-url': undefined, 'updated-at': 'datetime', 'user-id': 'integer',
};
const REFACTOR = {
  code: undefined, 'code-id': 'integer', comment: undefined, 'created-at': 'datetime', id: 'integer', language: undefined, rating: 'integer',
  'ratings-count': 'integer', title: undefined, 'user-id': 'integer', 'user-name': undefined, 'user-website': undefined,
};
type Fields = Record<string, string | undefined>;

function childNames(node: XmlNode): string[] {
  return Object.keys(node).filter((k) => k !== '#text' && !k.startsWith('@_'));
}

/** Checks one leaf's type attribute and text form; returns its text. */
function leaf(node: XmlNode, name: string, type: string | undefined, where: string): string {
  const v = node[name];
  if (typeof v === 'string') {
    assert.equal(type, undefined, `${where}/${name} lacks type="${type}"`);
    return v;
  }
  const el = v as XmlNode;
  assert.deepEqual(Object.keys(el).filter((k) => k !== '#text'), ['@_type'], `${where}/${name} has only a type attribute`);
  assert.equal(el['@_type'], type, `${where}/${name} type`);
  const text = (el['#text'] as string | undefined) ?? '';
  const form = type === 'integer' ? /^-?\d+$/ : type === 'float' ? /^-?\d+\.\d+$/ : DATETIME;
  assert.ok(form.test(text) || (type === 'integer' && name === 'user-id' && text === ''), `${where}/${name} = ${JSON.stringify(text)} is not a ${type}`);
  return text;
}

function item(node: XmlNode, fields: Fields, nested: string[], where: string): void {
  assert.deepEqual(childNames(node), [...Object.keys(fields), ...nested], `${where}: fields in the spec's order`);
  for (const [name, type] of Object.entries(fields)) leaf(node, name, type, where);
}

function checkUser(node: XmlNode, where: string): void {
  item(node, USER, [], where);
}

/** `<tags type="array">`, holding only `<tag>` strings (the reference service's own: the spec's code has no tags). */
function checkTags(node: XmlNode, where: string): string[] {
  const tags = node.tags as XmlNode;
  assert.equal(tags['@_type'], 'array', `${where}/tags type`);
  assert.deepEqual(childNames(tags).filter((k) => k !== 'tag'), [], `${where}/tags holds only tag elements`);
  const items = tags.tag === undefined ? [] : Array.isArray(tags.tag) ? tags.tag : [tags.tag];
  for (const t of items) assert.equal(typeof t, 'string', `${where}/tags/tag is a string without attributes`);
  return items as string[];
}

/** Parses after checking the bytes: UTF-8, the declaration first, well-formed, the root expected. */
function parse(text: string, root: string): XmlNode {
  assert.ok(text.startsWith(DECLARATION), 'starts with the XML declaration');
  assert.equal(XMLValidator.validate(text), true);
  const doc = plainParser.parse(text) as XmlNode;
  assert.deepEqual(childNames(doc).filter((k) => k !== '?xml'), [root]);
  return doc[root] as XmlNode;
}

function codeList(text: string): XmlNode[] {
  const root = parse(text, 'codes');
  assert.equal(root['@_type'], 'array');
  const codes = (root.code as XmlNode[] | undefined) ?? [];
  codes.forEach((c, i) => {
    item(c, CODE, ['user', 'tags'], `codes/code[${i}]`);
    checkUser(c.user as XmlNode, `codes/code[${i}]/user`);
    checkTags(c, `codes/code[${i}]`);
  });
  return codes;
}

function refactorList(text: string): XmlNode[] {
  const root = parse(text, 'refactors');
  assert.equal(root['@_type'], 'array');
  const refactors = (root.refactor as XmlNode[] | undefined) ?? [];
  refactors.forEach((r, i) => {
    const registered = leaf(r, 'user-id', 'integer', 'refactor') !== '';
    item(r, REFACTOR, registered ? ['user'] : [], `refactors/refactor[${i}]`);
    if (registered) checkUser(r.user as XmlNode, `refactors/refactor[${i}]/user`);
  });
  return refactors;
}

/** The spec's rule 4: every Code field but `user`, then `refactors`. */
function singleCode(text: string): XmlNode {
  const code = parse(text, 'code');
  item(code, CODE, ['tags', 'refactors'], 'code');
  checkTags(code, 'code');
  const refactors = code.refactors as XmlNode | string;
  const list = typeof refactors === 'string' ? [] : ((refactors.refactor as XmlNode[] | undefined) ?? []);
  assert.equal(typeof refactors === 'string' ? undefined : refactors['@_type'], 'array');
  list.forEach((r, i) => item(r, REFACTOR, [], `code/refactors/refactor[${i}]`));
  return code;
}

const ids = (items: XmlNode[]): number[] => items.map((i) => Number((i.id as XmlNode)['#text']));
const text = (node: XmlNode, name: string): string => (typeof node[name] === 'string' ? (node[name]) : (((node[name] as XmlNode)['#text'] as string | undefined) ?? ''));

async function body(server: RunningServer, path: string): Promise<string> {
  const res = await request(server.url, path);
  assert.equal(res.status, 200, `${path}: ${res.text.slice(0, 200)}`);
  assert.equal(res.headers['content-type'], 'application/xml; charset=utf-8');
  return res.text;
}

describe('reference service XML: the sample catalog', () => {
  const json = JSON.parse(fs.readFileSync(samplePath, 'utf8')) as CatalogJson;
  const oracle = new Oracle(json);
  let server: RunningServer;
  before(async () => {
    server = await startServer({});
  });
  after(() => server.close());

  it('serves recent and popular codes in the spec shape and in order, all and per language', async () => {
    assert.deepEqual(ids(codeList(await body(server, '/codes/recent.xml'))), oracle.recentCodeIds().slice(0, 25));
    assert.deepEqual(ids(codeList(await body(server, '/codes/recent.xml?page=2'))), oracle.recentCodeIds().slice(25, 50));
    assert.deepEqual(ids(codeList(await body(server, '/codes/popular.xml'))), oracle.popularCodeIds().slice(0, 25));
    const ruby = (c: { language: string }) => c.language === 'Ruby';
    assert.deepEqual(ids(codeList(await body(server, '/codes/recent/ruby.xml'))), oracle.recentCodeIds(ruby).slice(0, 25));
    assert.deepEqual(ids(codeList(await body(server, '/codes/popular/ruby.xml'))), oracle.popularCodeIds(ruby).slice(0, 25));
  });

  it('serves tag lists recent first, with and without a language', async () => {
    const speed = (c: { tags?: string[] }) => c.tags?.includes('speed') ?? false;
    assert.deepEqual(ids(codeList(await body(server, '/tags/speed.xml'))), oracle.recentCodeIds(speed).slice(0, 25));
    const rubySpeed = ids(codeList(await body(server, '/tags/speed/ruby.xml')));
    assert.ok(rubySpeed.length > 0);
    assert.deepEqual(rubySpeed, oracle.recentCodeIds((c) => speed(c) && c.language === 'Ruby'));
  });

  it('serves recent refactorings with a user for registered authors only', async () => {
    const all = refactorList(await body(server, '/refactorings/recent.xml'));
    assert.deepEqual(ids(all), oracle.recentRefactorIds().slice(0, 25));
    const pages: number[] = [];
    for (let page = 1; page <= Math.ceil(json.refactors.length / 25) + 1; page++) {
      pages.push(...ids(refactorList(await body(server, `/refactorings/recent.xml?page=${page}`))));
    }
    assert.deepEqual(pages, oracle.recentRefactorIds());
    const java = refactorList(await body(server, '/refactorings/recent/java.xml'));
    assert.deepEqual(ids(java), oracle.recentRefactorIds((r) => oracle.languageOf(r.codeId) === 'Java').slice(0, 25));
    assert.ok(java.every((r) => text(r, 'language') === 'Java'));
  });

  it('serves every code alone: its author by user-id only, its refactorings oldest first with the language lower-cased', async () => {
    for (const c of json.codes) {
      const raw = await body(server, `/codes/${c.id}-${oracle.permalink(c)}.xml`);
      const code = singleCode(raw);
      const expected = oracle.singleCode(c.id);
      assert.equal(text(code, 'title'), expected.title);
      assert.equal(Number(text(code, 'user-id')), c.userId, 'the author, by id');
      assert.ok(!/^ {2}<user>/m.test(raw), `code ${c.id}: no <user> element of the code`);
      assert.equal(Number(text(code, 'refactors-count')), expected.refactors!.length);
      const refactors = typeof code.refactors === 'string' ? [] : (((code.refactors as XmlNode).refactor as XmlNode[] | undefined) ?? []);
      assert.deepEqual(ids(refactors), expected.refactors!.map((r) => r.id));
      for (const r of refactors) assert.equal(text(r, 'language'), expected.language.toLowerCase());
    }
  });

  it('serves each person as /users/<id>.xml: a User element in the spec\'s order, the one lists nest', async () => {
    const listed = new Map<string, XmlNode>();
    for (let page = 1; page <= Math.ceil(json.codes.length / 25); page++) {
      for (const c of codeList(await body(server, `/codes/recent.xml?page=${page}`))) listed.set(text(c.user as XmlNode, 'id'), c.user as XmlNode);
    }
    assert.ok(listed.size > 1, 'the lists name several authors');
    for (const u of json.users) {
      const user = parse(await body(server, `/users/${u.id}.xml`), 'user');
      checkUser(user, `users/${u.id}`);
      assert.equal(text(user, 'name'), u.name);
      // The same fields and values; only the indentation between them differs.
      const fields = (node: XmlNode) => Object.fromEntries(Object.entries(node).filter(([k]) => k !== '#text'));
      if (listed.has(String(u.id))) assert.deepEqual(fields(user), fields(listed.get(String(u.id))!), `user ${u.id}: as the lists nest them`);
    }
    const missing = await request(server.url, '/users/99999.xml');
    assert.equal(missing.status, 404);
    assert.match(missing.text, /<error>no user with id 99999<\/error>/);
  });
});

describe('reference service XML: escaping, empties, offsets, matching', () => {
  const json = readFixture('escaping.json');
  const oracle = new Oracle(json);
  let server: RunningServer;
  before(async () => {
    server = await startServer({ catalog: parseDataset(json, 'escaping.json') });
  });
  after(() => server.close());

  it('escapes markup in text so a plain parse gives back the catalog text exactly', async () => {
    const raw = await body(server, '/codes/7.xml');
    assert.ok(!raw.includes('<script'), 'no raw markup from the catalog');
    assert.ok(raw.includes('<title>&lt;script&gt;alert("x")&lt;/script&gt; &amp; \'friends\'</title>'));
    const code = singleCode(raw);
    assert.equal(text(code, 'title'), json.codes[0].title);
    assert.equal(text(code, 'code'), (json.codes[0].code as string[]).join('\n'));
    assert.equal(text(code, 'comment'), json.codes[0].comment);
    assert.ok(raw.includes('<comment>Line one &amp; &lt;two&gt;\n  indented "line" three\n\nafter a blank line</comment>'), 'line breaks kept as they are');
  });

  it('sends carriage returns as &#13; so they survive XML line-end normalisation', async () => {
    const raw = await body(server, '/codes/8.xml');
    assert.ok(raw.includes('<code>class A&#13;\n{&#13;\n    int x = 1;&#13;\n}&#13;\n</code>'));
    assert.ok(!raw.includes('\r'));
  });

  it('sends empty strings and the anonymous user-id as empty elements', async () => {
    const raw = await body(server, '/codes/8.xml');
    assert.ok(raw.includes('<comment></comment>') && raw.includes('<trackback-url></trackback-url>'));
    assert.ok(raw.includes('<user-id type="integer"></user-id>'));
    assert.ok(raw.includes('<user-website></user-website>'));
  });

  it('writes each datetime with the offset its entry has in the catalog', async () => {
    const [cpp, cs, vb] = await Promise.all(['/codes/7.xml', '/codes/8.xml', '/codes/9.xml'].map((p) => body(server, p)));
    assert.equal(text(singleCode(cpp), 'created-at'), '2008-03-14T09:26:53-03:00');
    assert.equal(text(singleCode(cs), 'created-at'), '2008-03-16T12:00:00+05:30');
    assert.equal(text(singleCode(vb), 'created-at'), '2008-03-16T06:30:00+00:00');
    const user = (codeList(await body(server, '/codes/recent/c%2B%2B.xml'))[0].user as XmlNode);
    assert.equal(text(user, 'rating'), String(json.users[0].rating));
    const other = (codeList(await body(server, '/codes/recent/c%23.xml'))[0].user as XmlNode);
    assert.equal(text(other, 'rating'), '4.0');
  });

  it('shows a code without refactorings with an empty refactors array', async () => {
    const raw = await body(server, '/codes/9.xml');
    assert.ok(raw.includes('<refactors type="array"></refactors>'));
    assert.equal(text(singleCode(raw), 'refactors-count'), '0');
  });

  it('resolves a code by its id alone, with its permalink, or with any text after the id', async () => {
    const canonical = await body(server, `/codes/9-${oracle.permalink(json.codes[2])}.xml`);
    assert.equal(await body(server, '/codes/9.xml'), canonical);
    assert.equal(await body(server, '/codes/9-anything-at-all.xml'), canonical);
  });

  it('matches language segments case-insensitively and percent-decoded', async () => {
    const cases: [string, number[]][] = [
      ['ruby', [10]], ['RUBY', [10]], ['c%23', [8]], ['C%23', [8]], ['c%2B%2B', [7]], ['c++', [7]], ['C%2b%2B', [7]],
      ['vb.net', [9]], ['VB.NET', [9]], ['c', []], ['cobol', []], ['%E2%9C%93', []],
      // the original service's own slugs
      ['cs', [8]], ['CS', [8]], ['cpp', [7]], ['vb', [9]],
      ['constructor', []], ['__proto__', []], ['toString', []],
    ];
    for (const [segment, expected] of cases) {
      assert.deepEqual(ids(codeList(await body(server, `/codes/recent/${segment}.xml`))), expected, segment);
      assert.deepEqual(ids(codeList(await body(server, `/codes/popular/${segment}.xml`))), expected, `popular ${segment}`);
    }
    assert.deepEqual(ids(refactorList(await body(server, '/refactorings/recent/c++.xml'))), oracle.recentRefactorIds((r) => r.codeId === 7));
    assert.deepEqual(ids(refactorList(await body(server, '/refactorings/recent/cpp.xml'))), oracle.recentRefactorIds((r) => r.codeId === 7));
  });

  it('answers every language for `all` on every list that takes a language, tags included', async () => {
    for (const list of ['/codes/recent', '/codes/popular', '/refactorings/recent', '/tags/speed']) {
      assert.equal(await body(server, `${list}/all.xml`), await body(server, `${list}.xml`), list);
      assert.equal(await body(server, `${list}/ALL.xml`), await body(server, `${list}.xml`), list);
    }
  });

  it('matches tags case-insensitively and percent-decoded; an unknown tag is an empty array', async () => {
    const speed = oracle.recentCodeIds((c) => c.tags?.includes('speed') ?? false);
    assert.deepEqual(ids(codeList(await body(server, '/tags/speed.xml'))), speed);
    assert.deepEqual(ids(codeList(await body(server, '/tags/SPEED.xml'))), speed);
    assert.deepEqual(ids(codeList(await body(server, '/tags/speed/c%23.xml'))), [8]);
    assert.deepEqual(ids(codeList(await body(server, '/tags/speed/cs.xml'))), [8]);
    assert.deepEqual(ids(codeList(await body(server, '/tags/a%2Fb.xml'))), [7]);
    assert.deepEqual(ids(codeList(await body(server, '/tags/c%2B%2B.xml'))), [7]);
    const empty = await body(server, '/tags/no-such-tag.xml');
    assert.equal(empty, `${DECLARATION}<codes type="array"></codes>\n`);
    assert.deepEqual(codeList(empty), []);
  });
});

describe('reference service XML: paging', () => {
  // Codes with 0 to 3 refactorings, so that popularity has ties and differences; enough codes for
  // seven pages, the last one partial, and for two pages of Ruby codes.
  const json = generateCatalogJson({ codes: 160, refactorsPerCode: (id) => id % 4 });
  const oracle = new Oracle(json);
  let server: RunningServer;
  before(async () => {
    server = await startServer({ catalog: parseDataset(json, 'generated') });
  });
  after(() => server.close());

  it('pages by 25: page 1 is the default, the last page is partial, a page past the end is empty', async () => {
    const recent = oracle.recentCodeIds();
    const pages = Math.ceil(recent.length / 25);
    assert.ok(recent.length % 25 !== 0, 'the last page is partial');
    assert.deepEqual(await body(server, '/codes/recent.xml?page=1'), await body(server, '/codes/recent.xml'));
    assert.deepEqual(ids(codeList(await body(server, '/codes/recent.xml'))), recent.slice(0, 25));
    for (let page = 2; page <= pages; page++) {
      assert.deepEqual(ids(codeList(await body(server, `/codes/recent.xml?page=${page}`))), recent.slice(25 * (page - 1), 25 * page), `page ${page}`);
    }
    assert.deepEqual(ids(codeList(await body(server, `/codes/recent.xml?page=${pages + 1}`))), []);
    assert.deepEqual(ids(codeList(await body(server, '/codes/recent.xml?page=999999999'))), []);
  });

  it('orders popular by refactoring count, ties by recency, across pages', async () => {
    const all: number[] = [];
    for (let page = 1; page <= Math.ceil(json.codes.length / 25); page++) all.push(...ids(codeList(await body(server, `/codes/popular.xml?page=${page}`))));
    assert.deepEqual(all, oracle.popularCodeIds());
  });

  it('pages language and tag lists on their own', async () => {
    const ruby = oracle.recentCodeIds((c) => c.language === 'Ruby');
    assert.ok(ruby.length > 25 && ruby.length <= 50, `${ruby.length} Ruby codes: two pages`);
    assert.deepEqual(ids(codeList(await body(server, '/codes/recent/ruby.xml?page=2'))), ruby.slice(25));
    const speed = oracle.recentCodeIds((c) => c.tags?.includes('speed') ?? false);
    assert.ok(speed.length > 25, 'a tag list of more than a page');
    assert.deepEqual(ids(codeList(await body(server, '/tags/speed.xml'))), speed.slice(0, 25));
    assert.deepEqual(ids(codeList(await body(server, '/tags/speed.xml?page=2'))), speed.slice(25, 50));
    const speedRuby = oracle.recentCodeIds((c) => (c.tags?.includes('speed') ?? false) && c.language === 'Ruby');
    assert.deepEqual(ids(codeList(await body(server, '/tags/speed/ruby.xml'))), speedRuby.slice(0, 25));
  });

  it('ignores other query parameters', async () => {
    assert.equal(await body(server, '/codes/recent.xml?page=2&utm=x'), await body(server, '/codes/recent.xml?page=2'));
  });
});
