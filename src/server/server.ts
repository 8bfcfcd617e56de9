// The reference service over node:http: methods, conditional requests and HEAD here; what to answer
// comes from Site (responses.ts). Used by `refactor-browser serve`, the extension's built-in sample
// service and every test.

import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadSampleDataset, type Dataset } from './dataset';
import { Site, type Response } from './responses';

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
  const server = http.createServer((req, res) => handle(site, req, res));

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

function handle(site: Site, req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = req.url ?? '/';
  let response: Response;
  try {
    response = req.method === 'GET' || req.method === 'HEAD' ? site.respond(url) : site.methodNotAllowed(url);
  } catch {
    res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' });
    res.end('internal error\n');
    return;
  }
  if (response.etag !== undefined && matchesNoneMatch(req.headers['if-none-match'], response.etag)) {
    res.writeHead(304, { ETag: response.etag, 'Cache-Control': response.headers['Cache-Control'] });
    res.end();
    return;
  }
  res.writeHead(response.status, response.headers);
  if (req.method === 'HEAD') res.end();
  else res.end(response.body);
}

/** If-None-Match uses the weak comparison (RFC 9110 13.1.2): `W/"x"` matches `"x"`; `*` matches any. */
export function matchesNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}
