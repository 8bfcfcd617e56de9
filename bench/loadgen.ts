// The load generator for the service.throughput and scale figures, run as its own process so that
// it does not share an event loop with the servers it measures. Two modes:
//
// `node loadgen.js URL CONNECTIONS WARMUP_MS DURATION_MS [READS_PER_WRITE]` keeps CONNECTIONS
// requests in flight on an undici Pool and prints {"ok", "failed", "writes", "ms"} for the timed part
// as one JSON line (`ok` counts reads only).
//
// `node loadgen.js --mix ORIGIN PATHS_FILE CONNECTIONS MAX_MS [READS_PER_WRITE]` sends each path of
// PATHS_FILE (a JSON array) once, in order, CONNECTIONS at a time: a fixed number of requests, cut off
// after MAX_MS. It prints {"sent", "ok", "failed", "writes", "ms", "p50", "p99", "writeP50", "failures"}: reads
// answered 200, the milliseconds the whole took, and the reads' latency percentiles (ms).
//
// With READS_PER_WRITE, every request after that many reads is instead a POST /codes.xml of a new
// code: the environment's REFACTOR_BROWSER_BENCH_WRITES names a JSON file of code bodies, posted in
// turn, and REFACTOR_BROWSER_BENCH_TOKEN holds the bearer token; `writes` counts those made (in the
// timed part).
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { WritePacing } from './writePacing';

async function main(): Promise<void> {
  if (process.argv[2] === '--mix') return mix(process.argv.slice(3));
  const [url, connections, warmupMs, durationMs, readsPerWrite] = process.argv.slice(2);
  const target = new URL(url);
  const n = Number(connections);
  const pacing = new WritePacing(Number(readsPerWrite ?? 0));
  const token = process.env.REFACTOR_BROWSER_BENCH_TOKEN ?? '';
  const bodies = process.env.REFACTOR_BROWSER_BENCH_WRITES ? (JSON.parse(readFileSync(process.env.REFACTOR_BROWSER_BENCH_WRITES, 'utf8')) as string[]) : [];
  let written = 0;
  const pool = new Pool(target.origin, { connections: n, pipelining: 1 });
  const path = target.pathname + target.search;
  const start = performance.now();
  const timedFrom = start + Number(warmupMs);
  const until = timedFrom + Number(durationMs);
  let ok = 0;
  let failed = 0;
  let writes = 0;
  const worker = async (): Promise<void> => {
    for (let now = performance.now(); now < until; now = performance.now()) {
      const write = pacing.next() === 'write';
      try {
        const res = write
          ? await pool.request({
              method: 'POST',
              path: '/codes.xml',
              headers: { authorization: `Bearer ${token}`, 'content-type': 'application/xml' },
              body: bodies[written++ % bodies.length],
            })
          : await pool.request({ method: 'GET', path });
        await res.body.dump(); // reads to the end (bodies here are far below its 128 KiB limit), keeping the connection
        if (performance.now() >= timedFrom && performance.now() < until) {
          if (res.statusCode !== (write ? 201 : 200)) failed++;
          else if (write) writes++;
          else ok++;
        }
      } catch {
        failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: n }, worker));
  await pool.close();
  process.stdout.write(`${JSON.stringify({ ok, failed, writes, ms: Number(durationMs) })}\n`);
}

async function mix([origin, pathsFile, connections, maxMs, readsPerWrite]: string[]): Promise<void> {
  const paths = JSON.parse(readFileSync(pathsFile, 'utf8')) as string[];
  const pacing = new WritePacing(Number(readsPerWrite ?? 0));
  const token = process.env.REFACTOR_BROWSER_BENCH_TOKEN ?? '';
  const bodies = process.env.REFACTOR_BROWSER_BENCH_WRITES ? (JSON.parse(readFileSync(process.env.REFACTOR_BROWSER_BENCH_WRITES, 'utf8')) as string[]) : [];
  const pool = new Pool(origin, { connections: Number(connections), pipelining: 1 });
  const start = performance.now();
  const until = start + Number(maxMs);
  const readMs: number[] = [];
  const writeMs: number[] = [];
  let next = 0;
  let sent = 0;
  let ok = 0;
  let failed = 0;
  let writes = 0;
  /** Statuses other than the one expected (or "error"), with how many of each. */
  const failures: Record<string, number> = {};
  const fail = (what: string): void => {
    failed++;
    failures[what] = (failures[what] ?? 0) + 1;
  };
  const worker = async (): Promise<void> => {
    while (next < paths.length && performance.now() < until) {
      const write = pacing.next() === 'write';
      const path = write ? '/codes.xml' : paths[next++];
      sent++;
      const t0 = performance.now();
      try {
        const res = write
          ? await pool.request({ method: 'POST', path, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/xml' }, body: bodies[writes % bodies.length] })
          : await pool.request({ method: 'GET', path });
        await res.body.dump();
        const took = performance.now() - t0;
        if (res.statusCode !== (write ? 201 : 200)) fail(`${write ? 'POST' : 'GET'} ${res.statusCode}`);
        else if (write) {
          writes++;
          writeMs.push(took);
        } else {
          ok++;
          readMs.push(took);
        }
      } catch {
        fail('error');
      }
    }
  };
  await Promise.all(Array.from({ length: Number(connections) }, worker));
  const ms = performance.now() - start;
  await pool.close();
  const sorted = readMs.sort((a, b) => a - b);
  const at = (xs: number[], q: number): number => (xs.length === 0 ? 0 : xs[Math.min(xs.length - 1, Math.floor(q * xs.length))]);
  process.stdout.write(`${JSON.stringify({ sent, ok, failed, writes, ms, p50: at(sorted, 0.5), p99: at(sorted, 0.99), writeP50: at(writeMs.sort((a, b) => a - b), 0.5), failures })}\n`);
}

void main();
