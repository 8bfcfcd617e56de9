// Bundles the CLI (and, once it exists, the extension) with esbuild.
// `node esbuild.config.mjs` builds once; `--watch` rebuilds on change; `--minify` for packaging.
import * as esbuild from 'esbuild';
import { existsSync } from 'node:fs';

const watch = process.argv.includes('--watch');
const minify = process.argv.includes('--minify');

/** @type {esbuild.BuildOptions[]} */
const builds = [
  {
    entryPoints: ['src/cli.ts'],
    outfile: 'dist/cli.js',
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    bundle: true,
    banner: { js: '#!/usr/bin/env node' },
  },
  // The code view's webview script: runs in the webview (a browser), not in the extension host.
  {
    entryPoints: ['src/webview/main.ts'],
    outfile: 'dist/webview.js',
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
    bundle: true,
  },
];
if (existsSync('src/extension.ts')) {
  builds.push({
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    bundle: true,
    external: ['vscode'],
  });
}

const common = { sourcemap: !minify, minify, logLevel: 'warning', legalComments: 'none' };
if (watch) {
  for (const b of builds) (await esbuild.context({ ...common, ...b })).watch();
} else {
  await Promise.all(builds.map((b) => esbuild.build({ ...common, ...b })));
}
