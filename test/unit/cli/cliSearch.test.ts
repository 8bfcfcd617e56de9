// `refactor-browser search` and `serve --generate`, the built command line run as a process: the
// same ranking as the extension over an index kept in the cache folder, brought up to date with only
// what is new, searched as kept when the service is down; the bad usages; a generated catalog.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RefactorClient } from '../../../src/client/client';
import { generateCatalog } from '../../../src/server/catalog/generatedCatalog';
import { startServer, type RunningServer } from '../../../src/server/http/server';
import { indexFile, runSearch } from '../../../src/cli/search';
import { indexCatalog } from '../../../src/search/indexer';
import { CodeSearch, type SearchHit } from '../../../src/search/searchIndex';
import { startFrontServer, type FrontServer } from '../../helpers/frontServer';
import { run, startServe, type ServeProcess } from '../../helpers/cliProcess';

describe('refactor-browser search (command line)', function () {
  this.timeout(30_000);
  let cache: string;
  let server: RunningServer;
  let front: FrontServer;

  beforeEach(async () => {
    cache = fs.mkdtempSync(path.join(os.tmpdir(), 'rb-search-'));
    server = await startServer({ host: '127.0.0.1', port: 0, catalog: generateCatalog({ codes: 120 }) });
    front = await startFrontServer(server.url, {});
  });
  afterEach(async () => {
    await front.close();
    await server.close();
    fs.rmSync(cache, { recursive: true, force: true });
  });

  const search = (args: string[], baseUrl: string = front.url) =>
    run(['search', ...args, '--base-url', baseUrl], { REFACTOR_BROWSER_CACHE: cache }, 20_000);

  it('prints the same results, in the same order, as the extension\'s search over the same service', async () => {
    const r = await search(['sum', 'array', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    const printed = JSON.parse(r.stdout) as SearchHit[];
    const client = new RefactorClient({ baseUrl: server.url });
    const index = CodeSearch.empty();
    await indexCatalog({ source: client, index });
    await client.close();
    assert.ok(printed.length > 0);
    assert.deepEqual(printed, JSON.parse(JSON.stringify(index.search('sum array', { limit: 20 }))));
    assert.ok(fs.existsSync(indexFile(cache, front.url)), 'the index is kept in the cache folder');
  });

  it('reads the whole service the first time, then only a page of each list', async () => {
    assert.equal((await search(['parse'])).code, 0);
    const first = front.paths.length;
    assert.ok(first >= 5 + 15, `${first} requests`);
    const again = await search(['parse', '--limit', '3']);
    assert.equal(again.code, 0, again.stderr);
    const second = front.paths.slice(first);
    assert.ok(second.length >= 2 && second.length <= 4, second.join(' '));
    const blocks = again.stdout.trimEnd().split('\n');
    assert.match(blocks.at(-1)!, /^3 of the best matches among 120 codes and 360 refactorings\.$/);
    // Each result: "#id  title", its language and author, its best line.
    assert.match(blocks[0], /^#\d+ {2}\S/);
    assert.match(blocks[1], /^ {6}\S+ · \S/);
  });

  it('keeps to --language, and says so when nothing matches', async () => {
    const r = await search(['sum', '--language', 'python', '--json']);
    const hits = JSON.parse(r.stdout) as SearchHit[];
    assert.ok(hits.length > 0 && hits.every((h) => h.language === 'Python'), r.stdout.slice(0, 300));
    const none = await search(['zzzqqqxxx']);
    assert.equal(none.code, 0);
    assert.equal(none.stdout, 'No matches among 120 codes and 360 refactorings.\n');
  });

  it('searches the index it keeps when the service cannot be reached, and says so on stderr in one line', async () => {
    assert.equal((await search(['parse'])).code, 0);
    const url = front.url;
    await front.close();
    await server.close();
    const r = await search(['parse', '--json', '--timeout', '2'], url);
    assert.equal(r.code, 0, r.stderr);
    assert.ok((JSON.parse(r.stdout) as SearchHit[]).length > 0);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /^refactor-browser: could not bring the search index up to date \(could not read recent codes, page 1: .*\); searching what it holds\n$/);
    // Nothing kept for another service (the same dead address under another path): the failure is the command's.
    const fresh = await search(['parse', '--timeout', '2'], `${url}elsewhere/`);
    assert.equal(fresh.code, 1);
    assert.equal(fresh.stderr.trimEnd().split('\n').length, 1, fresh.stderr);
    // Reopened for afterEach.
    server = await startServer({ host: '127.0.0.1', port: 0 });
    front = await startFrontServer(server.url, {});
  });

  it('builds the index again, saying so, when the kept file is not an index', async () => {
    fs.mkdirSync(cache, { recursive: true });
    fs.writeFileSync(indexFile(cache, front.url), '{"format":1,"entries":[[1,2,3]]');
    const r = await search(['parse', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^refactor-browser: the saved search index is not JSON .*; building it again\n$/);
    assert.ok((JSON.parse(r.stdout) as SearchHit[]).length > 0);
  });

  it('indexes the kept entries again, saying so, when the kept file\'s MiniSearch part names other fields; an impossible time starts it over', async () => {
    assert.equal((await search(['parse'])).code, 0);
    const file = indexFile(cache, front.url);
    const text = fs.readFileSync(file, 'utf8');
    const end = text.indexOf('\n');
    const head = JSON.parse(text.slice(0, end)) as { index: { fieldIds: Record<string, number> } };
    const { title, ...others } = head.index.fieldIds;
    fs.writeFileSync(file, `${JSON.stringify({ ...head, index: { ...head.index, fieldIds: { ...others, titel: title } } })}${text.slice(end)}`);
    const r = await search(['parse', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, `refactor-browser: the search index ${file} did not match its entries; indexed them again\n`);
    assert.ok((JSON.parse(r.stdout) as SearchHit[]).length > 0);
    assert.equal((await search(['parse'])).stderr, '', 'saved again as it should be');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/"indexedAt":\d+/, '"indexedAt":1e309'));
    const again = await search(['parse']);
    assert.match(again.stderr, /^refactor-browser: the saved search index is not in a form this version reads .*; building it again\n$/);
  });

  it('writes the index through a new file of its own: a symlink planted at a predictable temporary name is left alone, its target untouched', async () => {
    const file = indexFile(cache, front.url);
    fs.mkdirSync(cache, { recursive: true });
    const victim = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'rb-victim-')), 'precious.txt');
    fs.writeFileSync(victim, 'precious');
    // The name a search once wrote through (this process's id), and the plain one a guess would try.
    const planted = [`${file}.${process.pid}.tmp`, `${file}.tmp`];
    for (const link of planted) fs.symlinkSync(victim, link);
    const client = new RefactorClient({ baseUrl: front.url });
    const out: string[] = [];
    try {
      const code = await runSearch({ name: 'search', query: 'parse', limit: 5, global: { baseUrl: front.url, timeoutSeconds: 10, json: true } },
        client, front.url, { out: (t) => out.push(t), err: (t) => out.push(t) }, { REFACTOR_BROWSER_CACHE: cache });
      assert.equal(code, 0, out.join(''));
    } finally {
      await client.close();
    }
    assert.equal(fs.readFileSync(victim, 'utf8'), 'precious', 'the symlinks\' target is untouched');
    for (const link of planted) assert.equal(fs.readlinkSync(link), victim, 'the planted symlink is still there, as it was');
    assert.ok(!fs.lstatSync(file).isSymbolicLink());
    assert.equal(CodeSearch.fromJSON(fs.readFileSync(file, 'utf8')).index.counts().codes, 120, 'the index is saved');
    // Nothing is left beside it but what was planted.
    assert.deepEqual(fs.readdirSync(cache).sort(), [path.basename(file), ...planted.map((p) => path.basename(p))].sort());
    fs.rmSync(path.dirname(victim), { recursive: true, force: true });
  });

  it('bad usage exits 2: no query, a limit that is not a whole number from 1, an empty language', async () => {
    for (const args of [['search'], ['search', '  '], ['search', 'x', '--limit', '0'], ['search', 'x', '--limit', 'ten'], ['search', 'x', '--language', '']]) {
      const r = await run(args, { REFACTOR_BROWSER_CACHE: cache });
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    }
  });

  it('searches the built-in sample catalog without a base URL', async () => {
    const r = await run(['search', 'inject', '--json', '--limit', '1'], { REFACTOR_BROWSER_CACHE: cache });
    assert.equal(r.code, 0, r.stderr);
    const [hit] = JSON.parse(r.stdout) as SearchHit[];
    assert.deepEqual([hit.kind, hit.title], ['refactor', 'One pass with inject']);
  });
});

describe('refactor-browser serve --generate', function () {
  this.timeout(20_000);
  let p: ServeProcess | undefined;
  afterEach(() => p?.kill());

  it('serves a generated catalog of N codes with three refactorings each, the same every time', async () => {
    p = startServe(['serve', '--port', '0', '--generate', '60']);
    const url = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(await p.firstLine)?.[1];
    assert.ok(url);
    const client = new RefactorClient({ baseUrl: url });
    try {
      const index = CodeSearch.empty();
      await indexCatalog({ source: client, index });
      assert.deepEqual(index.counts(), { codes: 60, refactors: 180 });
      const expected = generateCatalog({ codes: 60 });
      const [newest] = await client.recentCodes();
      assert.equal(newest.title, expected.recentCodes.all[0].title);
      assert.ok(new Set((await client.recentCodes({ page: 2 })).map((c) => c.language)).size > 1, 'a page mixes languages');
    } finally {
      await client.close();
    }
  });

  it('refuses --catalog with --generate, and a size past the bound (exit 2)', async () => {
    for (const args of [['serve', '--generate', '10', '--catalog', 'x.json'], ['serve', '--generate', '100001'], ['serve', '--generate', 'many']]) {
      const r = await run(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    }
  });
});
