// Stages the npm package of the command line in dist/npm/: package.json shapes the .vsix (VS Code
// needs its `main` and `browser`, the extension bundles), so the npm package gets a manifest of its
// own, made from it: the same name, version and links, a description and README of its own (the
// command line's, not the extension's: src/cli/README.md), the command in `bin`, no `main`
// or `browser`, and as dependencies only the database drivers, which dist/cli.js (one bundle of
// everything else) loads when a service keeps its catalog in PostgreSQL. `npm pack ./dist/npm`
// and `npm publish ./dist/npm` take it from there; the repository's package.json is private, so it
// is never published by mistake. Run after the build: `npm run package:cli`.
import { copyFileSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { installedPgliteVersion } from './pgliteDataDir.mjs';
import { NOTICES_FILE } from './thirdPartyNotices.mjs';

export const NPM_STAGE = 'dist/npm';

/**
 * Packages the command loads at run time instead of bundling: PGlite reads its WebAssembly and data
 * files from beside its own module. Their versions are the repository's (devDependencies).
 */
export const CLI_DEPENDENCIES = ['@electric-sql/pglite', 'pg'];

/**
 * Scripts the command starts as worker threads, from beside its bundle: embedded PostgreSQL runs on
 * a thread of its own, and a catalog to import is read on another, which ends before the import.
 */
export const CLI_WORKERS = ['dist/pgliteWorker.js', 'dist/catalogWorker.js'];

/**
 * Bundles the command loads from beside its own for one command only: `mcp`'s, with the Model
 * Context Protocol SDK, which no other command needs.
 */
export const CLI_LOADED = ['dist/mcp.js'];

/**
 * Folders the command reads files from, beside its bundle: the parser and grammars of `similar` and
 * `adapt`, and the data directory a new embedded database starts from (scripts/pgliteDataDir.mjs).
 */
export const CLI_FOLDERS = ['dist/tree-sitter', 'dist/pglite-datadir'];

/** The documents the package carries beside the command: where each is staged from, by its name in the package. */
const DOCUMENTS = { 'README.md': 'src/cli/README.md', 'CHANGELOG.md': 'CHANGELOG.md', LICENSE: 'LICENSE', [NOTICES_FILE]: NOTICES_FILE };

/** What npm shows under the package's name: the command line's job, not the extension's. */
export const CLI_DESCRIPTION = 'Read, contribute to and run a code-sharing and refactoring service from the command line, and offer its catalog to agents over MCP';

/**
 * The npm package's manifest made from the extension's. PGlite is pinned to `pgliteVersion`, the one
 * installed here: the prepared database it ships (dist/pglite-datadir/) is named by the version that
 * made it, so a later PGlite that a range let in would find none and run initdb on every first start.
 */
export function npmManifest(pkg, pgliteVersion = installedPgliteVersion()) {
  return {
    name: pkg.name,
    version: pkg.version,
    description: CLI_DESCRIPTION,
    keywords: pkg.keywords,
    license: pkg.license,
    repository: pkg.repository,
    bugs: pkg.bugs,
    homepage: pkg.homepage,
    engines: { node: pkg.engines.node },
    // Each command's bundle, beside package.json in the package.
    bin: Object.fromEntries(Object.entries(pkg.bin).map(([name, file]) => [name, path.posix.basename(file)])),
    dependencies: Object.fromEntries(CLI_DEPENDENCIES.map((name) => [name, name === '@electric-sql/pglite' ? pgliteVersion : pkg.devDependencies[name]])),
  };
}

/** Writes the package's folder from the built dist/cli.js, its workers and the bundles it loads, this folder's documents and package.json. */
export function stageNpmPackage(root = '.') {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const stage = path.join(root, NPM_STAGE);
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  const manifest = npmManifest(pkg);
  for (const file of [...Object.values(pkg.bin), ...CLI_WORKERS, ...CLI_LOADED]) copyFileSync(path.join(root, file), path.join(stage, path.posix.basename(file)));
  for (const folder of CLI_FOLDERS) cpSync(path.join(root, folder), path.join(stage, path.posix.basename(folder)), { recursive: true });
  for (const [name, from] of Object.entries(DOCUMENTS)) copyFileSync(path.join(root, from), path.join(stage, name));
  writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return stage;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  console.log(`staged ${stageNpmPackage()}`);
}
