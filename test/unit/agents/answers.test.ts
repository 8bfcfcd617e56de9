// What the tools for agents answer: a code with its refactorings and search hits as Markdown, within
// the bound, the code always inside a fence nothing in it can close; inputs read or refused in one
// line; failures in one line a model can act on.
import { strict as assert } from 'node:assert';
import * as esbuild from 'esbuild';
import fc from 'fast-check';
import * as path from 'node:path';
import { RefactorClient } from '../../../src/client/client';
import { ApiError } from '../../../src/core/errors';
import type { Code, Refactor } from '../../../src/core/model';
import { codeAnswer, fenceFor, MAX_ANSWER_CHARS, searchAnswer } from '../../../src/agents/answers';
import { failureLine, noIndexLine } from '../../../src/agents/failures';
import { readCodeInput, readSearchInput, SEARCH_INPUT_SCHEMA, CODE_INPUT_SCHEMA } from '../../../src/agents/tools';
import { inProcessFetch, SAMPLE_BASE_URL } from '../../../src/server/http/fetchHandler';
import { loadSampleDataset } from '../../../src/server/catalog/sampleDataset';
import { indexCatalog } from '../../../src/search/indexer';
import { CodeSearch, type SearchHit } from '../../../src/search/searchIndex';
import { aCode, aRefactor } from '../../helpers/builders';

const BASE = 'http://rb.test/api/';

const refactor = (id: number, over: Partial<Refactor> = {}): Refactor => aRefactor({
  id, codeId: 42, title: `Refactoring ${id}`, code: `puts ${id}\n`, createdAt: new Date(Date.UTC(2026, 0, id)), ratingsCount: 0, userName: `author${id}`, ...over,
});

const code = (over: Partial<Code> = {}): Code => aCode({
  id: 42, title: 'Sum an array', code: 'a.inject { |s, x| s + x }\n', comment: 'Is there a shorter way?', userId: 7, refactors: [], ...over,
});

/** The fenced blocks of a Markdown text: each opening fence with what it holds, up to the same fence. */
function fencedBlocks(text: string): { fence: string; info: string; body: string }[] {
  const blocks: { fence: string; info: string; body: string }[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})([^`]*)$/.exec(lines[i]);
    if (!open) continue;
    const end = lines.indexOf(open[1], i + 1);
    assert.ok(end > i, `the fence on line ${i + 1} is closed`);
    blocks.push({ fence: open[1], info: open[2], body: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return blocks;
}

describe('answers for agents', () => {
  describe('codeAnswer', () => {
    it('gives the id, title, language, author, page URL, the code fenced in its language, and refactorings best rated first with rating and votes', () => {
      const text = codeAnswer(code({
        refactors: [
          refactor(1, { rating: 3, ratingsCount: 4 }),
          refactor(2, { rating: 5, ratingsCount: 2, title: 'Use sum', code: 'a.sum\n', comment: 'Ruby 2.4 has sum.' }),
          refactor(3),
        ],
      }), BASE);
      assert.match(text, /^# Code #42: Sum an array\n/);
      assert.match(text, /- language: Ruby\n- author: user #7\n- page: http:\/\/rb\.test\/api\/codes\/42-sum-an-array\n- refactorings: 3, best rated first/);
      assert.ok(text.includes('\n\n> Is there a shorter way?\n\n'));
      const blocks = fencedBlocks(text);
      assert.deepEqual(blocks.map((b) => [b.info, b.body]), [['ruby', 'a.inject { |s, x| s + x }'], ['ruby', 'a.sum'], ['ruby', 'puts 1'], ['ruby', 'puts 3']]);
      const order = ['## Refactoring #2: Use sum\nrated 5 (2 votes), by author2', '## Refactoring #1: Refactoring 1\nrated 3 (4 votes), by author1', '## Refactoring #3: Refactoring 3\nnot rated, by author3'];
      const at = order.map((h) => text.indexOf(h));
      assert.ok(at.every((i) => i > 0), text);
      assert.deepEqual([...at].sort((a, b) => a - b), at);
      assert.ok(text.includes('\n\n> Ruby 2.4 has sum.\n\n'));
    });

    it('says when a code has no refactorings, and names an untitled code and an anonymous author', () => {
      const text = codeAnswer(code({ title: '', userId: null, permalink: '' }), BASE);
      assert.match(text, /^# Code #42: Code #42\n/);
      assert.ok(text.includes('- author: anonymous'));
      assert.ok(text.includes('- page: http://rb.test/api/codes/42\n'));
      assert.ok(text.endsWith('No refactorings yet.'));
    });

    it('keeps a title on one line, so that it cannot start a heading or a fence of its own', () => {
      const text = codeAnswer(code({ title: 'a\n# not a heading\n```' }), BASE);
      assert.match(text, /^# Code #42: a # not a heading ```\n/);
      assert.equal(fencedBlocks(text).length, 1);
    });

    it('fences code holding backticks with a longer fence', () => {
      const src = 'x = `ls`\n```\nnot the end\n`````\n';
      const text = codeAnswer(code({ code: src }), BASE);
      const [block] = fencedBlocks(text);
      assert.equal(block.fence, '``````');
      assert.equal(block.body, src.trimEnd());
    });

    it('leaves out the refactorings that do not fit, best rated kept, and says how many and where to read them', () => {
      const big = 'x = 1\n'.repeat(200);
      // Ratings 5, 4, 3, 2, 1, 5, 4, …: the later of two equal ratings first.
      const refactors = Array.from({ length: 12 }, (_, i) => refactor(i + 1, { code: big, rating: 5 - (i % 5), ratingsCount: 1 }));
      const text = codeAnswer(code({ refactors }), BASE);
      assert.ok(text.length <= MAX_ANSWER_CHARS, `${text.length}`);
      const shown = [...text.matchAll(/## Refactoring #(\d+)/g)].map((m) => Number(m[1]));
      assert.ok(shown.length >= 1 && shown.length < 12, `${shown.length}`);
      assert.deepEqual(shown, [11, 6, 1, 12, 7, 2, 8, 3, 9, 4, 10, 5].slice(0, shown.length));
      assert.ok(text.includes(`${12 - shown.length} more refactorings left out to keep this answer short; the page lists them all: http://rb.test/api/codes/42-sum-an-array`), text.slice(-300));
    });

    it('cuts a code too long to fit at a line and says how much it shows', () => {
      const long = Array.from({ length: 2000 }, (_, i) => `line ${i}`).join('\n');
      const text = codeAnswer(code({ code: long, refactors: [refactor(1)] }), BASE);
      assert.ok(text.length <= MAX_ANSWER_CHARS);
      const [block] = fencedBlocks(text);
      const lines = block.body.split('\n');
      assert.deepEqual(lines, Array.from({ length: lines.length }, (_, i) => `line ${i}`));
      assert.ok(text.includes(`(the code is cut here: ${lines.length} of 2000 lines shown)`));
      assert.ok(text.endsWith('## Refactoring #1: Refactoring 1\nnot rated, by author1\n\n```ruby\nputs 1\n```'), 'room is kept for a short refactoring after the cut code');
    });

    it('stays within any bound and keeps every fence closed around exactly its code, whatever the code holds', () => {
      const textArb = fc.string({ unit: fc.constantFrom('`', '`', 'a', ' ', '\n', '~', '#', 'é', '\u0007'), maxLength: 400 });
      fc.assert(fc.property(
        textArb, fc.array(fc.record({ code: textArb, title: textArb, comment: textArb, rating: fc.option(fc.integer({ min: 1, max: 5 })) }), { maxLength: 8 }),
        fc.integer({ min: 200, max: 9000 }),
        (src, refs, max) => {
          const c = code({ code: src, refactors: refs.map((r, i) => refactor(i + 1, { ...r, ratingsCount: r.rating === null ? 0 : 1 })) });
          const text = codeAnswer(c, BASE, max);
          assert.ok(text.length <= max, `${text.length} > ${max}`);
          for (const b of fencedBlocks(text)) assert.ok(!b.body.includes(b.fence), 'nothing inside a fence holds the fence');
        },
      ), { numRuns: 300 });
    });

    it('answers a code of the sample catalog read through the client', async () => {
      const client = new RefactorClient({ baseUrl: 'http://sample.test/', fetch: inProcessFetch(loadSampleDataset()) });
      try {
        const [first] = await client.recentCodes();
        const read = await client.code(first.id);
        const text = codeAnswer(read, 'http://sample.test/');
        assert.ok(text.startsWith(`# Code #${read.id}: `));
        assert.ok(text.includes(`- page: http://sample.test/codes/${read.id}`));
        assert.equal(fencedBlocks(text)[0].body, read.code.replace(/\r\n?/g, '\n').replace(/\n+$/, ''));
      } finally {
        await client.close();
      }
    });
    it('gives no page URL for a code of the built-in sample catalog, whose address never resolves', async () => {
      const client = new RefactorClient({ baseUrl: SAMPLE_BASE_URL, fetch: inProcessFetch(loadSampleDataset()) });
      try {
        const [first] = await client.recentCodes();
        const text = codeAnswer(await client.code(first.id), SAMPLE_BASE_URL);
        assert.ok(text.includes('- page: none (the built-in sample catalog has no web pages)\n'), text.slice(0, 400));
        assert.ok(!text.includes('.invalid'), 'no link that cannot open');
        const hits = searchAnswer({ query: 'sum', hits: [{ kind: 'code', codeId: first.id, title: 'T', language: 'Ruby', author: 'ana', line: 'x', score: 1 } satisfies SearchHit], baseUrl: SAMPLE_BASE_URL });
        assert.ok(hits.includes('page: none (the built-in sample catalog has no web pages)') && !hits.includes('.invalid'), hits);
        const e = await client.code('999999').then(() => undefined, (err: unknown) => err);
        assert.equal(failureLine(e, SAMPLE_BASE_URL, '999999'), 'no code 999999 on the built-in sample catalog; search the catalog for an id that exists');
      } finally {
        await client.close();
      }
    });
  });

  describe('searchAnswer', () => {
    const hit = (codeId: number, over: Partial<SearchHit> = {}): SearchHit =>
      ({ kind: 'code', codeId, title: `Code ${codeId}`, language: 'Ruby', author: 'ana', line: 'a.sum', score: 1, ...over });

    it('lists each hit with its id, title, language, author, page URL and the matched line, and says how to read one', () => {
      const text = searchAnswer({
        query: 'sum', baseUrl: BASE, counts: { codes: 10, refactors: 30 }, codeTool: 'get_code',
        hits: [hit(3), hit(5, { kind: 'refactor', refactorId: 9, title: '', codeTitle: 'Sum', author: '', line: 'x = `y`' })],
      });
      assert.equal(text, [
        '2 matches for "sum" among 10 codes and 30 refactorings, best first.',
        '1. Code #3: Code 3\n   language: Ruby; author: ana; page: http://rb.test/api/codes/3\n   matched: `a.sum`',
        '2. Code #5: Refactoring #9 (a refactoring of code #5, Sum)\n   language: Ruby; author: anonymous; page: http://rb.test/api/codes/5\n   matched: `` x = `y` ``',
        'Read a code with its refactorings by its id with get_code.',
      ].join('\n\n'));
    });

    it('says when nothing matched, in which language and among how much', () => {
      assert.equal(searchAnswer({ query: 'zzz', language: 'Python', baseUrl: BASE, hits: [], counts: { codes: 2, refactors: 0 }, codeTool: 'get_code' }),
        'No matches for "zzz" in Python among 2 codes and 0 refactorings.');
    });

    it('stays within the bound and says how many hits it left out', () => {
      const hits = Array.from({ length: 50 }, (_, i) => hit(i + 1, { title: 'T'.repeat(150), line: 'l'.repeat(120) }));
      const text = searchAnswer({ query: 'q', baseUrl: BASE, hits }, 4000);
      assert.ok(text.length <= 4000);
      const shown = [...text.matchAll(/^\d+\. Code #/gm)].length;
      assert.ok(shown > 0 && shown < 50);
      assert.ok(text.includes(`${50 - shown} more matches left out to keep this answer short`));
    });

    it('answers hits of the offline index as the search ranks them', async () => {
      const client = new RefactorClient({ baseUrl: 'http://sample.test/', fetch: inProcessFetch(loadSampleDataset()) });
      const index = CodeSearch.empty();
      try {
        await indexCatalog({ source: client, index });
      } finally {
        await client.close();
      }
      const hits = index.search('array', { limit: 5 });
      assert.ok(hits.length > 0);
      const text = searchAnswer({ query: 'array', baseUrl: 'http://sample.test/', hits, counts: index.counts() });
      assert.deepEqual([...text.matchAll(/^\d+\. Code #(\d+)/gm)].map((m) => Number(m[1])), hits.map((h) => h.codeId));
    });
  });

  describe('inputs', () => {
    it('reads a search input, any lettercase of a language, and a limit within range', () => {
      assert.deepEqual(readSearchInput({ query: ' sum ' }), { ok: true, value: { query: 'sum', language: undefined, limit: 10 } });
      assert.deepEqual(readSearchInput({ query: 'sum', language: 'c#', limit: 50 }), { ok: true, value: { query: 'sum', language: 'C#', limit: 50 } });
    });

    it('refuses a search input it cannot use, in one line that says what is wanted', () => {
      for (const bad of [undefined, 'sum', { query: '' }, { query: 3 }, { query: 'x', language: 'Klingon' }, { query: 'x', limit: 0 }, { query: 'x', limit: 51 }, { query: 'x', limit: 2.5 }]) {
        const r = readSearchInput(bad);
        assert.equal(r.ok, false, JSON.stringify(bad));
        if (!r.ok) assert.match(r.error, /^[^\n]+$/);
      }
      const r = readSearchInput({ query: 'x', language: 'Klingon' });
      assert.ok(!r.ok && r.error.includes('Ruby, PHP'));
    });

    it('reads a code as an id, a code ref, or a page or XML URL of the service', () => {
      assert.deepEqual(readCodeInput({ code: 42 }, BASE), { ok: true, value: '42' });
      assert.deepEqual(readCodeInput({ code: ' 42 ' }, BASE), { ok: true, value: '42' });
      assert.deepEqual(readCodeInput({ code: '42-sum-an-array' }, BASE), { ok: true, value: '42-sum-an-array' });
      assert.deepEqual(readCodeInput({ code: 'http://rb.test/api/codes/42-sum-an-array' }, BASE), { ok: true, value: '42-sum-an-array' });
      assert.deepEqual(readCodeInput({ code: 'HTTP://RB.TEST/api/codes/42.xml' }, 'http://rb.test/api'), { ok: true, value: '42' });
    });

    it('refuses a code it cannot read, and a page of another service, naming the one it reads', () => {
      for (const bad of [{}, { code: '' }, { code: 0 }, { code: -1 }, { code: 1.5 }, { code: 'sum' }, { code: 'http://rb.test/api/tags/x' }]) {
        const r = readCodeInput(bad, BASE);
        assert.equal(r.ok, false, JSON.stringify(bad));
        if (!r.ok) assert.match(r.error, /^[^\n]+$/);
      }
      assert.deepEqual(readCodeInput({ code: 'http://elsewhere.test/api/codes/42' }, BASE),
        { ok: false, error: 'http://elsewhere.test/api/codes/42 is not a page of http://rb.test/api/: give its id, or a page URL of that service' });
      assert.equal(readCodeInput({ code: 'http://rb.test/codes/42' }, BASE).ok, false, 'outside the base path');
    });

    it('describes the inputs the readers take', () => {
      assert.deepEqual(SEARCH_INPUT_SCHEMA.required, ['query']);
      assert.deepEqual(Object.keys(SEARCH_INPUT_SCHEMA.properties), ['query', 'language', 'limit']);
      assert.deepEqual(CODE_INPUT_SCHEMA.required, ['code']);
      for (const language of SEARCH_INPUT_SCHEMA.properties.language.enum) assert.ok(readSearchInput({ query: 'x', language }).ok, language);
      assert.ok(readSearchInput({ query: 'x', limit: SEARCH_INPUT_SCHEMA.properties.limit.maximum }).ok);
    });
  });

  describe('failures', () => {
    it('says "no code N on URL" for a code the service does not have', async () => {
      const client = new RefactorClient({ baseUrl: 'http://sample.test/', fetch: inProcessFetch(loadSampleDataset()) });
      try {
        const e = await client.code('999999').then(() => undefined, (err: unknown) => err);
        assert.equal(failureLine(e, 'http://sample.test', '999999'), 'no code 999999 on http://sample.test/; search the catalog for an id that exists');
      } finally {
        await client.close();
      }
    });

    it('says the service did not answer when it could not be reached, with the URL and the cause', () => {
      const e = new ApiError('connection', 'http://127.0.0.1:9/codes/1.xml', 'connection refused');
      assert.equal(failureLine(e, 'http://127.0.0.1:9', '1'),
        'the service did not answer: http://127.0.0.1:9/codes/1.xml: connection refused; try again later, or check that http://127.0.0.1:9/ is the service\'s address');
      assert.match(failureLine(new ApiError('timeout', 'http://h/codes/1.xml', 'timed out after 5 s'), 'http://h'), /^the service did not answer: http:\/\/h\/codes\/1\.xml: timed out after 5 s; /);
    });

    it('keeps any other failure to its first line', () => {
      assert.equal(failureLine(new Error('first\nsecond'), BASE), 'first');
      assert.equal(noIndexLine(BASE, 'run "refactor-browser search QUERY" once to make one'), 'no search index of http://rb.test/api/ yet: run "refactor-browser search QUERY" once to make one');
    });
  });

  it('bundles for the browser extension host: no `vscode` and no Node module anywhere below it', () => {
    const root = path.resolve(__dirname, '../../../..');
    const built = esbuild.buildSync({
      entryPoints: ['answers.ts', 'failures.ts', 'tools.ts'].map((f) => path.join(root, 'src/agents', f)),
      bundle: true, platform: 'browser', format: 'esm', write: false, outdir: 'unused', logLevel: 'silent', metafile: true,
    });
    assert.deepEqual(built.errors, []);
    assert.ok(Object.keys(built.metafile.inputs).every((f) => f.startsWith('src/')), Object.keys(built.metafile.inputs).join(' '));
  });

  it('fenceFor is longer than every backtick run, and three at least', () => {
    assert.equal(fenceFor('plain'), '```');
    assert.equal(fenceFor('````'), '`````');
  });
});
