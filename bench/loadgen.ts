// The load generator for the service.throughput figures, run as its own process so that it does
// not share an event loop with the server it measures:
// `node loadgen.js URL CONNECTIONS WARMUP_MS DURATION_MS [READS_PER_WRITE]` keeps CONNECTIONS
// requests in flight on an undici Pool and prints {"ok", "failed", "writes", "ms"} for the timed part
// as one JSON line (`ok` counts reads only). With READS_PER_WRITE, every request after that many
// reads is instead a POST /codes.xml of a new code: the environment's REFACTOR_BROWSER_BENCH_WRITES
// names a JSON file of code bodies, posted in turn, and REFACTOR_BROWSER_BENCH_TOKEN holds the bearer
// token; `writes` counts those made in the timed part.
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { WritePacing } from './writePacing';

async function main(): Promise<void> {
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

void main();
