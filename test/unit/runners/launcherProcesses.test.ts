// The launchers' last line of defence (test/runners/processes.ts): a launcher that exits while a
// child it spawned is still running (a timeout or Ctrl-C during code-server's install or start-up,
// before the child had an owner to stop it) kills that child on the way out, by pid, with its process
// group when it leads one. Run as real processes: a small launcher spawns sleepers and exits.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { waitFor } from '../../helpers/poll';

const PROCESSES = path.resolve(__dirname, '../../runners/processes.js');

/** True while `pid` names a process that has not ended (a zombie has ended). */
function running(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

describe('launcher processes: nothing outlives the launcher', function () {
  this.timeout(15_000);
  const started: number[] = [];
  after(() => {
    for (const pid of started) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone, as the test expects
      }
    }
  });

  it('kills tracked children, a detached one with its own child, when the launcher exits mid-way', async () => {
    // The launcher: a detached sleeper that starts a sleeper of its own (as code-server forks its
    // server), and a plain one (as npm install), then exits as a timeout would, without stopping them.
    const sleeper = `setTimeout(() => {}, 30000)`;
    const leader = `const c = require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(sleeper)}], { stdio: 'ignore' }); console.log(c.pid); ${sleeper}`;
    const launcher = `
      const { spawnTracked } = require(${JSON.stringify(PROCESSES)});
      const a = spawnTracked(process.execPath, ['-e', ${JSON.stringify(leader)}], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
      const b = spawnTracked(process.execPath, ['-e', ${JSON.stringify(sleeper)}], { stdio: 'ignore' });
      a.stdout.once('data', (d) => { console.log(JSON.stringify([a.pid, Number(String(d).trim()), b.pid])); process.exit(3); });
    `;
    const child = spawn(process.execPath, ['-e', launcher], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 3, 'the launcher exited as it said');
    const pids = JSON.parse(out) as number[];
    started.push(...pids);
    assert.equal(pids.length, 3);
    for (const pid of pids) assert.ok(Number.isInteger(pid) && pid > 0, `a pid: ${pid}`);
    await waitFor(() => pids.every((p) => !running(p)), 'every process to exit', 3000)
      .catch(() => assert.fail(`still running: ${pids.filter(running).join(', ')}`));
  });

  it('leaves alone a child that already exited, and one it was never given', async () => {
    // A bystander the launcher did not spawn must survive its exit.
    const bystander = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    started.push(bystander.pid!);
    const launcher = `
      const { spawnTracked } = require(${JSON.stringify(PROCESSES)});
      const done = spawnTracked(process.execPath, ['-e', '0'], { stdio: 'ignore' });
      done.on('exit', () => process.exit(0));
    `;
    const child = spawn(process.execPath, ['-e', launcher], { stdio: 'inherit' });
    assert.equal(await new Promise((resolve) => child.on('exit', resolve)), 0);
    await new Promise((r) => setTimeout(r, 200));
    assert.ok(running(bystander.pid!), 'the bystander still runs');
    bystander.kill('SIGKILL');
  });
});
