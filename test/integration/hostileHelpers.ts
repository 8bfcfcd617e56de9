// Helpers for the hostile suites inside VS Code: a "switchboard" that answers every API path with
// the sample catalog except the paths a test breaks, which get a hostile case (test/hostile/cases.ts)
// for as long as the test wants; a watch on unhandled rejections in the extension host; and a line
// to the report. Why a switchboard rather than the hostile server's own `/<case>/...` base URLs: the
// Catalog's other roots must keep listing while one fails, and the same base URL must turn bad after
// a good answer was cached (the offline store is keyed by base URL) and good again for Retry.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import Mocha from 'mocha';
import { caseFor, type Exchange } from '../hostile/cases';
import { boundedLife, type RequestRecord } from '../hostile/server';

export interface Switchboard {
  /** `http://127.0.0.1:<port>`, to be set as refactorBrowser.baseUrl. */
  readonly url: string;
  /** From now on `apiPath` (no query, e.g. `/codes/recent.xml`) is served by the named case; undefined heals it. */
  set(apiPath: string, caseName: string | undefined): void;
  /** Requests whose target starts with `prefix`, oldest first. */
  requests(prefix: string): RequestRecord[];
  close(): Promise<void>;
}

/** A switchboard dies on its own after this long, so a forgotten one cannot outlive the suite by much. */
const LIFETIME_MS = 180_000;

export async function startSwitchboard(): Promise<Switchboard> {
  const broken = new Map<string, string>();
  const records: RequestRecord[] = [];
  let origin = '';

  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    const record: RequestRecord = { path, at: Date.now(), bytesWritten: 0 };
    records.push(record);
    req.socket.once('close', () => (record.closedAt ??= Date.now()));
    // A first segment naming a case is a hop of that case (a redirect's Location): served as the
    // hostile server would. Anything else is an API path: broken on purpose, or the sample.
    const slash = path.indexOf('/', 1);
    const first = slash === -1 ? path.slice(1) : path.slice(1, slash);
    const apiPath = path.split('?')[0];
    const hop = caseFor(first);
    const name = hop ? first : (broken.get(apiPath) ?? 'ok');
    const rest = hop ? (slash === -1 ? '/' : path.slice(slash)) : path;
    const exchange: Exchange = {
      req, res, rest, record, origin,
      countPath: (p) => records.filter((r) => r.path === p).length,
      later: (ms, fn) => life.later(res, ms, fn),
    };
    try {
      caseFor(name)!(exchange);
    } catch (err) {
      res.destroy(err instanceof Error ? err : new Error(String(err)));
    }
  });
  const life = boundedLife(server, LIFETIME_MS);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: origin,
    set(apiPath, caseName) {
      if (caseName === undefined) broken.delete(apiPath);
      else if (!caseFor(caseName)) throw new Error(`no hostile case ${JSON.stringify(caseName)}`);
      else broken.set(apiPath, caseName);
    },
    requests: (prefix) => records.filter((r) => r.path.startsWith(prefix)),
    close: life.close,
  };
}

/**
 * Collects unhandled rejections and uncaught exceptions in this process (the extension host, where
 * the extension runs too) from `start()` on; `stop()` removes the listeners.
 */
export function watchUnhandled(): { start(): void; stop(): void; take(): string[] } {
  const seen: string[] = [];
  const describe = (kind: string) => (reason: unknown) => {
    seen.push(`${kind}: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`);
  };
  const onRejection = describe('unhandledRejection');
  const onException = describe('uncaughtException');
  return {
    start() {
      process.on('unhandledRejection', onRejection);
      process.on('uncaughtExceptionMonitor', onException);
    },
    stop() {
      process.off('unhandledRejection', onRejection);
      process.off('uncaughtExceptionMonitor', onException);
    },
    take: () => seen.splice(0, seen.length),
  };
}

/** A line in the suite's report (the spec reporter's output, which the launcher forwards). */
export function report(line: string): void {
  Mocha.reporters.Base.consoleLog(`      ${line}`);
}
