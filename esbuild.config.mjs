// Bundles the CLI, the extension (for the Node and the browser extension hosts) and the code view's
// webview script with esbuild.
// `node esbuild.config.mjs` builds once; `--watch` rebuilds on change; `--minify` for packaging;
// `--out <folder>` writes somewhere other than dist/ (the packaging test builds both kinds aside).
import * as esbuild from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { CLI_DEPENDENCIES } from './scripts/npmPackage.mjs';
import { preparePgliteDataDir } from './scripts/pgliteDataDir.mjs';
import { writeThirdPartyNotices } from './scripts/thirdPartyNotices.mjs';

const watch = process.argv.includes('--watch');
const minify = process.argv.includes('--minify');
const outAt = process.argv.indexOf('--out');
const out = outAt >= 0 ? process.argv[outAt + 1] : 'dist';
if (!out) throw new Error('--out needs a folder');
/**
 * The test API (what activate() returns under test) is in the test builds only: the packaging build
 * (--minify) defines TEST_API false, and esbuild leaves out the code only it reaches.
 */
const testApi = String(!minify);

/**
 * fast-xml-parser imports is-unsafe (about 18 KB minified, a tenth of an extension bundle) only to
 * vet entities a DOCTYPE declares, inside the entity decoder it builds when none is given, and its
 * DocTypeReader (about 5 KB) only to read a DOCTYPE. Our decoder gives its own entity decoder
 * (src/core/xmlDecode.ts) and refuses any DOCTYPE before parsing, so in the extension bundles, which
 * have a size budget, both imports resolve to stand-ins that refuse: were either ever reached, a
 * value would be blocked and a DOCTYPE refused, never let through.
 */
const STAND_INS = {
  'is-unsafe': "export const HTML = 'html'; export const XML = 'xml'; export const isUnsafe = () => true;",
  'doctype-reader': "export default class { setXmlVersion() {} readDocType() { throw new Error('a DOCTYPE is not accepted'); } }",
};
const omitUnreached = {
  name: 'omit-unreached',
  setup(build) {
    build.onResolve({ filter: /^is-unsafe$/ }, () => ({ path: 'is-unsafe', namespace: 'omitted' }));
    build.onResolve({ filter: /^\.\/DocTypeReader\.js$/ }, (args) =>
      (/fast-xml-parser[\\/]src[\\/]xmlparser$/.test(args.resolveDir) ? { path: 'doctype-reader', namespace: 'omitted' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'omitted' }, (args) => ({ contents: STAND_INS[args.path], loader: 'js' }));
  },
};

/**
 * `refactor-browser mcp` loads the Model Context Protocol SDK from a bundle of its own beside the
 * command line's (src/cli.ts imports './mcp' when that command runs): the SDK is as large as all the
 * rest, and every other command starts without reading it.
 */
const mcpApart = {
  name: 'mcp-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\/mcp$/ }, (args) => (/[\\/]src[\\/]cli\.ts$/.test(args.importer) ? { path: './mcp.js', external: true } : undefined));
  },
};

/**
 * web-tree-sitter's CommonJS build in the Node bundles: its ES module build finds Node's modules
 * through `import.meta.url`, which a CommonJS bundle does not have.
 */
// Resolved as Node resolves it (the package's `require` export), to an absolute path: a path relative
// to the working folder is not found where node_modules is a link (Stryker's sandbox).
const require = createRequire(import.meta.url);
const NODE_TREE_SITTER = { 'web-tree-sitter': require.resolve('web-tree-sitter') };

/**
 * What the Node extension host loads when it is first used, from bundles of their own beside the
 * extension's, so that activation never reads them (the browser's host loads one file: its bundle
 * holds them): Find Refactorings for This Code (src/extension/similar/lazy.ts: its UI, the finder,
 * the similarity engine and web-tree-sitter, about 115 KB minified) as dist/similarity.js, and the
 * language model tools' answers (src/extension/agents/answering.ts, about 10 KB) as dist/agents.js.
 * Each is imported by one module, whose dynamic import of it becomes a require of the bundle.
 */
const LAZY_BUNDLES = [
  { entry: 'src/extension/similar/lazy.ts', importer: 'src/extension/similar/commands.ts', request: './lazy', outfile: 'similarity.js' },
  { entry: 'src/extension/agents/answering.ts', importer: 'src/extension/agents/tools.ts', request: './answering', outfile: 'agents.js' },
];
const lazyApart = {
  name: 'lazy-apart',
  setup(build) {
    for (const lazy of LAZY_BUNDLES) {
      const filter = new RegExp(`^${lazy.request.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`);
      build.onResolve({ filter }, (args) =>
        (path.relative(process.cwd(), args.importer).split(path.sep).join('/') === lazy.importer ? { path: `./${lazy.outfile}`, external: true } : undefined));
    }
  },
};

/**
 * web-tree-sitter's ES module build in the browser's bundle, with its Node-only branches made
 * unreachable: it tells Node from a browser at run time and then requires fs, path and url. The
 * browser's host has no `require`, and the bundle must name no Node module; a web worker is never
 * Node, so the test is answered here, and any require left becomes a call that throws.
 */
const treeSitterForBrowser = {
  name: 'tree-sitter-for-browser',
  setup(build) {
    build.onLoad({ filter: /[\\/]web-tree-sitter[\\/]web-tree-sitter\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const test = /var ENVIRONMENT_IS_NODE = [^;]+;/;
      if (!test.test(source)) throw new Error(`${args.path}: its test for Node is not where this build expects it`);
      const contents = `function refusedNodeModule(name) { throw new Error('no Node module in the browser: ' + name); }\n${
        source.replace(test, 'var ENVIRONMENT_IS_NODE = false;').replace(/\brequire\(/g, 'refusedNodeModule(')}`;
      return { contents, loader: 'js' };
    });
  },
};

/** @type {esbuild.BuildOptions[]} */
const builds = [
  {
    entryPoints: ['src/cli.ts'],
    outfile: `${out}/cli.js`,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    bundle: true,
    banner: { js: '#!/usr/bin/env node' },
    // The database drivers stay packages of their own (PGlite loads its WebAssembly and data files
    // from beside its module): the npm package depends on them, and only storage commands load them.
    external: CLI_DEPENDENCIES,
    plugins: [mcpApart],
    alias: NODE_TREE_SITTER,
  },
  // The Model Context Protocol server of `refactor-browser mcp`, with the SDK (see mcpApart).
  {
    entryPoints: ['src/mcp.ts'],
    outfile: `${out}/mcp.js`,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    bundle: true,
  },
  // Embedded PostgreSQL's own thread, which the CLI starts from the file beside it (dist/cli.js
  // finds it beside itself, as out/ finds the compiled one).
  {
    entryPoints: ['src/server/sql/pgliteWorker.ts'],
    outfile: `${out}/pgliteWorker.js`,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    bundle: true,
    external: CLI_DEPENDENCIES,
  },
  // The thread a catalog is read or generated on before it is imported into embedded PostgreSQL
  // (src/server/catalog/catalogApart.ts), beside the CLI's bundle as the database's thread is.
  {
    entryPoints: ['src/server/catalog/catalogWorker.ts'],
    outfile: `${out}/catalogWorker.js`,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    bundle: true,
  },

  // The code view's webview script: runs in the webview (a browser), not in the extension host.
  {
    entryPoints: ['src/webview/main.ts'],
    outfile: `${out}/webview.js`,
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
    bundle: true,
  },
];
if (existsSync('src/extension.ts')) {
  // What the Node extension host loads from beside its bundle when first used (lazyApart).
  for (const lazy of LAZY_BUNDLES) {
    builds.push({
      entryPoints: [lazy.entry],
      outfile: `${out}/${lazy.outfile}`,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      bundle: true,
      external: ['vscode'],
      alias: NODE_TREE_SITTER,
      define: { WEB_BUILD: 'false', TEST_API: testApi },
    });
  }
  // The extension for VS Code's Node extension host (package.json `main`)…
  builds.push({
    entryPoints: ['src/extension.ts'],
    outfile: `${out}/extension.js`,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    bundle: true,
    external: ['vscode'],
    plugins: [omitUnreached, lazyApart],
    define: { WEB_BUILD: 'false', TEST_API: testApi },
  });
  // …and the same code for the browser's web worker extension host (package.json `browser`, VS Code
  // for the Web): no Node module may reach it, so a stray `node:` import fails the build.
  builds.push({
    entryPoints: ['src/extension.ts'],
    outfile: `${out}/web/extension.js`,
    platform: 'browser',
    target: 'es2022',
    format: 'cjs',
    bundle: true,
    external: ['vscode'],
    plugins: [omitUnreached, treeSitterForBrowser],
    define: { WEB_BUILD: 'true', TEST_API: testApi },
  });
}

// The extension reads its built-in sample catalog from a file beside the bundles (the CLI bundles it).
mkdirSync(out, { recursive: true });
writeFileSync(`${out}/sample-catalog.json`, JSON.stringify(JSON.parse(readFileSync('src/server/catalog/sample-catalog.json', 'utf8'))));

// The parser's runtime and the grammars similarity loads on first use, beside the bundles: the CLI
// reads them from there, the extension through workspace.fs in both hosts. Their names are read from
// the one list of them, GRAMMAR_ASSETS in src/similarity/grammars.ts.
const grammarSource = readFileSync('src/similarity/grammars.ts', 'utf8');
const grammarFiles = [...new Set(grammarSource.match(/'(?:web-)?tree-sitter(?:-[a-z-]+)?\.wasm'/g) ?? [])].map((quoted) => quoted.slice(1, -1));
if (grammarFiles.length < 9) throw new Error(`found ${grammarFiles.length} grammar files named in src/similarity/grammars.ts`);
mkdirSync(`${out}/tree-sitter`, { recursive: true });
for (const file of grammarFiles) {
  const from = file === 'web-tree-sitter.wasm'
    ? require.resolve('web-tree-sitter/web-tree-sitter.wasm')
    : path.join(path.dirname(require.resolve('@vscode/tree-sitter-wasm')), file);
  copyFileSync(from, `${out}/tree-sitter/${file}`);
}

// The data directory a new `--data-dir` starts from, made by the installed PGlite's initdb (about
// ten seconds, once per PGlite version; afresh for packaging): scripts/pgliteDataDir.mjs.
await preparePgliteDataDir(out, { fresh: minify });

const common = { sourcemap: !minify, minify, logLevel: 'warning', legalComments: 'none', metafile: true };
if (watch) {
  for (const b of builds) (await esbuild.context({ ...common, ...b })).watch();
} else {
  const results = await Promise.all(builds.map((b) => esbuild.build({ ...common, ...b })));
  // The licences of what the bundles contain, which the .vsix and the npm package ship beside them
  // (the packages' bundles: a build aside with --out leaves them be).
  if (out === 'dist') writeThirdPartyNotices(results.map((r, i) => ({ bundle: builds[i].outfile, metafile: r.metafile })));
}
