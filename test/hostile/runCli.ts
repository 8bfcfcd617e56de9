// Runs the built command line (dist/cli.js) as a process, bounded in time, and measures it: wall time
// to exit, and with `measureMemory` the peak resident set size from GNU time (`/usr/bin/time -f %M`,
// the kernel's own high-water mark), falling back to polling VmHWM in /proc when time is missing.

import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const CLI = path.resolve(__dirname, '../../../dist/cli.js');
const GNU_TIME = '/usr/bin/time';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Milliseconds from spawn to exit. */
  ms: number;
  /** Peak RSS in MiB, when measured. */
  peakRssMiB?: number;
}

export interface CliOptions {
  env?: NodeJS.ProcessEnv;
  /** The process is killed (and the promise rejects) after this long. */
  timeoutMs?: number;
  measureMemory?: boolean;
}

export async function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliRun> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const useTime = options.measureMemory === true && fs.existsSync(GNU_TIME);
  const dir = useTime ? fs.mkdtempSync(path.join(os.tmpdir(), 'rb-cli-rss-')) : undefined;
  const rssFile = dir && path.join(dir, 'rss');
  const [cmd, ...cmdArgs] = useTime
    ? [GNU_TIME, '-f', '%M', '-o', rssFile!, process.execPath, CLI, ...args]
    : [process.execPath, CLI, ...args];
  const started = Date.now();
  // Its own process group, so a timeout ends GNU time and the node under it together.
  const child = spawn(cmd, cmdArgs, {
    env: { PATH: process.env.PATH, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  let polledKiB = 0;
  const poll = options.measureMemory && !useTime
    ? setInterval(() => (polledKiB = Math.max(polledKiB, vmHwmKiB(child.pid))), 10)
    : undefined;
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        reject(new Error(`refactor-browser ${args.join(' ')} did not exit within ${timeoutMs} ms`));
      }, timeoutMs);
      child.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      child.on('close', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    const ms = Date.now() - started;
    let peakKiB: number | undefined;
    if (rssFile) peakKiB = Number(fs.readFileSync(rssFile, 'utf8').trim().split('\n').pop());
    else if (poll) peakKiB = polledKiB;
    return { code, stdout, stderr, ms, ...(peakKiB ? { peakRssMiB: Math.round(peakKiB / 102.4) / 10 } : {}) };
  } finally {
    if (poll) clearInterval(poll);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
}

function vmHwmKiB(pid: number | undefined): number {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0; // already gone
  }
}
