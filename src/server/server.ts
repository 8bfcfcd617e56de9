// The reference service over node:http: a thin adapter that writes Site's answer (responses.ts) as it
// is, status, headers and body, so what `serve` sends is what the in-process fetch (fetchHandler.ts)
// answers. No WHATWG Request or Response per request: it would cost throughput for nothing. Used by
// `refactor-browser serve`, the extension's built-in sample service and every test.

import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Dataset } from './dataset';
import { loadSampleDataset } from './sampleDataset';
import { Site } from './responses';

export interface ServerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1: the service is for this machine unless asked otherwise. */
  host?: string;
  /** Default: the built-in sample catalog. */
  catalog?: Dataset;
}

export interface RunningServer {
  /** `http://HOST:PORT`, without a trailing slash (IPv6 hosts in brackets). */
  readonly url: string;
  readonly port: number;
  /** Stops listening and ends every connection, keep-alive ones included. */
  close(): Promise<void>;
}

/** Resolves once the server accepts connections; rejects if it cannot listen (e.g. EADDRINUSE). */
export async function startServer(opts: ServerOptions = {}): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1';
  const site = new Site(opts.catalog ?? loadSampleDataset());
  const server = http.createServer((req, res) => {
    const answer = site.answer({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers });
    res.writeHead(answer.status, answer.statusText, answer.headers);
    res.end(answer.body);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
