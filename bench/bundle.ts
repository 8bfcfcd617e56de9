// Figure 3 (size): each extension bundle as packaging builds it, for the Node extension host
// (dist/extension.js) and the browser's (dist/web/extension.js), against the 250 KB budget. The
// browser's host loads one file, so its bundle also holds what the Node host loads on first use of
// Find Refactorings for This Code (dist/similarity.js: the finder, the similarity engine and the
// parser): its budget is the 250 KB plus that file. It runs
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
/** What the Node host loads only when similarity is first used; the browser's bundle holds it. */
const LAZY = 'similarity.js';

export async function bundleFigures(): Promise<Figure[]> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'refactor-browser-bundle-'));
  try {
    execFileSync(process.execPath, ['esbuild.config.mjs', '--minify', '--out', out], { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'], timeout: 120_000 });
    const lazy = fs.statSync(path.join(out, LAZY)).size;
    return [
      ...BUNDLES.map((bundle) => figure(
        {
          name: bundle.name, goal: 1, unit: 'bytes',
          note: `dist/${bundle.outfile} minified; baseline the 250 KB budget${bundle.withLazy ? ` plus dist/${LAZY}, which this host cannot load apart` : ''} (the sample catalog ships beside it as dist/sample-catalog.json)`,
        },
        fs.statSync(path.join(out, bundle.outfile)).size,
        BUDGET_BYTES + (bundle.withLazy ? lazy : 0),
      )),
      figure({ name: 'bundle.similarity', goal: null, unit: 'bytes', note: `dist/${LAZY} minified, loaded by the Node host on first use; baseline the 250 KB budget` }, lazy, BUDGET_BYTES),
    ];
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}
