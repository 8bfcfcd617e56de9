// Child-process helpers shared by the launchers: run a command to completion, and stop a process
// tree we started. Every process is stopped by the pid we got from spawn (its process group), never
// by name, so parallel runs and other people's processes are left alone. Every child is also
// tracked from the moment it is spawned until it exits, and whatever is still running when the
// launcher exits (a timeout or a signal in the middle of starting up, before the child was handed to
// its owner) is killed then, by pid, with its process group if it has one.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { waitFor } from '../helpers/poll';

/** Children still running, and whether each leads a process group of its own (spawned detached). */
const live = new Map<ChildProcess, boolean>();

function killNow(child: ChildProcess, group: boolean): void {
  const pid = child.pid;
  if (pid === undefined) return;
  for (const target of group ? [-pid, pid] : [pid]) {
    try {
      process.kill(target, 'SIGKILL');
    } catch {
      // gone already
    }
  }
}

// process.exit() runs 'exit' listeners synchronously and nothing after them: process.kill is synchronous.
process.on('exit', () => {
  for (const [child, group] of live) killNow(child, group);
});

/** spawn(), with the child tracked until it exits so the launcher never leaves it behind. */
export function spawnTracked(cmd: string, args: readonly string[], options: SpawnOptions): ChildProcess {
  const child = spawn(cmd, args, options);
  if (child.pid !== undefined) {
    live.set(child, options.detached === true);
    child.once('exit', () => live.delete(child));
  }
  return child;
}

/**
 * npm sets npm_* variables for scripts it runs (npm_config_local_prefix among them); a nested
 * `npm install` that inherits them may install into the repository instead of the cache folder.
 */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^npm_/i.test(k)) env[k] = v;
  }
  return { ...env, ...extra };
}

/** Runs a command, echoing its output with a prefix; rejects with its exit status. */
export function run(cmd: string, args: string[], options: SpawnOptions & { label?: string } = {}): Promise<void> {
  const label = options.label ?? cmd;
  return new Promise((resolve, reject) => {
    const child = spawnTracked(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: cleanEnv(), ...options });
    const tail: string[] = [];
    const keep = (chunk: Buffer): void => {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) tail.push(line);
      tail.splice(0, Math.max(0, tail.length - 40));
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${label}: ${cmd} ${args.join(' ')} exited with ${code ?? signal}\n${tail.join('\n')}`));
    });
  });
}

/**
 * Stops a process we spawned with `detached: true` together with everything it started (code-server
 * forks its server and extension hosts into the same process group): SIGTERM to the group, then
 * SIGKILL if it has not exited within `graceMs`.
 */
export async function stopTree(child: ChildProcess, graceMs = 5000): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  const signalGroup = (signal: NodeJS.Signals | 0): boolean => {
    try {
      process.kill(-pid, signal);
      return true;
    } catch {
      return false; // the group is gone already
    }
  };
  if (!signalGroup('SIGTERM')) return;
  const gone = await waitFor(() => !signalGroup(0), `process group ${pid} to exit`, graceMs, 100).then(() => true, () => false);
  if (!gone) signalGroup('SIGKILL');
}
