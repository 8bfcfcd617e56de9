// Figure 5: requests per second for /codes/recent.xml from the reference service at 50 concurrent
// connections, against a node:http server answering a fixed buffer of the same size: the most a
// node:http server can do on this machine, under the same load generator in the same run.
import { spawn } from 'node:child_process';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { startServer } from '../src/server/server';
import { figure, median, type Figure } from './measure';

const CONNECTIONS = 50;
const WARMUP_MS = 500;
const DURATION_MS = 2500;
const PAIRS = 2;

export async function throughputFigures(): Promise<Figure[]> {
  const service = await startServer({ host: '127.0.0.1', port: 0 });
  const serviceUrl = `${service.url}/codes/recent.xml`;
  const body = Buffer.from(await (await fetch(serviceUrl)).arrayBuffer());
  const fixed = await fixedServer(body);
  const fixedUrl = `http://127.0.0.1:${(fixed.address() as AddressInfo).port}/codes/recent.xml`;
  try {
    const base: number[] = [];
    const subj: number[] = [];
    const ratios: number[] = [];
    for (let r = 0; r < PAIRS * 2; r += 2) {
      // Alternating which goes first, so a neighbour's load burst does not always hit the same side.
      const [first, second] = r % 4 === 0 ? [fixedUrl, serviceUrl] : [serviceUrl, fixedUrl];
      const a = await load(first);
      const b = await load(second);
      const [fb, sb] = first === fixedUrl ? [a, b] : [b, a];
      base.push(fb);
      subj.push(sb);
      ratios.push(sb / fb);
    }
    return [figure(
      { name: 'service.throughput', goal: 0.8, unit: 'requests/s', higherIsBetter: true,
        note: `GET /codes/recent.xml (${(body.length / 1024).toFixed(0)} KiB), ${CONNECTIONS} connections, ${DURATION_MS} ms per run; baseline node:http sending a fixed buffer of that size` },
      median(subj), median(base), ratios,
    )];
  } finally {
    await new Promise<void>((resolve) => {
      fixed.close(() => resolve());
      fixed.closeAllConnections();
    });
    await service.close();
  }
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

/** Requests per second one load-generator process achieves against `url`. */
function load(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(__dirname, 'loadgen.js'), url, String(CONNECTIONS), String(WARMUP_MS), String(DURATION_MS)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    // Bounded: a stuck generator is stopped (by its own pid) well after its run should have ended.
    const timer = setTimeout(() => child.kill('SIGKILL'), WARMUP_MS + DURATION_MS + 15_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      try {
        const { ok, failed, ms } = JSON.parse(out) as { ok: number; failed: number; ms: number };
        if (code !== 0 || failed > 0 || ok === 0) throw new Error(`load generator: exit ${code}, ${ok} ok, ${failed} failed`);
        resolve((ok * 1000) / ms);
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
  });
}
