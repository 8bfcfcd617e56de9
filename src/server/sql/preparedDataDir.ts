// The data directory a new embedded database starts from instead of running initdb (about ten
// seconds and some 800 MiB): made at build time by the installed PGlite, its initdb and this
// release's migrations (scripts/pgliteDataDir.mjs), and written beside the CLI's bundle as
// pglite-datadir/<PGlite version>.tar.gz, a gzipped tarball of PGlite's dumpDataDir. Only the PGlite
// that made it may open it, so another version installed beside the command finds none and runs
// initdb itself.
//
// It is unpacked here, streamed to disk, rather than handed to PGlite's `loadDataDir`: that holds
// the whole tarball several times over in the database thread while PGlite starts (about 100 MiB
// more at the process's peak, and a slower start), and writes into the data directory in place,
// where a first start killed halfway leaves a folder that is neither new nor a database. Unpacked
// beside it and then renamed, the data directory is whole or absent.

import { closeSync, createReadStream, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';

/** The folder beside the CLI's bundle (scripts/pgliteDataDir.mjs writes it; the npm package ships it). */
export const PREPARED_FOLDER = 'pglite-datadir';

/** The prepared directory for the installed PGlite in `folder`'s pglite-datadir/, or undefined when there is none. */
export function preparedDataDir(folder: string): string | undefined {
  const version = installedPgliteVersion();
  if (version === undefined) return undefined;
  const file = path.join(folder, PREPARED_FOLDER, `${version}.tar.gz`);
  return existsSync(file) ? file : undefined;
}

/** The version in the installed PGlite's package.json (its exports do not name the file). */
export function installedPgliteVersion(): string | undefined {
  try {
    let dir = path.dirname(require.resolve('@electric-sql/pglite'));
    while (!existsSync(path.join(dir, 'package.json'))) {
      const up = path.dirname(dir);
      if (up === dir) return undefined;
      dir = up;
    }
    const { version } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version?: unknown };
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}

/** Whether PGlite's data directory `dir` holds a database already (PGlite's own test: PG_VERSION). */
export function holdsDatabase(dir: string): boolean {
  return existsSync(path.join(dir, 'PG_VERSION'));
}

/**
 * Unpacks the prepared tarball as `dataDir` when that does not exist yet (or is an empty folder);
 * resolves to whether it did. A folder with anything else in it is left to PGlite as it is.
 */
export async function startFromPrepared(tarball: string, dataDir: string): Promise<boolean> {
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) return false;
  const parent = path.dirname(dataDir);
  mkdirSync(parent, { recursive: true });
  // A first start killed halfway left its partial folder; the caller holds the data folder's lock.
  const base = `${path.basename(dataDir)}.partial-`;
  for (const name of readdirSync(parent)) if (name.startsWith(base)) rmSync(path.join(parent, name), { recursive: true, force: true });
  const partial = path.join(parent, `${base}${process.pid}`);
  mkdirSync(partial);
  try {
    await pipeline(createReadStream(tarball), createGunzip(), untar(partial));
    if (!holdsDatabase(partial)) throw new Error(`${tarball} holds no database`);
    rmSync(dataDir, { recursive: true, force: true });
    renameSync(partial, dataDir);
  } catch (e) {
    rmSync(partial, { recursive: true, force: true });
    throw e;
  }
  return true;
}

const BLOCK = 512;

/** Text of a NUL-terminated field of a tar header. */
function field(header: Buffer, at: number, length: number): string {
  const bytes = header.subarray(at, at + length);
  const end = bytes.indexOf(0);
  return bytes.subarray(0, end === -1 ? length : end).toString('utf8');
}

/**
 * A stream that writes the files and folders of a ustar archive under `root`, as they come: regular
 * files and folders only (all a dumpDataDir holds), every path inside `root`.
 */
function untar(root: string): Writable {
  let pending: Buffer = Buffer.alloc(0);
  /** The file being written and its bytes still to come. */
  let file: { fd: number; left: number } | undefined;
  /** Padding (or, after the end marker, anything) to pass over. */
  let skip = 0;
  let over = false;
  const closeFile = (): void => {
    if (file) closeSync(file.fd);
    file = undefined;
  };
  const entry = (header: Buffer): void => {
    const name = field(header, 0, 100);
    const prefix = field(header, 345, 155);
    const relative = path.posix.normalize(`${prefix ? `${prefix}/` : ''}${name}`).replace(/^\/+/, '');
    // The archive's own root.
    if (relative === '' || relative === '.') return;
    const target = path.resolve(root, relative);
    if (!target.startsWith(`${root}${path.sep}`)) throw new Error(`the prepared database names a path outside its folder: ${name}`);
    const size = parseInt(field(header, 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156]);
    if (type === '5') {
      mkdirSync(target, { recursive: true });
      return;
    }
    if (type !== '0' && type !== '\0') throw new Error(`the prepared database holds an entry of type "${type}": ${name}`);
    mkdirSync(path.dirname(target), { recursive: true });
    file = { fd: openSync(target, 'w', 0o600), left: size };
    if (size === 0) closeFile();
    skip = (BLOCK - (size % BLOCK)) % BLOCK;
  };
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      try {
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        let at = 0;
        while (at < pending.length) {
          if (file) {
            const take = Math.min(file.left, pending.length - at);
            writeSync(file.fd, pending, at, take);
            at += take;
            file.left -= take;
            if (file.left > 0) break;
            closeFile();
          } else if (skip > 0 || over) {
            const take = over ? pending.length - at : Math.min(skip, pending.length - at);
            at += take;
            skip -= over ? 0 : take;
          } else if (pending.length - at < BLOCK) {
            break;
          } else {
            const header = pending.subarray(at, at + BLOCK);
            at += BLOCK;
            if (header.every((b) => b === 0)) over = true;
            else entry(header);
          }
        }
        pending = pending.subarray(at);
        done();
      } catch (e) {
        closeFile();
        done(e as Error);
      }
    },
    final(done) {
      const cut = file !== undefined;
      closeFile();
      done(cut || !over ? new Error('the prepared database is cut short') : null);
    },
    destroy(e, done) {
      closeFile();
      done(e);
    },
  });
}
