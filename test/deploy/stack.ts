// The deployment docs/deploy.md describes, on loopback: a database of its own on a PostgreSQL server
// (REFACTOR_BROWSER_TEST_DATABASE names the server), `refactor-browser serve --database URL
// --trust-proxy` instances (dist/cli.js), and nginx run in the foreground from a folder of its own
// with deploy/nginx.conf, its {{NAME}}s filled in. Used by `npm run test:deploy` and `npm run
// bench:scale`. Every process is started here and stopped here by its pid; stop() also drops the
// database and removes the folder, whatever failed before.
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { waitFor } from '../helpers/poll';
import { TEST_DATABASE } from '../helpers/postgres';
import { request } from '../helpers/referenceService';

const ROOT = path.resolve(__dirname, '../../..');
export const CLI = path.join(ROOT, 'dist/cli.js');
export const NGINX_TEMPLATE = path.join(ROOT, 'deploy/nginx.conf');

export interface Instance {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  /** `127.0.0.1:PORT`, as nginx's log names it. */
  readonly address: string;
  readonly child: ChildProcess;
  /** The exit code, or the signal's name. */
  readonly exited: Promise<number | string>;
  stderr(): string;
}

export interface Stack {
  readonly nginxUrl: string;
  readonly instances: readonly Instance[];
  /** postgres://… of the stack's own database. */
  readonly databaseUrl: string;
  /** The bearer token of a person who may write. */
  readonly token: string;
  /** nginx's folder (-p): its configuration, logs and cache. */
  readonly dir: string;
  readonly nginx: ChildProcess;
  /** nginx's access log so far, one parsed line per request (format `cache` in deploy/nginx.conf). */
  accessLog(): LogLine[];
  /** Stops nginx and every instance still running (SIGTERM by pid, SIGKILL after 15 s), drops the database, removes the folder. */
  stop(): Promise<{ instanceExits: Array<number | string>; nginxExit: number | string }>;
}

export interface LogLine {
  /** When nginx logged it, to the second (ms since the epoch). */
  readonly time: number;
  readonly request: string;
  readonly status: number;
  /** '' where the cache had no part (POST, DELETE). */
  readonly cache: string;
  /** The instances asked, in order ('-' and none when the cache answered alone). */
  readonly upstreams: readonly string[];
}

export interface StackOptions {
  /** Codes in the generated catalog the first instance loads. */
  readonly generate: number;
  readonly instances?: number;
  /** Each instance's --writes-per-minute. */
  readonly writesPerMinute?: number;
  /** Progress lines. */
  readonly log?: (line: string) => void;
  /** How long an instance may take to print that it listens (a large catalog is imported first). */
  readonly startMs?: number;
  /** The nginx to run: a name looked up on PATH (the default, `nginx`) or a path. */
  readonly nginx?: string;
}

/**
 * What the stack needs that `npm ci` does not install, as the one line saying what to do, or
 * undefined when nothing is missing. Checked before anything starts.
 */
export function missingPrerequisite(nginx = 'nginx', env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (findExecutable(nginx, env) === undefined) return `nginx is not installed (no ${nginx} ${nginx.includes('/') ? 'there' : 'on PATH'}): apt-get install nginx`;
  if (!existsSync(CLI)) return `${CLI} is not built: npm run build`;
  return undefined;
}

function findExecutable(name: string, env: NodeJS.ProcessEnv): string | undefined {
  const candidates = name.includes('/') ? [name] : (env.PATH ?? '').split(path.delimiter).filter((d) => d !== '').map((d) => path.join(d, name));
  return candidates.find((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** Every process the stacks of this process started and that may still run: stopStarted() ends them. */
const running = new Set<{ child: ChildProcess; exited: Promise<number | string> }>();

/** The pids of what a stack started that has not exited yet. */
export function stillRunning(): number[] {
  return [...running].flatMap((p) => (p.child.pid === undefined ? [] : [p.child.pid]));
}

/**
 * Stops (by pid) whatever a stack started that still runs: for an `after` hook when the stack's
 * start failed or outlived its hook's time, so that nothing is left running.
 */
export async function stopStarted(): Promise<void> {
  for (const p of [...running]) await stopByPid(p.child, p.exited);
}

/** Starts the whole stack; on any failure, stops what was started and rethrows. */
export async function startStack(o: StackOptions): Promise<Stack> {
  const missing = missingPrerequisite(o.nginx);
  if (missing !== undefined) throw new Error(missing);
  const server = TEST_DATABASE;
  if (!server) throw new Error('REFACTOR_BROWSER_TEST_DATABASE names no PostgreSQL server (run under scripts/withPostgres.sh)');
  const log = o.log ?? (() => undefined);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'refactor-browser-deploy-'));
  const instances: Instance[] = [];
  let nginx: ChildProcess | undefined;
  let nginxExited: Promise<number | string> | undefined;
  const database = `refactor_browser_deploy_${process.pid}`;
  const databaseUrl = withDatabase(server, database);
  let created = false;

  const stop = async (): Promise<{ instanceExits: Array<number | string>; nginxExit: number | string }> => {
    const nginxExit = nginx && nginxExited ? await stopByPid(nginx, nginxExited) : 'not started';
    const instanceExits: Array<number | string> = [];
    for (const i of instances) instanceExits.push(await stopByPid(i.child, i.exited));
    if (created) await adminQuery(server, `drop database if exists ${database} with (force)`).catch((e: unknown) => log(`dropping ${database}: ${String(e)}`));
    rmSync(dir, { recursive: true, force: true });
    return { instanceExits, nginxExit };
  };

  try {
    await adminQuery(server, `drop database if exists ${database} with (force)`);
    await adminQuery(server, `create database ${database}`);
    created = true;
    const startMs = o.startMs ?? 60_000;
    const count = o.instances ?? 2;
    const limits = ['--writes-per-minute', String(o.writesPerMinute ?? 30)];
    // The first instance migrates the new database and fills it; the writer is added beside the catalog's people.
    log(`instance 1 of ${count}: importing a generated catalog of ${o.generate} codes`);
    instances.push(await startInstance(['--database', databaseUrl, '--generate', String(o.generate), '--trust-proxy', ...limits], startMs));
    const token = (await runCli(['users', 'add', 'Deploy Writer', '--database', databaseUrl])).trim();
    for (let n = 2; n <= count; n++) instances.push(await startInstance(['--database', databaseUrl, '--trust-proxy', ...limits], startMs));

    const port = await freePort();
    mkdirSync(path.join(dir, 'tmp'));
    mkdirSync(path.join(dir, 'cache'));
    writeFileSync(path.join(dir, 'nginx.conf'), renderNginxConf({
      // As root, nginx's workers take the user the file names; they must write the cache folder made here.
      USER: os.userInfo().username,
      LISTEN: `127.0.0.1:${port}`,
      INSTANCE_1: instances[0].address,
      INSTANCE_2: instances[1]?.address ?? instances[0].address,
    }));
    writeFileSync(path.join(dir, 'access.log'), '');
    const started = spawn(o.nginx ?? 'nginx', ['-p', dir, '-c', 'nginx.conf', '-g', 'daemon off; pid nginx.pid;'], { stdio: ['ignore', 'ignore', 'pipe'] });
    nginx = started;
    let nginxErr = '';
    started.stderr.setEncoding('utf8').on('data', (d: string) => (nginxErr += d));
    nginxExited = exitOf(started);
    started.once('error', (e) => (nginxErr += `${e.message}\n`));
    const nginxUrl = `http://127.0.0.1:${port}`;
    await waitFor(async () => {
      if (started.pid === undefined || started.exitCode !== null || started.signalCode !== null) throw new Error(`nginx exited: ${nginxErr}${safeRead(path.join(dir, 'error.log'))}`);
      return (await request(nginxUrl, '/healthz').catch(() => undefined))?.status === 200;
    }, 'nginx answering /healthz', 15_000, 100);
    log(`nginx on ${nginxUrl} in front of ${instances.map((i) => i.address).join(' and ')}`);
    return {
      nginxUrl,
      instances,
      databaseUrl,
      token,
      dir,
      nginx: started,
      accessLog: () => parseAccessLog(safeRead(path.join(dir, 'access.log'))),
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** deploy/nginx.conf with each {{NAME}} replaced; a name left unfilled is an error. */
export function renderNginxConf(values: Record<string, string>): string {
  const text = readFileSync(NGINX_TEMPLATE, 'utf8').replace(/\{\{([A-Z0-9_]+)\}\}/g, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`deploy/nginx.conf: nothing given for ${whole}`);
    return value;
  });
  return text;
}

export function parseAccessLog(text: string): LogLine[] {
  const lines: LogLine[] = [];
  for (const line of text.split('\n')) {
    const m = /\[([^\]]+)\] "([^"]*)" (\d{3}) cache=(\S*) upstream=(.*?) time=/.exec(line);
    if (!m) continue;
    const upstreams = m[5] === '-' ? [] : m[5].split(/[,:]\s+/).map((s) => s.trim()).filter((s) => s !== '' && s !== '-');
    lines.push({ time: Date.parse(m[1]), request: m[2], status: Number(m[3]), cache: m[4] === '-' ? '' : m[4], upstreams });
  }
  return lines;
}

async function startInstance(args: string[], startMs: number): Promise<Instance> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = exitOf(child);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed no address within ${startMs} ms: ${stderr}`)), startMs);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      const m = /^listening on (http:\/\/\S+)$/m.exec(stdout);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${code}) before listening: ${stderr}`));
    });
  }).catch(async (e: unknown) => {
    await stopByPid(child, exited);
    throw e;
  });
  return { url, address: new URL(url).host, child, exited, stderr: () => stderr };
}

/** The exit code or signal; the error's code for a process that could not be started (it never exits). */
function exitOf(child: ChildProcess): Promise<number | string> {
  const entry = {
    child,
    exited: new Promise<number | string>((resolve) => {
      child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
      child.once('error', (e: NodeJS.ErrnoException) => {
        if (child.pid === undefined) resolve(e.code ?? e.message);
      });
    }),
  };
  running.add(entry);
  void entry.exited.then(() => running.delete(entry));
  return entry.exited;
}

/** SIGTERM by pid (unless it already ended), SIGKILL if it is still running 15 s later. */
async function stopByPid(child: ChildProcess, exited: Promise<number | string>): Promise<number | string> {
  if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
    process.kill(child.pid, 'SIGTERM');
    const late = setTimeout(() => {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGKILL');
    }, 15_000);
    try {
      return await exited;
    } finally {
      clearTimeout(late);
    }
  }
  return exited;
}

/** A command of the built command line to its end: its stdout, or a rejection with its stderr. */
export function runCli(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`refactor-browser ${args[0]} exited ${code}: ${err}`))));
  });
}

/** One statement on the server's maintenance database (CREATE and DROP DATABASE run outside a transaction). */
async function adminQuery(server: string, text: string): Promise<void> {
  const { Client } = await import('pg');
  const client = new Client({ connectionString: withDatabase(server, 'postgres') });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.href;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
