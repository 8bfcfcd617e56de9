// The scale figures (`npm run bench:scale`): the deployment of docs/deploy.md (two `serve --database`
// instances over one PostgreSQL behind nginx with deploy/nginx.conf, started by
// test/deploy/stack.ts) on the 10,000-code generated catalog, under a fixed number of reads in a
// Zipf-like mix over lists, pages and codes, from the load generator (bench/loadgen.ts --mix, its
// own process). The baseline is one instance answering the same mix alone, in the same run:
// warm-ups first, then rounds alternating nginx and the instance alone (order flipped each round),
// each round with a fresh sequence of the same mix. Each run through nginx lasts longer than the
// max-age nginx keeps a page for, so that its last max-age is a steady state: every page asked for
// in it was missed or revalidated at most once there, as it would be under traffic that never stops.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { languageSlug, SERVICE_LANGUAGES } from '../src/core/languages';
import { numbers } from '../src/server/catalog/generatedCatalog';
import { request } from '../test/helpers/referenceService';
import { startStack, type Stack } from '../test/deploy/stack';
import { figure, median, type Figure } from './measure';

const CODES = 10_000;
const CONNECTIONS = 50;
/** Requests per sequence: the warm-up's, each round's for the instance alone, the run with writes. */
const WARMUP_REQUESTS = 60_000;
const ROUND_REQUESTS = 40_000;
/** Each round's run through nginx: this many requests at most, cut off after NGINX_RUN_MS. */
const NGINX_ROUND_REQUESTS = 400_000;
const NGINX_RUN_MS = 75_000;
const ROUNDS = 2;
/** Any other run is cut off after this long (the figures then say how many were sent). */
const RUN_MAX_MS = 90_000;
export const READS_PER_WRITE_SCALE = 1000;
/** The service's Cache-Control max-age, which nginx keeps a page for. */
const MAX_AGE_MS = 60_000;

/** A seeded generator of numbers in [0, 1): the generated catalog's mulberry32, so each round's sequence is the same from run to run. */
function random(seed: number): () => number {
  const next = numbers(seed);
  return () => next() / 4294967296;
}

/** Draws ranks 0..n-1 with probability ∝ 1/(rank+1)^s. */
function zipf(n: number, s: number, next: () => number): () => number {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let k = 0; k < n; k++) cumulative[k] = total += 1 / (k + 1) ** s;
  return () => {
    const x = next() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/**
 * The mix: 40% lists (which list by Zipf over recent, popular, recent refactorings and the 16
 * languages' recent lists, then its page by a steeper Zipf: most people stop at page 1 or 2), 60%
 * codes (Zipf, s = 1.1, over the 10,000 ids in a fixed shuffled order of popularity); one request
 * in ten asks for the HTML page (a browser's) rather than the XML (the extension's, the CLI's).
 */
export function scaleMix(count: number, seed: number): string[] {
  const next = random(seed);
  const lists = [
    { path: '/codes/recent', pages: CODES / 25 },
    { path: '/codes/popular', pages: CODES / 25 },
    { path: '/refactorings/recent', pages: (CODES * 3) / 25 },
    ...SERVICE_LANGUAGES.map((l) => ({ path: `/codes/recent/${languageSlug(l)}`, pages: Math.ceil(CODES / SERVICE_LANGUAGES.length / 25) })),
  ];
  const whichList = zipf(lists.length, 1, next);
  const pageOf = new Map<number, () => number>();
  const popularity = Array.from({ length: CODES }, (_, i) => i + 1);
  const shuffle = random(7);
  for (let i = popularity.length - 1; i > 0; i--) {
    const j = Math.floor(shuffle() * (i + 1));
    [popularity[i], popularity[j]] = [popularity[j], popularity[i]];
  }
  const whichCode = zipf(CODES, 1.1, next);
  const paths: string[] = [];
  for (let i = 0; i < count; i++) {
    const html = next() < 0.1;
    if (next() < 0.4) {
      const list = lists[whichList()];
      let page = pageOf.get(list.pages);
      if (!page) pageOf.set(list.pages, (page = zipf(list.pages, 1.5, next)));
      const p = page() + 1;
      paths.push(`${list.path}${html ? '' : '.xml'}${p === 1 ? '' : `?page=${p}`}`);
    } else {
      paths.push(`/codes/${popularity[whichCode()]}${html ? '' : '.xml'}`);
    }
  }
  return paths;
}

interface MixResult {
  failures: Record<string, number>;
  sent: number;
  ok: number;
  failed: number;
  writes: number;
  ms: number;
  p50: number;
  p99: number;
  writeP50: number;
}

export async function scaleFigures(): Promise<Figure[]> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'refactor-browser-scale-'));
  const log = (line: string): void => void process.stderr.write(`scale: ${line}\n`);
  let stack: Stack | undefined;
  try {
    stack = await startStack({ generate: CODES, writesPerMinute: 100_000, log, startMs: 300_000 });
    const s = stack;
    const direct = s.instances[0].url;
    const writes = path.join(scratch, 'bodies.json');
    writeFileSync(writes, JSON.stringify(Array.from({ length: 200 }, (_, i) => codeBody(`Written under load ${i}`))));
    const env = { REFACTOR_BROWSER_BENCH_TOKEN: s.token, REFACTOR_BROWSER_BENCH_WRITES: writes };
    const sequence = (name: string, count: number, seed: number): { file: string; distinct: number } => {
      const paths = scaleMix(count, seed);
      const file = path.join(scratch, `${name}.json`);
      writeFileSync(file, JSON.stringify(paths));
      return { file, distinct: new Set(paths).size };
    };
    /**
     * One run through nginx: the result, how many requests reached an instance (nginx's log), and the
     * same over the run's last max-age alone (its steady state) when the run lasted longer.
     */
    const viaNginx = async (file: string, readsPerWrite = 0, maxMs = RUN_MAX_MS): Promise<MixResult & { upstream: number; last: { sent: number; upstream: number } | undefined }> => {
      const before = s.accessLog().length;
      const result = await mix(s.nginxUrl, file, readsPerWrite, env, maxMs);
      // nginx logs each request just after answering it.
      let lines = s.accessLog().slice(before);
      for (let wait = 0; lines.length < result.sent && wait < 50; wait++) {
        await new Promise((r) => setTimeout(r, 100));
        lines = s.accessLog().slice(before);
      }
      const upstreamOf = (ls: typeof lines): number => ls.reduce((n, l) => n + l.upstreams.length, 0);
      const end = lines.at(-1)?.time ?? 0;
      // Whole seconds in the log: the window starts a second late rather than early.
      const window = lines.filter((l) => l.time >= end - MAX_AGE_MS + 1000);
      const last = lines.length > 0 && end - lines[0].time >= MAX_AGE_MS ? { sent: window.length, upstream: upstreamOf(window) } : undefined;
      return { ...result, upstream: upstreamOf(lines), last };
    };

    const warm = sequence('warmup', WARMUP_REQUESTS, 1);
    log(`warm-up: ${WARMUP_REQUESTS} requests (${warm.distinct} distinct) to the instance alone, then through nginx`);
    await mix(direct, warm.file, 0, env);
    const warmed = await viaNginx(warm.file);
    log(`warm-up through nginx: ${warmed.upstream} of ${warmed.sent} reached an instance`);

    const rounds: Array<{ nginx: MixResult & { upstream: number; last: { sent: number; upstream: number } | undefined }; alone: MixResult }> = [];
    for (let r = 0; r < ROUNDS; r++) {
      const nginxSeq = sequence(`round${r}.nginx`, NGINX_ROUND_REQUESTS, 100 + r);
      const aloneSeq = sequence(`round${r}.alone`, ROUND_REQUESTS, 100 + r);
      let nginxRun: (typeof rounds)[number]['nginx'] | undefined;
      let aloneRun: MixResult | undefined;
      if (r % 2 === 0) {
        nginxRun = await viaNginx(nginxSeq.file, 0, NGINX_RUN_MS);
        aloneRun = await mix(direct, aloneSeq.file, 0, env);
      } else {
        aloneRun = await mix(direct, aloneSeq.file, 0, env);
        nginxRun = await viaNginx(nginxSeq.file, 0, NGINX_RUN_MS);
      }
      if (!nginxRun.last) throw new Error(`the run through nginx lasted less than the max-age (${nginxRun.ms} ms): no steady state to measure`);
      log(`round ${r + 1}: nginx ${rate(nginxRun)} req/s (p99 ${ms(nginxRun.p99)} ms; ${nginxRun.upstream} of ${nginxRun.sent} reached an instance, ${nginxRun.last.upstream} of ${nginxRun.last.sent} in the last max-age), alone ${rate(aloneRun)} req/s (p99 ${ms(aloneRun.p99)} ms)`);
      rounds.push({ nginx: nginxRun, alone: aloneRun });
    }
    const writing = await viaNginx(sequence('mix-with-writes', ROUND_REQUESTS, 200).file, READS_PER_WRITE_SCALE);
    log(`with writes: ${writing.writes} written (failures ${JSON.stringify(writing.failures)}), p99 ${ms(writing.p99)} ms, ${writing.upstream} of ${writing.sent} reached an instance`);
    if (writing.writes === 0 || writing.failed > 0) throw new Error(`the run with writes failed: ${JSON.stringify(writing.failures)}`);

    const visible = await writeVisibility(s);
    log(`a write showed through nginx: its page after ${visible.page.toFixed(0)} ms, the recent list after ${visible.list.toFixed(0)} ms; the other instance after ${visible.other.toFixed(0)} ms`);

    const offloads = rounds.map((r) => 1 - r.nginx.last!.upstream / r.nginx.last!.sent);
    const mixNote = `GETs in a Zipf-like mix (40% lists and pages, 60% of the ${CODES.toLocaleString('en')} codes, a tenth HTML), ${CONNECTIONS} connections, after a warm-up of ${WARMUP_REQUESTS}; per round, up to ${NGINX_ROUND_REQUESTS} through nginx for at most ${NGINX_RUN_MS / 1000} s, ${ROUND_REQUESTS} to the instance alone`;
    const nginxRates = rounds.map((r) => rate(r.nginx));
    const aloneRates = rounds.map((r) => rate(r.alone));
    const nginxP99 = rounds.map((r) => r.nginx.p99);
    const aloneP99 = rounds.map((r) => r.alone.p99);
    return [
      figure(
        { name: 'scale.offload', goal: 0.95, unit: 'share of requests nginx answered alone', higherIsBetter: true,
          note: `1 − requests reaching an instance (nginx's log) / requests sent, over the last ${MAX_AGE_MS / 1000} s (the max-age) of each round's run through nginx: ${offloads.map((o) => o.toFixed(3)).join(', ')} (${rounds.map((r) => `${r.nginx.last!.upstream} of ${r.nginx.last!.sent}; the whole run ${r.nginx.upstream} of ${r.nginx.sent}`).join('; ')}); ${mixNote}` },
        median(offloads), 1, offloads,
      ),
      figure(
        { name: 'scale.throughput', goal: 1, unit: 'requests/s', higherIsBetter: true,
          note: `through nginx (2 instances) vs one instance answering the same requests alone, per round ${nginxRates.join(', ')} vs ${aloneRates.join(', ')}; the load generator, nginx, the instances and PostgreSQL share the machine's cores; ${mixNote}` },
        median(nginxRates), median(aloneRates), rounds.map((r) => rate(r.nginx) / rate(r.alone)),
      ),
      figure(
        { name: 'scale.p99', goal: null, unit: 'ms', note: `p99 of the reads' latency through nginx vs the instance alone, per round ${nginxP99.map(ms).join(', ')} vs ${aloneP99.map(ms).join(', ')}; p50 through nginx ${rounds.map((r) => ms(r.nginx.p50)).join(', ')}` },
        median(nginxP99), median(aloneP99), rounds.map((r) => r.nginx.p99 / r.alone.p99),
      ),
      figure(
        { name: 'scale.p99.writes', goal: null, unit: 'ms',
          note: `p99 of the reads through nginx while one request in ${READS_PER_WRITE_SCALE + 1} is a POST /codes.xml (${ROUND_REQUESTS} reads; ${writing.writes} written, their median ${ms(writing.writeP50)} ms; ${writing.upstream} of ${writing.sent} requests reached an instance); baseline the reads-only p99 through nginx` },
        writing.p99, median(nginxP99),
      ),
      figure(
        { name: 'scale.write.visible.list', goal: 1.05, unit: 'ms',
          note: `from a POST /codes.xml's 201 through nginx to /codes/recent.xml through nginx listing the code (polled every 100 ms); baseline the max-age nginx keeps the page for; the new code's own page showed after ${ms(visible.page)} ms through nginx (never cached before), the other instance's list after ${ms(visible.other)} ms` },
        visible.list, MAX_AGE_MS,
      ),
    ];
  } finally {
    await stack?.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** After a write through nginx: how long until its own page, the recent list through nginx, and the other instance's list show it. */
async function writeVisibility(s: Stack): Promise<{ page: number; list: number; other: number }> {
  const title = `Visible when ${Date.now()}`;
  // The list is in nginx's cache (every round asks for it), kept for up to max-age from when it was stored.
  await request(s.nginxUrl, '/codes/recent.xml');
  const res = await request(s.nginxUrl, '/codes.xml', {
    method: 'POST',
    headers: { 'Content-Type': 'application/xml', Authorization: `Bearer ${s.token}` },
    body: codeBody(title),
  });
  if (res.status !== 201) throw new Error(`POST /codes.xml through nginx answered ${res.status}`);
  const written = performance.now();
  const id = /\/codes\/(\d+)-/.exec(res.headers.location ?? '')?.[1];
  const until = async (url: string, path: string, shows: (text: string, status: number) => boolean): Promise<number> => {
    for (;;) {
      const r = await request(url, path);
      const took = performance.now() - written;
      if (shows(r.text, r.status)) return took;
      if (took > MAX_AGE_MS * 1.5) throw new Error(`${path} at ${url} did not show the write within ${MAX_AGE_MS * 1.5} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const other = await until(s.instances[1].url, '/codes/recent.xml', (text) => text.includes(title));
  const page = await until(s.nginxUrl, `/codes/${id}.xml`, (_, status) => status === 200);
  const list = await until(s.nginxUrl, '/codes/recent.xml', (text) => text.includes(title));
  return { page, list, other };
}

function rate(r: MixResult): number {
  if (r.failed > 0 || r.ok === 0) throw new Error(`load generator: ${r.ok} ok, ${r.failed} failed: ${JSON.stringify(r.failures)}`);
  return Math.round((r.ok * 1000) / r.ms);
}

function ms(x: number): string {
  return x.toFixed(1);
}

function codeBody(title: string): string {
  return `<code><title>${title}</title><language>Ruby</language><comment>Measured.</comment><code>puts 1</code><tag-list>scale</tag-list></code>`;
}

/** One load-generator process over a file of paths; stopped by its pid if it overruns. */
function mix(origin: string, file: string, readsPerWrite: number, env: Record<string, string>, maxMs = RUN_MAX_MS): Promise<MixResult> {
  return new Promise((resolve, reject) => {
    const args = [path.join(__dirname, 'loadgen.js'), '--mix', origin, file, String(CONNECTIONS), String(maxMs), String(readsPerWrite)];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), maxMs + 15_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      try {
        if (code !== 0) throw new Error(`load generator exited ${code}`);
        resolve(JSON.parse(out) as MixResult);
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
  });
}
