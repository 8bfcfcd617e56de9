// One answer for the same code, online and offline, whichever front end asks: the command line's
// `similar` (and `adapt`) and the MCP server's find_similar_code, over a reference service on
// loopback and then with the service stopped and only the index they kept: the same codes, the same
// best refactoring with its rating and votes (the code view's best-rated order, as the service rates
// them), the same refactoring in the user's names. The extension's finder runs the same pipeline
// (src/similarity/pipeline.ts); its answer over the sample catalog is in the integration tests.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RefactorClient } from '../../../src/client/client';
import { catalogTools } from '../../../src/cli/mcp';
import { cacheFolder, indexFile, readIndex } from '../../../src/cli/search';
import { cliPipeline } from '../../../src/cli/similar';
import { formatRating } from '../../../src/cli/format';
import { sortRefactorings } from '../../../src/core/ratings';
import { parseDataset } from '../../../src/server/catalog/dataset';
import sampleJson from '../../../src/server/catalog/sample-catalog.json';
import { startServer, type RunningServer } from '../../../src/server/http/server';
import { CLI, run } from '../../helpers/cliProcess';
import { CONTAINS } from '../../helpers/similarSnippets';
import { MAX_TEXT_CHARS } from '../../../src/search/entries';

describe('similar code: one answer online and offline, on the command line and over MCP', function () {
  this.timeout(120_000);
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let server: RunningServer | undefined;

  before(function () {
    if (!fs.existsSync(CLI)) this.skip(); // built by `node esbuild.config.mjs`
  });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rb-one-answer-'));
    env = { REFACTOR_BROWSER_CACHE: path.join(dir, 'cache') };
    fs.writeFileSync(path.join(dir, 'mine.js'), CONTAINS);
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function mcp(url: string) {
    return catalogTools({
      client: new RefactorClient({ baseUrl: url, timeoutMs: 2000 }), baseUrl: url, service: url, shownService: url,
      searchCommand: `refactor-browser search --base-url ${url}`, log: () => undefined, env,
    });
  }

  it('gives the same codes, best refactoring (id, rating, votes) and adapted text with the service stopped', async () => {
    server = await startServer({ host: '127.0.0.1', port: 0, catalog: parseDataset(sampleJson, 'the sample catalog') });
    const url = server.url;
    const file = path.join(dir, 'mine.js');
    const similar = (extra: string[] = []) => run(['similar', file, '--base-url', url, '--timeout', '2', ...extra], env, 60_000);

    const onlineJson = await similar(['--json']);
    assert.equal(onlineJson.code, 0, onlineJson.stderr);
    const online = await similar();
    assert.equal(online.code, 0, online.stderr);
    const first = (JSON.parse(onlineJson.stdout) as Array<{ code: { id: number } }>)[0].code.id;
    // What the service says of the first code's refactorings, ordered as the code view orders them.
    const served = await new RefactorClient({ baseUrl: url }).code(first);
    const best = sortRefactorings(served.refactors ?? [], 'bestRated')[0];
    assert.ok(best && (best.ratingsCount ?? 0) > 0, 'a rated refactoring to tell the rule by');
    assert.ok(online.stdout.includes(`best refactoring #${best.id}, ${formatRating(best)}`), online.stdout);
    const adapted = await run(['adapt', String(first), String(best.id), file, '--base-url', url], env, 60_000);
    assert.equal(adapted.code, 0, adapted.stderr);
    const mcpOnline = await mcp(url).findSimilarCode({ code: CONTAINS, language: 'JavaScript' });
    assert.equal(mcpOnline.isError, false, mcpOnline.text);
    assert.ok(mcpOnline.text.includes(`Code #${first}:`), mcpOnline.text);
    assert.ok(mcpOnline.text.includes(`Best refactoring #${best.id}:`), mcpOnline.text);
    assert.ok(mcpOnline.text.includes(adapted.stdout.trimEnd()), `the adapted text of adapt in ${mcpOnline.text}`);

    await server.close();
    server = undefined;
    const offline = await similar();
    assert.equal(offline.code, 0, offline.stderr);
    assert.equal(offline.stdout, online.stdout);
    const offlineJson = await similar(['--json']);
    assert.deepEqual(JSON.parse(offlineJson.stdout), JSON.parse(onlineJson.stdout));
    const mcpOffline = await mcp(url).findSimilarCode({ code: CONTAINS, language: 'JavaScript' });
    assert.equal(mcpOffline.text, mcpOnline.text);
  });

  it('adapts a refactoring longer than the index keeps from the service\'s whole text, and offline says it cannot', async () => {
    // Code #12's best refactoring with a table longer than the search index keeps of a text.
    const catalog = structuredClone(sampleJson);
    const long = catalog.refactors.find((r) => r.id === 32)!;
    const table = Array.from({ length: 1800 }, (_, i) => `'entry${i}'`).join(', ');
    long.code = [...long.code.slice(0, -1), `contains.known = [${table}];`, `contains.last = 'the end';`, ''];
    assert.ok(long.code.join('\n').length > MAX_TEXT_CHARS);
    server = await startServer({ host: '127.0.0.1', port: 0, catalog: parseDataset(catalog, 'the test catalog') });
    const url = server.url;
    const indexed = await run(['search', '--base-url', url, 'contains'], env, 60_000);
    assert.equal(indexed.code, 0, indexed.stderr);
    const io = { err: () => undefined };
    const pipeline = () => cliPipeline({
      index: async () => (await readIndex(indexFile(cacheFolder(env), url), io)).index,
      source: new RefactorClient({ baseUrl: url, timeoutMs: 2000 }), service: url, io, env,
    });

    const [online] = (await pipeline().find({ text: CONTAINS, language: 'JavaScript' })).matches;
    assert.equal(online.best?.id, 32);
    assert.equal(online.cut, false);
    assert.ok(online.adapted?.ok, JSON.stringify(online.adapted));
    assert.ok(online.adapted.text.trimEnd().endsWith("includesItem.last = 'the end';"), `the whole refactoring in the user's names: ...${online.adapted.text.slice(-200)}`);

    await server.close();
    server = undefined;
    const [offline] = (await pipeline().find({ text: CONTAINS, language: 'JavaScript' })).matches;
    assert.equal(offline.best?.id, 32);
    assert.equal(offline.cut, true);
    assert.equal(offline.adapted?.ok, false, 'no adapted text made from a cut copy');
    const answer = await mcp(url).findSimilarCode({ code: CONTAINS, language: 'JavaScript' });
    assert.match(answer.text, /does not adapt to the given code \(the search index keeps only the first 16384 characters/);
    assert.match(answer.text, /as written, up to where the search index cuts it:/);
  });
});
