// The built command line (dist/cli.js) as a process: one run to its end, or `serve` left running.
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';

export const CLI = path.resolve(__dirname, '../../../dist/cli.js');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `input`, when given, is all of the process's stdin; otherwise stdin is empty. */
export function run(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 8000, input?: string, command?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command ?? process.execPath, command ? args : [CLI, ...args], {
      env: { PATH: process.env.PATH, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdin.end(input ?? '');
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cli ${args.join(' ')} did not finish in ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * A run whose stdin, stdout and stderr are a terminal, as when a person types the command: through
 * util-linux's `script`, with `input` typed at it. `output` is what the terminal showed (stdout and
 * stderr together, the typed input echoed, lines ending in \r\n). Undefined when there is no `script`.
 */
export async function runOnTerminal(args: string[], env: NodeJS.ProcessEnv, input: string, timeoutMs = 8000): Promise<{ code: number | null; output: string } | undefined> {
  const { existsSync } = await import('node:fs');
  if (!existsSync('/usr/bin/script')) return undefined;
  const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
  const r = await run(['-qec', [process.execPath, CLI, ...args].map(quote).join(' '), '/dev/null'], env, timeoutMs, input, '/usr/bin/script');
  return { code: r.code, output: r.stdout };
}

export interface ServeProcess {
  readonly child: ChildProcess;
  /** The first line on stdout; rejects if the process ends or stays silent for the time given (8 s) first. */
  readonly firstLine: Promise<string>;
  /** The exit code; rejects if the process is still running the time given (8 s) after this is first awaited. */
  readonly exit: Promise<number | null>;
  stdout(): string;
  stderr(): string;
  /** SIGKILL by pid, if it still runs. */
  kill(): void;
}

/** `timeoutMs` bounds the wait for its first line and for its exit: opening storage takes seconds. */
export function startServe(args: string[], timeoutMs = 8000): ServeProcess {
  const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const firstLine = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no line on stdout within ${timeoutMs} ms: ${stdout}${stderr}`)), timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      if (stdout.includes('\n')) {
        clearTimeout(timer);
        resolve(stdout.split('\n')[0]);
      }
    });
    void closed.then(() => {
      clearTimeout(timer);
      reject(new Error(`exited before printing a line: ${stderr}`));
    });
  });
  firstLine.catch(() => undefined); // awaited by the tests that expect a line
  let exit: Promise<number | null> | undefined;
  return {
    child,
    firstLine,
    get exit() {
      exit ??= Promise.race([
        closed,
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still running ${timeoutMs} ms later`)), timeoutMs).unref()),
      ]);
      return exit;
    },
    stdout: () => stdout,
    stderr: () => stderr,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
    },
  };
}
