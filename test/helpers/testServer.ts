// A real node:http server on 127.0.0.1:0 for tests that must talk HTTP. It tracks its sockets so
// `close()` can destroy the keep-alive and stalled ones: otherwise a test that left a socket open
// would keep mocha alive or make the next test wait.

import { spawn } from 'node:child_process';
import * as http from 'node:http';
import * as https from 'node:https';
import { connect as netConnect, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface TestServer {
  /** `http://127.0.0.1:<port>` (https with `tls`), without a trailing slash. */
  readonly origin: string;
  readonly port: number;
  readonly server: http.Server | https.Server;
  /** Every request received, in order. */
  readonly requests: http.IncomingMessage[];
  close(): Promise<void>;
}

/** `tls`: serve https with this key and certificate (test/hostile/tls.ts makes one). */
export async function startServer(handler: Handler, options: { tls?: { key: string; cert: string } } = {}): Promise<TestServer> {
  const sockets = new Set<Socket>();
  const requests: http.IncomingMessage[] = [];
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    requests.push(req);
    handler(req, res);
  };
  const server = options.tls ? https.createServer({ key: options.tls.key, cert: options.tls.cert }, onRequest) : http.createServer(onRequest);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
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

/** A loopback port held by a socket bound to it that does not listen (holdPort). */
export interface HeldPort {
  readonly port: number;
  /** Starts `server` listening on the port, which was never free in between; once only. */
  listenWith(server: NetServer): Promise<void>;
  /** Lets the port go, unless a server listens on it (closing that server does). */
  close(): void;
}

interface TcpHandle { bind(address: string, port: number): number; getsockname(out: { port?: number }): number; unref(): void; close(): void }

/**
 * A loopback port that refuses connections and that no other process can take: a socket bound to it
 * that never listens (a port closed again after listening could be taken by anything in between).
 * Node has no public call that binds without listening, hence its own TCP binding; a net.Server can
 * listen on that very socket later (`server.listen(handle)`), for a service that comes up where
 * connections were refused. The socket does not keep the process alive.
 */
export function holdPort(): HeldPort {
  const { TCP, constants } = (process as unknown as { binding(name: 'tcp_wrap'): { TCP: new (type: number) => TcpHandle; constants: { SOCKET: number } } }).binding('tcp_wrap');
  const handle = new TCP(constants.SOCKET);
  const out: { port?: number } = {};
  if (handle.bind('127.0.0.1', 0) !== 0 || handle.getsockname(out) !== 0 || !out.port) {
    handle.close();
    throw new Error('could not bind a loopback port');
  }
  handle.unref();
  let taken = false;
  return {
    port: out.port,
    listenWith(server) {
      if (taken) return Promise.reject(new Error(`port ${out.port} is taken already`));
      taken = true;
      return new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(handle, () => {
          server.off('error', reject);
          resolve();
        });
      });
    },
    close() {
      if (taken) return;
      taken = true;
      handle.close();
    },
  };
}

/** A port that refuses connections (holdPort), held until the test process exits. */
export async function closedPort(): Promise<number> {
  const held = holdPort();
  heldPorts.push(held);
  return held.port;
}
const heldPorts: HeldPort[] = [];

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

export interface FullListener {
  readonly port: number;
  /** Resumes and kills the listening process, and closes the sockets that filled its queue. */
  close(): Promise<void>;
}

/**
 * A loopback port on which a connect never completes: a child process listens with a backlog of 1
 * and is stopped (SIGSTOP) so it never accepts, then raw sockets fill its accept queue. Linux drops
 * further SYNs while the queue is full, so a client's connect hangs until its own timeout.
 */
export async function startFullListener(): Promise<FullListener> {
  const script = "require('net').createServer().listen({ port: 0, host: '127.0.0.1', backlog: 1 }, function () { process.stdout.write(this.address().port + '\\n'); });";
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
  const fillers: Socket[] = [];
  const close = async (): Promise<void> => {
    for (const s of fillers) s.destroy();
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      process.kill(child.pid, 'SIGCONT');
      process.kill(child.pid, 'SIGKILL');
      await exited;
    }
  };
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the listening child did not start within 5 s')), 5000);
      child.once('exit', () => reject(new Error('the listening child exited')));
      child.stdout.setEncoding('utf8').once('data', (d: string) => { clearTimeout(timer); resolve(Number(d.trim())); });
    });
    process.kill(child.pid!, 'SIGSTOP');
    // Connect until one connect does not complete: the queue is then full (two fit with backlog 1).
    for (let i = 0; ; i++) {
      if (i === 20) throw new Error('the accept queue never filled');
      const socket = netConnect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      fillers.push(socket);
      const connected = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), 500);
        socket.once('connect', () => { clearTimeout(timer); resolve(true); });
      });
      if (!connected) break;
    }
    return { port, close };
  } catch (e) {
    await close();
    throw e;
  }
}
