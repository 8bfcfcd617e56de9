// The reference service over node:http: a thin adapter that writes the Responder's answer (responses.ts) as it
// is, status, headers and body, so what `serve` sends is what the in-process fetch (fetchHandler.ts)
// answers. No WHATWG Request or Response per request: it would cost throughput for nothing. Used by
// `refactor-browser serve`, the extension's built-in sample service and every test.

import * as http from 'node:http';
import { isIP, type AddressInfo, type Socket } from 'node:net';
import { type Dataset } from '../catalog/dataset';
import { memoryStore } from '../catalog/memoryStore';
import { loadSampleDataset } from '../catalog/sampleDataset';
import { Responder } from './responses';
import type { CatalogStore } from '../store';
import { Contributions, type ContributionLimits } from '../writes/handler';

export interface ServerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1: the service is for this machine unless asked otherwise. */
  host?: string;
  /** A read-only catalog; default: the built-in sample catalog. */
  catalog?: Dataset;
  /** What to serve instead of `catalog`: a writable store takes the write API. Closing the server leaves it open. */
  store?: CatalogStore;
  /** Write rates and the body bound, for a writable store. */
  contributions?: Partial<ContributionLimits>;
  /** How many connections may be open, and how long they may take and stay open (tests make them short); DEFAULT_SERVER_LIMITS for any not given. */
  limits?: Partial<ServerLimits>;
  /**
   * The service is reached through one reverse proxy that appends the client's address to
   * X-Forwarded-For (nginx's `$proxy_add_x_forwarded_for`): the last address there is the client's.
   * Without it the header is ignored, so that a client cannot name itself another address.
   */
  trustProxy?: boolean;
}

/** Bounds on connections, so that clients that connect and say nothing cannot use the server up. */
export interface ServerLimits {
  /**
   * The most connections open at once. A connection that would reach it closes the oldest one that
   * has no request under way, so a silent crowd never keeps a real request out; only when every
   * connection is busy is a new one refused.
   */
  maxConnections: number;
  /** Milliseconds a connection may pass without a byte either way: one that never sends anything is closed after it. */
  idleTimeoutMs: number;
  /** Milliseconds from a connection's or request's start to the end of its headers. */
  headersTimeoutMs: number;
  /** Milliseconds from a request's start to the end of its body. */
  requestTimeoutMs: number;
  /** Milliseconds a kept-alive connection waits for its next request. */
  keepAliveTimeoutMs: number;
}

/** Well below a process's usual 1,024 open files; timeouts a loopback client never comes near. */
export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  maxConnections: 500,
  idleTimeoutMs: 15_000,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
};

export interface RunningServer {
  /** `http://HOST:PORT`, without a trailing slash (IPv6 hosts in brackets). */
  readonly url: string;
  readonly port: number;
  /** Stops listening and ends every connection, keep-alive ones included. */
  close(): Promise<void>;
  /**
   * Stops listening and closes idle connections, lets the requests under way finish (each
   * connection closes after its answer), and resolves once all have, or after `graceMs` (default
   * DEFAULT_GRACE_MS), when whatever is left is ended as close() ends it.
   */
  drain(graceMs?: number): Promise<void>;
  /** How many requests are being answered now (read, worked on, or their answer being written). */
  underWay(): number;
}

/** How long a graceful stop waits for the answers under way: far longer than any read or write takes. */
export const DEFAULT_GRACE_MS = 10_000;

/** Resolves once the server accepts connections; rejects if it cannot listen (e.g. EADDRINUSE). */
export async function startServer(opts: ServerOptions = {}): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1';
  const store = opts.store ?? memoryStore(opts.catalog ?? loadSampleDataset());
  const site = new Responder(store, store.writer && new Contributions(store, store.writer, opts.contributions));
  const limits = { ...DEFAULT_SERVER_LIMITS, ...opts.limits };
  /** Connections with a request under way: never closed to make room. */
  const busy = new Set<Socket>();
  const server = http.createServer({
    headersTimeout: limits.headersTimeoutMs,
    // Node refuses a headers timeout above the request timeout.
    requestTimeout: Math.max(limits.requestTimeoutMs, limits.headersTimeoutMs),
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // How often the two timeouts above are checked (Node's default, 30 s, would let them run over by that much).
    connectionsCheckingInterval: Math.max(10, Math.min(1000, limits.headersTimeoutMs / 4)),
  }, (req, res) => {
    const socket = req.socket;
    busy.add(socket);
    // Node clears a kept-alive connection's timeout when its next request comes: the idle bound holds again.
    socket.setTimeout(limits.idleTimeoutMs);
    res.once('close', () => {
      busy.delete(socket);
      // Stopping: a connection is not kept for another request once its answer is out.
      if (draining) socket.end();
    });
    const client = clientAddress(req, opts.trustProxy === true);
    void site.answer({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, client, body: (limit) => readBody(req, limit) }).then((answer) => {
      if (res.destroyed) return;
      res.writeHead(answer.status, answer.statusText, answer.status === 413 || draining ? { ...answer.headers, Connection: 'close' } : answer.headers);
      res.end(answer.body);
    }).catch(() => res.destroy());
  });
  let draining = false;
  // With no 'timeout' listener, Node destroys a socket that was idle this long.
  server.timeout = limits.idleTimeoutMs;
  server.maxConnections = limits.maxConnections;
  /** Open connections, oldest first. */
  const open = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      busy.delete(socket);
    });
    // Keeps a place free for the next connection: Node refuses any at the bound.
    if (open.size < limits.maxConnections) return;
    for (const other of open) {
      if (other !== socket && !busy.has(other)) {
        other.destroy();
        break;
      }
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closed: Promise<void> | undefined;
  let drained: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closed;
  };
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    close,
    underWay: () => busy.size,
    drain(graceMs = DEFAULT_GRACE_MS) {
      drained ??= new Promise<void>((resolve) => {
        draining = true;
        const late = setTimeout(() => void close(), graceMs);
        server.close(() => {
          clearTimeout(late);
          resolve();
        });
        for (const socket of open) if (!busy.has(socket)) socket.end();
      });
      return drained;
    },
  };
}

/**
 * The client's address: the peer's, or behind a trusted proxy the last one X-Forwarded-For names
 * (what the proxy appended; any before it the client may have written itself).
 */
function clientAddress(req: http.IncomingMessage, trustProxy: boolean): string | undefined {
  const peer = req.socket.remoteAddress;
  if (!trustProxy) return peer;
  const header = req.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : header)?.split(',').at(-1)?.trim();
  return forwarded !== undefined && isIP(forwarded) !== 0 ? forwarded : peer;
}

/**
 * The request's body, or 'too-large' as soon as it passes `limit` bytes: the rest is not read, and
 * the connection is closed after the answer (413) rather than read to its end to be reused.
 */
function readBody(req: http.IncomingMessage, limit: number): Promise<Uint8Array | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.pause();
        resolve('too-large');
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(new Uint8Array(Buffer.concat(chunks, size))));
    req.once('error', reject);
  });
}
