// The service.throughput figures: requests per second for /codes/recent.xml at 50 concurrent
// connections, against a node:http server answering a fixed buffer of the same bytes: the most a
// node:http server can do on this machine, under the same load generator in the same run. Three
// subjects: the service over the sample catalog in memory; over the same catalog imported into
// embedded PostgreSQL, with unchanged data; and over another such database while one code is
// written per 100 reads.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { startServer } from '../src/server/http/server';
import type { ListedCode } from '../src/server/store';
import { escapeXmlText } from '../src/core/writeContract';
import { figure, median, type Figure } from './measure';
import { startSqlService } from './sqlService';

const CONNECTIONS = 50;
const WARMUP_MS = 500;
const DURATION_MS = 2500;
const ROUNDS = 3;
export const READS_PER_WRITE = 100;
const RECENT = '/codes/recent.xml';

interface Subject {
  readonly name: string;
  readonly url: string;
  /** The fixed-buffer server sending what this subject sends. */
  readonly baselineUrl: string;
  readonly readsPerWrite?: number;
}

export async function throughputFigures(): Promise<Figure[]> {
  const memory = await startServer({ host: '127.0.0.1', port: 0 });
  const reading = await startSqlService();
  const writing = await startSqlService();
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'refactor-browser-bench-'));
  const fixed = new Map<string, http.Server>();
  try {
    const baselineFor = async (url: string): Promise<{ url: string; body: Buffer }> => {
      const body = Buffer.from(await (await fetch(url)).arrayBuffer());
      const key = body.toString('latin1');
      let server = fixed.get(key);
      if (!server) fixed.set(key, (server = await fixedServer(body)));
      return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${RECENT}`, body };
    };
    const memoryBase = await baselineFor(`${memory.url}${RECENT}`);
    const sqlBase = await baselineFor(`${reading.server.url}${RECENT}`);
    // The codes written are those of the first page again, oldest first, so the page keeps about
    // the size it had (a short code written over and over would shrink it, flattering the figure).
    const page = await writing.store.recentCodes('', 1);
    const writes = path.join(scratch, 'writes.json');
    writeFileSync(writes, JSON.stringify([...page.items].reverse().map(codeBody)));
    const subjects: Subject[] = [
      { name: 'service.throughput', url: `${memory.url}${RECENT}`, baselineUrl: memoryBase.url },
      { name: 'service.throughput.sql', url: `${reading.server.url}${RECENT}`, baselineUrl: sqlBase.url },
      { name: 'service.throughput.sql.writes', url: `${writing.server.url}${RECENT}`, baselineUrl: sqlBase.url, readsPerWrite: READS_PER_WRITE },
    ];
    const baselines = [...new Set(subjects.map((s) => s.baselineUrl))];
    const rates = new Map<string, number[]>();
    const writesMade: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      // Every side once per round, the order reversed every other round, so that a neighbour's load
      // burst does not always hit the same side.
      const runs = [...baselines.map((url) => ({ key: url, url, readsPerWrite: 0 })), ...subjects.map((s) => ({ key: s.name, url: s.url, readsPerWrite: s.readsPerWrite ?? 0 }))];
      if (r % 2 === 1) runs.reverse();
      for (const run of runs) {
        const result = await load(run.url, run.readsPerWrite, { REFACTOR_BROWSER_BENCH_TOKEN: writing.token, REFACTOR_BROWSER_BENCH_WRITES: writes });
        rates.set(run.key, [...(rates.get(run.key) ?? []), result.perSecond]);
        if (run.readsPerWrite > 0) writesMade.push(result.writes);
      }
    }
    const kib = (b: Buffer): string => `${(b.length / 1024).toFixed(0)} KiB`;
    const notes: Record<string, string> = {
      'service.throughput': `GET ${RECENT} (${kib(memoryBase.body)}), the sample catalog in memory`,
      'service.throughput.sql': `GET ${RECENT} (${kib(sqlBase.body)}), the sample catalog in embedded PostgreSQL, unchanged`,
      'service.throughput.sql.writes': `GET ${RECENT} as above while one request in ${READS_PER_WRITE + 1} is a POST /codes.xml (${READS_PER_WRITE} reads per write; ${writesMade.join(', ')} codes written in the timed runs; reads counted)`,
    };
    return subjects.map((s) => {
      const subj = rates.get(s.name)!;
      const base = rates.get(s.baselineUrl)!;
      return figure(
        { name: s.name, goal: s.readsPerWrite ? 0.5 : 0.8, unit: 'requests/s', higherIsBetter: true,
          note: `${notes[s.name]}; ${CONNECTIONS} connections, ${DURATION_MS} ms per run; baseline node:http sending a fixed buffer of the same bytes` },
        median(subj), median(base), subj.map((v, i) => v / base[i]),
      );
    });
  } finally {
    for (const server of fixed.values()) {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    }
    await memory.close();
    await reading.close();
    await writing.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** A code as the write API takes it. */
function codeBody(code: ListedCode): string {
  const field = (name: string, text: string): string => `<${name}>${escapeXmlText(text)}</${name}>`;
  return `<code>${field('title', code.title)}${field('language', code.language)}${field('comment', code.comment.trim() === '' ? code.title : code.comment)}${field('code', code.code)}</code>`;
}

function fixedServer(body: Buffer): Promise<http.Server> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/xml; charset=utf-8', 'Content-Length': String(body.length) });
    res.end(body);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

/** Reads per second one load-generator process achieves against `url`, and the writes it made. */
function load(url: string, readsPerWrite: number, env: Record<string, string>): Promise<{ perSecond: number; writes: number }> {
  return new Promise((resolve, reject) => {
    const args = [path.join(__dirname, 'loadgen.js'), url, String(CONNECTIONS), String(WARMUP_MS), String(DURATION_MS), String(readsPerWrite)];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    // Bounded: a stuck generator is stopped (by its own pid) well after its run should have ended.
    const timer = setTimeout(() => child.kill('SIGKILL'), WARMUP_MS + DURATION_MS + 15_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      try {
        const { ok, failed, writes, ms } = JSON.parse(out) as { ok: number; failed: number; writes: number; ms: number };
        if (code !== 0 || failed > 0 || ok === 0) throw new Error(`load generator: exit ${code}, ${ok} ok, ${failed} failed`);
        resolve({ perSecond: (ok * 1000) / ms, writes });
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
  });
}
