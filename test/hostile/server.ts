// A hostile service for tests: node:http (or https) on 127.0.0.1, port 0. The first path segment
// names a case (cases.ts) and the rest is the API path the client built, so a case is used by
// giving the client `${url}/<case>` as its base URL. Every request is recorded with the moment its
// socket closed and the body bytes written, so a test can see that the client hung up in time.
// Nothing here loops or waits without a bound: cases stop when their socket closes, at their own
// count and time limits, and the whole server closes itself after `lifetimeMs`. No vscode import:
// the extension's integration tests reuse it.

import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { caseFor, type Exchange } from './cases';

export interface RequestRecord {
  /** The request target as received, case segment and query included. */
  readonly path: string;
  /** Date.now() when the request arrived. */
  readonly at: number;
  /** Date.now() when its socket closed, once it has. */
  closedAt?: number;
  /** Body bytes the case handed to the socket. */
  bytesWritten: number;
}

export interface HostileServer {
  /** `http://127.0.0.1:<port>` (or https), no trailing slash. */
  readonly url: string;
  readonly port: number;
  /** The requests whose path starts with `prefix` (e.g. `/never`), oldest first. */
  requests(prefix: string): RequestRecord[];
  /** Stops listening and destroys every socket, stalled ones included; ends every case's timers. */
  close(): Promise<void>;
}

export interface HostileOptions {
  /** Serve https with this key and certificate (see tls.ts). */
  tls?: { key: string; cert: string };
  /** The server closes itself after this long, so a forgotten one cannot keep a process alive. */
  lifetimeMs?: number;
}

const DEFAULT_LIFETIME_MS = 120_000;

export async function startHostileServer(options: HostileOptions = {}): Promise<HostileServer> {
  const records: RequestRecord[] = [];
  let origin = '';

  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const path = req.url ?? '/';
    const record: RequestRecord = { path, at: Date.now(), bytesWritten: 0 };
    records.push(record);
    req.socket.once('close', () => (record.closedAt ??= Date.now()));
    const slash = path.indexOf('/', 1);
    const name = slash === -1 ? path.slice(1) : path.slice(1, slash);
    const rest = slash === -1 ? '/' : path.slice(slash);
    const exchange: Exchange = {
      req,
      res,
      rest,
      record,
      origin,
      countPath: (p) => records.filter((r) => r.path === p).length,
      later: (ms, fn) => life.later(res, ms, fn),
    };
    const handle = caseFor(name);
    if (!handle) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`no hostile case "${name}"\n`);
      return;
    }
    try {
      handle(exchange);
    } catch (err) {
      res.destroy(err instanceof Error ? err : new Error(String(err)));
    }
  };

  const server = options.tls ? https.createServer({ key: options.tls.key, cert: options.tls.cert }, onRequest) : http.createServer(onRequest);
  const life = boundedLife(server, options.lifetimeMs ?? DEFAULT_LIFETIME_MS);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  origin = `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`;

  return {
    url: origin,
    port,
    requests: (prefix) => records.filter((r) => r.path.startsWith(prefix)),
    close: life.close,
  };
}

/** What ends everything a hostile server started: see boundedLife. */
export interface BoundedLife {
  /** Runs `fn` after `ms`, unless `res` closes first: an Exchange's `later`. */
  later(this: void, res: http.ServerResponse, ms: number, fn: () => void): void;
  /** Ends every case's timer, destroys every socket (stalled ones included) and stops listening; once. */
  close(this: void): Promise<void>;
}

/**
 * Keeps `server`'s sockets and its cases' timers so that close() ends them all, and closes it by
 * itself after `lifetimeMs`, so a forgotten server cannot keep a process alive. Also leaves the
 * stalled clients to the cases (Node would otherwise answer them 408 after its own timeouts).
 */
export function boundedLife(server: http.Server | https.Server, lifetimeMs: number): BoundedLife {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  // Raw TCP sockets for https too, so a client stuck in the TLS handshake is destroyed on close.
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= new Promise<void>((resolve) => {
      clearTimeout(lifetime);
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }));
  const lifetime = setTimeout(() => void close(), lifetimeMs);
  lifetime.unref();
  return {
    later(res, ms, fn) {
      const t = setTimeout(() => {
        timers.delete(t);
        fn();
      }, ms);
      timers.add(t);
      res.once('close', () => {
        clearTimeout(t);
        timers.delete(t);
      });
    },
    close,
  };
}
