// A PGlite data directory keeps every write it acknowledged, even when the process is killed
// outright (SIGKILL: no exit handler, no close) right after.

import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openPglite } from '../../../../src/server/sql/executor';
import { openSqlStore } from '../../../../src/server/sql/sqlStore';

const CHILD = path.join(__dirname, 'durabilityChild.js');
const ACKS = 5;

/** Starts the writer, kills it with SIGKILL after `acks` acknowledgements, and gives the ids it acknowledged. */
function writeThenKill(dataDir: string, acks: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    const acked: number[] = [];
    let buffered = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        const m = /^ack (\d+)$/.exec(line);
        if (m) acked.push(Number(m[1]));
      }
      if (acked.length >= acks && child.pid !== undefined && child.exitCode === null) process.kill(child.pid, 'SIGKILL');
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(acked);
      else reject(new Error(`the writer ended by itself (${code}) before ${acks} acknowledgements: ${stderr}`));
    });
  });
}

describe('SQL store on PGlite with a data directory', () => {
  it('keeps every acknowledged write of a process killed with SIGKILL', async function () {
    this.timeout(90_000);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'refactor-browser-durable-'));
    try {
      const acked = await writeThenKill(path.join(dir, 'data'), ACKS);
      assert.ok(acked.length >= ACKS);
      const store = await openSqlStore(await openPglite(path.join(dir, 'data')));
      try {
        for (const id of acked) assert.equal((await store.code(id))?.title, `Code ${id - 1}`, `code ${id}`);
        const tagged = await store.taggedCodes('durable', '', 1);
        assert.ok(tagged && tagged.page.items.length >= acked.length);
      } finally {
        await store.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
