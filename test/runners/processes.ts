// Child-process helpers shared by the launchers: run a command to completion, and stop a process
// tree we started. Every process is stopped by the pid we got from spawn (its process group), never
// by name, so parallel runs and other people's processes are left alone.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

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
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: cleanEnv(), ...options });
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
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!signalGroup(0)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  signalGroup('SIGKILL');
}
