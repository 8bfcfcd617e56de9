// `refactor-browser serve` killed outright (SIGKILL: no exit handler, no close) while contributions
// are in flight keeps every one it acknowledged with 201, and starts again on the same storage: an
// embedded data folder (whose lock, left by the dead process, is taken over) and a PostgreSQL server
// (when REFACTOR_BROWSER_TEST_DATABASE names one; pending when unset, outside CI).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { decodeCode } from '../../../src/core/xmlDecode';
import { openPostgres } from '../../../src/server/sql/executor';
import { run, startServe, type ServeProcess } from '../../helpers/cliProcess';
import { postCode } from '../../helpers/contributions';
import { postgresOrSkip, TEST_DATABASE } from '../../helpers/postgres';
import { request } from '../../helpers/referenceService';

/** Acknowledgements before the kill; each writer has one request in flight at that moment. */
const ACKS = 20;
const WRITERS = 4;
/** Bounds each writer, should the kill never come. */
const MAX_PER_WRITER = 100;
/** Opening storage, and recovering it after a kill, takes seconds on a busy machine. */
const START_MS = 30_000;

async function urlOf(serve: ServeProcess): Promise<string> {
  const line = await serve.firstLine;
  const m = /^listening on (http:\/\/\S+)$/.exec(line);
  assert.ok(m, `serve printed: ${line}`);
  return m[1];
}

async function addPerson(storage: string[]): Promise<string> {
  const added = await run(['users', 'add', 'Writer', ...storage], {}, 60_000);
  assert.equal(added.code, 0, added.stderr);
  return added.stdout.trim();
}

interface Outcome {
  /** Title by id, of every code acknowledged with 201. */
  readonly acked: Map<number, string>;
  /** Requests the kill left without an answer. */
  readonly unanswered: number;
}

/** Posts codes from WRITERS writers at once, and kills serve with SIGKILL at the ACKS-th 201. */
async function writeThenKill(serve: ServeProcess, url: string, token: string): Promise<Outcome> {
  const acked = new Map<number, string>();
  let killed = false;
  let unanswered = 0;
  const writer = async (w: number): Promise<void> => {
    for (let i = 0; i < MAX_PER_WRITER && !killed; i++) {
      const title = `Writer ${w}, code ${i}`;
      let res;
      try {
        res = await postCode(url, token, title);
      } catch (e) {
        if (!killed) throw e;
        unanswered++;
        return;
      }
      assert.equal(res.status, 201, res.text);
      acked.set(decodeCode(res.text).id, title);
      if (acked.size >= ACKS && !killed) {
        killed = true;
        serve.kill();
      }
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
  assert.ok(killed, `serve was not killed: ${acked.size} acknowledgements`);
  return { acked, unanswered };
}

function killedTests(storage: () => string[], dataDir?: () => string): void {
  it('keeps every code it acknowledged when killed with SIGKILL amid writes, and serves them on starting again', async function () {
    this.timeout(120_000);
    const token = await addPerson(storage());
    const first = startServe(['serve', ...storage(), '--port', '0', '--writes-per-minute', '10000'], START_MS);
    let outcome: Outcome;
    try {
      outcome = await writeThenKill(first, await urlOf(first), token);
      // By pid, and waited for: a process not yet reaped would still look alive to the lock.
      assert.equal(await first.exit, null);
      assert.equal(first.child.signalCode, 'SIGKILL');
    } finally {
      first.kill();
    }
    assert.ok(outcome.acked.size >= ACKS);
    assert.ok(outcome.unanswered >= 1, 'some writes were in flight when it was killed');
    if (dataDir) {
      assert.equal(fs.readFileSync(path.join(dataDir(), 'lock'), 'utf8'), String(first.child.pid), 'the dead process left its lock');
    }

    const again = startServe(['serve', ...storage(), '--port', '0'], START_MS);
    try {
      const url = await urlOf(again);
      if (dataDir) assert.equal(fs.readFileSync(path.join(dataDir(), 'lock'), 'utf8'), String(again.child.pid), 'the lock was taken over');
      for (const [id, title] of outcome.acked) {
        const res = await request(url, `/codes/${id}.xml`);
        assert.equal(res.status, 200, `code ${id}: ${res.text}`);
        assert.equal(decodeCode(res.text).title, title, `code ${id}`);
      }
    } finally {
      again.kill();
      await again.exit.catch(() => undefined);
    }
  });
}

describe('serve killed with SIGKILL', () => {
  describe('over an embedded data folder', () => {
    let dir: string;
    beforeEach(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'refactor-browser-killed-'));
    });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
    killedTests(
      () => ['--data-dir', path.join(dir, 'data')],
      () => path.join(dir, 'data'),
    );
  });

  describe('over a PostgreSQL server (REFACTOR_BROWSER_TEST_DATABASE; pending when unset, outside CI)', () => {
    const DATABASE = 'refactor_browser_killed';
    let url: string;
    const admin = async (statement: string): Promise<void> => {
      const sql = await openPostgres(TEST_DATABASE!);
      try {
        await sql.query(statement);
      } finally {
        await sql.close();
      }
    };
    before(async function () {
      const server = postgresOrSkip(this);
      await admin(`drop database if exists ${DATABASE}`);
      await admin(`create database ${DATABASE}`);
      const at = new URL(server);
      at.pathname = `/${DATABASE}`;
      url = at.href;
    });
    after(async function () {
      if (TEST_DATABASE) await admin(`drop database if exists ${DATABASE} with (force)`);
    });
    killedTests(() => ['--database', url]);
  });
});
