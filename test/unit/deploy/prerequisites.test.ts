// The deployment test (`npm run test:deploy`) where something it needs is missing: it says in one
// line what to install before starting anything, and a stack whose nginx fails to start stops the
// instances it started (by pid) before it gives up. The last test needs a PostgreSQL server
// (scripts/withPostgres.sh) and is pending without one, outside CI.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { missingPrerequisite, startStack, stillRunning, stopStarted } from '../../deploy/stack';
import { postgresOrSkip } from '../../helpers/postgres';

const RUN = path.resolve(__dirname, '../../deploy/run.js');

describe('deployment test: its prerequisites', function () {
  this.timeout(120_000);
  let work: string;
  before(() => {
    work = mkdtempSync(path.join(tmpdir(), 'rb-deploy-pre-'));
  });
  after(async () => {
    await stopStarted();
    rmSync(work, { recursive: true, force: true });
  });

  it('npm run test:deploy without nginx on PATH: one line saying what to install, exit 1, nothing started', () => {
    const started = Date.now();
    const r = spawnSync(process.execPath, [RUN], { env: { PATH: path.dirname(process.execPath) }, encoding: 'utf8', timeout: 30_000 });
    assert.equal(r.status, 1, r.stderr);
    assert.equal(r.stdout, '', 'no mocha, no PostgreSQL');
    assert.equal(r.stderr, 'test:deploy: nginx is not installed (no nginx on PATH): apt-get install nginx\n');
    assert.ok(Date.now() - started < 10_000);
  });

  it('a stack given an nginx that is not there refuses before starting anything', async () => {
    const nginx = path.join(work, 'no-nginx');
    assert.equal(missingPrerequisite(nginx), `nginx is not installed (no ${nginx} there): apt-get install nginx`);
    const log: string[] = [];
    await assert.rejects(startStack({ generate: 1, nginx, log: (l) => log.push(l) }), { message: `nginx is not installed (no ${nginx} there): apt-get install nginx` });
    assert.deepEqual(log, []);
  });

  it('a stack whose nginx exits at once stops the instances it started before it rejects', async function () {
    postgresOrSkip(this);
    const nginx = path.join(work, 'failing-nginx');
    writeFileSync(nginx, '#!/bin/sh\necho "nginx: cannot start" >&2\nexit 1\n');
    chmodSync(nginx, 0o755);
    const log: string[] = [];
    await assert.rejects(startStack({ generate: 1, nginx, log: (l) => log.push(l) }), /^Error: nginx exited: nginx: cannot start/);
    assert.ok(log.some((l) => l.startsWith('instance 1 of 2')), log.join('\n'));
    assert.deepEqual(stillRunning(), [], 'every instance it started has exited');
  });
});
