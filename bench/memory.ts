// service.memory.*: the resident memory of `refactor-browser serve` holding the 10,000-code generated
// catalog in embedded PostgreSQL (--data-dir), against the same command holding it in memory, each a
// child process started fresh, asked for a few pages, then read from /proc/PID/status (VmRSS).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { figure, median, type Figure } from './measure';

const CODES = 10_000;
const CLI = path.join(__dirname, '..', '..', 'dist', 'cli.js');
const PAGES = ['/codes/recent.xml', '/codes/popular.xml', '/codes/5.xml', '/codes/recent.xml?page=200'];
const ROUNDS = 2;
const MIB = 1024 * 1024;

export async function memoryFigures(): Promise<Figure[]> {
  const inMemory: number[] = [];
  const filled: number[] = [];
  const reopened: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'refactor-browser-bench-'));
    try {
      const data = path.join(dir, 'data');
      inMemory.push(await residentAfterPages(['--generate', String(CODES)]));
      // The first start creates the database and imports the catalog; a later one opens it as it is.
      filled.push(await residentAfterPages(['--data-dir', data, '--generate', String(CODES)]));
      reopened.push(await residentAfterPages(['--data-dir', data]));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const base = median(inMemory) / MIB;
  const baseline = `baseline serve --generate ${CODES} (in memory)`;
  return [
    figure(
      { name: 'service.memory.sql', goal: null, unit: 'MiB resident',
        note: `serve --data-dir (a new temporary folder) --generate ${CODES}: creating the database and importing the catalog, then ${PAGES.join(', ')}; ${baseline}` },
      median(filled) / MIB, base, filled.map((v, i) => v / inMemory[i]),
    ),
    figure(
      { name: 'service.memory.sql.reopened', goal: null, unit: 'MiB resident',
        note: `serve --data-dir on that folder again, the catalog already in it, then the same pages; ${baseline}` },
      median(reopened) / MIB, base, reopened.map((v, i) => v / inMemory[i]),
    ),
  ];
}

/** Bytes resident in a `serve` child once it has answered PAGES; the child is stopped by its pid. */
async function residentAfterPages(args: string[]): Promise<number> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const url = await listening(child);
    for (const page of PAGES) {
      const res = await fetch(`${url}${page}`);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`serve ${args.join(' ')}: ${page} answered ${res.status}`);
    }
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status);
    if (!kib) throw new Error(`no VmRSS in /proc/${child.pid}/status`);
    return Number(kib[1]) * 1024;
  } finally {
    await stopped(child);
  }
}

/** The URL from serve's `listening on URL` line; bounded, since importing a catalog takes a while. */
function listening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`serve did not start within 120 s: ${err.trim()}`)), 120_000);
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const line = /^listening on (\S+)$/m.exec(out);
      if (line) {
        clearTimeout(timer);
        resolve(line[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${code}) before listening: ${err.trim()}`));
    });
  });
}

function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
