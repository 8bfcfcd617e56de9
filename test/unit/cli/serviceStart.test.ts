// A service's first start and its stop as the owner sees them, the built CLI (dist/cli.js) run as a
// process: a new data folder says at once what is being made, is made from the database the build
// prepared (dist/pglite-datadir/, this PGlite's version) and works; serve says when it stops; and
// what can be told at once (a port in use, a missing catalog, an --output folder that is not there,
// a data folder that cannot be made) is one line in words, exit 1, before any storage is made.
// Every process is stopped by its pid, every folder removed.
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseDataset } from '../../../src/server/catalog/dataset';
import { loadDatasetFile } from '../../../src/server/catalog/datasetFile';
import { generateCatalogJson } from '../../../src/server/catalog/generatedCatalog';
import { IMPORT_BATCH } from '../../../src/server/catalog/catalogRows';
import { installedPgliteVersion } from '../../../src/server/sql/preparedDataDir';
import { postCode } from '../../helpers/contributions';
import { CLI, run, startServe, type Run, type ServeProcess } from '../../helpers/cliProcess';

/** Opening the embedded PostgreSQL takes seconds, and tens of them on a busy 2-core machine. */
const STORAGE_MS = 60_000;
const FIXTURE = path.resolve(__dirname, '../../../../test/fixtures/catalogs/escaping.json');
const CREATING = (dir: string): string => `creating the embedded database in ${dir}…\n`;

function oneLine(r: { stderr: string } | Run, expected: RegExp | string): void {
  if (typeof expected === 'string') assert.equal(r.stderr, expected);
  else assert.match(r.stderr, expected);
  assert.equal(r.stderr.split('\n').length, 2, r.stderr);
}

describe('refactor-browser: a service\'s first start, its stop, and what it refuses at once (process)', function () {
  this.timeout(240_000);
  let work: string;
  let started: ServeProcess[];
  let held: Server | undefined;

  beforeEach(() => {
    work = mkdtempSync(path.join(tmpdir(), 'rb-start-'));
    started = [];
  });
  afterEach(async () => {
    for (const p of started) {
      p.kill();
      await p.exit.catch(() => undefined);
    }
    if (held) await new Promise<void>((resolve) => held!.close(() => resolve()));
    held = undefined;
    rmSync(work, { recursive: true, force: true });
  });

  function serve(args: string[]): ServeProcess {
    const p = startServe(['serve', ...args], STORAGE_MS);
    started.push(p);
    return p;
  }

  it('the build prepared the database of the PGlite installed beside the command, from PGlite\'s own dump', () => {
    const prepared = path.join(path.dirname(CLI), 'pglite-datadir', `${installedPgliteVersion()}.tar.gz`);
    assert.ok(existsSync(prepared), `${prepared} is missing: node esbuild.config.mjs makes it`);
    // gzip's magic number: it is unpacked with Node's zlib.
    assert.deepEqual([...readFileSync(prepared).subarray(0, 2)], [0x1f, 0x8b]);
  });

  it('serve on a new folder says what it is making before it listens, and the database it made takes a code and keeps it', async () => {
    const dir = path.join(work, 'data');
    const added = await run(['users', 'add', 'Ana', '--data-dir', dir], {}, STORAGE_MS);
    assert.equal(added.code, 0, added.stderr);
    assert.ok(added.stderr.startsWith(CREATING(dir)), added.stderr);
    assert.ok(existsSync(path.join(dir, 'postgres', 'PG_VERSION')));
    assert.deepEqual(readdirSync(dir).filter((n) => n.includes('partial')), [], 'no partial folder is left');

    // Once made, the folder is opened silently.
    const again = await run(['users', 'list', '--data-dir', dir], {}, STORAGE_MS);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stderr, '');
    assert.match(again.stdout, /^1\tAna\tcan write\n$/);

    const fresh = path.join(work, 'fresh');
    const p = serve(['--data-dir', fresh, '--port', '0']);
    const url = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(await p.firstLine)?.[1];
    assert.ok(url, p.stdout());
    assert.ok(p.stderr().startsWith(CREATING(fresh)), `said before listening: ${p.stderr()}`);
    process.kill(p.child.pid!, 'SIGTERM');
    assert.equal(await p.exit, 0, p.stderr());

    const token = added.stdout.trim();
    const q = serve(['--data-dir', dir, '--port', '0']);
    const url2 = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(await q.firstLine)?.[1];
    assert.ok(url2);
    assert.equal((await postCode(url2, token, 'Kept from the first start')).status, 201);
    process.kill(q.child.pid!, 'SIGTERM');
    assert.equal(await q.exit, 0, q.stderr());
    assert.match(q.stderr(), /\nstopping: finishing 0 requests…\n$/);

    const exported = await run(['export', '--data-dir', dir], {}, STORAGE_MS);
    assert.equal(exported.code, 0, exported.stderr);
    assert.deepEqual([...parseDataset(JSON.parse(exported.stdout), 'export').codes.values()].map((c) => c.title), ['Kept from the first start']);
  });

  it('import and export on a new folder say so too; serve --catalog says what it imports', async () => {
    const imported = await run(['import', FIXTURE, '--data-dir', path.join(work, 'a')], {}, STORAGE_MS);
    assert.equal(imported.code, 0, imported.stderr);
    assert.equal(imported.stderr, CREATING(path.join(work, 'a')));
    const exported = await run(['export', '--data-dir', path.join(work, 'b')], {}, STORAGE_MS);
    assert.equal(exported.code, 0, exported.stderr);
    assert.equal(exported.stderr, CREATING(path.join(work, 'b')));

    const dir = path.join(work, 'c');
    const p = serve(['--data-dir', dir, '--port', '0', '--catalog', FIXTURE]);
    await p.firstLine;
    const codes = parseDataset(JSON.parse(readFileSync(FIXTURE, 'utf8')), 'fixture').codes.size;
    assert.ok(p.stderr().startsWith(`${CREATING(dir)}importing ${codes} codes into ${dir}…\n`), p.stderr());
  });

  it('a port in use is one line naming it, before any storage is made', async () => {
    held = createServer();
    await new Promise<void>((resolve) => held!.listen(0, '127.0.0.1', resolve));
    const port = (held.address() as { port: number }).port;
    const dir = path.join(work, 'data');
    const p = serve(['--data-dir', dir, '--port', String(port)]);
    assert.equal(await p.exit, 1);
    assert.equal(p.stdout(), '');
    oneLine({ stderr: p.stderr() }, `refactor-browser: 127.0.0.1:${port} is in use by another program (another serve?): stop it, or give another --port\n`);
    assert.equal(existsSync(dir), false, 'no data folder was made');
  });

  it('a missing catalog file, or a folder given as one, is one line for serve and import, before any storage is made', async () => {
    const missing = path.join(work, 'missing.json');
    const dir = path.join(work, 'data');
    const served = serve(['--data-dir', dir, '--port', '0', '--catalog', missing]);
    assert.equal(await served.exit, 1);
    oneLine({ stderr: served.stderr() }, `refactor-browser: ${missing}: cannot be read: there is no such file or folder\n`);
    const imported = await run(['import', missing, '--data-dir', dir]);
    assert.equal(imported.code, 1);
    oneLine(imported, `refactor-browser: ${missing}: cannot be read: there is no such file or folder\n`);
    const folder = await run(['serve', '--catalog', work, '--port', '0']);
    assert.equal(folder.code, 1);
    oneLine(folder, `refactor-browser: ${work}: cannot be read: it is a folder, not a file\n`);
    assert.equal(existsSync(dir), false, 'no data folder was made');
  });

  it('a large catalog with one bad code in its middle, or cut short, refuses import with the line reading it gives, and nothing is stored', async () => {
    const json = generateCatalogJson({ codes: 2 * IMPORT_BATCH + 7 });
    json.codes[IMPORT_BATCH + 3].language = 'Klingon';
    const bad = path.join(work, 'bad.json');
    const text = JSON.stringify(json, null, 2);
    writeFileSync(bad, text);
    const cut = path.join(work, 'cut.json');
    writeFileSync(cut, text.slice(0, text.length / 2));
    const dir = path.join(work, 'data');
    for (const file of [bad, cut]) {
      let expected = '';
      try {
        loadDatasetFile(file);
      } catch (e) {
        expected = `refactor-browser: ${(e as Error).message}\n`;
      }
      assert.match(expected, file === bad ? new RegExp(`codes\\[${IMPORT_BATCH + 3}\\] \\(id \\d+\\)`) : /is not valid JSON/);
      const imported = await run(['import', file, '--data-dir', dir], {}, STORAGE_MS);
      assert.equal(imported.code, 1, imported.stderr);
      assert.equal(imported.stdout, '');
      // The first start's line comes before the catalog is read, as it takes seconds.
      assert.equal(imported.stderr, CREATING(dir) + expected);
    }
    assert.equal(existsSync(dir), false, 'no data folder was made');
  });

  it('an --output in a missing folder, and a data folder under a file, are one line each', async () => {
    const output = path.join(work, 'no-such-folder', 'backup.json');
    const dir = path.join(work, 'data');
    const exported = await run(['export', '--output', output, '--data-dir', dir]);
    assert.equal(exported.code, 1);
    oneLine(exported, `refactor-browser: cannot write ${output}: ${path.dirname(output)}: there is no such file or folder\n`);
    assert.equal(existsSync(dir), false, 'no data folder was made');

    const file = path.join(work, 'a-file');
    writeFileSync(file, '');
    const under = await run(['users', 'list', '--data-dir', path.join(file, 'data')]);
    assert.equal(under.code, 1);
    oneLine(under, `refactor-browser: cannot use ${path.join(file, 'data')} as the data folder: a part of the path is a file, not a folder\n`);
  });
});

