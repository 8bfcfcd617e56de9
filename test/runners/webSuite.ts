// Bundles the integration tests both extension hosts run (test/integration/shared/) for the browser's
// web worker extension host, where VS Code loads a tests module as one CommonJS file with only
// `vscode` to require: platform browser, so a Node module reaching the shared tests fails this build.
// `node:assert` becomes the npm package `assert` (browserify's port), whose `util` dependency reads a
// few `process` fields the worker does not have: they are defined away here.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

/** Builds the bundle (in out/test/web/, beside tsc's output) and returns its path. */
export async function buildWebSuite(repo: string): Promise<string> {
  const shared = path.join(repo, 'test', 'integration', 'shared');
  const files = (await fs.readdir(shared)).filter((f) => f.endsWith('.test.ts')).sort();
  if (files.length === 0) throw new Error(`no tests in ${shared}`);
  // The entry: run() gets the test files to load once mocha is set up (test/web/index.ts).
  const contents = [
    "const suite = require('./index');",
    'exports.run = () => suite.run(() => {',
    ...files.map((f) => `  require(${JSON.stringify(`../integration/shared/${f}`)});`),
    '});',
  ].join('\n');
  const outfile = path.join(repo, 'out', 'test', 'web', 'suite.js');
  await esbuild.build({
    stdin: { contents, resolveDir: path.join(repo, 'test', 'web'), sourcefile: 'suite-entry.js', loader: 'js' },
    outfile,
    bundle: true,
    platform: 'browser',
    format: 'cjs',
    target: 'es2022',
    external: ['vscode'],
    alias: { 'node:assert': 'assert' },
    define: {
      'process.env.NODE_DEBUG': 'false',
      'process.emitWarning': 'undefined',
      'process.stderr': 'undefined',
    },
    sourcemap: 'inline',
    logLevel: 'silent',
  });
  return outfile;
}
