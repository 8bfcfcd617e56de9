// service.memory.*: the resident memory of `refactor-browser serve` holding the 10,000-code generated
// catalog in embedded PostgreSQL (--data-dir), against the same command holding it in memory, each a
// child process started fresh, asked for a few pages, then read from /proc/PID/status (VmRSS, and
// VmHWM for the peak). service.memory.import.peak is `import FILE` of that catalog into a new folder.
// service.start.first is the time from starting `serve --data-dir` on a new folder to its
// `listening on` line, against starting it again on the folder it made.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { figure, median, type Figure } from './measure';

const CLI = path.join(__dirname, '..', '..', 'dist', 'cli.js');
/** The pages read of a folder holding the catalog. */
const PAGES = ['/codes/recent.xml', '/codes/popular.xml', '/codes/5.xml', '/codes/recent.xml?page=200'];
/**
 * The pages read of a new, empty folder (service.start.first): its lists, empty, since it holds no
 * code to ask for (/codes/5.xml would answer 404).
 */
export const EMPTY_FOLDER_PAGES = ['/codes/recent.xml', '/codes/popular.xml'];
const MIB = 1024 * 1024;

export interface MemoryRun {
  /** Codes of the generated catalog. */
  readonly codes: number;
  /** Rounds of the in-memory serve beside the serve on a new folder, started again, and the import. */
  readonly rounds: number;
  /** First starts on an empty folder, each beside a start again of the folder it made. */
  readonly startRounds: number;
}

/** What `npm run bench` measures; the unit tests run the same group with fewer. */
export const MEMORY_RUN: MemoryRun = { codes: 10_000, rounds: 2, startRounds: 5 };

export async function memoryFigures(run: MemoryRun = MEMORY_RUN): Promise<Figure[]> {
  const { codes, rounds, startRounds } = run;
  const inMemory: number[] = [];
  const inMemoryPeak: number[] = [];
  const filled: number[] = [];
  const filledPeak: number[] = [];
  const reopened: number[] = [];
  const imported: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'refactor-browser-bench-'));
    try {
      const data = path.join(dir, 'data');
      const memory = await residentAfterPages(['--generate', String(codes)]);
      inMemory.push(memory.resident);
      inMemoryPeak.push(memory.peak);
      // The first start creates the database and imports the catalog; a later one opens it as it is.
      const first = await residentAfterPages(['--data-dir', data, '--generate', String(codes)]);
      filled.push(first.resident);
      filledPeak.push(first.peak);
      reopened.push((await residentAfterPages(['--data-dir', data])).resident);
      const file = path.join(dir, 'catalog.json');
      await runToEnd(['export', '--data-dir', data, '--output', file]);
      imported.push((await runToEnd(['import', file, '--data-dir', path.join(dir, 'imported')])).peak);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const firstStart: number[] = [];
  const startAgain: number[] = [];
  for (let r = 0; r < startRounds; r++) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'refactor-browser-bench-'));
    try {
      firstStart.push((await residentAfterPages(['--data-dir', path.join(dir, 'data')], EMPTY_FOLDER_PAGES)).listeningMs);
      startAgain.push((await residentAfterPages(['--data-dir', path.join(dir, 'data')], EMPTY_FOLDER_PAGES)).listeningMs);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const base = median(inMemory) / MIB;
  const basePeak = median(inMemoryPeak) / MIB;
  const baseline = `baseline serve --generate ${codes} (in memory)`;
  return [
    figure(
      { name: 'service.memory.sql', goal: null, unit: 'MiB resident',
        note: `serve --data-dir (a new temporary folder) --generate ${codes}: creating the database and importing the catalog, then ${PAGES.join(', ')}; ${baseline}` },
      median(filled) / MIB, base, filled.map((v, i) => v / inMemory[i]),
    ),
    figure(
      { name: 'service.memory.sql.reopened', goal: null, unit: 'MiB resident',
        note: `serve --data-dir on that folder again, the catalog already in it, then the same pages; ${baseline}` },
      median(reopened) / MIB, base, reopened.map((v, i) => v / inMemory[i]),
    ),
    figure(
      { name: 'service.memory.sql.peak', goal: null, unit: 'MiB peak resident (VmHWM)',
        note: `the first start's peak, serve --data-dir (a new folder) --generate ${codes}; goal < 400 MiB; baseline the in-memory serve's peak` },
      median(filledPeak) / MIB, basePeak, filledPeak.map((v, i) => v / inMemoryPeak[i]),
    ),
    figure(
      { name: 'service.memory.import.peak', goal: null, unit: 'MiB peak resident (VmHWM)',
        note: `import of that catalog, exported to a file, into a new folder; goal < 400 MiB; baseline the in-memory serve's peak` },
      median(imported) / MIB, basePeak, imported.map((v, i) => v / inMemoryPeak[i]),
    ),
    figure(
      { name: 'service.start.first', goal: null, unit: 'ms to listening',
        note: `serve --data-dir on a new folder, from spawn to its listening line, then ${EMPTY_FOLDER_PAGES.join(', ')} (empty); goal <= 2000 ms; baseline serve started again on the folder it made` },
      median(firstStart), median(startAgain), firstStart.map((v, i) => v / startAgain[i]),
    ),
  ];
}

/** The child's peak resident bytes so far (VmHWM), or 0 once it is gone. */
function peakOf(child: ChildProcess): number {
  try {
    const kib = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
    return kib ? Number(kib[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Runs a command of the CLI to its end (bounded), with its peak resident bytes, read until it exits. */
function runToEnd(args: string[]): Promise<{ peak: number }> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  let peak = 0;
  const poll = setInterval(() => (peak = Math.max(peak, peakOf(child))), 20);
  const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      clearInterval(poll);
      clearTimeout(timer);
      if (code === 0) resolve({ peak });
      else reject(new Error(`${args[0]} exited ${code}: ${err.trim()}`));
    });
  });
}

/**
 * Bytes resident in a `serve` child once it has answered `pages`, its peak so far, and the time from
 * its spawn to its listening line; the child is stopped by its pid.
 */
async function residentAfterPages(args: string[], pages: readonly string[] = PAGES): Promise<{ resident: number; peak: number; listeningMs: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const url = await listening(child);
    const listeningMs = performance.now() - started;
    for (const page of pages) {
      const res = await fetch(`${url}${page}`);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`serve ${args.join(' ')}: ${page} answered ${res.status}`);
    }
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status);
    if (!kib) throw new Error(`no VmRSS in /proc/${child.pid}/status`);
    return { resident: Number(kib[1]) * 1024, peak: peakOf(child), listeningMs };
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
