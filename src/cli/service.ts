// The commands of a service's owner: `serve` (read-only over a catalog, or writable over storage),
// `users`, `import` and `export`. Storage is embedded PostgreSQL in a folder (--data-dir) or a
// PostgreSQL server (--database); the drivers load only when one is opened, so browsing never
// loads them.
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import * as path from 'node:path';
import { withoutCredentials } from '../core/errors';
import { DatasetError, parseDataset, type Dataset } from '../server/catalog/dataset';
import { loadCatalogApart } from '../server/catalog/catalogApart';
import { checkDatasetFile, loadDatasetFile, readDatasetJson } from '../server/catalog/datasetFile';
import { fileProblem, listenProblem } from '../server/fileErrors';
import { generateCatalog } from '../server/catalog/generatedCatalog';
import { startServer } from '../server/http/server';
import { openPgliteWorker, openPostgres } from '../server/sql/executor';
import { holdsDatabase } from '../server/sql/preparedDataDir';
import type { CatalogRows } from '../server/catalog/catalogRows';
import { openSqlStore, type SqlStore } from '../server/sql/sqlStore';
import { newToken, tokenHash } from '../server/tokens';
import type { WriteResult } from '../server/store';
import type { ServiceCommand, Storage } from './args';
import type { Io } from './io';
import { askOwnerChannel, OwnerChannelError, startOwnerChannel, type OwnerReply, type OwnerRequest } from './ownerChannel';
import { plural } from '../core/plural';

/** A refusal the owner can act on: exit 1 with its one line. */
export class ServiceError extends Error {
  override readonly name = 'ServiceError';
}

/** A data folder another live process holds. */
class FolderInUse extends ServiceError {}

export async function runServiceCommand(command: ServiceCommand, io: Pick<Io, 'out' | 'err'>, signals: { stopped: () => Promise<void> }): Promise<number> {
  if (command.name === 'serve') return serve(command, io, signals.stopped);
  if (command.name === 'export' && command.output !== undefined) checkWritableFolder(command.output);
  // A catalog to import is read before the storage opens, on a thread that ends once it is read.
  if (command.name === 'import') checkDatasetFile(command.file);
  const say = command.name === 'import' ? sayFirstStart(command.storage, io) : io.err;
  const local: LocalRequest = command.name === 'import'
    ? { kind: 'import', rows: await loadCatalogApart({ file: command.file }), source: command.file, json: command.json }
    : requestOf(command);
  const reply = await ownerRequest(command.storage, local, () => requestOf(command), { ...io, err: say });
  if (command.name === 'export' && command.output !== undefined && reply.code === 0) {
    writeWhole(command.output, reply.out);
    io.err(`exported the catalog to ${command.output}\n`);
  } else {
    io.out(reply.out);
  }
  io.err(reply.err);
  return reply.code;
}

function requestOf(command: Exclude<ServiceCommand, { name: 'serve' }>): OwnerRequest {
  switch (command.name) {
    case 'users':
      return command.action === 'add'
        ? { kind: 'users', action: 'add', person: command.person, website: command.website, identityUrl: command.identityUrl, json: command.json }
        : { kind: 'users', action: command.action, person: command.action === 'list' ? undefined : command.person, json: command.json };
    case 'import':
      // Read here, where the file's path means what the owner typed; checked where it is stored.
      return { kind: 'import', catalog: readDatasetJson(command.file), source: command.file, json: command.json };
    case 'export':
      return { kind: 'export' };
  }
}

/** A request answered in this process: an import's catalog is read and checked already. */
type LocalRequest = OwnerRequest | { kind: 'import'; rows: CatalogRows; source: string; json?: boolean };

/**
 * Runs the request against the storage: opened here, or, when a running `serve` holds the data
 * folder, by that process (so a revoked token stops working at once, and a backup needs no downtime).
 */
async function ownerRequest(storage: Storage, request: LocalRequest, remote: () => OwnerRequest, io: Pick<Io, 'out' | 'err'>): Promise<OwnerReply> {
  let store: SqlStore;
  try {
    store = await openStore(storage, io.err);
  } catch (e) {
    if (!(e instanceof FolderInUse) || storage.kind !== 'dir') throw e;
    const reply = await askOwnerChannel(storage.dir, remote());
    if (!reply) throw e;
    return reply;
  }
  try {
    return await ownerAnswer(store, request);
  } finally {
    await store.close();
  }
}

/** What the owner's command prints, run against an open store. */
async function ownerAnswer(store: SqlStore, request: LocalRequest): Promise<OwnerReply> {
  const reply: OwnerReply = { code: 0, out: '', err: '' };
  const io: Pick<Io, 'out' | 'err'> = { out: (t) => (reply.out += t), err: (t) => (reply.err += t) };
  try {
    switch (request.kind) {
      case 'users':
        reply.code = await users(store, request, io);
        break;
      case 'import': {
        const counts = settled(await store.importCatalog('rows' in request ? request.rows : parseDataset(request.catalog, request.source)));
        const { alreadyThere } = counts;
        const what = `${plural(counts.codes, 'code')}, ${plural(counts.refactors, 'refactoring')} and ${plural(counts.users, 'person', 'people')} from ${request.source}`;
        // A mined catalog added to a store with content says how much of it was there before.
        io.out(request.json
          ? `${JSON.stringify({ imported: { codes: counts.codes, refactors: counts.refactors, users: counts.users }, ...(alreadyThere === undefined ? {} : { alreadyThere }), source: request.source })}\n`
          : alreadyThere === undefined ? `imported ${what}\n`
            : `added ${what}${alreadyThere > 0 ? `; ${plural(alreadyThere, 'code')} already there` : ''}\n`);
        break;
      }
      case 'export':
        io.out(`${JSON.stringify(await store.exportCatalog(), null, 2)}\n`);
        break;
    }
  } catch (e) {
    if (!(e instanceof ServiceError) && !(e instanceof DatasetError)) throw e;
    return { code: 1, out: '', err: `refactor-browser: ${e.message}\n` };
  }
  return reply;
}

async function serve(command: Extract<ServiceCommand, { name: 'serve' }>, io: Pick<Io, 'out' | 'err'>, stopped: () => Promise<void>): Promise<number> {
  const catalog = (): Dataset | undefined =>
    command.catalog !== undefined ? loadDatasetFile(command.catalog) : command.generate !== undefined ? generateCatalog({ codes: command.generate }) : undefined;
  // What can be found wrong at once is, before storage takes seconds to open.
  if (command.catalog !== undefined) checkDatasetFile(command.catalog);
  if (command.port !== 0) await portFree(command.host, command.port);
  // With storage, a catalog given is read before the storage opens, on a thread that ends once it is
  // read, then imported and let go: the store serves it from then on.
  const say = command.catalog !== undefined || command.generate !== undefined ? sayFirstStart(command.storage, io) : io.err;
  let toImport = command.storage === undefined ? undefined
    : command.catalog !== undefined ? await loadCatalogApart({ file: command.catalog })
      : command.generate !== undefined ? await loadCatalogApart({ generate: command.generate }) : undefined;
  const store = command.storage && (await openStore(command.storage, say));
  try {
    const given = store ? undefined : catalog();
    if (store && toImport) await fillOnce(store, command.storage!, toImport, io);
    toImport = undefined;
    // Before the HTTP server: without its channel a data folder's owner could not revoke a token, so serve stops.
    const channel = store && command.storage?.kind === 'dir' ? await ownerChannel(command.storage.dir, store) : undefined;
    const server = await startServer({
      port: command.port,
      host: command.host,
      ...(store ? { store } : { catalog: given }),
      contributions: { writesPerMinute: command.writesPerMinute },
      trustProxy: command.trustProxy,
    }).catch(async (e: unknown) => {
      await channel?.close();
      throw listenError(e, command.host, command.port);
    });
    const done = stopped();
    io.out(`listening on ${server.url}\n`);
    if (command.storage) io.err(`taking contributions; the catalog is kept in ${describe(command.storage)}\n`);
    await done;
    // Gracefully: what is being answered is finished before the storage closes under it.
    const underWay = server.underWay();
    io.err(`stopping: finishing ${plural(underWay, 'request')}…\n`);
    await server.drain();
    await channel?.close();
    return 0;
  } finally {
    await store?.close();
  }
}

/** Refuses at once a port another program listens on (serve listens only once its storage is open). */
async function portFree(host: string, port: number): Promise<void> {
  const { createServer } = await import('node:net');
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (e) => reject(listenError(e, host, port)));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** A failure to listen as the owner can act on it, or as it was when it is not worded. */
function listenError(e: unknown, host: string, port: number): Error {
  const problem = listenProblem((e as NodeJS.ErrnoException | undefined)?.code, host, port);
  if (problem !== undefined) return new ServiceError(problem);
  return e instanceof Error ? e : new Error(String(e));
}

/** A catalog given with storage fills it once; storage that holds one already is never overwritten. */
async function fillOnce(store: SqlStore, storage: Storage, given: CatalogRows, io: Pick<Io, 'out' | 'err'>): Promise<void> {
  if ((await store.summary()).codes > 0) {
    throw new ServiceError(`${describe(storage)} already holds a catalog: start without --catalog or --generate (or add to it with "refactor-browser import")`);
  }
  io.err(`importing ${plural(given.counts.codes, 'code')} into ${describe(storage)}…\n`);
  settled(await store.importCatalog(given));
}

async function ownerChannel(dir: string, store: SqlStore): Promise<{ close(): Promise<void> }> {
  try {
    return await startOwnerChannel(dir, (request) => ownerAnswer(store, request));
  } catch (e) {
    throw e instanceof OwnerChannelError ? new ServiceError(e.message) : e;
  }
}

async function users(store: SqlStore, command: Extract<OwnerRequest, { kind: 'users' }>, io: Pick<Io, 'out' | 'err'>): Promise<number> {
  switch (command.action) {
    case 'list': {
      const people = await store.people();
      if (command.json) {
        io.out(`${JSON.stringify(people.map((p) => ({ id: p.id, name: p.name, canWrite: p.hasToken, website: p.website ?? '' })))}\n`);
        return 0;
      }
      if (people.length === 0) io.err('nobody yet: add someone with "refactor-browser users add NAME"\n');
      for (const p of people) io.out(`${p.id}\t${p.name}\t${p.hasToken ? 'can write' : 'no token'}${p.website ? `\t${p.website}` : ''}\n`);
      return 0;
    }
    case 'add': {
      const token = newToken();
      const person = settled(await store.addPerson(typeof command.person === 'string' ? command.person : '', { website: command.website, identityUrl: command.identityUrl }, await tokenHash(token)));
      io.out(command.json ? `${JSON.stringify({ id: person.id, name: person.name, token })}\n` : `${token}\n`);
      io.err(`added ${person.name} (id ${person.id}); the token ${command.json ? 'printed' : 'above'} is shown only this once: give it to them\n`);
      return 0;
    }
    case 'token': {
      const token = newToken();
      const person = settled(await store.replaceToken(command.person ?? '', await tokenHash(token)));
      io.out(command.json ? `${JSON.stringify({ id: person.id, name: person.name, token })}\n` : `${token}\n`);
      io.err(`${person.name} (id ${person.id}) has a new token (shown only this once); the old one no longer works\n`);
      return 0;
    }
    case 'revoke': {
      const person = settled(await store.revoke(command.person ?? ''));
      io.out(command.json
        ? `${JSON.stringify({ id: person.id, name: person.name, revoked: true })}\n`
        : `revoked the token of ${person.name} (id ${person.id}): they can no longer write\n`);
      return 0;
    }
  }
}

function settled<T>(result: WriteResult<T>): T {
  if (result.refused !== undefined) throw new ServiceError(result.message);
  return result.value;
}

/**
 * Opens the storage, making an embedded one on first use. One process at a time may hold a data
 * folder (PGlite is one connection): a second is refused while the first runs, and a lock left by a
 * killed process is taken over.
 */
export async function openStore(storage: Storage, say: (line: string) => void): Promise<SqlStore> {
  if (storage.kind === 'database') return openSqlStore(await openPostgres(storage.url));
  try {
    mkdirSync(storage.dir, { recursive: true });
  } catch (e) {
    throw fileError(e, `cannot use ${storage.dir} as the data folder`);
  }
  const release = lockFolder(storage.dir);
  try {
    const dataDir = path.join(storage.dir, 'postgres');
    // Said before the wait, so that nobody takes a first start for a hang.
    if (!holdsDatabase(dataDir)) say(firstStartLine(storage.dir));
    // On a thread of its own: PGlite's queries would otherwise stall the HTTP server's every request.
    const store = await openSqlStore(await openPgliteWorker(dataDir));
    const close = store.close.bind(store);
    store.close = async () => {
      try {
        await close();
      } finally {
        release();
      }
    };
    return store;
  } catch (e) {
    release();
    throw e;
  }
}

function firstStartLine(dir: string): string {
  return `creating the embedded database in ${dir}…\n`;
}

/**
 * Says at once that a new data folder's database is about to be made, for a command with a catalog
 * to read first (which takes seconds for a large one); what it returns says the rest, not that again.
 */
function sayFirstStart(storage: Storage | undefined, io: Pick<Io, 'out' | 'err'>): (line: string) => void {
  if (storage?.kind !== 'dir' || holdsDatabase(path.join(storage.dir, 'postgres'))) return io.err;
  const line = firstStartLine(storage.dir);
  io.err(line);
  return (text) => {
    if (text !== line) io.err(text);
  };
}

function lockFolder(dir: string): () => void {
  const file = path.join(dir, 'lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw fileError(e, `cannot use ${dir} as the data folder`);
      const holder = Number(readFileSync(file, 'utf8'));
      if (Number.isInteger(holder) && holder > 0 && alive(holder)) {
        throw new FolderInUse(`${dir} is in use by another refactor-browser process (pid ${holder}): stop it first`);
      }
      rmSync(file, { force: true });
    }
  }
  throw new ServiceError(`${dir} could not be locked: remove ${file} if no refactor-browser process uses the folder`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A file system failure as one line naming what could not be done, or the failure as it was when it is not worded. */
function fileError(e: unknown, what: string): unknown {
  const problem = fileProblem((e as NodeJS.ErrnoException | undefined)?.code);
  return problem === undefined ? e : new ServiceError(`${what}: ${problem}`);
}

/** Refuses at once an --output whose folder is missing or is a file, before storage takes seconds to open. */
function checkWritableFolder(file: string): void {
  const folder = path.dirname(path.resolve(file));
  try {
    if (!statSync(folder).isDirectory()) throw Object.assign(new Error(folder), { code: 'ENOTDIR' });
  } catch (e) {
    throw fileError(e, `cannot write ${file}: ${folder}`);
  }
}

/** Whole or not at all: a backup is never left half written. */
function writeWhole(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, text, { flag: 'wx' });
  } catch (e) {
    throw fileError(e, `cannot write ${file}`);
  }
  try {
    renameSync(temporary, file);
  } catch (e) {
    rmSync(temporary, { force: true });
    throw e;
  }
}

function describe(storage: Storage): string {
  return storage.kind === 'dir' ? storage.dir : withoutCredentials(storage.url);
}
