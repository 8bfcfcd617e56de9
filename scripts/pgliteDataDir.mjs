// Prepares the data directory a new `--data-dir` starts from, at build time and by the installed
// PGlite: its initdb, then this release's migrations (src/server/sql/migrations.ts, applied by its own
// migrate()), dumped as a tarball (PGlite's dumpDataDir) and gzipped into
// `<out>/pglite-datadir/<PGlite version>.tar.gz`. The command line hands it to PGlite's `loadDataDir`
// when a data folder holds no database yet (src/server/sql/preparedDataDir.ts): a second or two
// where initdb on the user's machine took about ten, and the migrations of a new database (a second
// or two more on a busy machine) are done already. migrate() still runs at every open, finds nothing
// to do, and would bring an older prepared schema up to date. Named by the PGlite version that made
// it: another PGlite installed beside the command finds no file of its version and runs initdb
// itself. Never kept in git; esbuild.config.mjs runs this.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';

/** The folder beside the CLI's bundle that holds the prepared directory (src/server/sql/preparedDataDir.ts reads it). */
export const PREPARED_FOLDER = 'pglite-datadir';

const require = createRequire(import.meta.url);

/** The installed PGlite's version, from its package.json (which its exports do not name). */
export function installedPgliteVersion() {
  let dir = path.dirname(require.resolve('@electric-sql/pglite'));
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
}

/** src/server/sql/migrations.ts as a module of its own (it imports no value), and a digest of its code. */
async function migrations() {
  const built = await esbuild.build({ entryPoints: ['src/server/sql/migrations.ts'], bundle: true, write: false, format: 'esm', platform: 'node', logLevel: 'warning' });
  const code = built.outputFiles[0].text;
  const module = await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
  return { migrate: module.migrate, digest: createHash('sha256').update(code).digest('hex') };
}

/** The store's Sql (src/server/sql/executor.ts) over one PGlite, as much of it as migrate() uses. */
function sqlOver(runner, db = runner) {
  return {
    query: async (text, params) => (params === undefined || params.length === 0
      ? ((await runner.exec(text)).at(-1)?.rows ?? [])
      : (await runner.query(text, params)).rows),
    transaction: (fn) => (runner === db ? db.transaction((tx) => fn(sqlOver(tx, db))) : fn(sqlOver(runner, db))),
  };
}

/**
 * Writes `<out>/pglite-datadir/<version>.tar.gz`, and removes any other version's. Made again when the
 * PGlite version or the migrations changed since it was made (`fresh` always). Resolves to its path.
 */
export async function preparePgliteDataDir(out, { fresh = false } = {}) {
  const version = installedPgliteVersion();
  const folder = path.join(out, PREPARED_FOLDER);
  const file = path.join(folder, `${version}.tar.gz`);
  // What it was made from, beside the folder (so that the npm package, which ships the folder, leaves it out).
  const stampFile = path.join(out, `${PREPARED_FOLDER}.made-from`);
  const { migrate, digest } = await migrations();
  const stamp = `${version} ${digest}\n`;
  mkdirSync(folder, { recursive: true });
  for (const other of readdirSync(folder)) if (other !== path.basename(file)) rmSync(path.join(folder, other), { recursive: true, force: true });
  if (!fresh && existsSync(file) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) return file;
  const { PGlite } = await import('@electric-sql/pglite');
  const db = new PGlite();
  try {
    await db.waitReady;
    await migrate(sqlOver(db));
    // Uncompressed from PGlite, gzipped here: the command line gunzips it with Node's zlib, faster
    // than PGlite's own decompression in JavaScript.
    const tarball = Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer());
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, gzipSync(tarball, { level: 9 }));
    renameSync(temporary, file);
    writeFileSync(stampFile, stamp);
  } finally {
    await db.close();
  }
  return file;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const outAt = process.argv.indexOf('--out');
  console.log(`prepared ${await preparePgliteDataDir(outAt >= 0 ? process.argv[outAt + 1] : 'dist', { fresh: true })}`);
}
