// A real node:http server on 127.0.0.1:0 for tests that must talk HTTP. It tracks its sockets so
// `close()` can destroy the keep-alive and stalled ones: otherwise a test that left a socket open
// would keep mocha alive or make the next test wait.

import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface TestServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly origin: string;
  readonly port: number;
  readonly server: http.Server;
  /** Every request received, in order. */
  readonly requests: http.IncomingMessage[];
  close(): Promise<void>;
}

export async function startServer(handler: Handler): Promise<TestServer> {
  const sockets = new Set<Socket>();
  const requests: http.IncomingMessage[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req);
    handler(req, res);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    server,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port that nothing listens on: opened, then closed again. */
export async function closedPort(): Promise<number> {
  const s = await startServer(() => undefined);
  const port = s.port;
  await s.close();
  return port;
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Writes `total` bytes in `chunk`-sized pieces, respecting backpressure; stops when the peer goes. */
export async function streamBytes(res: http.ServerResponse, total: number, chunk = 64 * 1024): Promise<number> {
  const piece = Buffer.alloc(chunk, 0x61);
  let sent = 0;
  let closed = false;
  res.once('close', () => (closed = true));
  while (sent < total && !closed) {
    const ok = res.write(piece);
    sent += chunk;
    if (!ok) {
      await new Promise<void>((resolve) => {
        const done = () => { res.off('drain', done); res.off('close', done); resolve(); };
        res.on('drain', done);
        res.on('close', done);
      });
    }
  }
  if (!closed) res.end();
  return sent;
}
