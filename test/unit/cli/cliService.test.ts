// The owner's commands and the write commands as processes (dist/cli.js) over a data folder: what
// an owner and a contributor type, end to end, with what each prints on stdout (what scripts read)
// and how each refusal reads (one line on stderr). Every process is stopped by its pid, every
// folder removed.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseDataset, type Dataset } from '../../../src/server/catalog/dataset';
import { generateCatalog } from '../../../src/server/catalog/generatedCatalog';
import { run, runOnTerminal, startServe, type Run, type ServeProcess } from '../../helpers/cliProcess';

const FIXTURE = path.resolve(__dirname, '../../../../test/fixtures/catalogs/escaping.json');
const SAMPLE = path.resolve(__dirname, '../../../../src/server/catalog/sample-catalog.json');
/** Opening the embedded PostgreSQL takes seconds, and tens of them on a busy 2-core machine; a command that opens it gets this long. */
const STORAGE_MS = 60_000;
const TOKEN_LINE = /^[A-Za-z0-9_-]{20,}\n$/;

function catalogOf(json: string): Dataset {
  return parseDataset(JSON.parse(json), 'catalog');
}

function oneLine(r: Run, ...absent: string[]): void {
  assert.equal(r.stderr.split('\n').length, 2, r.stderr);
  assert.ok(r.stderr.endsWith('\n'), r.stderr);
  for (const text of absent) assert.ok(!r.stderr.includes(text), r.stderr);
}

describe('refactor-browser serve, users, import and export over a data folder (process)', function () {
  this.timeout(240_000);
  let work: string;
  let started: ServeProcess[];

  beforeEach(() => {
    work = mkdtempSync(path.join(tmpdir(), 'rb-service-'));
    started = [];
  });
  afterEach(async () => {
    // Each serve still running is killed by its pid and waited for, so that none writes into a folder being removed.
    for (const p of started) {
      p.kill();
      await p.exit.catch(() => undefined);
    }
    rmSync(work, { recursive: true, force: true });
  });

  function serve(args: string[]): ServeProcess {
    const p = startServe(['serve', ...args], STORAGE_MS);
    started.push(p);
    return p;
  }

  async function listening(p: ServeProcess): Promise<string> {
    const line = await p.firstLine;
    const url = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line)?.[1];
    assert.ok(url, line);
    return url;
  }

  /** SIGTERM by pid, as a service manager stops it: it exits 0 and lets go of the folder. */
  async function stop(p: ServeProcess): Promise<void> {
    process.kill(p.child.pid!, 'SIGTERM');
    assert.equal(await p.exit, 0, p.stderr());
  }

  async function addPerson(dir: string, name: string): Promise<string> {
    const r = await run(['users', 'add', name, '--data-dir', dir], {}, STORAGE_MS);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, TOKEN_LINE);
    return r.stdout.trim();
  }

  it('users add prints the token alone on stdout; users list shows people, never a token', async () => {
    const dir = path.join(work, 'data');
    const ann = await addPerson(dir, 'ann');
    const bob = await addPerson(dir, 'bob');
    assert.notEqual(ann, bob);
    const list = await run(['users', 'list', '--data-dir', dir], {}, STORAGE_MS);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^1\tann\tcan write\n2\tbob\tcan write\n$/);
    for (const token of [ann, bob]) assert.ok(!list.stdout.includes(token) && !list.stderr.includes(token));
  });

  it('answers users and import in JSON with --json, for scripts, through REFACTOR_BROWSER_DATA_DIR', async () => {
    const env = { REFACTOR_BROWSER_DATA_DIR: path.join(work, 'data') };
    const added = await run(['users', 'add', 'Ana Lima', '--website', 'https://ana.example.org', '--json'], env, STORAGE_MS);
    assert.equal(added.code, 0, added.stderr);
    const ana = JSON.parse(added.stdout) as { id: number; name: string; token: string };
    assert.deepEqual({ ...ana, token: TOKEN_LINE.test(`${ana.token}\n`) }, { id: 1, name: 'Ana Lima', token: true });
    const list = await run(['users', 'list', '--json'], env, STORAGE_MS);
    assert.deepEqual(JSON.parse(list.stdout), [{ id: 1, name: 'Ana Lima', canWrite: true, website: 'https://ana.example.org' }]);
    assert.ok(!list.stdout.includes(ana.token));
    const renewed = JSON.parse((await run(['users', 'token', '--id', '1', '--json'], env, STORAGE_MS)).stdout) as { token: string };
    assert.notEqual(renewed.token, ana.token);
    assert.deepEqual(JSON.parse((await run(['users', 'revoke', 'Ana Lima', '--json'], env, STORAGE_MS)).stdout), { id: 1, name: 'Ana Lima', revoked: true });
    assert.deepEqual(JSON.parse((await run(['users', 'list', '--json'], env, STORAGE_MS)).stdout), [{ id: 1, name: 'Ana Lima', canWrite: false, website: 'https://ana.example.org' }]);
    const given = catalogOf(readFileSync(FIXTURE, 'utf8'));
    const other = path.join(work, 'other');
    const imported = await run(['import', FIXTURE, '--json', '--data-dir', other], env, STORAGE_MS);
    assert.equal(imported.code, 0, imported.stderr);
    assert.deepEqual(JSON.parse(imported.stdout), { imported: { codes: given.codes.size, refactors: [...given.codes.values()].reduce((n, c) => n + c.refactors.length, 0), users: given.users.size }, source: FIXTURE });
  });

  it('import then export gives the same catalog back; a clashing import stores nothing; export --output writes the file', async () => {
    const dir = path.join(work, 'data');
    const imported = await run(['import', FIXTURE, '--data-dir', dir], {}, STORAGE_MS);
    assert.equal(imported.code, 0, imported.stderr);
    const given = catalogOf(readFileSync(FIXTURE, 'utf8'));
    const exported = await run(['export', '--data-dir', dir], {}, STORAGE_MS);
    assert.equal(exported.code, 0, exported.stderr);
    assert.deepEqual(catalogOf(exported.stdout), given);

    // The sample catalog's people and codes have the ids the fixture's have.
    const clash = await run(['import', SAMPLE, '--data-dir', dir], {}, STORAGE_MS);
    assert.equal(clash.code, 1, clash.stderr);
    assert.equal(clash.stdout, '');
    oneLine(clash);
    assert.match(clash.stderr, /^refactor-browser: Nothing was imported: /);

    const file = path.join(work, 'backup.json');
    const toFile = await run(['export', '--output', file, '--data-dir', dir], {}, STORAGE_MS);
    assert.equal(toFile.code, 0, toFile.stderr);
    assert.equal(toFile.stdout, '');
    assert.equal(readFileSync(file, 'utf8'), exported.stdout);
    assert.deepEqual(catalogOf(readFileSync(file, 'utf8')), given);
  });

  it('an import naming a person already stored is refused; users token and revoke take --id', async () => {
    const dir = path.join(work, 'data');
    await addPerson(dir, 'Nobody Yet');
    const clash = await run(['import', FIXTURE, '--data-dir', dir], {}, STORAGE_MS);
    assert.equal(clash.code, 1, clash.stderr);
    oneLine(clash);
    assert.match(clash.stderr, /^refactor-browser: Nothing was imported: .*a person named "Nobody Yet" is already stored \(id 1\)\n$/);

    const renewed = await run(['users', 'token', '--id', '1', '--data-dir', dir], {}, STORAGE_MS);
    assert.equal(renewed.code, 0, renewed.stderr);
    assert.match(renewed.stdout, TOKEN_LINE);
    const revoked = await run(['users', 'revoke', '--id', '1', '--data-dir', dir], {}, STORAGE_MS);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.equal(revoked.stdout, 'revoked the token of Nobody Yet (id 1): they can no longer write\n');
    const nobody = await run(['users', 'revoke', '--id', '9', '--data-dir', dir], {}, STORAGE_MS);
    assert.equal(nobody.code, 1);
    assert.equal(nobody.stderr, 'refactor-browser: There is no person with id 9\n');
    const both = await run(['users', 'revoke', 'Nobody', '--id', '1', '--data-dir', dir]);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /users revoke takes a NAME or --id ID, not both/);
  });

  it('serve with storage takes contributions: post, show, refactor, rate, delete; one serve per folder; revoke and new tokens while it runs', async () => {
    const dir = path.join(work, 'data');
    const annToken = await addPerson(dir, 'ann');
    const bobToken = await addPerson(dir, 'bob');

    let server = serve(['--data-dir', dir, '--port', '0']);
    let url = await listening(server);
    assert.equal(server.stdout(), `listening on ${url}\n`);
    // The owner's commands reach it through a socket in a private folder that the data folder names.
    const socket = readFileSync(path.join(dir, 'control'), 'utf8').trim();
    assert.equal(statSync(path.dirname(socket)).mode & 0o777, 0o700);
    assert.equal(statSync(socket).mode & 0o777, 0o600);
    const ann = { REFACTOR_BROWSER_BASE_URL: url, REFACTOR_BROWSER_TOKEN: annToken };
    const bob = { REFACTOR_BROWSER_BASE_URL: url, REFACTOR_BROWSER_TOKEN: bobToken };

    const code = 'def total(xs)\r\n\txs.sum # ✓ ]]> & <\nend\n';
    const posted = await run(['post', '-', '--title', 'Total & sum', '--language', 'ruby', '--comment', 'Shorter?', '--tag', 'math'], ann, 8000, code);
    assert.equal(posted.code, 0, posted.stderr);
    const page = new RegExp(`^(${url}/codes/(\\d+)\\S*)\\n$`).exec(posted.stdout);
    assert.ok(page, posted.stdout);
    const [, pageUrl, codeId] = page;
    const shown = await run(['show', pageUrl, '--json'], { REFACTOR_BROWSER_BASE_URL: url });
    assert.equal(shown.code, 0, shown.stderr);
    const read = JSON.parse(shown.stdout) as { title: string; language: string; comment: string; code: string };
    assert.deepEqual([read.title, read.language, read.comment, read.code], ['Total & sum', 'Ruby', 'Shorter?', code]);

    const refactored = await run(['refactor', codeId, '-', '--comment', 'sum is built in'], bob, 8000, 'def total(xs) = xs.sum\n');
    assert.equal(refactored.code, 0, refactored.stderr);
    const refactorId = new RegExp(`^${url}/codes/${codeId}/refactors/(\\d+)\\n$`).exec(refactored.stdout)?.[1];
    assert.ok(refactorId, refactored.stdout);
    const withRefactor = JSON.parse((await run(['show', codeId, '--json'], { REFACTOR_BROWSER_BASE_URL: url })).stdout) as { refactorsCount: number; refactors: { id: number; code: string }[] };
    assert.equal(withRefactor.refactorsCount, 1);
    assert.deepEqual(withRefactor.refactors.map((r) => [String(r.id), r.code]), [[refactorId, 'def total(xs) = xs.sum\n']]);

    const rated = await run(['rate', codeId, refactorId, '5'], ann);
    assert.equal(rated.code, 0, rated.stderr);
    assert.equal(rated.stdout, `refactoring #${refactorId} of code #${codeId}: rating 5 (1 vote)\n`);
    const ratedAgain = await run(['rate', codeId, refactorId, '4'], ann);
    assert.equal(ratedAgain.code, 1);
    oneLine(ratedAgain, annToken);
    assert.match(ratedAgain.stderr, /You have already rated this refactoring/);

    // One process at a time holds the folder: a second serve is refused while the first runs.
    const second = serve(['--data-dir', dir, '--port', '0']);
    assert.equal(await second.exit, 1);
    assert.equal(second.stdout(), '');
    assert.equal(second.stderr().split('\n').length, 2, second.stderr());
    assert.match(second.stderr(), /^refactor-browser: .* is in use by another refactor-browser process \(pid \d+\): stop it first\n$/);

    // While serve holds the folder, the owner's commands go through it: a revoked token is refused
    // on the very next write, a new one works at once, and people and backups need no downtime.
    const revoked = await run(['users', 'revoke', 'ann', '--data-dir', dir], {}, STORAGE_MS);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.ok(!revoked.stdout.includes(annToken));
    const refused = await run(['delete', codeId], ann);
    assert.equal(refused.code, 1);
    assert.equal(refused.stdout, '');
    oneLine(refused, annToken);
    assert.match(refused.stderr, /the token was refused/);
    assert.equal((await run(['show', codeId], { REFACTOR_BROWSER_BASE_URL: url })).code, 0);
    const listed = await run(['users', 'list', '--data-dir', dir], {}, STORAGE_MS);
    assert.match(listed.stdout, /^1\tann\tno token\n2\tbob\tcan write\n$/);
    const exported = await run(['export', '--data-dir', dir], {}, STORAGE_MS);
    assert.equal(exported.code, 0, exported.stderr);
    assert.deepEqual([...catalogOf(exported.stdout).codes.keys()], [Number(codeId)]);

    const renewed = await run(['users', 'token', 'ann', '--data-dir', dir], {}, STORAGE_MS);
    assert.equal(renewed.code, 0, renewed.stderr);
    assert.match(renewed.stdout, TOKEN_LINE);
    const newToken = renewed.stdout.trim();
    const annNow = { REFACTOR_BROWSER_BASE_URL: url, REFACTOR_BROWSER_TOKEN: newToken };

    // Stopped and started again, the folder keeps it all.
    await stop(server);
    server = serve(['--data-dir', dir, '--port', '0']);
    url = await listening(server);
    annNow.REFACTOR_BROWSER_BASE_URL = url;

    // At a terminal, delete names what it would delete and asks; only yes deletes. A script (stdin
    // not a terminal, as for every run() here) is not asked.
    const declined = await runOnTerminal(['delete', codeId], annNow, 'n\n');
    assert.ok(declined, 'a terminal for the command needs util-linux\'s script (Debian: bsdutils)');
    assert.equal(declined.code, 1, declined.output);
    assert.match(declined.output, new RegExp(`Delete code #${codeId} "Total & sum" and its 1 refactoring\\? \\[y/N\\] `));
    assert.match(declined.output, /refactor-browser: nothing deleted\r\n$/);
    assert.equal((await run(['show', codeId], { REFACTOR_BROWSER_BASE_URL: url })).code, 0);
    const confirmed = await runOnTerminal(['delete', codeId, refactorId], annNow, 'yes\n');
    assert.ok(confirmed);
    assert.equal(confirmed.code, 0, confirmed.output);
    assert.match(confirmed.output, new RegExp(`Delete refactoring #${refactorId} by bob of code #${codeId} "Total & sum"\\? \\[y/N\\] `));
    assert.match(confirmed.output, new RegExp(`deleted refactoring #${refactorId} of code #${codeId}\r\n$`));
    const deletedCode = await run(['delete', codeId], annNow);
    assert.equal(deletedCode.code, 0, deletedCode.stderr);
    assert.equal(deletedCode.stdout, `deleted code #${codeId}\n`);
    const gone = await run(['show', codeId], { REFACTOR_BROWSER_BASE_URL: url });
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /404/);
    await stop(server);
  });

  it('serve --generate fills an empty folder once; given again on the filled folder, it is refused', async () => {
    const dir = path.join(work, 'data');
    const first = serve(['--data-dir', dir, '--port', '0', '--generate', '50']);
    const url = await listening(first);
    const recent = await run(['recent', '--json'], { REFACTOR_BROWSER_BASE_URL: url });
    assert.equal((JSON.parse(recent.stdout) as unknown[]).length, 25);
    // Killed outright, as a crash would: its lock is taken over, and what it loaded is kept.
    first.kill();
    await first.exit;

    const exported = await run(['export', '--data-dir', dir], {}, STORAGE_MS);
    assert.equal(exported.code, 0, exported.stderr);
    assert.deepEqual(catalogOf(exported.stdout), { ...generateCatalog({ codes: 50 }), source: 'catalog' });

    const again = serve(['--data-dir', dir, '--port', '0', '--generate', '50']);
    assert.equal(await again.exit, 1);
    assert.equal(again.stdout(), '');
    assert.equal(again.stderr(), `refactor-browser: ${dir} already holds a catalog: start without --catalog or --generate (or add to it with "refactor-browser import")\n`);
  });

  it('storage named wrong or not at all is bad usage: exit 2 with a hint', async () => {
    const wrong = await run(['serve', '--database', 'mysql://db.example/catalog']);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /^refactor-browser: --database must be a postgres:\/\/ URL, got "mysql:\/\/db\.example\/catalog"\n/);
    for (const args of [['users', 'list'], ['import', FIXTURE], ['export']]) {
      const r = await run(args);
      assert.equal(r.code, 2, args.join(' '));
      assert.equal(r.stdout, '');
      assert.equal(r.stderr, `refactor-browser: ${args[0]} needs the service's storage: --data-dir DIR or --database postgres://… (or REFACTOR_BROWSER_DATA_DIR)\nRun "refactor-browser ${args[0]} --help" for usage.\n`);
    }
  });
});
