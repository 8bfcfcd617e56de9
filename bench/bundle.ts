// Figure 3 (size): each extension bundle as packaging builds it, for the Node extension host
// (dist/extension.js) and the browser's (dist/web/extension.js), against the 250 KB budget. The
// browser's host loads one file, so its bundle also holds what the Node host loads on first use
// (dist/similarity.js: Find Refactorings for This Code's finder, the similarity engine and the
// parser; dist/agents.js: the language model tools' answers): its budget is the 250 KB plus those
// files. It runs
// the build itself (esbuild.config.mjs --minify) into a folder of its own, so the figure is the
// packaged bundle's size and the bench never rewrites dist/ under a test run that may be using it.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { figure, type Figure } from './measure';

const REPO = path.resolve(__dirname, '../..');
const BUDGET_BYTES = 250 * 1000;

const BUNDLES = [
  { name: 'bundle.node', outfile: 'extension.js', withLazy: false },
  { name: 'bundle.web', outfile: 'web/extension.js', withLazy: true },
];
/** What the Node host loads only when first used, with the figure of each; the browser's bundle holds them. */
const LAZY = [
  { name: 'bundle.similarity', outfile: 'similarity.js', what: 'Find Refactorings for This Code' },
  { name: 'bundle.agents', outfile: 'agents.js', what: 'a language model tool' },
];

export async function bundleFigures(): Promise<Figure[]> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'refactor-browser-bundle-'));
  try {
    execFileSync(process.execPath, ['esbuild.config.mjs', '--minify', '--out', out], { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'], timeout: 120_000 });
    const lazy = LAZY.map((l) => fs.statSync(path.join(out, l.outfile)).size);
    const lazyTotal = lazy.reduce((a, b) => a + b, 0);
    return [
      ...BUNDLES.map((bundle) => figure(
        {
          name: bundle.name, goal: 1, unit: 'bytes',
          note: `dist/${bundle.outfile} minified; baseline the 250 KB budget${bundle.withLazy ? ` plus ${LAZY.map((l) => `dist/${l.outfile}`).join(' and ')}, which this host cannot load apart` : ''} (the sample catalog ships beside it as dist/sample-catalog.json)`,
        },
        fs.statSync(path.join(out, bundle.outfile)).size,
        BUDGET_BYTES + (bundle.withLazy ? lazyTotal : 0),
      )),
      ...LAZY.map((l, i) => figure({ name: l.name, goal: null, unit: 'bytes', note: `dist/${l.outfile} minified, loaded by the Node host on the first use of ${l.what}; baseline the 250 KB budget` }, lazy[i], BUDGET_BYTES)),
    ];
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}
