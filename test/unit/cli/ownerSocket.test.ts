// Where `serve --data-dir` listens for the owner's commands, as processes (dist/cli.js): a private
// folder only its user may enter, named so that nobody can take it first, recorded in the data
// folder; a socket anyone else made is never spoken to; and a serve that cannot make its socket
// stops with one line rather than serve with nobody able to revoke a token. POSIX only (Windows
// uses a named pipe). Processes stopped by their pid, folders removed.
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { run, startServe, type ServeProcess } from '../../helpers/cliProcess';

/** Opening the embedded PostgreSQL takes seconds, and tens of them on a busy machine. */
const STORAGE_MS = 60_000;

describe('refactor-browser serve: the owner\'s control socket (process)', function () {
  this.timeout(240_000);
  let work: string;
  let serve: ServeProcess | undefined;
  /** Sockets standing where another user could have put them; each records whether anyone connected. */
  let traps: { server: net.Server; asked: boolean }[];

  before(function () {
    if (process.platform === 'win32') this.skip();
  });
  beforeEach(() => {
    work = mkdtempSync(path.join(tmpdir(), 'rb-owner-'));
    traps = [];
  });
  afterEach(async () => {
    serve?.kill();
    await serve?.exit.catch(() => undefined);
    serve = undefined;
    // A serve killed here leaves its private folder; those in the temporary folder are removed too.
    const record = path.join(work, 'd'.repeat(110), 'control');
    if (existsSync(record)) rmSync(path.dirname(readFileSync(record, 'utf8').trim()), { recursive: true, force: true });
    for (const t of traps) await new Promise((resolve) => t.server.close(resolve));
    rmSync(work, { recursive: true, force: true });
  });

  async function trap(at: string): Promise<{ asked: boolean }> {
    const t = { server: net.createServer((socket) => {
      t.asked = true;
      socket.destroy();
    }), asked: false };
    traps.push(t);
    await new Promise<void>((resolve) => t.server.listen(at, resolve));
    return t;
  }

  it('a data folder whose path is too long for a socket there: a private folder in the temporary folder, never the name another user could take first', async () => {
    const dir = path.join(work, 'd'.repeat(110));
    // Where the socket used to go for such a folder, taken first by someone else.
    const id = createHash('sha256').update(path.resolve(dir)).digest('hex').slice(0, 24);
    const predictable = path.join(tmpdir(), `refactor-browser-${id}.sock`);
    rmSync(predictable, { force: true });
    const taken = await trap(predictable);
    try {
      assert.equal((await run(['users', 'add', 'Ana', '--data-dir', dir], {}, STORAGE_MS)).code, 0);
      serve = startServe(['serve', '--data-dir', dir, '--port', '0'], STORAGE_MS);
      assert.match(await serve.firstLine, /^listening on http:/);
      const at = readFileSync(path.join(dir, 'control'), 'utf8').trim();
      assert.equal(statSync(path.join(dir, 'control')).mode & 0o777, 0o600);
      assert.equal(path.dirname(path.dirname(at)), tmpdir());
      assert.equal(statSync(path.dirname(at)).mode & 0o777, 0o700, 'a folder only its user may enter');
      assert.equal(statSync(at).mode & 0o077, 0, 'a socket only its user may open');

      const added = await run(['users', 'add', 'Bo', '--data-dir', dir], {}, STORAGE_MS);
      assert.equal(added.code, 0, added.stderr);
      assert.match(added.stderr, /^added Bo /, 'answered by the running serve');
      assert.equal(taken.asked, false, 'the socket someone else made is never spoken to');

      process.kill(serve.child.pid!, 'SIGTERM');
      assert.equal(await serve.exit, 0, serve.stderr());
      assert.equal(existsSync(path.dirname(at)), false, 'its folder is removed when it stops');
      assert.equal(existsSync(path.join(dir, 'control')), false);
    } finally {
      rmSync(predictable, { force: true });
    }
  });

  it('the private folder a killed serve left is removed when the next one starts', async () => {
    const dir = path.join(work, 'd'.repeat(110));
    serve = startServe(['serve', '--data-dir', dir, '--port', '0'], STORAGE_MS);
    assert.match(await serve.firstLine, /^listening on http:/);
    const first = path.dirname(readFileSync(path.join(dir, 'control'), 'utf8').trim());
    serve.kill();
    await serve.exit.catch(() => undefined);
    assert.equal(existsSync(first), true, 'SIGKILL leaves it');
    serve = startServe(['serve', '--data-dir', dir, '--port', '0'], STORAGE_MS);
    assert.match(await serve.firstLine, /^listening on http:/);
    assert.equal(existsSync(first), false);
    assert.notEqual(path.dirname(readFileSync(path.join(dir, 'control'), 'utf8').trim()), first);
  });

  it('a record naming a socket in a folder others may enter is not trusted: the command says the folder is in use and asks nothing', async () => {
    const dir = path.join(work, 'data');
    mkdirSync(dir);
    // A live holder (this test's process), as `users` finds it while a serve runs.
    writeFileSync(path.join(dir, 'lock'), String(process.pid));
    const open = path.join(work, 'refactor-browser-control-open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    const planted = await trap(path.join(open, 'control.sock'));
    writeFileSync(path.join(dir, 'control'), `${path.join(open, 'control.sock')}\n`, { mode: 0o600 });
    const listed = await run(['users', 'list', '--data-dir', dir], {}, STORAGE_MS);
    assert.equal(listed.code, 1);
    assert.match(listed.stderr, /^refactor-browser: .* is in use by another refactor-browser process \(pid \d+\): stop it first\n$/);
    assert.equal(planted.asked, false);
  });

  it('serve stops with one line and exit 1 when its socket cannot be made, instead of answering with nobody able to reach it', async () => {
    const dir = path.join(work, 'd'.repeat(110));
    const started = await run(['serve', '--data-dir', dir, '--port', '0'], { TMPDIR: path.join(work, 'missing') }, STORAGE_MS);
    assert.equal(started.code, 1, started.stderr);
    assert.equal(started.stdout, '', 'it never listened');
    // After the first start's line, one line in words naming the folder it could not make.
    assert.equal(started.stderr, `creating the embedded database in ${dir}…\nrefactor-browser: the owner's control socket could not be made: ${path.join(work, 'missing')}/refactor-browser-control-XXXXXX: there is no such file or folder\n`);
    assert.equal(existsSync(path.join(dir, 'lock')), false, 'its storage was closed');
  });
});
