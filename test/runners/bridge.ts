// The launcher's loopback endpoint for the suite inside the extension host (protocol: test/ui/protocol.ts):
// report lines and the final result come in here, UI requests are done on the Playwright page, and
// the loopback servers the web worker host's tests ask for are started here (test/services/). It
// answers CORS, the preflight included: the web worker's fetch comes from the workbench's origin.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { TestServices } from '../services/registry';
import { perform } from '../ui/actions';
import { isBridgeMessage, type BridgeReply } from '../ui/protocol';

export interface SuiteResult {
  passed: number;
  failed: number;
  pending: number;
}

export interface Bridge {
  readonly url: string;
  /**
   * Starts a run on `page` (UI requests act on it; before the first run they fail): resolves when
   * that run's suite reports its result.
   */
  beginRun(page: Page): Promise<SuiteResult>;
  /** Stops every server the suite asked for (at the end of each run). */
  stopServices(): Promise<void>;
  close(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;
const CORS = { 'access-control-allow-origin': '*' };
const PREFLIGHT = {
  ...CORS,
  'access-control-allow-methods': 'POST',
  'access-control-allow-headers': 'Content-Type',
  'access-control-max-age': '600',
};

export async function startBridge(options: { onLines: (lines: string[]) => void; screenshotDir: string }): Promise<Bridge> {
  let page: Page | undefined;
  let finish: (r: SuiteResult) => void = () => {};
  const services = new TestServices();

  const handle = async (body: string): Promise<BridgeReply> => {
    let message: unknown;
    try {
      message = JSON.parse(body);
    } catch {
      return { ok: false, error: 'body is not JSON' };
    }
    if (!isBridgeMessage(message)) return { ok: false, error: 'not a bridge message' };
    switch (message.type) {
      case 'log':
        options.onLines(message.lines);
        return { ok: true, result: null };
      case 'done':
        finish({ passed: message.passed, failed: message.failed, pending: message.pending });
        return { ok: true, result: null };
      case 'ui':
        if (!page) return { ok: false, error: 'no page yet' };
        try {
          return { ok: true, result: await perform(page, message.request, options.screenshotDir) };
        } catch (err) {
          return { ok: false, error: err instanceof Error ? withCallLog(err.message) : String(err) };
        }
      case 'service':
        try {
          return { ok: true, result: await services.handle(message.request) };
        } catch (err) {
          return { ok: false, error: err instanceof Error ? err.message : String(err) };
        }
    }
  };

  const server = http.createServer((req, res) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, PREFLIGHT).end();
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, CORS).end();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) req.destroy();
      else chunks.push(c);
    });
    req.on('end', () => {
      void handle(Buffer.concat(chunks).toString('utf8')).then((reply) => {
        res.writeHead(200, { 'content-type': 'application/json', ...CORS }).end(JSON.stringify(reply));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    beginRun(p) {
      page = p;
      return new Promise<SuiteResult>((resolve) => (finish = resolve));
    },
    stopServices: () => services.stopAll(),
    async close() {
      await services.stopAll();
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}

/**
 * A Playwright error's first line, and the last steps of its call log when it has one (what it was
 * waiting for when it timed out), on one line for the test's failure.
 */
export function withCallLog(message: string): string {
  const [first, ...rest] = message.split('\n');
  const log = rest.findIndex((l) => /^\s*Call log:/.test(l));
  if (log < 0) return first;
  const steps = rest.slice(log + 1).map((l) => l.trim().replace(/^- /, '')).filter((l) => l !== '');
  return steps.length === 0 ? first : `${first} (${steps.slice(-4).join('; ')})`;
}
