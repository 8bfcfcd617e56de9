// How the owner's commands reach a data folder that a running `serve` holds: an embedded PostgreSQL
// is one process's alone, so `users revoke NAME` (which must end a token at once) or `export` (a
// backup without downtime) ask that process instead, over a local socket only the folder's owner can
// open. One request a connection, one JSON line each way. The socket is in a folder made private
// (0700) under a name nobody can guess, and `DIR/control` records where, so that no other user can
// take its place or listen in.
import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileProblem } from '../server/fileErrors';

/** What the command line asks of the storage's holder. */
export type OwnerRequest =
  | { kind: 'users'; action: 'list' | 'add' | 'token' | 'revoke'; person?: string | { id: number }; website?: string; identityUrl?: string; json?: boolean }
  | { kind: 'import'; catalog: unknown; source: string; json?: boolean }
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

/** The file in a data folder that names where its holder's socket is. */
const RECORD = 'control';
/** The private folders the sockets are made in start so; nothing else is ever removed. */
const FOLDER_PREFIX = 'refactor-browser-control-';
/** Below every platform's bound on a socket's path (104 bytes on macOS, 108 on Linux). */
const MAX_SOCKET_PATH = 100;

/** The channel could not be made: `serve` stops rather than run without it. */
export class OwnerChannelError extends Error {
  override readonly name = 'OwnerChannelError';
}

/** A named pipe on Windows: pipes live in a namespace of their own, not in folders. */
function pipeName(dir: string): string {
  return `\\\\.\\pipe\\refactor-browser-${createHash('sha256').update(path.resolve(dir)).digest('hex').slice(0, 24)}`;
}

/**
 * Makes a folder only this user may enter (mkdtemp: 0700, a name nobody can take first), inside the
 * data folder where the socket's path fits, else in the temporary folder.
 */
function privateFolder(dir: string): string {
  const inside = path.join(path.resolve(dir), `${FOLDER_PREFIX}XXXXXX`, 'control.sock');
  const parent = Buffer.byteLength(inside) < MAX_SOCKET_PATH ? path.resolve(dir) : os.tmpdir();
  const folder = mkdtempSync(path.join(parent, FOLDER_PREFIX));
  chmodSync(folder, 0o700);
  return folder;
}

/** The socket path `dir/control` names, if the record is this user's and names one of our folders. */
function recordedPath(dir: string): string | undefined {
  const record = path.join(dir, RECORD);
  if (!ownedPrivately(record, 0o022)) return undefined;
  let at: string;
  try {
    at = readFileSync(record, 'utf8').trim();
  } catch {
    return undefined;
  }
  return path.isAbsolute(at) && path.basename(path.dirname(at)).startsWith(FOLDER_PREFIX) ? at : undefined;
}

/**
 * The socket the record in `dir` names, if it can be trusted: the record, the socket's folder and
 * the socket are this user's, and the folder is private. Anything else is another user's trap.
 */
function recordedSocket(dir: string): string | undefined {
  const at = recordedPath(dir);
  return at !== undefined && ownedPrivately(path.dirname(at), 0o077) && ownedPrivately(at, 0o077) ? at : undefined;
}

/** The path is there, this user's (not followed if a link), and none of the bits of `forbidden` are set. */
function ownedPrivately(at: string, forbidden: number): boolean {
  try {
    const stat = lstatSync(at, { throwIfNoEntry: false });
    return stat !== undefined && !stat.isSymbolicLink() && stat.uid === process.getuid?.() && (stat.mode & forbidden) === 0;
  } catch {
    return false;
  }
}

/** Removes the folder a killed holder's record names, if it is one of ours, and the record. */
function removeStale(dir: string): void {
  const at = recordedPath(dir);
  if (at !== undefined && ownedPrivately(path.dirname(at), 0o077)) rmSync(path.dirname(at), { recursive: true, force: true });
  rmSync(path.join(dir, RECORD), { force: true });
}

/**
 * Listens on a socket in a private folder until closed, its place recorded in `dir/control` for the
 * owner's commands; `answer` runs each request against the open storage. Throws OwnerChannelError
 * when the socket cannot be made.
 */
export async function startOwnerChannel(dir: string, answer: (request: OwnerRequest) => Promise<OwnerReply>): Promise<{ close(): Promise<void> }> {
  const windows = process.platform === 'win32';
  let folder: string | undefined;
  let at: string;
  try {
    // The folder's lock is held, so what a record names is a killed holder's.
    if (!windows) removeStale(dir);
    folder = windows ? undefined : privateFolder(dir);
    at = folder === undefined ? pipeName(dir) : path.join(folder, 'control.sock');
  } catch (e) {
    throw new OwnerChannelError(`the owner's control socket could not be made: ${why(e)}`);
  }
  const removeFolder = (): void => {
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  };
  // Half-open: the asker ends its side once it has asked, and still reads the reply.
  const server = net.createServer({ allowHalfOpen: true }, (socket) => {
    readLine(socket)
      .then((line) => answer(JSON.parse(line) as OwnerRequest))
      .catch((e: unknown): OwnerReply => ({ code: 1, out: '', err: `refactor-browser: ${e instanceof Error ? e.message : String(e)}\n` }))
      .then((reply) => socket.end(`${JSON.stringify(reply)}\n`), () => socket.destroy());
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(at, () => {
        server.off('error', reject);
        resolve();
      });
    });
    // No window before this: the folder, 0700 from its making, lets nobody else reach the socket.
    if (!windows) {
      chmodSync(at, 0o600);
      writeRecord(dir, at);
    }
  } catch (e) {
    server.close();
    removeFolder();
    throw new OwnerChannelError(`the owner's control socket could not be made at ${at}: ${why(e)}`);
  }
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        if (!windows) rmSync(path.join(dir, RECORD), { force: true });
        removeFolder();
      }),
  };
}

/** Whole or not at all, readable by its owner alone. */
function writeRecord(dir: string, at: string): void {
  const record = path.join(dir, RECORD);
  const temporary = `${record}.${process.pid}.tmp`;
  rmSync(temporary, { force: true });
  writeFileSync(temporary, `${at}\n`, { mode: 0o600, flag: 'wx' });
  renameSync(temporary, record);
}

/** Asks the process holding `dir`; undefined when nothing answers there (no channel, an older serve). */
export async function askOwnerChannel(dir: string, request: OwnerRequest): Promise<OwnerReply | undefined> {
  const at = process.platform === 'win32' ? pipeName(dir) : recordedSocket(dir);
  if (at === undefined) return undefined;
  const socket = net.connect(at);
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

/** A failure to make the socket or its folder in words, naming the path, or its message when it is not worded. */
function why(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  const problem = fileProblem(err.code);
  if (problem !== undefined && typeof err.path === 'string') return `${err.path}: ${problem}`;
  return e instanceof Error ? e.message : String(e);
}
