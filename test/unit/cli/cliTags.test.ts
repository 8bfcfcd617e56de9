// A code's tags on the command line: `show` prints them where the service's XML says them (the
// reference service's does), and `tags` lists every tag with its codes' count, most used first,
// counted from the search index kept in the cache folder; a service whose XML says no tags has none.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RefactorClient } from '../../../src/client/client';
import type { Code } from '../../../src/core/model';
import { loadSampleDataset } from '../../../src/server/catalog/sampleDataset';
import { startServer, type RunningServer } from '../../../src/server/http/server';
import { startFrontServer, type FrontServer } from '../../helpers/frontServer';
import { run } from '../../helpers/cliProcess';

/** Every tag of the sample catalog, lower-cased, with how many of `language`'s codes (any's, undefined) have it: most first, then by name. */
function sampleTagCounts(language?: string): { tag: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const code of loadSampleDataset().codes.values()) {
    if (language !== undefined && code.language !== language) continue;
    for (const tag of code.tags) counts.set(tag.toLowerCase(), (counts.get(tag.toLowerCase()) ?? 0) + 1);
  }
  return [...counts].map(([tag, count]) => ({ tag, count })).sort((a, b) => b.count - a.count || (a.tag < b.tag ? -1 : 1));
}

describe('refactor-browser show and tags: a code\'s tags (command line)', function () {
  this.timeout(60_000);
  let cache: string;
  let service: RunningServer;
  /** The same service, its XML without the `tags` element, as the original service answered. */
  let untagged: FrontServer;

  before(async () => {
    service = await startServer({ host: '127.0.0.1', port: 0 });
    untagged = await startFrontServer(service.url, { noTags: true });
  });
  after(async () => {
    await untagged.close();
    await service.close();
  });
  beforeEach(() => {
    cache = fs.mkdtempSync(path.join(os.tmpdir(), 'rb-tags-'));
  });
  afterEach(() => fs.rmSync(cache, { recursive: true, force: true }));

  const cli = (args: string[], baseUrl: string = service.url) => run([...args, '--base-url', baseUrl], { REFACTOR_BROWSER_CACHE: cache }, 30_000);

  it('show prints the code\'s tags, and --json has them as "tags"', async () => {
    const tagged = [...loadSampleDataset().codes.values()].find((c) => c.tags.length >= 2)!;
    assert.ok(tagged, 'the sample catalog has a code with two tags');
    const text = await cli(['show', String(tagged.id)]);
    assert.equal(text.code, 0, text.stderr);
    assert.equal(text.stdout.split('\n')[2], `tags: ${tagged.tags.join(', ')}`, 'the tags follow the code\'s heading');
    const json = await cli(['show', String(tagged.id), '--json']);
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual((JSON.parse(json.stdout) as Code).tags, [...tagged.tags]);
    const untaggedCode = [...loadSampleDataset().codes.values()].find((c) => c.tags.length === 0);
    if (untaggedCode) {
      const none = await cli(['show', String(untaggedCode.id)]);
      assert.equal(none.code, 0, none.stderr);
      assert.ok(!/^tags: /m.test(none.stdout), 'no tags line for a code without tags');
    }
  });

  it('the lists carry each code\'s tags too, and a service whose XML has none gives no tags field', async () => {
    const client = new RefactorClient({ baseUrl: service.url });
    const bare = new RefactorClient({ baseUrl: untagged.url });
    try {
      const recent = await client.recentCodes();
      for (const c of recent) assert.deepEqual(c.tags, [...loadSampleDataset().codes.get(c.id)!.tags], `code ${c.id}`);
      assert.ok((await bare.recentCodes()).every((c) => !('tags' in c)));
      assert.equal('tags' in (await bare.code(recent[0].id)), false);
    } finally {
      await client.close();
      await bare.close();
    }
  });

  it('tags lists every tag with its codes\' count, most used first; --language and --json', async () => {
    const all = await cli(['tags']);
    assert.equal(all.code, 0, all.stderr);
    const expected = sampleTagCounts();
    assert.ok(expected.length > 3 && expected[0].count > 1, 'the sample catalog has tags shared by codes');
    const lines = all.stdout.trimEnd().split('\n');
    assert.deepEqual(lines.slice(0, -1).map((l) => l.split(/\s{2,}/)), expected.map((t) => [t.tag, `${t.count} code${t.count === 1 ? '' : 's'}`]));
    assert.equal(lines.at(-1), `${expected.length} tags among ${loadSampleDataset().codes.size} codes the search index knows.`);

    const json = await cli(['tags', '--json']);
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout), expected);

    const ruby = await cli(['tags', '--language', 'RUBY', '--json']);
    assert.equal(ruby.code, 0, ruby.stderr);
    assert.deepEqual(JSON.parse(ruby.stdout), sampleTagCounts('Ruby'));
    assert.notDeepEqual(sampleTagCounts('Ruby'), expected);

    // Every tag listed names codes that `tag TAG` finds.
    const [top] = expected;
    const listed = await cli(['tag', top.tag, '--json']);
    assert.equal((JSON.parse(listed.stdout) as unknown[]).length, Math.min(top.count, 25));
  });

  it('tags of a service whose XML says no code\'s tags: none, and says why', async () => {
    const r = await cli(['tags'], untagged.url);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `No tags among ${loadSampleDataset().codes.size} codes the search index knows (a service whose XML says no code's tags lists none).\n`);
    const json = await cli(['tags', '--json'], untagged.url);
    assert.deepEqual(JSON.parse(json.stdout), []);
  });

  it('bad usage: an argument, an unknown language; help names where the tags come from', async () => {
    for (const [args, message] of [
      [['tags', 'speed'], 'refactor-browser: unexpected argument "speed"'],
      [['tags', '--language', 'cobol'], 'refactor-browser: --language: the service has no language "cobol"'],
    ] as const) {
      const r = await run([...args]);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout, '');
      assert.ok(r.stderr.startsWith(message), r.stderr);
    }
    const help = await run(['tags', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: refactor-browser tags \[--language L\]/);
    assert.match(help.stdout, /search index/);
    assert.match((await run(['--help'])).stdout, /\n {2}tags \[--language L\] /);
  });
});
