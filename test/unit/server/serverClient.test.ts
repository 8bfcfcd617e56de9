// The reference service read through the project's own RefactorClient: every endpoint decodes to
// exactly what the catalog's raw JSON says (the oracle), and every code round-trips byte-exact.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as fc from 'fast-check';
import { RefactorClient } from '../../../src/client/client';
import { ApiError } from '../../../src/core/errors';
import { parseDataset } from '../../../src/server/catalog/dataset';
import { generateCatalogJson } from '../../../src/server/catalog/generatedCatalog';
import { startServer, type RunningServer } from '../../../src/server/http/server';
import { Oracle, readFixture, samplePath, type CatalogJson } from '../../helpers/referenceService';

function suite(name: string, load: () => CatalogJson, useSample: boolean): void {
  describe(`reference service through RefactorClient: ${name}`, () => {
    const json = load();
    const oracle = new Oracle(json);
    let server: RunningServer;
    let client: RefactorClient;
    before(async () => {
      server = await startServer(useSample ? {} : { catalog: parseDataset(json, name) });
      client = new RefactorClient({ baseUrl: server.url, timeoutMs: 5000, maxTries: 1 });
    });
    after(async () => {
      await client.close();
      await server.close();
    });

    it('round-trips every code: client.code(id) equals the catalog entry, refactorings included', async () => {
      for (const c of json.codes) {
        assert.deepEqual(await client.code(c.id), oracle.singleCode(c.id), `code ${c.id}`);
        assert.deepEqual(await client.code(`${c.id}-${oracle.permalink(c)}`), oracle.singleCode(c.id));
      }
    });

    it('decodes every page of the recent and popular lists to the catalog entries, in order', async () => {
      const pages = Math.ceil(json.codes.length / 25) + 1;
      for (const [list, expected] of [['recentCodes', oracle.recentCodeIds()], ['popularCodes', oracle.popularCodeIds()]] as const) {
        const got = [];
        for (let page = 1; page <= pages; page++) got.push(...(await client[list]({ page })));
        assert.deepEqual(got, expected.map((id) => oracle.listCode(id)), list);
      }
    });

    it('decodes the recent, popular and refactoring lists of each language the catalog has', async () => {
      for (const language of new Set(json.codes.map((c) => oracle.language(c.language)))) {
        const inLanguage = (c: { language: string }) => oracle.language(c.language) === language;
        const recent = oracle.recentCodeIds(inLanguage).slice(0, 25);
        assert.deepEqual(await client.recentCodes({ language: language.toLowerCase() }), recent.map((id) => oracle.listCode(id)), language);
        const popular = oracle.popularCodeIds(inLanguage).slice(0, 25);
        assert.deepEqual(await client.popularCodes({ language: language.toLowerCase() }), popular.map((id) => oracle.listCode(id)), `popular ${language}`);
        const refactors = oracle.recentRefactorIds((r) => oracle.languageOf(r.codeId) === language).slice(0, 25);
        assert.deepEqual(await client.recentRefactorings({ language: language.toLowerCase() }), refactors.map((id) => oracle.refactor(id, true)));
      }
    });

    it('decodes recent refactorings with users for registered authors only', async () => {
      const got = [];
      for (let page = 1; page <= Math.ceil(json.refactors.length / 25); page++) got.push(...(await client.recentRefactorings({ page })));
      assert.deepEqual(got, oracle.recentRefactorIds().map((id) => oracle.refactor(id, true)));
      for (const r of got) assert.equal(r.user === undefined, r.userId === null);
    });

    it('decodes every tag list, with and without a language', async () => {
      for (const tag of new Set(json.codes.flatMap((c) => c.tags ?? []))) {
        const tagged = (c: { tags?: string[] }) => c.tags?.includes(tag) ?? false;
        assert.deepEqual(await client.taggedCodes(tag), oracle.recentCodeIds(tagged).slice(0, 25).map((id) => oracle.listCode(id)), tag);
        const first = json.codes.find(tagged)!;
        const language = oracle.language(first.language);
        const both = oracle.recentCodeIds((c) => tagged(c) && oracle.language(c.language) === language);
        assert.deepEqual(await client.taggedCodes(tag, { language }), both.slice(0, 25).map((id) => oracle.listCode(id)), `${tag} in ${language}`);
      }
    });
  });
}

suite('the sample catalog', () => JSON.parse(fs.readFileSync(samplePath, 'utf8')) as CatalogJson, true);
suite('the escaping fixture', () => readFixture('escaping.json'), false);
suite('a generated 60-code catalog', () => generateCatalogJson({ codes: 60, refactorsPerCode: (id) => id % 4 }), false);

describe('reference service through RefactorClient: escaping and failures', () => {
  const json = readFixture('escaping.json');
  let server: RunningServer;
  let client: RefactorClient;
  before(async () => {
    server = await startServer({ catalog: parseDataset(json, 'escaping.json') });
    client = new RefactorClient({ baseUrl: server.url, timeoutMs: 5000, maxTries: 1 });
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it('keeps <script>, &, quotes, tabs, trailing spaces, blank lines and CRLF byte-exact', async () => {
    const cpp = await client.code(7);
    assert.equal(cpp.title, '<script>alert("x")</script> & \'friends\'');
    assert.equal(Buffer.compare(Buffer.from(cpp.code), Buffer.from((json.codes[0].code as string[]).join('\n'))), 0);
    assert.equal(cpp.comment, 'Line one & <two>\n  indented "line" three\n\nafter a blank line');
    assert.equal((await client.code(8)).code, 'class A\r\n{\r\n    int x = 1;\r\n}\r\n');
    const [anon] = cpp.refactors!;
    assert.equal(anon.userName, "O'Brien <anon> & co");
    assert.equal(anon.userId, null);
  });

  it('reports an unknown code as an HTTP 404 ApiError naming the URL', async () => {
    await assert.rejects(client.code(404), (e: unknown) => e instanceof ApiError && e.kind === 'http-status' && e.status === 404 && e.message.startsWith(`${server.url}/codes/404.xml`));
  });

  it('gets an empty list for an unknown language or tag, and for a page past the end', async () => {
    assert.deepEqual(await client.recentCodes({ language: 'cobol' }), []);
    assert.deepEqual(await client.taggedCodes('no-such-tag'), []);
    assert.deepEqual(await client.popularCodes({ page: 2 }), []);
  });
});

describe('reference service through RefactorClient: arbitrary text (property)', () => {
  // Every character XML 1.0 can carry, with the troublesome ones made frequent.
  const xmlChar = fc.oneof(
    fc.constantFrom('<', '>', '&', '"', "'", '\r', '\n', '\r\n', '\t', ' ', ']]>', '&amp;', '&#13;', '<![CDATA[', 'é', '李', '😀'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter((c) => !/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/.test(c)),
  );
  const text = fc.string({ unit: xmlChar, maxLength: 40 });

  it('round-trips any title, comment and code byte-exact, in the list and alone', async function () {
    this.timeout(20_000);
    await fc.assert(
      fc.asyncProperty(text, text, text, async (title, comment, code) => {
        const json: CatalogJson = {
          users: [{ id: 1, name: `U${title}`, identityUrl: comment, rating: 1.25, website: title }],
          codes: [{ id: 1, title: `T${title}`, language: 'Ruby', userId: 1, createdAt: '2008-01-01T00:00:00+01:00', updatedAt: '2008-01-01T00:00:00+01:00', comment, trackbackUrl: code, tags: ['t'], code: `x${code}` }],
          refactors: [{ id: 1, codeId: 1, userId: null, userName: title, userWebsite: comment, title: comment, rating: 1, ratingsCount: 1, createdAt: '2008-01-02T00:00:00-01:00', comment: code, code: `${code}y` }],
        };
        const oracle = new Oracle(json);
        const server = await startServer({ catalog: parseDataset(json, 'property') });
        const client = new RefactorClient({ baseUrl: server.url, timeoutMs: 5000, maxTries: 1 });
        try {
          assert.deepEqual(await client.code(1), oracle.singleCode(1));
          assert.deepEqual(await client.recentCodes(), [oracle.listCode(1)]);
          assert.deepEqual(await client.recentRefactorings(), [oracle.refactor(1, true)]);
        } finally {
          await client.close();
          await server.close();
        }
      }),
      { numRuns: 60, interruptAfterTimeLimit: 15_000 },
    );
  });
});
