// The reports StrykerJS's incremental runs start from (`npm run test:mutation`, `test:mutation:write`)
// are committed gzip-compressed in .stryker-incremental/: a report embeds a copy of every source and
// test file it covered, which uncompressed (8 MB) would turn up in every search of the tree. Stryker
// reads and writes the plain JSON its config's `incrementalFile` names (under reports/, ignored by
// git); this unpacks the stored report there before a run and packs what the run wrote after it.
//
//   node scripts/strykerIncremental.mjs <stryker config> -- <command...>   unpack, run, pack; the command's exit code
//   node scripts/strykerIncremental.mjs unpack <stryker config>             the stored report, as the plain JSON
//   node scripts/strykerIncremental.mjs pack <stryker config>               the plain JSON, stored (and removed)
//
// No stored report is a first run: nothing is unpacked and Stryker tests every mutant. No plain JSON
// after a run (Stryker stopped before writing it) leaves the stored report as it was. Paths are
// relative to the working directory, the repository's root under npm.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';

export const STORE = '.stryker-incremental';

/** The plain report a Stryker config reads and writes, and where it is stored compressed. */
export function reportPaths(configFile) {
  let config;
  try {
    config = JSON.parse(readFileSync(configFile, 'utf8'));
  } catch (e) {
    throw new Error(`${configFile}: cannot read it as a Stryker config (${e.code ?? e.message})`);
  }
  const plain = config.incrementalFile;
  if (typeof plain !== 'string' || plain === '') throw new Error(`${configFile}: names no incrementalFile`);
  return { plain, stored: path.join(STORE, `${path.basename(plain)}.gz`) };
}

/** The stored report, written out as the plain JSON (its folder made either way); false when none is stored. */
export function unpack(configFile) {
  const { plain, stored } = reportPaths(configFile);
  mkdirSync(path.dirname(plain), { recursive: true });
  if (!existsSync(stored)) return false;
  writeFileSync(plain, gunzipSync(readFileSync(stored)));
  return true;
}

/**
 * The plain JSON, checked to be JSON, stored compressed and removed; false when there is none. The
 * same report gives the same bytes wherever it is packed (no time, no name, no system in the gzip
 * header), so a run that changed nothing changes no committed file.
 */
export function pack(configFile) {
  const { plain, stored } = reportPaths(configFile);
  if (!existsSync(plain)) return false;
  let report;
  try {
    report = JSON.parse(readFileSync(plain, 'utf8'));
  } catch (e) {
    throw new Error(`${plain}: not JSON, so not stored (${e.message})`);
  }
  const gz = gzipSync(JSON.stringify(report), { level: 9 });
  gz[9] = 255; // the header's operating system: "unknown", not the packing machine's
  mkdirSync(path.dirname(stored), { recursive: true });
  writeFileSync(stored, gz);
  rmSync(plain);
  return true;
}

function main(args) {
  const usage = 'usage: node scripts/strykerIncremental.mjs <stryker config> -- <command...> | unpack <config> | pack <config>';
  if ((args[0] === 'unpack' || args[0] === 'pack') && args.length === 2) {
    (args[0] === 'unpack' ? unpack : pack)(args[1]);
    return 0;
  }
  if (args.length < 3 || args[1] !== '--') {
    process.stderr.write(`${usage}\n`);
    return 2;
  }
  const [configFile, , command, ...rest] = args;
  unpack(configFile);
  const run = spawnSync(command, rest, { stdio: 'inherit' });
  pack(configFile);
  if (run.error) {
    process.stderr.write(`strykerIncremental: cannot run ${command}: ${run.error.message}\n`);
    return 1;
  }
  return run.status ?? 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`strykerIncremental: ${e.message}\n`);
    process.exitCode = 1;
  }
}
