// How the owner's commands reach a data folder that a running `serve` holds: an embedded PostgreSQL
// is one process's alone, so `users revoke NAME` (which must end a token at once) or `export` (a
// backup without downtime) ask that process instead, over a local socket only the folder's owner can
// open. One request a connection, one JSON line each way.
import { createHash } from 'node:crypto';
import { chmodSync, rmSync } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

/** What the command line asks of the storage's holder. */
export type OwnerRequest =
  | { kind: 'users'; action: 'list' | 'add' | 'token' | 'revoke'; person?: string | { id: number }; website?: string; identityUrl?: string }
  | { kind: 'import'; catalog: unknown; source: string }
  | { kind: 'export' };

/** What the command would have printed, and its exit code. */
export interface OwnerReply {
  code: number;
  out: string;
  err: string;
}

/** A catalog is the largest request; a generated 100,000-code one is well below it. */
const MAX_LINE_BYTES = 512 * 1024 * 1024;
const ASK_TIMEOUT_MS = 10 * 60_000;

/**
 * The socket of a data folder: inside it where the path fits a socket address, else a name derived
 * from it in the temporary folder; a named pipe on Windows.
 */
export function ownerChannelPath(dir: string): string {
  const id = createHash('sha256').update(path.resolve(dir)).digest('hex').slice(0, 24);
  if (process.platform === 'win32') return `\\\\.\\pipe\\refactor-browser-${id}`;
  const inside = path.join(path.resolve(dir), 'control.sock');
  return Buffer.byteLength(inside) < 100 ? inside : path.join(os.tmpdir(), `refactor-browser-${id}.sock`);
}

/** Listens on the folder's socket until closed; `answer` runs each request against the open storage. */
export async function startOwnerChannel(dir: string, answer: (request: OwnerRequest) => Promise<OwnerReply>): Promise<{ close(): Promise<void> }> {
  const at = ownerChannelPath(dir);
  // The folder's lock is held, so a socket file left there is a killed holder's.
  if (process.platform !== 'win32') rmSync(at, { force: true });
  // Half-open: the asker ends its side once it has asked, and still reads the reply.
  const server = net.createServer({ allowHalfOpen: true }, (socket) => {
    readLine(socket)
      .then((line) => answer(JSON.parse(line) as OwnerRequest))
      .catch((e: unknown): OwnerReply => ({ code: 1, out: '', err: `refactor-browser: ${e instanceof Error ? e.message : String(e)}\n` }))
      .then((reply) => socket.end(`${JSON.stringify(reply)}\n`), () => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(at, () => {
      server.off('error', reject);
      resolve();
    });
  });
  if (process.platform !== 'win32') chmodSync(at, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        if (process.platform !== 'win32') rmSync(at, { force: true });
      }),
  };
}

/** Asks the process holding `dir`; undefined when nothing answers there (no channel, an older serve). */
export async function askOwnerChannel(dir: string, request: OwnerRequest): Promise<OwnerReply | undefined> {
  const socket = net.connect(ownerChannelPath(dir));
  socket.setTimeout(ASK_TIMEOUT_MS, () => socket.destroy(new Error('the serving process did not answer in time')));
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
  } catch {
    socket.destroy();
    return undefined;
  }
  socket.end(`${JSON.stringify(request)}\n`);
  return JSON.parse(await readLine(socket)) as OwnerReply;
}

function readLine(socket: net.Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    socket.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_LINE_BYTES) socket.destroy(new Error('the request is too large'));
      else chunks.push(chunk);
    });
    socket.once('end', () => resolve(Buffer.concat(chunks).toString('utf8').trim()));
    socket.once('error', reject);
  });
}
