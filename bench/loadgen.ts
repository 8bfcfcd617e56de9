// The load generator for figure 5, run as its own process so that it does not share an event loop
// with the server it measures: `node loadgen.js URL CONNECTIONS WARMUP_MS DURATION_MS` keeps
// CONNECTIONS requests in flight on an undici Pool and prints {"ok", "failed", "ms"} for the timed
// part as one JSON line.
import { Pool } from 'undici';

async function main(): Promise<void> {
  const [url, connections, warmupMs, durationMs] = process.argv.slice(2);
  const target = new URL(url);
  const n = Number(connections);
  const pool = new Pool(target.origin, { connections: n, pipelining: 1 });
  const path = target.pathname + target.search;
  const start = performance.now();
  const timedFrom = start + Number(warmupMs);
  const until = timedFrom + Number(durationMs);
  let ok = 0;
  let failed = 0;
  const worker = async (): Promise<void> => {
    for (let now = performance.now(); now < until; now = performance.now()) {
      try {
        const res = await pool.request({ method: 'GET', path });
        await res.body.dump(); // reads to the end (bodies here are far below its 128 KiB limit), keeping the connection
        if (performance.now() >= timedFrom && performance.now() < until) {
          if (res.statusCode === 200) ok++;
          else failed++;
        }
      } catch {
        failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: n }, worker));
  await pool.close();
  process.stdout.write(`${JSON.stringify({ ok, failed, ms: Number(durationMs) })}\n`);
}

void main();
